"""SQLite DDL for server tables the shim did not create.

A table made with ``psql``/``mysql`` (or by an older tool) has no entry in
``hermes_sqlite_master``.  Here its columns, declared types, NOT NULL, simple
defaults and primary key, and its plain indexes, are read from the server's
catalog and written as the ``CREATE TABLE`` / ``CREATE INDEX`` SQLite would
hold, so the shadow (and ``sqlite_master``, the PRAGMAs) can answer for it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..backends.base import Backend
from ..backends.postgres import NAMESPACE_OID
from ..translate import mysql_names
from ..translate.context import HIDDEN_ROWID

_SKIP = re.compile(r"^_?(hermes|hdb)_", re.I)
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_RESERVED = {"order", "group", "select", "table", "index", "where", "from", "values", "default", "check", "references"}
_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?\Z")
_HIDDEN_COLUMNS = {"_hermes_rowid", HIDDEN_ROWID}  # never SQLite columns (translate/passes/rowid.py)

_PG_TYPES = {
    "bigint": "INTEGER", "integer": "INTEGER", "smallint": "INTEGER", "text": "TEXT", "bytea": "BLOB",
    "double precision": "REAL", "real": "REAL", "numeric": "NUMERIC", "boolean": "BOOLEAN",
}
_MY_TYPES = {
    "bigint": "INTEGER", "int": "INTEGER", "smallint": "INTEGER", "tinyint": "INTEGER", "mediumint": "INTEGER",
    "longtext": "TEXT", "text": "TEXT", "mediumtext": "TEXT", "varchar": "TEXT", "char": "TEXT",
    "longblob": "BLOB", "blob": "BLOB", "varbinary": "BLOB", "binary": "BLOB",
    "double": "REAL", "float": "REAL", "decimal": "NUMERIC",
}

_PG_COLUMNS = (
    "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
    "pg_get_expr(d.adbin, d.adrelid), a.attidentity "
    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
    "LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum "
    "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.oid, a.attnum"
)
_PG_INDEXES = (
    "SELECT t.relname, i.relname, x.indisunique, x.indisprimary, "
    "ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o) "
    "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o), "
    "x.indexprs IS NULL AND x.indpred IS NULL, "
    "EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = t.oid AND k.conindid = x.indexrelid) "
    "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid "
    f"WHERE t.relnamespace = {NAMESPACE_OID} ORDER BY i.oid"
)  # conrelid keeps the EXISTS on pg_constraint's index: keyed on conindid alone its estimate passed
#    jit_above_cost once the database held a few hundred schemas, and JIT cost ~600 ms per load
_MY_COLUMNS = (
    "SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, IS_NULLABLE = 'NO', COLUMN_DEFAULT, EXTRA "
    "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION"
)
_MY_INDEXES = (
    "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE = 0, INDEX_NAME = 'PRIMARY', COLUMN_NAME "
    "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX"
)


def quote(name: str) -> str:
    if _SIMPLE.match(name) and name.lower() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


def missing(backend: Backend, known: list, internal: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    """Rows (type, name, tbl_name, sql) for server tables absent from ``known``."""
    have = {row[1].lower() for row in known} | {name.lower() for name in internal}
    columns, indexes = (_postgres if backend.kind == "postgres" else _mysql)(backend)
    out: list[tuple[str, str, str, str]] = []
    for table, cols in columns.items():
        if table.lower() in have or _SKIP.match(table):
            continue
        keyed = [ix for ix in indexes.get(table, []) if ix[2]]
        pk = keyed[0][3] if keyed else []
        out.append(("table", table, table, _create_table(table, cols, pk)))
        for name, unique, primary, cols_of, plain in indexes.get(table, []):
            if not primary and plain and name.lower() not in have:
                text = f"CREATE {'UNIQUE ' if unique else ''}INDEX {quote(name)} ON {quote(table)} ({', '.join(map(quote, cols_of))})"
                out.append(("index", name, table, text))
    return out


def _create_table(table: str, cols: list[tuple], pk: list[str]) -> str:
    parts = []
    for name, declared, notnull, default, auto in cols:
        text = f"{quote(name)} {declared}".rstrip()
        if pk == [name] and declared == "INTEGER" and auto:
            text += " PRIMARY KEY"
        if notnull and pk != [name]:
            text += " NOT NULL"
        if default is not None:
            text += f" DEFAULT {default}"
        parts.append(text)
    if pk and not (len(pk) == 1 and any(c[0] == pk[0] and c[1] == "INTEGER" and c[4] for c in cols)):
        parts.append(f"PRIMARY KEY ({', '.join(map(quote, pk))})")
    return f"CREATE TABLE {quote(table)} ({', '.join(parts)})"


def _default(text: str | None) -> str | None:
    """A server default as SQLite DDL text, or None when it has no SQLite spelling."""
    if text is None or text.upper() == "NULL":
        return None
    text = re.sub(r"::[a-z ]+(\[\])?$", "", text.strip())
    if _NUMBER.match(text):
        return text
    if text.startswith("'") and text.endswith("'"):
        return text
    if text.lower() in ("now()", "current_timestamp", "current_timestamp()"):
        return "CURRENT_TIMESTAMP"
    return None


def _postgres(backend: Backend) -> tuple[dict, dict]:
    columns: dict[str, list] = defaultdict(list)
    for table, name, pgtype, notnull, default, identity in backend.query(_PG_COLUMNS):
        if name in _HIDDEN_COLUMNS:
            continue
        auto = bool(identity) or (default or "").startswith("nextval(")
        base = pgtype.split("(")[0]
        declared = _PG_TYPES.get(base, pgtype.upper())
        columns[table].append((name, declared, bool(notnull), None if auto else _default(default), auto))
    indexes: dict[str, list] = defaultdict(list)
    for table, name, unique, primary, cols, plain, constraint in backend.query(_PG_INDEXES):
        if _HIDDEN_COLUMNS & set(cols):
            continue
        if primary:
            indexes[table].insert(0, (name, True, True, list(cols), plain))
        else:  # UNIQUE constraints too: SQLite would list their index
            indexes[table].append((name, bool(unique), False, list(cols), plain))
    return columns, indexes


def _mysql(backend: Backend) -> tuple[dict, dict]:
    columns: dict[str, list] = defaultdict(list)
    hidden = set(_HIDDEN_COLUMNS)
    for table, name, mytype, notnull, default, extra in backend.query(_MY_COLUMNS):
        table, name = mysql_names.decode(table), mysql_names.decode(name)  # names beyond the BMP
        if name in _HIDDEN_COLUMNS or "INVISIBLE" in str(extra or "").upper():
            hidden.add(name)  # the shim's key hashes (translate/passes/mysql_keys.py)
            continue
        auto = "auto_increment" in (extra or "").lower()
        declared = _MY_TYPES.get(str(mytype).lower(), str(mytype).upper())
        columns[table].append((name, declared, bool(notnull), None if auto else _default(default), auto))
    grouped: dict[tuple[str, str], list] = {}
    for table, name, unique, primary, column in backend.query(_MY_INDEXES):
        table, name, column = (mysql_names.decode(x) for x in (table, name, column))
        grouped.setdefault((table, name), [bool(unique), bool(primary), []])[2].append(column)
    indexes: dict[str, list] = defaultdict(list)
    for (table, name), (unique, primary, cols) in grouped.items():
        if hidden & set(cols):
            continue
        entry = (name, unique, primary, cols, True)
        if primary:
            indexes[table].insert(0, entry)
        else:
            indexes[table].append(entry)
    return columns, indexes
