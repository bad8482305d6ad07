"""``INSERT OR IGNORE … VALUES``: drop the rows SQLite would skip for NOT NULL or CHECK.

SQLite's OR IGNORE skips a row that breaks NOT NULL or a CHECK, not only one
that hits a unique key.  The servers' words for OR IGNORE (ON CONFLICT DO
NOTHING, ON DUPLICATE KEY UPDATE) cover unique keys only, and MariaDB's
INSERT IGNORE would store ``''`` for the NULL (a silent data change).  So the
VALUES rows go through a filter first::

    INSERT INTO t (a, b) SELECT * FROM (VALUES …) AS _hdb_ignore(_hdb_c0, _hdb_c1)
    WHERE _hdb_c0 IS NOT NULL AND ifnull(<check with a→_hdb_c0, b→_hdb_c1>, 1)

written in SQLite terms so the later passes translate it.  Columns the INSERT
does not list take their declared DEFAULT in the filter (NULL without one).  A
CHECK whose default is not a plain expression, or that names the rowid, is
left to the server (an error then: loud, never silent).
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from ..context import Context

ALIAS = "_hdb_ignore"


def _table_facts(ctx: Context, table: str) -> tuple[list[tuple[str, bool, str | None]], list[exp.Expression], str | None]:
    """(name, NOT NULL, default SQL) per column, CHECK expressions, rowid alias."""
    db = getattr(ctx.schema, "db", None)
    lock = getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return [], [], None
    with lock:
        try:
            info = db.execute("SELECT name, \"notnull\", dflt_value FROM pragma_table_info(?)", (table,)).fetchall()
            row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        except Exception:  # noqa: BLE001 - no facts: no filter, the server decides
            return [], [], None
    columns = [(name, bool(notnull), default) for name, notnull, default in info]
    checks: list[exp.Expression] = []
    if row and row[0]:
        try:
            create = sqlglot.parse_one(row[0], read="sqlite")
        except Exception:  # noqa: BLE001
            create = None
        if create is not None:
            for check in create.find_all(exp.CheckColumnConstraint):
                if check.this is not None:
                    checks.append(check.this)
    return columns, checks, ctx.schema.rowid_column(table)


def filter_rows(insert: exp.Insert, ctx: Context, keys: list | None = None) -> None:
    """Rewrite ``insert``'s VALUES into a SELECT keeping only the rows SQLite inserts.

    ``keys`` (PostgreSQL): the table's unique keys, ``(columns, predicate, pk)``;
    a row that meets an existing row on one is dropped here too, before it can
    use up a value of the identity sequence (SQLite's next id stays max + 1).
    ON CONFLICT DO NOTHING still catches the rest (rows racing in, or
    duplicates within the statement)."""
    values = insert.expression
    target = insert.this
    if not isinstance(values, exp.Values) or not isinstance(target, (exp.Schema, exp.Table)):
        return
    table = target.this if isinstance(target, exp.Schema) else target
    if not isinstance(table, exp.Table):
        return
    columns, checks, rowid = _table_facts(ctx, table.name)
    if not columns:
        return
    ctx.schema_dependent = True
    listed = [e.name for e in target.expressions] if isinstance(target, exp.Schema) else [c[0] for c in columns]
    if not values.expressions or any(len(row.expressions) != len(listed) for row in values.expressions):
        return  # SQLite's own error for a wrong value count comes from the server unchanged
    slot = {name.lower(): exp.column(f"_hdb_c{i}") for i, name in enumerate(listed)}
    defaults: dict[str, exp.Expression] = {}
    for name, _notnull, default in columns:
        if name.lower() in slot:
            continue
        try:
            defaults[name.lower()] = sqlglot.parse_one(default, read="sqlite") if default else exp.Null()
        except Exception:  # noqa: BLE001
            defaults[name.lower()] = None  # type: ignore[assignment]
    conditions: list[exp.Expression] = []
    for name, notnull, _default in columns:
        if not notnull or (rowid is not None and name.lower() == rowid.lower()):
            continue  # a NULL rowid alias is "make a new id", not a NOT NULL failure
        value = slot.get(name.lower()) or defaults.get(name.lower())
        if value is None or _never_null(values, listed, name) or _is_value(value):
            continue
        conditions.append(exp.Not(this=exp.Is(this=value.copy(), expression=exp.Null())))
    for check in checks:
        condition = _bind_columns(check, slot, defaults, rowid)
        if condition is not None and not _holds(condition, ctx):
            conditions.append(exp.func("ifnull", exp.paren(condition, copy=False), exp.Literal.number(1)))
    for key_columns, predicate, _pk in keys or []:
        absent = _not_existing(table, key_columns, predicate, slot, defaults)
        if absent is not None:
            conditions.append(absent)
    if not conditions:
        return
    rows = derived_rows(values) if ctx.is_mysql else typed_rows(values, table.name, listed)
    insert.set("expression", exp.select("*").from_(rows).where(exp.and_(*conditions)))


def _alias(width: int, name: str = ALIAS) -> exp.TableAlias:
    names = [exp.to_identifier(f"_hdb_c{i}") for i in range(width)]
    return exp.TableAlias(this=exp.to_identifier(name), columns=names)


def derived_rows(values: exp.Values) -> exp.Values:
    """A copy of ``values`` as the derived table ``_hdb_ignore(_hdb_c0, _hdb_c1, …)``."""
    derived = values.copy()
    derived.set("alias", _alias(len(values.expressions[0].expressions)))
    return derived


def typed_rows(values: exp.Values, table: str, columns: list[str], alias: str = ALIAS) -> exp.Subquery:
    """``values`` as the derived table ``_hdb_ignore(…)`` (or ``alias``) whose columns have the types of
    ``table``'s ``columns`` (PostgreSQL: in a VALUES list a NULL or a bound value is
    text, which an INTEGER column refuses): a SELECT per row after an empty one of
    the columns, ``(SELECT "a", "b" FROM t LIMIT 0) UNION ALL SELECT … UNION ALL …``."""
    typed: exp.Query = exp.select(*[exp.column(c, quoted=True) for c in columns]).from_(
        exp.to_table(table, quoted=True)).limit(0)
    for row in values.expressions:
        typed = exp.union(typed, exp.select(*[v.copy() for v in row.expressions]), distinct=False)
    return exp.Subquery(this=typed, alias=_alias(len(columns), alias))


def typed_row_values(derived: exp.Expression) -> list[list[exp.Expression]] | None:
    """The value expressions of each row of a :func:`typed_rows` table; None for any other."""
    if not isinstance(derived, exp.Subquery) or derived.alias != ALIAS:
        return None
    rows: list[list[exp.Expression]] = []
    node = derived.this
    while isinstance(node, exp.Union):
        rows.append(list(node.expression.expressions))
        node = node.this
    return rows[::-1]


def key_match(qualifier: str, columns: list, slot: dict[str, exp.Expression]) -> exp.Expression | None:
    """``qualifier.k = <row's k> AND …`` for a key's columns; None when the row leaves
    one of them to its default (not known here)."""
    matches: list[exp.Expression] = []
    for name in columns:
        value = slot.get(name.lower())
        if value is None:
            return None
        matches.append(exp.EQ(this=exp.column(name, table=qualifier, quoted=True), expression=value.copy()))
    return exp.and_(*matches)


def _is_value(value: exp.Expression) -> bool:
    """A non-NULL literal (a default such as ``0``, ``'x'`` or ``-1``)."""
    if isinstance(value, exp.Neg):
        value = value.this
    return isinstance(value, exp.Literal)


def _holds(condition: exp.Expression, ctx: Context) -> bool:
    """True for a condition on defaults only that SQLite finds true or NULL (no filter needed)."""
    if any(c.name.startswith("_hdb_c") for c in condition.find_all(exp.Column)):
        return False
    try:
        with ctx.schema.lock:
            row = ctx.schema.db.execute("SELECT " + condition.sql("sqlite")).fetchone()
    except Exception:  # noqa: BLE001 - e.g. a non-deterministic default: keep the filter
        return False
    return row[0] is None or bool(row[0])


def _never_null(values: exp.Values, listed: list[str], name: str) -> bool:
    """True when every row gives column ``name`` a non-NULL literal."""
    lowered = [n.lower() for n in listed]
    if name.lower() not in lowered:
        return False
    at = lowered.index(name.lower())
    return all(_is_value(row.expressions[at]) for row in values.expressions)


def _not_existing(
    table: exp.Table, columns: list, predicate: object, slot: dict[str, exp.Expression], defaults: dict[str, exp.Expression]
) -> exp.Expression | None:
    """``NOT EXISTS (SELECT 1 FROM t WHERE t.k = <row's k> …)`` for one plain unique key."""
    if predicate is not None or not columns or any(c is None for c in columns):
        return None  # partial or expression keys: left to ON CONFLICT
    match = key_match(table.name, columns, slot)
    if match is None:
        return None  # an unlisted key column: its default or a new id, left to ON CONFLICT
    probe = exp.select("1").from_(exp.to_table(table.name, quoted=True)).where(match)
    return exp.Not(this=exp.Exists(this=probe))


def _bind_columns(
    check: exp.Expression, slot: dict[str, exp.Expression], defaults: dict[str, exp.Expression], rowid: str | None
) -> exp.Expression | None:
    """The CHECK with each column replaced by its value slot or default; None if it cannot be."""
    condition = check.copy()
    for column in list(condition.find_all(exp.Column)):
        name = column.name.lower()
        if rowid is not None and name in (rowid.lower(), "rowid", "oid", "_rowid_"):
            return None
        value = slot.get(name) or defaults.get(name)
        if value is None:
            return None
        if column is condition:
            return value.copy()
        column.replace(value.copy())
    return condition
