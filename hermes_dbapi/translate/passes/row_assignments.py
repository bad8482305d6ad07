"""``UPDATE … SET (a, b) = (x, y)``: SQLite's row-value assignment, one column at a time.

``(a) = (x)`` becomes ``a = x`` (PostgreSQL wants ROW() or a sub-SELECT after
one parenthesized column; MariaDB has no row assignment at all), ``(a, b) =
(x, y)`` becomes ``a = x, b = y`` (both servers' UPDATE reads the old row, as
SQLite does).  ``(a, b) = (SELECT x, y …)`` stays as it is on PostgreSQL and
becomes one scalar sub-SELECT per column on MariaDB (same FROM, WHERE, ORDER BY
and LIMIT).  Upserts' ``DO UPDATE SET`` alike.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context


def row_assignments(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(tree, exp.Update):
        split(tree, ctx.is_mysql, ctx.dialect)
    for conflict in tree.find_all(exp.OnConflict):
        split(conflict, ctx.is_mysql, ctx.dialect)
    return tree


def split(holder: exp.Expression, per_column_selects: bool = False, dialect: str = "") -> None:
    """Rewrite the row assignments of an UPDATE's (or a DO UPDATE's) SET list in place."""
    items = holder.expressions
    if not any(isinstance(e, exp.EQ) and isinstance(e.this, (exp.Tuple, exp.Paren)) for e in items):
        return
    out: list[exp.Expression] = []
    for item in items:
        left, right = item.this, item.expression
        if not isinstance(item, exp.EQ) or not isinstance(left, (exp.Tuple, exp.Paren)):
            out.append(item)
            continue
        columns = left.expressions if isinstance(left, exp.Tuple) else [left.this]
        if isinstance(right, exp.Paren) and len(columns) == 1:
            values: list[exp.Expression] | None = [right.this]
        elif isinstance(right, exp.Tuple) and len(right.expressions) == len(columns):
            values = right.expressions
        elif isinstance(right, exp.Subquery) and (len(columns) == 1 or per_column_selects):
            values = _per_column(right, len(columns))
            if values is None:
                raise errors.not_supported("a row assignment from this sub-SELECT", dialect or "server")
        else:
            out.append(item)  # a sub-SELECT PostgreSQL assigns itself, or SQLite's own error to come
            continue
        out.extend(exp.EQ(this=c.copy(), expression=v.copy()) for c, v in zip(columns, values))
    holder.set("expressions", out)


def _per_column(query: exp.Subquery, width: int) -> list[exp.Expression] | None:
    """One scalar sub-SELECT per column of ``query`` (None: not a plain SELECT of that width)."""
    select = query.this
    if width == 1:
        return [query]  # a scalar sub-SELECT (SQLite checks its width)
    if not isinstance(select, exp.Select) or select.args.get("distinct") or len(select.expressions) != width:
        return None
    out = []
    for projection in select.expressions:
        one = select.copy()
        one.set("expressions", [projection.copy()])
        out.append(exp.Subquery(this=one))
    return out


def assigned_columns(update: exp.Update) -> list[str]:
    """The lower-cased names of the columns an UPDATE's SET list assigns."""
    names = []
    for item in update.expressions:
        if not isinstance(item, exp.EQ):
            continue
        left = item.this
        targets = left.expressions if isinstance(left, exp.Tuple) else [left.this if isinstance(left, exp.Paren) else left]
        names.extend(t.name.lower() for t in targets)
    return names
