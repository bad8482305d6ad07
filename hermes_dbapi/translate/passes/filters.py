"""Aggregate ``FILTER (WHERE …)``: ``agg(x) FILTER (WHERE c)`` is ``agg(CASE WHEN c THEN x END)``.

MariaDB has no FILTER clause; PostgreSQL has one, but sqlglot writes it after
OVER in a window, and the bare-column check read its columns as bare.  An
aggregate skips NULLs, so the CASE form gives the same result: ``count(*)``
counts ``CASE WHEN c THEN 1 END``, a DISTINCT stays on the argument, and
``group_concat``'s separator is left as it is.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context


def _when(cond: exp.Expression, value: exp.Expression) -> exp.Expression:
    return exp.Case(ifs=[exp.If(this=cond.copy(), true=value)])


def _filtered(agg: exp.Expression, cond: exp.Expression, dialect: str) -> exp.Expression:
    arg = agg.this if "this" in agg.arg_types else None
    if isinstance(arg, exp.Star):
        agg.set("this", _when(cond, exp.Literal.number(1)))
    elif isinstance(arg, exp.Distinct):
        arg.set("expressions", [_when(cond, e.copy()) for e in arg.expressions])
    elif isinstance(arg, exp.Expression):
        agg.set("this", _when(cond, arg.copy()))
    elif isinstance(agg, exp.Anonymous) and agg.expressions:  # total(x), json_group_array(x), ...
        agg.set("expressions", [_when(cond, agg.expressions[0].copy()), *agg.expressions[1:]])
    else:
        raise errors.not_supported(f"FILTER on {agg.sql(dialect='sqlite')}", dialect)
    return agg


def aggregate_filters(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(exp.Filter)):
        where = node.expression
        cond = where.this if isinstance(where, exp.Where) else where
        node.replace(_filtered(node.this, cond, ctx.dialect))
    return tree
