"""MySQL/MariaDB error number → sqlite3 exception, as one table.

MySQL messages name less than PostgreSQL's diagnostics do, so rules get the
statement's target table as a hint and may ask ``information_schema`` (error
path only) for the columns of a violated key.
"""

from __future__ import annotations

import re
from typing import Callable

from .._stdlib import sqlite3
from ..translate import mysql_names
from . import REAL_OVERFLOW, make, not_supported

Lookup = Callable[[str, tuple], list]
Rule = Callable[[str, Lookup, str], sqlite3.Error]

# Hidden key columns (``hdb_*``, see translate/passes/mysql_keys.py) hash a SQLite
# column: its name is read from the generation expression (MariaDB keeps it right
# across RENAME COLUMN), else from the COMMENT ('' for an expression).
_KEY_COLUMNS_SQL = (
    "SELECT CONCAT(s.COLUMN_NAME, CHAR(1), c.COLUMN_COMMENT, CHAR(1), IFNULL(c.GENERATION_EXPRESSION, '')) "
    "FROM information_schema.STATISTICS s JOIN information_schema.COLUMNS c "
    "ON c.TABLE_SCHEMA = s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME "
    "WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = %s AND s.INDEX_NAME = %s ORDER BY s.SEQ_IN_INDEX"
)
_HASHED = re.compile(r"(?:^unhex\(sha2\(|,)`((?:[^`]|``)+)`(?:,NULL\))?,256\)\)$", re.I)


def _key_column(row: str) -> str:
    name, _, rest = row.partition("\x01")
    comment, _, generated = rest.partition("\x01")
    if not name.startswith("hdb_"):
        return name
    match = _HASHED.search(generated)
    return match.group(1).replace("``", "`") if match else comment


_PRIMARY_KEYS = ("PRIMARY", "hdb_pk")
_QUOTED = re.compile(r"'([^']*)'")


def _quoted(message: str, index: int = 0) -> str:
    found = _QUOTED.findall(message)
    return found[index] if len(found) > index else "?"


def _unique(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    match = re.search(r"for key '([^']*)'$", message)  # the entry itself may hold quotes
    key = match.group(1) if match else _quoted(message, -1)
    key = key.rsplit(".", 1)[-1]  # MySQL 8 says 'table.key'
    columns = [_key_column(mysql_names.decode(str(c)))
               for c in lookup(_KEY_COLUMNS_SQL, (mysql_names.encode_name(table), mysql_names.encode_name(key)))]
    columns = [c for c in columns if c != "_hermes_rowid"]
    if "" in columns:  # an expression index: SQLite names the index
        names = f"index '{key}'"
    else:
        names = ", ".join(f"{table}.{c}" for c in columns) or table
    code = "SQLITE_CONSTRAINT_PRIMARYKEY" if key in _PRIMARY_KEYS else "SQLITE_CONSTRAINT_UNIQUE"
    return make(sqlite3.IntegrityError, f"UNIQUE constraint failed: {names}", code)


def _rebuild_conflict(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    """MariaDB's ALTER TABLE of a foreign-key parent reports duplicate keys as 1834;
    the connection names the index from the shadow catalog."""
    return make(sqlite3.IntegrityError, "UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE")


def _not_null(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(
        sqlite3.IntegrityError, f"NOT NULL constraint failed: {table}.{_quoted(message)}", "SQLITE_CONSTRAINT_NOTNULL"
    )


def _foreign_key(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.IntegrityError, "FOREIGN KEY constraint failed", "SQLITE_CONSTRAINT_FOREIGNKEY")


def _check(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    match = re.search(r"CONSTRAINT `([^`]*)`", message) or re.search(r"Check constraint '([^']*)'", message)
    name = match.group(1) if match else ""
    err = make(sqlite3.IntegrityError, f"CHECK constraint failed: {name}", "SQLITE_CONSTRAINT_CHECK")
    err.hermes_table, err.hermes_constraint = table, name  # for .refine
    return err


def _no_such_table(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"no such table: {_quoted(message).rsplit('.', 1)[-1]}")


def _no_such_column(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"no such column: {_quoted(message)}")


def _table_exists(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"table {_quoted(message)} already exists")


def _index_exists(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"index {_quoted(message)} already exists")


def _duplicate_column(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"duplicate column name: {_quoted(message)}")


def _syntax(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    near = _quoted(message)
    return make(sqlite3.OperationalError, f'near "{near.split()[0] if near.strip() else near}": syntax error')


def _locked(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database is locked", "SQLITE_BUSY")


def _busy_snapshot(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database is locked", "SQLITE_BUSY_SNAPSHOT")


def _read_only(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "attempt to write a readonly database", "SQLITE_READONLY")


def _interrupted(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "interrupted", "SQLITE_INTERRUPT")


def _too_big(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.DataError, f"string or blob too big ({message})", "SQLITE_TOOBIG")


def _mismatch(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.IntegrityError, "datatype mismatch", "SQLITE_MISMATCH")


def _no_such_function(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    name = re.search(r"FUNCTION [^ ]*?\.?([A-Za-z0-9_]+) does not exist", message)
    return make(sqlite3.OperationalError, f"no such function: {name.group(1) if name else '?'}")


def _overflow(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    """SQLite raises this where a 64-bit result cannot be held (abs(), sum()); a double
    that overflows ("DOUBLE value is out of range") is Inf in SQLite instead."""
    if message.startswith("DOUBLE value is out of range"):
        return not_supported(REAL_OVERFLOW, "mariadb")
    if "BIGINT" not in message:
        return make(sqlite3.OperationalError, message)
    return make(sqlite3.OperationalError, "integer overflow")


def _io(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, f"disk I/O error ({message})", "SQLITE_IOERR")


def _malformed_json(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "malformed JSON")


def _full(message: str, lookup: Lookup, table: str) -> sqlite3.Error:
    return make(sqlite3.OperationalError, "database or disk is full", "SQLITE_FULL")


TABLE: dict[int, Rule] = {
    1062: _unique,
    1586: _unique,
    1834: _rebuild_conflict,
    1048: _not_null,
    1364: _not_null,
    1451: _foreign_key,
    1452: _foreign_key,
    1216: _foreign_key,
    1217: _foreign_key,
    3819: _check,
    4025: _check,
    1146: _no_such_table,
    1051: _no_such_table,
    1054: _no_such_column,
    1050: _table_exists,
    1061: _index_exists,
    1060: _duplicate_column,
    1064: _syntax,
    1149: _syntax,
    1305: _no_such_function,
    1366: _mismatch,
    1690: _overflow,
    1205: _locked,
    3572: _locked,
    1213: _busy_snapshot,
    1792: _read_only,
    1290: _read_only,
    1317: _interrupted,
    3024: _interrupted,
    1153: _too_big,
    1114: _full,
    4038: _malformed_json,  # JSON_TABLE over text that is no JSON
    2006: _io,
    2013: _io,
    2055: _io,
}


def translate(exc: BaseException, lookup: Lookup, table: str) -> sqlite3.Error:
    """The sqlite3 exception for a PyMySQL error (fallback keeps the server text)."""
    args = getattr(exc, "args", ())
    errno = args[0] if args and isinstance(args[0], int) else 0
    message = mysql_names.decode(str(args[1]) if len(args) > 1 else str(exc))
    rule = TABLE.get(errno)
    if rule is not None:
        return rule(message, lookup, table or "?")
    return make(sqlite3.OperationalError, message, "SQLITE_ERROR")
