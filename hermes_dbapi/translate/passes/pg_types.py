"""PostgreSQL only: untyped parameters and boolean results.

* psycopg binds server-side: a parameter whose type PG cannot infer (``? IS
  NULL``, ``SELECT ?`` with None, ``? || ?``) fails with "could not determine
  data type of parameter".  Where only NULL-ness or text matters we add a cast:
  the operand of ``IS [NOT] NULL`` and of ``||``.
* A comparison in the select list returns ``bool`` on PG; SQLite returns 0/1,
  so top-level predicate projections are cast to INTEGER.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context

_PREDICATES = (
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Is, exp.Like, exp.ILike, exp.Escape, exp.In,
    exp.Between, exp.Exists, exp.And, exp.Or, exp.Not, exp.NullSafeEQ, exp.NullSafeNEQ,
)


def _is_null_check(node: exp.Expression) -> bool:
    return isinstance(node, exp.Is) and isinstance(node.expression, exp.Null)


def untyped_params(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return tree
    for ph in list(tree.find_all(exp.Placeholder)):
        parent = ph.parent
        if (_is_null_check(parent) and parent.this is ph) or isinstance(parent, exp.DPipe):
            ph.replace(exp.Cast(this=ph.copy(), to=exp.DataType.build("TEXT")))
    return tree


def bool_results(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return tree
    for select in list(tree.find_all(exp.Select)):
        for item in list(select.expressions):
            target = item.this if isinstance(item, exp.Alias) else item
            if isinstance(target, exp.Paren):
                inner = target.this
            else:
                inner = target
            if isinstance(inner, _PREDICATES):
                target.replace(exp.Cast(this=target.copy(), to=exp.DataType.build("INT")))
    return tree
