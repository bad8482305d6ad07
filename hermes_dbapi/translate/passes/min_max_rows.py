"""Bare columns next to one min() or max(): SQLite's values of the extreme row.

With exactly one min()/max() aggregate, SQLite takes a query's bare columns
(outside any aggregate, not grouped by) from the row holding that minimum or
maximum: the first such row, or the last row of a group whose values are all
NULL.  ``SELECT session_id, max(ts), content FROM m GROUP BY session_id`` is
the latest message of each session.  PostgreSQL refuses the bare column and
MariaDB takes it from the group's first row, a different answer, silently.

Over one table, each bare column becomes a sub-SELECT of that row (same WHERE,
same group, ordered as SQLite meets it).  Over a join, a bare column whose
table is grouped by its rowid key is left alone (one value per group: both
servers answer alike); any other bare column there is NotSupportedError.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ._build import qualifier
from ._walk import reached
from .column_names import own_name

_PICK = "hdb_pick"
_ROWID = ("rowid", "oid", "_rowid_")


def extreme_rows(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for select in list(tree.find_all(exp.Select)):
        _rewrite(select, ctx)
    return tree


def _own(node: exp.Expression, select: exp.Select) -> bool:
    """Whether ``node`` is evaluated by ``select`` itself (not a nested query or a window)."""
    return reached(node, select, (exp.Select, exp.Window, exp.Subquery))


def _parts(select: exp.Select) -> list[exp.Expression]:
    return [*select.expressions, *(select.args[k] for k in ("having", "order") if select.args.get(k) is not None)]


def _aggregates(select: exp.Select) -> list[exp.AggFunc]:
    return [a for part in _parts(select) for a in part.find_all(exp.AggFunc) if _own(a, select)]


def _in_aggregate(column: exp.Column, select: exp.Select) -> bool:
    return not reached(column, select, (exp.AggFunc, exp.Filter))  # FILTER (WHERE ...) belongs to its aggregate


def _rewrite(select: exp.Select, ctx: Context) -> None:
    aggregates = _aggregates(select)
    extremes = [a for a in aggregates if isinstance(a, (exp.Min, exp.Max)) and not a.expressions]
    if len(extremes) != 1:
        return
    group = select.args.get("group")
    keys = list(group.expressions) if group is not None else []
    grouped = _grouped(select, keys)
    named = _output_names(select)
    bare = _bare(select, grouped, named)
    if not bare:
        return
    table = _single_table(select)
    if table is None:
        if not all(_grouped_by_key(c, keys, select, ctx) for c in bare):
            raise errors.not_supported("a bare column next to min()/max() over several tables", ctx.dialect)
        return
    if (any(not isinstance(k, exp.Column) for k in keys) or extremes[0].find_ancestor(exp.Filter)
            or any(_own(w, select) for part in _parts(select) for w in part.find_all(exp.Window))):
        raise errors.not_supported("a bare column next to min()/max() grouped by an expression", ctx.dialect)
    if ctx.schema.relation_kind(table.name) != "table":
        raise errors.not_supported("a bare column next to min()/max() of a view or WITHOUT ROWID table", ctx.dialect)
    ctx.schema_dependent = True
    outer = qualifier(table)
    for position, item in enumerate(list(select.expressions)):
        if any(c is b for c in item.find_all(exp.Column) for b in bare) and not isinstance(item, exp.Alias):
            item.replace(exp.alias_(item.copy(), exp.to_identifier(own_name(item, position), quoted=True)))
    extreme = next(a for a in _aggregates(select) if isinstance(a, (exp.Min, exp.Max)) and not a.expressions)
    for column in _bare(select, grouped, named):  # the columns again: aliasing copied the items
        column.replace(_pick(column, table, outer, keys, extreme, select))


def _grouped(select: exp.Select, keys: list[exp.Expression]) -> set[str]:
    """The group's expressions as SQLite text (``GROUP BY 1`` and ``GROUP BY alias``: the
    result column's expression)."""
    items = select.expressions
    aliased = {e.alias.lower(): e.this for e in items if isinstance(e, exp.Alias)}
    out = set()
    for key in keys:
        if isinstance(key, exp.Literal) and key.is_int and 0 < int(key.this) <= len(items):
            item = items[int(key.this) - 1]
            key = item.this if isinstance(item, exp.Alias) else item
        elif isinstance(key, exp.Column) and not key.table and key.name.lower() in aliased:
            out.add(key.sql(dialect="sqlite"))  # a source column of that name, read first, is grouped too
            key = aliased[key.name.lower()]
        out.add(key.sql(dialect="sqlite"))
        if isinstance(key, exp.Column):  # x.g groups a bare g too (and g an x.g)
            out.add(key.name.lower())
    return out


