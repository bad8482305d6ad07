"""PostgreSQL only: untyped parameters.

* psycopg binds server-side: a parameter whose type PG cannot infer (``? IS
  NULL``, ``SELECT ?`` with None, ``? || ?``) fails with "could not determine
  data type of parameter".  Where only NULL-ness or text matters we add a cast:
  the operand of ``IS [NOT] NULL`` and of ``||``.
(Predicates used as values, e.g. projected, are passes/booleans.py's job.)
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context



def _is_null_check(node: exp.Expression) -> bool:
    return isinstance(node, exp.Is) and isinstance(node.expression, exp.Null)


def untyped_params(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return tree
    for pipe in list(tree.find_all(exp.DPipe)):  # SQLite's || converts numbers to text; PG has no int || int
        for key in ("this", "expression"):
            side = pipe.args.get(key)
            if isinstance(side, exp.Literal) and not side.is_string or isinstance(side, (exp.Column, exp.Neg)):
                side.replace(exp.Cast(this=side.copy(), to=exp.DataType.build("TEXT")))
    for ph in list(tree.find_all(exp.Placeholder)):
        parent = ph.parent
        if (_is_null_check(parent) and parent.this is ph) or isinstance(parent, exp.DPipe):
            ph.replace(exp.Cast(this=ph.copy(), to=exp.DataType.build("TEXT")))
    return tree
