"""LIMIT as SQLite reads it: a negative limit means no limit at all."""

from __future__ import annotations

from sqlglot import exp

from ..context import Context

_MYSQL_NO_LIMIT = "18446744073709551615"


def _negative_literal(node: exp.Expression) -> bool:
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return True
    return isinstance(node, exp.Literal) and not node.is_string and node.this.startswith("-")


def sqlite_limits(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for limit in list(tree.find_all(exp.Limit)):
        value = limit.expression
        if value is None or not _negative_literal(value):
            continue
        parent = limit.parent
        if ctx.is_mysql and parent is not None and parent.args.get("offset") is not None:
            limit.set("expression", exp.Literal.number(_MYSQL_NO_LIMIT))
        else:
            limit.pop()
    return tree
