"""UNIQUE constraints of a CREATE TABLE on keys compared by NOCASE or RTRIM.

``k TEXT UNIQUE COLLATE NOCASE`` (or ``UNIQUE (k COLLATE NOCASE)``) refuses 'A'
next to 'a' in SQLite; neither server has those collations, and a plain UNIQUE
would hold both.  PostgreSQL: the constraint leaves the table and becomes a
unique index on the folded values, run right after it (``ctx.facts["after"]``),
whose name carries the number of SQLite's automatic index for the constraint so
that a violation names the columns as SQLite does (errors/refine.py reads the
shadow's index).
MariaDB: the constraint stays, and ``mysql_keys`` keys it by a hash of the
folded values (``ctx.facts["folded_keys"]``: column -> collation).  A PRIMARY
KEY so declared stays byte-wise (README).
"""

from __future__ import annotations

from contextlib import closing

from sqlglot import exp

from ..._stdlib import sqlite3
from ..context import Context
from ..generators import HermesPostgres
from ._build import rtrim

_FOLDED = ("NOCASE", "RTRIM")


def _declared(columns: list[exp.ColumnDef]) -> dict[str, str]:
    """Column (lower-case) -> its declared NOCASE/RTRIM collation."""
    out = {}
    for column in columns:
        for constraint in column.constraints:
            kind = constraint.args.get("kind")
            if isinstance(kind, exp.CollateColumnConstraint) and kind.this is not None \
                    and kind.this.name.upper() in _FOLDED:
                out[column.name.lower()] = kind.this.name.upper()
    return out


def _key(node: exp.Expression, declared: dict[str, str]) -> tuple[str, str | None]:
    """(column, collation or None) of one key of a UNIQUE (…) list."""
    node = node.this if isinstance(node, exp.Ordered) else node
    if isinstance(node, exp.Collate):
        name = node.expression.name.upper()
        return node.this.name, name if name in _FOLDED else None
    if isinstance(node, exp.ColumnDef):  # how sqlglot reads ``b COLLATE NOCASE`` in a key list
        written = _declared([node])
        if written or any(isinstance(c.args.get("kind"), exp.CollateColumnConstraint) for c in node.constraints):
            return node.name, written.get(node.name.lower())
    return node.name, declared.get(node.name.lower())


def _unique_keys(schema: exp.Schema, declared: dict[str, str]) -> list[tuple[exp.Expression, list[tuple[str, str | None]]]]:
    """Each UNIQUE constraint (the node to drop) with its keys, in the order SQLite meets them."""
    found = []
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            for constraint in item.constraints:
                if isinstance(constraint.args.get("kind"), exp.UniqueColumnConstraint):
                    found.append((constraint, [(item.name, declared.get(item.name.lower()))]))
        elif isinstance(item, exp.UniqueColumnConstraint) and isinstance(item.this, exp.Schema):
            found.append((item, [_key(k, declared) for k in item.this.expressions]))
    return found


def _autoindex_names(sqlite_ddl: str, table: str) -> dict[tuple[str, ...], str]:
    """SQLite's automatic index per UNIQUE column list (lower-case names) of the table."""
    with closing(sqlite3.connect(":memory:")) as db:
        try:
            db.execute(sqlite_ddl)
        except sqlite3.Error:
            return {}
        names = {}
        for _seq, name, _unique, origin, _partial in db.execute("SELECT * FROM pragma_index_list(?)", (table,)):
            if origin == "u":
                columns = tuple(row[2].lower() for row in db.execute("SELECT * FROM pragma_index_info(?)", (name,)))
                names.setdefault(columns, name)
        return names


def _pg_index(number: str, table: exp.Table, keys: list[tuple[str, str | None]]) -> str:
    """The unique index on the folded keys, named ``hdb_ux_<N>_<table oid>``: unique however
    tables are renamed and made again, and read back (errors/postgres.py) as SQLite's
    ``sqlite_autoindex_<table>_<N>``, whose columns the shadow knows."""
    parts = []
    for column, collation in keys:
        ref = exp.column(column)
        if collation == "NOCASE":
            part: exp.Expression = exp.Lower(this=exp.Collate(this=ref, expression=exp.Identifier(this="C", quoted=True)))
        elif collation == "RTRIM":
            part = rtrim(ref)
        else:
            part = ref
        parts.append(part.sql(dialect=HermesPostgres))
    target = table.sql(dialect=HermesPostgres)
    oid = "'" + target.replace("'", "''") + "'::regclass::oid::text"
    return (f"DO $hdb$BEGIN EXECUTE 'CREATE UNIQUE INDEX ' || quote_ident('hdb_ux_{number}_' || {oid})"
            f" || $k$ ON {target} ({', '.join(parts)})$k$; END$hdb$")


def collated_keys(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not (isinstance(tree, exp.Create) and tree.kind == "TABLE" and isinstance(tree.this, exp.Schema)):
        return tree
    schema = tree.this
    columns = [c for c in schema.expressions if isinstance(c, exp.ColumnDef)]
    declared = _declared(columns)
    constraints = [(node, keys) for node, keys in _unique_keys(schema, declared) if any(c for _k, c in keys)]
    if not constraints:
        return tree
    if ctx.is_mysql:
        folded = ctx.facts.setdefault("folded_keys", {})
        for _node, keys in constraints:
            folded.update({column.lower(): collation for column, collation in keys if collation})
        return tree
    names = _autoindex_names(tree.sql(dialect="sqlite"), schema.this.name)
    after = list(ctx.facts.get("after", ()))
    for node, keys in constraints:
        name = names.get(tuple(column.lower() for column, _c in keys))
        if name is None:
            continue  # SQLite made no index of its own for it (a duplicate of another key)
        node.pop()
        after.append(_pg_index(name.rsplit("_", 1)[1], schema.this, keys))
    ctx.facts["after"] = tuple(after)
    return tree
