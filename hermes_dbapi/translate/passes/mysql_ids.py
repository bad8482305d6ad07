"""MySQL/MariaDB: a row that an upsert updates (or OR IGNORE skips) keeps SQLite's next id.

InnoDB draws an AUTO_INCREMENT value for every row of ``INSERT … ON DUPLICATE
KEY UPDATE`` before it meets the duplicate, and never gives it back: after an
upsert that updated, the next plain INSERT gets ``max + 2`` where SQLite gives
``max + 1`` (and only ``ALTER TABLE``, which commits, can set the counter
back).  A row that carries an explicit id draws nothing.  So the one-row
INSERT (a multi-row one runs row by row, see ``upsert_rows.py``) becomes::

    INSERT INTO t (k, n, id) SELECT _hdb_c0, _hdb_c1,
        (SELECT _hdb_probe.id FROM t AS _hdb_probe WHERE _hdb_probe.k = _hdb_c0)
    FROM (VALUES (?, ?)) AS _hdb_ignore(_hdb_c0, _hdb_c1) ON DUPLICATE KEY UPDATE …

A row that meets an existing one on the conflict key carries that row's id
(a duplicate anyway, under the table's own collation); a new row carries NULL,
which draws exactly one value, as SQLite's ``max + 1``.  Only the rowid
column's own values are touched, and only when the INSERT does not list it.
Not for AUTOINCREMENT tables: SQLite burns an id per conflicting row there too.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import HIDDEN_ROWID, Context
from .ignore_rows import ALIAS, derived_rows, key_match

TARGET = "mysql_conflict_target"  # ctx.facts: the upsert's key columns; None for "any unique key"
_ALIAS = ALIAS
_PROBE = "_hdb_probe"


def existing_ids(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql or not isinstance(tree, exp.Insert) or TARGET not in ctx.facts:
        return tree
    conflict = tree.args.get("conflict")
    if not isinstance(conflict, exp.OnConflict) or not conflict.args.get("duplicate"):
        return tree
    ctx.schema_dependent = True  # what follows reads the catalog
    found = _column_list(tree, ctx)
    if found is None:
        return tree
    table, columns = found
    rowid = ctx.schema.rowid_column(table) or (HIDDEN_ROWID if ctx.schema.implicit_rowid(table) else None)
    listed = [name.lower() for name in columns]
    if rowid is None or rowid.lower() in listed or _autoincrement(ctx, table):
        return tree  # SQLite's AUTOINCREMENT burns an id per conflicting row too, as InnoDB does
    slots = {name: exp.column(f"_hdb_c{i}", table=_ALIAS) for i, name in enumerate(listed)}
    probes = [_probe(table, rowid, key, slots) for key in _keys(ctx, table, rowid)]
    probes = [p for p in probes if p is not None]
    select = _one_row_select(tree.expression, len(listed)) if probes else None
    if select is None:
        return tree
    lookup = probes[0] if len(probes) == 1 else exp.func("coalesce", *probes)
    select.set("expressions", [slots[name].copy() for name in listed] + [lookup])
    if not isinstance(tree.this, exp.Schema):
        tree.set("this", exp.Schema(this=tree.this, expressions=[exp.to_identifier(c, quoted=True) for c in columns]))
    tree.this.append("expressions", exp.to_identifier(rowid, quoted=rowid == HIDDEN_ROWID or None))
    return tree


def _column_list(tree: exp.Insert, ctx: Context) -> tuple[str, list[str]] | None:
    """The table and the INSERT's columns; for a table with a hidden rowid and no
    column list, its visible columns."""
    target = tree.this
    if isinstance(target, exp.Schema):
        return (target.this.name, [e.name for e in target.expressions]) if isinstance(target.this, exp.Table) else None
    if not isinstance(target, exp.Table) or not ctx.schema.implicit_rowid(target.name):
        return None  # without a list, the values name a rowid alias themselves
    columns = [name for name, _declared, _keyed in ctx.schema.columns(target.name)]
    return (target.name, columns) if columns else None


def _autoincrement(ctx: Context, table: str) -> bool:
    known = getattr(ctx.schema, "autoincrement", None)  # catalog/shadow.py; absent: no catalog to ask
    return bool(known and known(table))


def _one_row_select(source: exp.Expression | None, width: int) -> exp.Select | None:
    """The ``SELECT * FROM (VALUES (…)) AS _hdb_ignore(…)`` of a one-row INSERT (made here if need be)."""
    if isinstance(source, exp.Values):
        if len(source.expressions) != 1 or len(source.expressions[0].expressions) != width:
            return None
        select = exp.select("*").from_(derived_rows(source))
        source.replace(select)
        return select
    if isinstance(source, exp.Select) and isinstance(source.args.get("from_"), exp.From):
        values = source.args["from_"].this
        if isinstance(values, exp.Values) and values.alias == _ALIAS and len(values.expressions) == 1 \
                and [type(e) for e in source.expressions] == [exp.Star]:
            return source
    return None


def _keys(ctx: Context, table: str, rowid: str) -> list[list[str]]:
    """The key columns a conflicting row is found by: the upsert's target, else every plain unique key."""
    wanted = ctx.facts.get(TARGET)
    if wanted:
        return [list(wanted)]
    from .conflicts import unique_keys

    return [cols for cols, predicate, _pk in unique_keys(ctx, table)
            if predicate is None and cols and all(c is not None for c in cols) and cols != [rowid]]


def _probe(table: str, rowid: str, key: list[str], slots: dict[str, exp.Expression]) -> exp.Expression | None:
    match = key_match(_PROBE, key, slots)
    if match is None:
        return None  # a key column the INSERT leaves to its default: not looked up
    probe = (exp.select(exp.column(rowid, table=_PROBE, quoted=True))
             .from_(exp.alias_(exp.to_table(table, quoted=True), _PROBE, table=True))
             .where(match))
    return exp.Subquery(this=probe)
