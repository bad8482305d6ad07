"""PostgreSQL SQLSTATE → sqlite3 exception, as one table.

Each entry turns a psycopg error into SQLite's class, message and result code.
Entries that need names SQLite puts in its message (``UNIQUE constraint failed:
t.a, t.b``) ask the server's catalog; that happens on the error path only.
"""

from __future__ import annotations

import re
from contextlib import closing
from functools import lru_cache
from typing import Callable

from .._stdlib import sqlite3
from . import REAL_OVERFLOW, make, malformed, not_supported

Lookup = Callable[[str, tuple], list]
Rule = Callable[[object, Lookup], sqlite3.Error]

_QUOTED = re.compile(r'"([^"]+)"')

_UNIQUE_COLUMNS_SQL = (
    "SELECT a.attname FROM pg_constraint c "
    "JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
    "JOIN LATERAL unnest(c.conkey) WITH ORDINALITY k(attnum, ord) ON true "
    "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum "
    "WHERE c.conname = %s AND n.nspname = current_schema() ORDER BY k.ord"
)
_UNIQUE_INDEX_COLUMNS_SQL = (
    "SELECT a.attname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid "
    "JOIN pg_namespace n ON n.oid = ic.relnamespace "
    "JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, ord) ON true "
    "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
    "WHERE ic.relname = %s AND n.nspname = current_schema() ORDER BY k.ord"
)


_FOLDED_KEY = re.compile(r"hdb_ux_(\d+)_\d+")  # translate/passes/collated_keys.py


def _diag(exc: object, name: str) -> str | None:
    return getattr(getattr(exc, "diag", None), name, None)


def _primary(exc: object) -> str:
    return _diag(exc, "message_primary") or str(exc)


def _unique(exc: object, lookup: Lookup) -> sqlite3.Error:
    table = _diag(exc, "table_name") or "?"
    constraint = _diag(exc, "constraint_name") or ""
    columns = lookup(_UNIQUE_COLUMNS_SQL, (constraint,)) or lookup(_UNIQUE_INDEX_COLUMNS_SQL, (constraint,))
    names = ", ".join(f"{table}.{c}" for c in columns) or f"{table}"
    code = "SQLITE_CONSTRAINT_PRIMARYKEY" if constraint.endswith("_pkey") else "SQLITE_CONSTRAINT_UNIQUE"
    err = make(sqlite3.IntegrityError, f"UNIQUE constraint failed: {names}", code)
    folded = _FOLDED_KEY.fullmatch(constraint)
    if folded:  # a NOCASE/RTRIM key (translate/passes/collated_keys.py): SQLite's automatic index
        err.hermes_table, err.hermes_constraint = table, f"sqlite_autoindex_{table}_{folded.group(1)}"
    elif not columns:  # an expression index: the catalog knows what SQLite names (.refine)
        err.hermes_table, err.hermes_constraint = table, constraint
    return err


def _not_null(exc: object, lookup: Lookup) -> sqlite3.Error:
    table = _diag(exc, "table_name") or "?"
    column = _diag(exc, "column_name") or "?"
    return make(sqlite3.IntegrityError, f"NOT NULL constraint failed: {table}.{column}", "SQLITE_CONSTRAINT_NOTNULL")


def _foreign_key(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.IntegrityError, "FOREIGN KEY constraint failed", "SQLITE_CONSTRAINT_FOREIGNKEY")


def _check(exc: object, lookup: Lookup) -> sqlite3.Error:
    name = _diag(exc, "constraint_name") or ""
    err = make(sqlite3.IntegrityError, f"CHECK constraint failed: {name}", "SQLITE_CONSTRAINT_CHECK")
    err.hermes_table, err.hermes_constraint = _diag(exc, "table_name"), name  # for .refine
    return err


def _first_quoted(exc: object) -> str:
    found = _QUOTED.findall(_primary(exc))
    return found[0] if found else "?"


def _no_such_table(exc: object, lookup: Lookup) -> sqlite3.Error:
    name = _first_quoted(exc)
    return make(sqlite3.OperationalError, f"no such table: {name.rsplit('.', 1)[-1]}")


def _no_such_column(exc: object, lookup: Lookup) -> sqlite3.Error:
    primary = _primary(exc)
    match = re.search(r'column "?([^"]+?)"? (?:of relation "[^"]+" )?does not exist', primary)
    name = match.group(1) if match else "?"
    return make(sqlite3.OperationalError, f"no such column: {name}")


def _table_exists(exc: object, lookup: Lookup) -> sqlite3.Error:
    name = _first_quoted(exc)
    kind = "index" if "index" in _primary(exc).lower() and "relation" not in _primary(exc) else "table"
    return make(sqlite3.OperationalError, f"{kind} {name} already exists")


def _duplicate_column(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"duplicate column name: {_first_quoted(exc)}")


def _syntax(exc: object, lookup: Lookup) -> sqlite3.Error:
    primary = _primary(exc)
    match = re.search(r'at or near "([^"]*)"', primary)
    if match is None:  # a rule rather than a token (e.g. "subquery in FROM must have an alias")
        return make(sqlite3.OperationalError, primary)
    return make(sqlite3.OperationalError, f'near "{match.group(1)}": syntax error')