def _bare(select: exp.Select, grouped: set[str], named: set[str]) -> list[exp.Column]:
    """The columns ``select`` reads per row outside any aggregate and any grouped
    expression, other than a name of a result column (``HAVING m > 2``, ``ORDER BY m``)."""
    return [c for part in _parts(select) for c in part.find_all(exp.Column)
            if _own(c, select) and not _in_aggregate(c, select) and not isinstance(c.this, exp.Star)
            and not (not c.table and c.name.lower() in named) and not _inside(c, select, grouped)]


def _inside(column: exp.Column, select: exp.Select, grouped: set[str]) -> bool:
    if column.name.lower() in grouped:
        return True
    node: exp.Expression | None = column
    while node is not None and node is not select:
        if node.sql(dialect="sqlite") in grouped:
            return True
        node = node.parent
    return False


def _output_names(select: exp.Select) -> set[str]:
    return {e.alias.lower() for e in select.expressions if isinstance(e, exp.Alias)}


def _single_table(select: exp.Select) -> exp.Table | None:
    source = select.args.get("from_") or select.args.get("from")
    if source is None or select.args.get("joins") or not isinstance(source.this, exp.Table):
        return None
    table = source.this
    return table if table.name and not table.args.get("db") else None


def _grouped_by_key(column: exp.Column, keys: list[exp.Expression], select: exp.Select, ctx: Context) -> bool:
    """Whether ``column``'s table is grouped by its rowid or a column unique by itself
    (one row of it per group)."""
    owner = column.table.lower()
    if not owner:
        return False
    source = None
    for table in select.find_all(exp.Table):
        if table.alias_or_name.lower() == owner:
            source = table
    if source is None:
        return False
    names = {name.lower() for name, width in ctx.schema.key_widths(source.name).items() if width == 1}
    names.update(_ROWID)
    return any(isinstance(k, exp.Column) and k.table.lower() == owner and k.name.lower() in names for k in keys)


def _inner(node: exp.Expression, outer: exp.Identifier) -> exp.Expression:
    """A copy of ``node`` reading the sub-SELECT's own row: columns named by the
    outer table's name read ``hdb_pick`` (unqualified ones already resolve there)."""
    copy = node.copy()
    for column in copy.find_all(exp.Column):
        if column.table.lower() == outer.name.lower():
            column.set("table", exp.to_identifier(_PICK))
    return copy


def _pick(column: exp.Column, table: exp.Table, outer: exp.Identifier, keys: list[exp.Expression], extreme: exp.Expression,
          select: exp.Select) -> exp.Expression:
    """``column`` of the row SQLite's min()/max() stops at, in the group being output."""
    arg = _inner(extreme.this, outer)
    matches = [exp.NullSafeEQ(this=_inner(k, outer).copy(), expression=_outer(k, outer)) for k in keys]
    where = select.args.get("where")
    if where is not None:
        matches.append(exp.Paren(this=_inner(where.this, outer)))
    rowid = exp.column("rowid", table=_PICK)
    missing = exp.Is(this=arg.copy(), expression=exp.Null())
    order = [
        exp.Ordered(this=missing.copy()),
        exp.Ordered(this=arg.copy(), desc=isinstance(extreme, exp.Max)),
        exp.Ordered(this=exp.Case(ifs=[exp.If(this=missing.copy(), true=exp.Neg(this=rowid.copy()))], default=rowid)),
    ]
    source = exp.Table(this=table.this.copy(), alias=exp.TableAlias(this=exp.to_identifier(_PICK)))
    query = exp.select(_inner(column, outer)).from_(source)
    if matches:
        query = query.where(exp.and_(*matches))
    query.set("order", exp.Order(expressions=order))
    query.set("limit", exp.Limit(expression=exp.Literal.number(1)))
    return exp.Subquery(this=query)


def _outer(key: exp.Expression, outer: exp.Identifier) -> exp.Expression:
    """The group's key as the outer query reads it (qualified: the sub-SELECT has its own)."""
    copy = key.copy()
    for column in ([copy] if isinstance(copy, exp.Column) else copy.find_all(exp.Column)):
        if not column.table:
            column.set("table", outer.copy())
    return copy
