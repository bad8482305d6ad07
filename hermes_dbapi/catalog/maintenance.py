"""VACUUM, ANALYZE, REINDEX, ATTACH and DETACH on a server.

The server reclaims space and keeps statistics itself, so ``ANALYZE`` and
``REINDEX`` succeed without doing anything (after SQLite's own check that the
statement is valid, e.g. that a named index exists); so does ``VACUUM`` on
MySQL/MariaDB, while on PostgreSQL it vacuums the namespace's tables now
(``VACUUM (ANALYZE)``: autovacuum may be late or off, and index-only scans need
its visibility map).  ``VACUUM
INTO`` (a file copy) and ``ATTACH``/``DETACH`` (another file in the same
connection) have no honest server meaning: ``NotSupportedError`` says so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .. import errors
from .._stdlib import sqlite3
from ..translate.params import scan
from . import refresh

if TYPE_CHECKING:
    from ..connection import Connection
    from ..cursor import Cursor

KEYWORDS = {"VACUUM", "ANALYZE", "REINDEX", "ATTACH", "DETACH"}
_INTO = re.compile(r"\bINTO\b", re.I)
_NAMES = {"postgres": "PostgreSQL", "mysql": "MySQL/MariaDB", "mariadb": "MySQL/MariaDB"}


def run(conn: "Connection", cursor: "Cursor", sql: str, keyword: str, parameters: Any) -> bool:
    if keyword not in KEYWORDS:
        return False
    check_on_fresh_shadow(conn, sql)
    server = _NAMES.get(conn._backend.dialect, conn._backend.dialect)
    if keyword in ("ATTACH", "DETACH"):
        raise errors.not_supported(f"{keyword} (another database file in one connection)", server)
    if keyword == "VACUUM" and _INTO.search(sql):
        raise errors.not_supported("VACUUM INTO (a copy of the database file)", server)
    if keyword == "VACUUM":
        if conn._backend.in_transaction:
            raise errors.operational("cannot VACUUM from within a transaction")
        conn._backend.vacuum()
    cursor._set_result(None, -1, conn._last_rowid)
    return True


def compile_error(conn: "Connection", sql: str) -> Exception | None:
    """SQLite's compile error for ``sql`` against the schema's SQLite copy as it
    stands (syntax, "no such table", a trigger body naming a dropped table), or None."""
    scanned = scan(sql)
    return conn._shadow.check(sql, scanned.count, scanned.names)


def check_on_fresh_shadow(conn: "Connection", sql: str) -> None:
    """Raise SQLite's compile error for ``sql`` (syntax, "no such table") against the current schema."""
    refresh.shadow(conn)
    problem = compile_error(conn, sql)
    if problem is not None and not isinstance(problem, sqlite3.ProgrammingError):  # binding is checked later
        raise problem
