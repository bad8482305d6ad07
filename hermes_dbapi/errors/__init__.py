"""sqlite3 exceptions with SQLite's class, message text and result code.

The classes are the standard module's own, so ``except sqlite3.OperationalError``
written against either module catches errors raised by the other.  Each server
backend maps its native errors through a table in its own module
(:mod:`.postgres`, :mod:`.mysql`); this module only builds the exceptions.
"""

from __future__ import annotations

from .._stdlib import sqlite3

# SQLite result codes (primary and extended) by name: the stdlib exposes only
# some of them, and only on newer Pythons.
CODES: dict[str, int] = {
    "SQLITE_ERROR": 1,
    "SQLITE_INTERNAL": 2,
    "SQLITE_PERM": 3,
    "SQLITE_ABORT": 4,
    "SQLITE_BUSY": 5,
    "SQLITE_LOCKED": 6,
    "SQLITE_NOMEM": 7,
    "SQLITE_READONLY": 8,
    "SQLITE_INTERRUPT": 9,
    "SQLITE_IOERR": 10,
    "SQLITE_CORRUPT": 11,
    "SQLITE_NOTFOUND": 12,
    "SQLITE_FULL": 13,
    "SQLITE_CANTOPEN": 14,
    "SQLITE_PROTOCOL": 15,
    "SQLITE_SCHEMA": 17,
    "SQLITE_TOOBIG": 18,
    "SQLITE_CONSTRAINT": 19,
    "SQLITE_MISMATCH": 20,
    "SQLITE_MISUSE": 21,
    "SQLITE_AUTH": 23,
    "SQLITE_RANGE": 25,
    "SQLITE_NOTADB": 26,
    "SQLITE_BUSY_SNAPSHOT": 517,
    "SQLITE_CORRUPT_VTAB": 267,
    "SQLITE_READONLY_DBMOVED": 1032,
    "SQLITE_CONSTRAINT_CHECK": 275,
    "SQLITE_CONSTRAINT_DATATYPE": 3091,
    "SQLITE_CONSTRAINT_FOREIGNKEY": 787,
    "SQLITE_CONSTRAINT_NOTNULL": 1299,
    "SQLITE_CONSTRAINT_PRIMARYKEY": 1555,
    "SQLITE_CONSTRAINT_TRIGGER": 1811,
    "SQLITE_CONSTRAINT_UNIQUE": 2067,
    "SQLITE_IOERR_READ": 266,
    "SQLITE_IOERR_WRITE": 778,
}


def make(cls: type[sqlite3.Error], message: str, code_name: str | None = "SQLITE_ERROR") -> sqlite3.Error:
    """An instance of ``cls`` carrying ``sqlite_errorcode``/``sqlite_errorname``."""
    err = cls(message)
    if code_name is not None:
        err.sqlite_errorcode = CODES[code_name]
        err.sqlite_errorname = code_name
    return err


def operational(message: str, code_name: str = "SQLITE_ERROR") -> sqlite3.Error:
    return make(sqlite3.OperationalError, message, code_name)


def malformed() -> sqlite3.Error:
    """What FTS5 reports when its index contradicts itself (SQLITE_CORRUPT_VTAB)."""
    return make(sqlite3.DatabaseError, "database disk image is malformed", "SQLITE_CORRUPT_VTAB")


def programming(message: str) -> sqlite3.Error:
    return make(sqlite3.ProgrammingError, message, None)


def compile_time(exc: BaseException) -> bool:
    """Errors SQLite raises while preparing a statement: it never ran (and no BEGIN before it)."""
    text = str(exc)
    return text.startswith(("no such table", "no such column", "no such function", "no such index", "near ")) \
        or "syntax error" in text


REAL_OVERFLOW = "REAL arithmetic past the range of a double (SQLite gives Inf or -Inf)"


def not_supported(construct: str, backend: str) -> sqlite3.Error:
    return make(sqlite3.NotSupportedError, f"{construct} is not supported on {backend}", "SQLITE_ERROR")


def locked() -> sqlite3.Error:
    return operational("database is locked", "SQLITE_BUSY")
