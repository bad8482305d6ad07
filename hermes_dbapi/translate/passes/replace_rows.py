"""PostgreSQL ``INSERT OR REPLACE`` where one ON CONFLICT arbiter cannot say it.

SQLite's REPLACE takes the new rows in order; each deletes every row it meets
on any unique key (the table's, and new rows before it), then is inserted.
``ON CONFLICT (<key>) DO UPDATE`` covers one key and fails on a second row
meeting the same one ("cannot affect row a second time"): the table rebuild
that dedups with ``INSERT OR REPLACE … SELECT … ORDER BY`` broke on it.  So,
for a SELECT source or a table with several unique keys, one statement::

    WITH _hdb_src AS (SELECT s.*, row_number() OVER () AS _hdb_n
                      FROM (<rows>) AS s(_hdb_c0, …)),  -- VALUES: a SELECT per row, after SELECT <t's columns> LIMIT 0
         _hdb_gone AS (DELETE FROM t WHERE EXISTS (SELECT 1 FROM _hdb_src
                       WHERE <t meets the row on a key>) RETURNING 1)
    INSERT INTO t (…) SELECT … FROM _hdb_src AS _hdb_new
    WHERE NOT EXISTS (<a later row meets it on a key>)
      AND (SELECT count(*) FROM _hdb_gone) >= 0  -- the DELETE runs first
    ORDER BY _hdb_new._hdb_n

A new row survives unless a later one meets it; an existing row goes when any
new row meets it.  Rows meet on a key when every column is equal (NULLs never
are) and, for a partial index, both satisfy its WHERE.  A key column the
INSERT leaves to its default is not compared (the server's unique index then
raises, loud); an unlisted rowid is a new id and meets nothing.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from .ignore_rows import typed_rows
from .insert_defaults import or_next_id

_SRC, _GONE, _NEW, _LATER, _ROWS, _ORDER = "_hdb_src", "_hdb_gone", "_hdb_new", "_hdb_later", "_hdb_s", "_hdb_n"


def _slot(i: int, qualifier: str) -> exp.Column:
    return exp.column(f"_hdb_c{i}", table=qualifier)


def _meets(keys: list, slots: dict[str, int], left: str, right: str | None, table: str,
           collations: dict[str, str]) -> exp.Expression | None:
    """``left`` meets ``right`` on some key (``right`` None: the table's own row ``table``),
    a column declared NOCASE/RTRIM compared by its collation."""
    either: list[exp.Expression] = []
    for columns, predicate, _pk in keys:
        if not columns or any(c is None or c.lower() not in slots for c in columns):
            continue
        both: list[exp.Expression] = []
        for c in columns:
            other = exp.column(c, table=table, quoted=True) if right is None else _slot(slots[c.lower()], right)
            mine: exp.Expression = _slot(slots[c.lower()], left)
            collation = collations.get(c.lower())
            if collation:
                mine = exp.Collate(this=mine, expression=exp.Var(this=collation))
            both.append(exp.EQ(this=mine, expression=other))
        if predicate is not None:
            for side in (left, right):
                bound = _bound(predicate, slots, side, table)
                if bound is None:
                    return None  # a partial index on an unlisted column: not known here
                both.append(exp.paren(bound, copy=False))
        either.append(exp.and_(*both))
    return exp.or_(*either) if either else None


def _bound(predicate: exp.Expression, slots: dict[str, int], side: str | None, table: str) -> exp.Expression | None:
    """The index's WHERE on one side: a new row's slots, or (None) the table's row."""
    bound = predicate.copy()
    for column in list(bound.find_all(exp.Column)):
        name = column.name.lower()
        if side is None:
            new: exp.Expression = exp.column(column.name, table=table, quoted=True)
        elif name in slots:
            new = _slot(slots[name], side)
        else:
            return None
        if column is bound:
            return new
        column.replace(new)
    return bound


def rewrite(insert: exp.Insert, ctx: Context, table: str, names: list[str], keys: list) -> exp.Expression | None:
    """``insert`` (its rows in ``names`` order) as the statement above, or None to keep
    the ON CONFLICT form."""
    source = insert.expression
    if not isinstance(source, (exp.Values, exp.Select, exp.Union)) or insert.args.get("with_"):
        return None
    source_rows = source.expressions if isinstance(source, exp.Values) else []
    if any(not isinstance(row, exp.Tuple) or len(row.expressions) != len(names) for row in source_rows):
        return None  # a wrong value count: SQLite's error comes from the server's own
    slots = {name.lower(): i for i, name in enumerate(names)}
    getter = getattr(ctx.schema, "collations", None)
    collations = getter(table) if getter is not None else {}
    exists_gone = _meets(keys, slots, _SRC, None, table, collations)
    later = _meets(keys, slots, _LATER, _NEW, table, collations)
    if exists_gone is None or later is None:
        return None
    width = len(names)
    if isinstance(source, exp.Values):  # typed by the table's columns (a VALUES list makes a bound NULL text)
        rows = typed_rows(source, table, names, _ROWS)
    else:
        columns = [exp.to_identifier(f"_hdb_c{i}") for i in range(width)]
        rows = exp.Subquery(this=source.copy(), alias=exp.TableAlias(this=exp.to_identifier(_ROWS), columns=columns))
    drawn: list[exp.Expression] = [_slot(i, _ROWS) for i in range(width)]
    rowid = ctx.schema.rowid_column(table)
    if rowid is not None and rowid.lower() in slots:  # a NULL id: the next one, drawn in order as SQLite does
        at = slots[rowid.lower()]
        drawn[at] = exp.alias_(or_next_id(drawn[at], table, rowid), f"_hdb_c{at}")
        ctx.facts["rowid_coalesced"] = True
    numbered = exp.select(*drawn, exp.alias_(exp.Window(this=exp.RowNumber()), _ORDER)).from_(rows)
    probe = exp.select("1").from_(_SRC).where(exists_gone)
    delete = exp.Delete(this=exp.to_table(table, quoted=True), where=exp.Where(this=exp.Exists(this=probe)),
                        returning=exp.Returning(expressions=[exp.Literal.number(1)]))
    newer = exp.select("1").from_(exp.alias_(exp.to_table(_SRC), _LATER, table=True)).where(
        exp.and_(exp.GT(this=exp.column(_ORDER, table=_LATER), expression=exp.column(_ORDER, table=_NEW)), later))
    first = exp.GTE(this=exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(_GONE)),
                    expression=exp.Literal.number(0))
    select = (exp.select(*[_slot(i, _NEW) for i in range(width)]).from_(exp.alias_(exp.to_table(_SRC), _NEW, table=True))
              .where(exp.and_(exp.Not(this=exp.Exists(this=newer)), first))
              .order_by(exp.column(_ORDER, table=_NEW)))
    insert.set("with_", exp.With(expressions=[  # a DELETE in WITH must be the statement's own
        exp.CTE(this=numbered, alias=exp.TableAlias(this=exp.to_identifier(_SRC))),
        exp.CTE(this=delete, alias=exp.TableAlias(this=exp.to_identifier(_GONE))),
    ]))
    target = exp.Schema(this=exp.to_table(table), expressions=[exp.to_identifier(n) for n in names])
    insert.set("this", target)
    insert.set("expression", select)
    return insert
