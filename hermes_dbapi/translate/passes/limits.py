"""LIMIT as SQLite reads it: a negative limit means no limit at all, a negative
offset means none.  Literals are rewritten here; a bound parameter (``LIMIT ?
OFFSET ?`` with -1, Hermes' "no limit") can only be fixed once its value is
known, so the pass records it in ``ctx.facts["bound_rules"]`` and binding clamps it."""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ..params import marker_index

_MYSQL_NO_LIMIT = "18446744073709551615"


def _negative_literal(node: exp.Expression) -> bool:
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return True
    return isinstance(node, exp.Literal) and not node.is_string and node.this.startswith("-")


def sqlite_limits(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for offset in list(tree.find_all(exp.Offset)):
        if offset.expression is not None and _negative_literal(offset.expression):
            offset.pop()  # both servers refuse a negative OFFSET; SQLite skips no row
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


def bound_limits(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """Record the SQLite parameter indexes used directly as LIMIT or OFFSET."""
    rules: dict[int, str] = {}
    for node in tree.find_all(exp.Limit, exp.Offset):
        value = node.expression
        if ctx.is_mysql and value is not None and value.find(exp.Query) is not None:
            raise errors.not_supported("LIMIT/OFFSET of a sub-SELECT", ctx.dialect)  # a syntax error there
        if isinstance(value, exp.Placeholder):
            index = marker_index(value.name)
            if index is not None:
                rules[index] = "limit" if isinstance(node, exp.Limit) else "offset"
    if rules:
        ctx.facts.setdefault("bound_rules", {}).update(rules)
    return tree


def limited_in_subqueries(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """MariaDB/MySQL refuse LIMIT in an ``IN``/``ANY``/``ALL`` subquery; one more
    derived table around it is accepted and means the same."""
    if not ctx.is_mysql:
        return tree
    for n, node in enumerate(list(tree.find_all(exp.In, exp.Any, exp.All))):
        sub = node.args.get("query") if isinstance(node, exp.In) else node.this
        inner = sub.this if isinstance(sub, exp.Subquery) else sub
        if not isinstance(inner, exp.Query) or inner.args.get("limit") is None:
            continue
        derived = exp.Subquery(this=inner.copy(), alias=exp.TableAlias(this=exp.to_identifier(f"_hdb_l{n}")))
        wrapped = exp.select("*").from_(derived)
        sub.replace(exp.Subquery(this=wrapped) if isinstance(sub, exp.Subquery) else wrapped)
    return tree