def _locked(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database is locked", "SQLITE_BUSY")


def _busy_snapshot(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database is locked", "SQLITE_BUSY_SNAPSHOT")


def _read_only(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "attempt to write a readonly database", "SQLITE_READONLY")


def _interrupted(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "interrupted", "SQLITE_INTERRUPT")


def _too_big(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.DataError, "string or blob too big", "SQLITE_TOOBIG")


def _mismatch(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.IntegrityError, "datatype mismatch", "SQLITE_MISMATCH")


def _no_such_function(exc: object, lookup: Lookup) -> sqlite3.Error:
    operator = re.search(r"operator does not exist: (.+) (\S+) (.+)$", _primary(exc))
    if operator:  # SQLite applies every operator to any values: the server's column types differ
        left, op, right = operator.groups()
        return not_supported(f"operator {op} between {left} and {right} values (a column declared without "
                             "a type holds text on PostgreSQL)", "postgres")
    match = re.search(r"function ([A-Za-z0-9_]+\.)?([A-Za-z0-9_]+)\((.*)\) does not exist", _primary(exc))
    if not match:
        return make(sqlite3.OperationalError, "no such function: ?")
    schema, name, types = match.groups()
    if schema or name.lower() in _sqlite_functions() or name.lower().startswith("hdb_"):
        # the function exists (SQLite's, the server's own, the shim's) but not for these argument types
        return not_supported(f"{name}({types})", "postgres")
    return make(sqlite3.OperationalError, f"no such function: {name}")


@lru_cache(maxsize=1)
def _sqlite_functions() -> frozenset[str]:
    """The names of the functions this SQLite build has, but FTS5's auxiliary functions:
    outside an FTS5 query they are "no such function" (the connection reads that as a
    shadow catalog that missed an FTS5 table)."""
    with closing(sqlite3.connect(":memory:")) as conn:
        names = {row[0].lower() for row in conn.execute("SELECT name FROM pragma_function_list")}
    return frozenset(names - {"snippet", "highlight", "bm25"})


def _grouping(exc: object, lookup: Lookup) -> sqlite3.Error:
    """A column neither grouped nor aggregated (not a key's dependant): SQLite takes it
    from an arbitrary row of the group, PostgreSQL refuses it."""
    primary = _primary(exc)
    match = re.search(r'column "([^"]+)" must appear in the GROUP BY clause', primary)
    if match is None:
        return make(sqlite3.OperationalError, primary)
    return not_supported(f"the column {match.group(1)}, neither grouped nor aggregated, beside an aggregate "
                         "(SQLite takes it from an arbitrary row of the group)", "postgres")


def _overflow(exc: object, lookup: Lookup) -> sqlite3.Error:
    """SQLite raises this where a 64-bit result cannot be held (abs(), sum()); a double
    that overflows ("value out of range: overflow") is Inf in SQLite instead."""
    if _primary(exc).startswith("value out of range: overflow"):
        return not_supported(REAL_OVERFLOW, "postgres")
    return make(sqlite3.OperationalError, "integer overflow")


def _io(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"disk I/O error ({_primary(exc)})", "SQLITE_IOERR")


def _corrupt(exc: object, lookup: Lookup) -> sqlite3.Error:
    """A native FTS trigger's 'delete' of more than the index holds (fts/server/native.py):
    FTS5's corruption error, as the shim raises it (errors.malformed)."""
    return malformed()


def _full(exc: object, lookup: Lookup) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database or disk is full", "SQLITE_FULL")


# SQLSTATE → rule.  Classes (first two characters) are matched after exact codes.
TABLE: dict[str, Rule] = {
    "23505": _unique,
    "23502": _not_null,
    "23503": _foreign_key,
    "23514": _check,
    "42P01": _no_such_table,
    "42703": _no_such_column,
    "42P07": _table_exists,
    "42701": _duplicate_column,
    "42601": _syntax,
    "42883": _no_such_function,
    "42803": _grouping,
    "55P03": _locked,
    "57014": _interrupted,
    "40001": _busy_snapshot,
    "40P01": _busy_snapshot,
    "25006": _read_only,
    "54000": _too_big,
    "22P02": _mismatch,
    "22003": _overflow,
    "53100": _full,
    "XX001": _corrupt,
    "08": _io,
    "57P01": _io,
    "57P02": _io,
    "57P03": _io,
}


def translate(exc: object, lookup: Lookup) -> sqlite3.Error:
    """The sqlite3 exception for a psycopg error (fallback keeps the server text)."""
    sqlstate = getattr(exc, "sqlstate", None) or ""
    rule = TABLE.get(sqlstate) or TABLE.get(sqlstate[:2])
    if rule is not None:
        return rule(exc, lookup)
    cls = sqlite3.IntegrityError if sqlstate.startswith("23") else sqlite3.OperationalError
    code = "SQLITE_CONSTRAINT" if sqlstate.startswith("23") else "SQLITE_ERROR"
    return make(cls, _primary(exc), code)
