"""INSERT OR IGNORE / OR REPLACE and upserts (``ON CONFLICT … DO …``).

SQLite semantics and what each backend can honour:

* ``OR IGNORE`` skips rows that violate any unique key, NOT NULL or CHECK.
  The rows breaking NOT NULL/CHECK are filtered out first (:mod:`.ignore_rows`).
  PG: ``ON CONFLICT DO NOTHING`` (no target: every unique key).  MySQL: not
  ``INSERT IGNORE``, which stores ``''`` for a NULL in a NOT NULL column, skips
  a FOREIGN KEY failure (SQLite raises) and clips bad values, but an ``ON
  DUPLICATE KEY UPDATE`` that leaves the row as it is and counts itself in
  ``@hermes_skipped`` (CLIENT_FOUND_ROWS counts such a row as affected; the
  backend subtracts the count, see ``backends/mysql.py``).  ``DO NOTHING``
  likewise.
* ``OR REPLACE`` deletes the conflicting row and inserts the new one, columns
  not listed taking their defaults.  MySQL: ``REPLACE`` (same delete+insert).
  PG: ``ON CONFLICT (<key>) DO UPDATE SET <every column> = EXCLUDED.<column>``;
  EXCLUDED already holds the defaults of unlisted columns.  PG takes one
  arbiter key and one row per key: with several unique keys, or rows from a
  SELECT (which may meet each other), a DELETE in WITH does SQLite's deletes
  first (:mod:`.replace_rows`).
* Upserts: PG keeps SQLite's syntax but rejects sqlglot's ``NULLS FIRST`` in the
  conflict target.  MySQL has ``ON DUPLICATE KEY UPDATE`` (target ignored: any
  unique key fires), ``excluded.c`` → ``VALUES(c)``, ``t.c`` → ``c``, and a
  ``WHERE`` becomes ``c = IF(cond, new, c)`` per assignment (``cond`` kept in
  ``@hermes_when`` by the first, so every one sees the old row's), the first one
  counting a false ``cond`` in ``@hermes_skipped`` (SQLite: 0 rows changed).  MySQL applies the
  assignments left to right (a later one sees earlier new values); SQLite
  evaluates them all against the old row, as MariaDB does in the
  ``SIMULTANEOUS_ASSIGNMENT`` mode its sessions run in; on MySQL an upsert where
  that shows (a value reading a column set before it) raises NotSupportedError.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import HIDDEN_ROWID, Context
from . import ignore_rows, mysql_ids, replace_rows
from ._build import qualifier

SKIPPED = "@hermes_skipped"  # the backend reads and resets it after the statement
_WHEN = "@hermes_when"  # an upsert's DO UPDATE … WHERE, evaluated once per row (MySQL)
_COUNT = exp.var(f"({SKIPPED} := {SKIPPED} + 1)")


def _counted(column: str, table: str | None = None) -> exp.Expression:
    """``column`` unchanged, counting one skipped row on the way."""
    kept = exp.column(column, table=table)
    return exp.If(this=exp.Is(this=_COUNT.copy(), expression=exp.Null()), true=exp.Null(), false=kept)


def _mysql_no_op(tree: exp.Insert, ctx: Context) -> None:
    """``ON DUPLICATE KEY UPDATE c = c``, counted: a skipped row on MySQL/MariaDB."""
    listed = _insert_columns(tree)
    names = listed or [name for name, _declared, _keyed in ctx.schema.columns(_table_name(tree))]
    if not names:
        tree.set("ignore", True)  # nothing known about the table: the old way
        return
    table = _table_name(tree)  # qualified: an INSERT … SELECT source may have a column of that name
    assignment = exp.EQ(this=exp.column(names[0], table=table), expression=_counted(names[0], table))
    tree.set("conflict", exp.OnConflict(duplicate=True, expressions=[assignment], action=exp.var("UPDATE")))
    _mysql_own_rows(tree)


_ALL_ROWS = exp.Literal.number("18446744073709551615")


def _mysql_own_rows(insert: exp.Insert) -> None:
    """An ``INSERT … SELECT`` that reads its own table names it twice for ``ON
    DUPLICATE KEY UPDATE`` ("Column 't.id' in UPDATE is ambiguous"): the rows come
    through a derived table instead, as MySQL's manual advises (with a LIMIT, or
    MariaDB drops the ORDER BY that decides which duplicate is kept)."""
    source = insert.expression
    table = _table_name(insert).lower()
    if not isinstance(source, (exp.Select, exp.Union)) or not table:
        return
    if not any(t.alias_or_name.lower() == table for t in source.find_all(exp.Table)):
        return
    rows = source.copy()
    if rows.args.get("order") is not None and rows.args.get("limit") is None:
        rows = rows.limit(_ALL_ROWS.copy())
    derived = exp.Subquery(this=rows, alias=exp.TableAlias(this=exp.to_identifier("_hdb_rows")))
    insert.set("expression", exp.select("*").from_(derived))


def _table_name(insert: exp.Insert) -> str:
    target = insert.this
    if isinstance(target, exp.Schema):
        target = target.this
    return target.name if isinstance(target, exp.Table) else ""


def _insert_columns(insert: exp.Insert) -> list[str] | None:
    target = insert.this
    if isinstance(target, exp.Schema):
        return [e.name for e in target.expressions]
    return None


def unique_keys(ctx: Context, table: str) -> list[tuple[list[str], exp.Expression | None, bool]]:
    """(columns, partial-index predicate, is primary key) per unique key of ``table``."""
    getter = getattr(ctx.schema, "unique_keys", None)
    if getter is not None:
        return getter(table)
    return unique_keys_of(ctx.schema, table)


def unique_keys_of(schema: object, table: str) -> list[tuple[list[str], exp.Expression | None, bool]]:
    """:func:`unique_keys` read from a SQLite catalog (the shadow: ``db``, ``lock``)."""
    db = getattr(schema, "db", None)
    lock = getattr(schema, "lock", None)
    if db is None or lock is None:
        return []
    keys: list[tuple[list[str], exp.Expression | None, bool]] = []
    with lock:
        try:
            rowid = schema.rowid_column(table)  # type: ignore[attr-defined]
            if rowid is not None:
                keys.append(([rowid], None, True))
            for _, name, unique, origin, partial in db.execute("SELECT * FROM pragma_index_list(?)", (table,)):
                if not unique:
                    continue
                cols = [row[2] for row in db.execute("SELECT * FROM pragma_index_info(?)", (name,))]
                predicate = None
                if partial:
                    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (name,))
                    sql = (row.fetchone() or [None])[0]
                    if sql:
                        import sqlglot

                        where = sqlglot.parse_one(sql, read="sqlite").find(exp.Where)
                        predicate = where.this if where is not None else None
                keys.append((cols, predicate, origin == "pk"))
        except Exception:
            return keys
    keys.sort(key=lambda k: not k[2])
    return keys


def _all_columns(ctx: Context, table: str) -> list[str]:
    return [name for name, _declared, _keyed in ctx.schema.columns(table)]


def _new_rowid(ctx: Context, table: str) -> list[exp.Expression]:
    """SQLite's REPLACE inserts a new row: a table without a rowid alias gets a new rowid."""
    if not ctx.schema.implicit_rowid(table):
        return []
    hidden = exp.to_identifier(HIDDEN_ROWID, quoted=True)
    return [exp.EQ(this=exp.column(hidden), expression=exp.column(hidden.copy(), table="excluded"))]


def insert_or(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """``INSERT OR IGNORE`` / ``INSERT OR REPLACE`` in the backend's words."""
    if not isinstance(tree, exp.Insert):
        return tree
    alternative = (tree.args.get("alternative") or "").upper()
    if alternative not in ("IGNORE", "REPLACE"):
        if alternative in ("ABORT", "FAIL", "ROLLBACK"):
            tree.set("alternative", None)  # the default statement-level behaviour on servers
        return tree
    if tree.args.get("conflict") is not None:
        return tree  # an explicit upsert clause wins, as in SQLite
    if alternative == "IGNORE":
        tree.set("alternative", None)
        keys = [] if ctx.is_mysql else unique_keys(ctx, _table_name(tree))  # MySQL: PAD SPACE would match 'a '
        ignore_rows.filter_rows(tree, ctx, keys)
        if ctx.is_mysql:
            _mysql_no_op(tree, ctx)
            ctx.facts[mysql_ids.TARGET] = None
        else:
            tree.set("conflict", exp.OnConflict(action=exp.var("DO NOTHING")))
        return tree
    if ctx.is_mysql:
        return tree  # the MySQL generator prints alternative=REPLACE as REPLACE INTO
    tree.set("alternative", None)
    table = _table_name(tree)
    ctx.schema_dependent = True
    keys = unique_keys(ctx, table)
    listed = _insert_columns(tree)
    if not keys:
        return tree  # no unique key: a plain INSERT cannot conflict
    if len(keys) > 1 or not isinstance(tree.expression, exp.Values):  # more than one arbiter could say
        rewritten = replace_rows.rewrite(tree, ctx, table, listed or _all_columns(ctx, table), keys)
        if rewritten is not None:
            return rewritten
    usable = [k for k in keys if listed is None or all(c in listed for c in k[0])] or keys
    columns, predicate, _pk = usable[0]
    conflict = exp.OnConflict(
        action=exp.var("DO UPDATE"),
        conflict_keys=[exp.to_identifier(c) for c in columns],
        expressions=[
            exp.EQ(this=exp.column(c), expression=exp.column(c, table="excluded"))
            for c in _all_columns(ctx, table)
        ]
        + _new_rowid(ctx, table),
    )
    if predicate is not None:
        conflict.set("index_predicate", exp.Where(this=predicate.copy()))
    tree.set("conflict", conflict)
    ctx.facts["replace"] = True  # this DO UPDATE stands for an insert: see upsert()
    return tree


def _declared_collation(key: exp.Expression, tree: exp.Insert, ctx: Context) -> exp.Expression:
    """A conflict target column declared COLLATE NOCASE/RTRIM names the unique key of its
    folded values (the PostgreSQL index is on that expression): the COLLATE written out."""
    getter = getattr(ctx.schema, "collations", None)
    if getter is None or not isinstance(key, (exp.Identifier, exp.Column)):
        return key
    name = getter(_table_name(tree)).get(key.name.lower())
    if not name:
        return key
    ctx.schema_dependent = True
    column = key if isinstance(key, exp.Column) else exp.Column(this=key)
    return exp.Collate(this=column, expression=exp.Var(this=name))


def upsert(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """``ON CONFLICT(cols) DO UPDATE/NOTHING`` for PG (strip NULLS FIRST) and MySQL (ODKU)."""
    if not isinstance(tree, exp.Insert):
        return tree
    conflict = tree.args.get("conflict")
    if not isinstance(conflict, exp.OnConflict) or conflict.args.get("duplicate"):
        return tree
    keys = [k.this if isinstance(k, exp.Ordered) else k for k in conflict.args.get("conflict_keys") or []]
    if not ctx.is_mysql:
        if keys:
            conflict.set("conflict_keys", [_declared_collation(k.copy(), tree, ctx) for k in keys])
        _qualify(conflict, tree, ctx)
        if "UPDATE" in str(conflict.args.get("action") or "").upper() and not ctx.facts.get("replace"):
            ctx.facts["upsert_update"] = True  # an updated row is no insert: lastrowid stays (connection.py)
        return tree
    action = str(conflict.args.get("action") or "").upper()
    table = _table_name(tree)
    ctx.facts[mysql_ids.TARGET] = None if "NOTHING" in action else [k.name for k in keys] or None
    if "NOTHING" in action:
        tree.set("conflict", None)
        _mysql_no_op(tree, ctx)
        return tree
    where = conflict.args.get("where")
    refuse_order_dependent(conflict.expressions, ctx)
    # an INSERT … SELECT source may have a column of the same name ("Column 'v' in UPDATE is ambiguous")
    own = table if isinstance(tree.expression, (exp.Select, exp.SetOperation)) else None
    assignments = []
    for number, eq in enumerate(conflict.expressions):
        target = eq.this
        value = _mysql_values(eq.expression.copy(), table, own)
        if where is not None:  # evaluated once, by the first assignment, against the old row
            cond: exp.Expression = exp.var(_WHEN)
            if number == 0:
                cond = exp.paren(exp.PropertyEQ(this=cond, expression=_mysql_values(where.this.copy(), table, own)))
            keep = _counted(target.name, own) if number == 0 else exp.column(target.name, table=own)
            value = exp.If(this=cond, true=value, false=keep)
        assignments.append(exp.EQ(this=exp.column(target.name, table=own), expression=value))
    tree.set("conflict", exp.OnConflict(duplicate=True, expressions=assignments, action=exp.var("UPDATE")))
    _mysql_own_rows(tree)
    return tree


def _reads(node: exp.Expression | None) -> set[str]:
    """Columns of the existing row an expression reads (``excluded.c`` is the new row)."""
    if node is None:
        return set()
    return {c.name.lower() for c in node.find_all(exp.Column)
            if not (c.table and c.table.lower() == "excluded")}


def refuse_order_dependent(assignments: list[exp.Expression], ctx: Context, what: str = "an upsert whose DO UPDATE") -> None:
    """MySQL applies ``ON DUPLICATE KEY UPDATE`` assignments left to right, each seeing
    the ones before; SQLite evaluates every one against the old row.  Where that
    shows (``SET a = b, b = a``), refuse rather than differ silently (the WHERE is
    evaluated once, before any assignment: see ``upsert``).  MariaDB sessions run
    with ``SIMULTANEOUS_ASSIGNMENT`` (backends/mysql.py): every value reads the old row."""
    if ctx.dialect == "mariadb":
        return
    assigned: set[str] = set()
    for eq in assignments:
        if _reads(eq.expression) & assigned:
            raise errors.not_supported(
                f"{what} reads a column it sets before (MySQL assigns left to right)", ctx.dialect)
        assigned.add(eq.this.name.lower())


def _qualify(conflict: exp.OnConflict, insert: exp.Insert, ctx: Context) -> None:
    """PG reads a bare ``c`` in DO UPDATE as ambiguous (target or EXCLUDED); SQLite means the target row."""
    target = insert.this.this if isinstance(insert.this, exp.Schema) else insert.this
    if not isinstance(target, exp.Table) or not target.alias_or_name:
        return
    name = qualifier(target)
    values = [eq.expression for eq in conflict.expressions]
    where = conflict.args.get("where")
    if where is not None:
        values.append(where.this)
    for value in values:
        for column in list(value.find_all(exp.Column)):
            if not column.table and not isinstance(column.this, exp.Star) and not _resolved_inside(column, ctx):
                column.set("table", name.copy())


def _resolved_inside(column: exp.Column, ctx: Context) -> bool:
    """Does a table of a subquery around ``column`` have it (SQLite resolves innermost first)?"""
    name = column.name.lower()
    select = column.find_ancestor(exp.Select)
    if select is not None:
        ctx.schema_dependent = True
    while select is not None:
        for table in select.find_all(exp.Table):
            if table.parent_select is select and any(
                    c.lower() == name for c, _declared, _keyed in ctx.schema.columns(table.name)):
                return True
        select = select.find_ancestor(exp.Select)
    return False


def _mysql_values(node: exp.Expression, table: str, own: str | None = None) -> exp.Expression:
    """``excluded.c`` → ``VALUES(c)``; the old row's ``<table>.c`` and bare ``c`` →
    ``c``, or ``<own>.c`` when ``own`` names the table (outside subqueries: their
    columns are their own tables')."""

    def fix(n: exp.Expression) -> exp.Expression:
        if not isinstance(n, exp.Column) or isinstance(n.this, exp.Star):
            return n
        if n.table and n.table.lower() == "excluded":
            return exp.Anonymous(this="VALUES", expressions=[exp.column(n.name)])
        if n.table and n.table.lower() == table.lower():
            return exp.column(n.name, table=own)
        if not n.table and own and n.find_ancestor(exp.Select) is None:
            return exp.column(n.name, table=own)
        return n

    return node.transform(fix, copy=False)

