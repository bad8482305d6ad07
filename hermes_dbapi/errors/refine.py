"""SQLite's exact wording for constraint failures the server reported.

The server knows which constraint failed but not how SQLite words it (an
unnamed CHECK is named by its expression text; NOT NULL names ``table.column``).
Re-running a failed INSERT on the shadow catalog's empty tables makes SQLite
itself raise the error for row-local constraints; otherwise a CHECK is matched
to the shadow's DDL by the server's constraint name and position.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any

from .._stdlib import sqlite3
from . import make
from ..translate import pg_names
from .checks import checks

if TYPE_CHECKING:
    from ..connection import Connection

_ROW_LOCAL = {"SQLITE_CONSTRAINT_CHECK", "SQLITE_CONSTRAINT_NOTNULL", "SQLITE_CONSTRAINT_TRIGGER"}
_STEPS = 50_000
_ADD_COLUMN = re.compile(r"\s*ALTER\s+TABLE\s.+\sADD\s", re.I | re.S)


def integrity(conn: "Connection", sql: str, parameters: Any, exc: sqlite3.Error) -> sqlite3.Error:
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_CONSTRAINT_NOTNULL" and _ADD_COLUMN.match(sql):
        return make(sqlite3.OperationalError, "Cannot add a NOT NULL column with default value NULL")
    if name in _ROW_LOCAL:
        found = _rerun(conn, sql, parameters)
        if found is not None and getattr(found, "sqlite_errorname", "") == name:
            return found
    if name == "SQLITE_CONSTRAINT_UNIQUE" and getattr(exc, "hermes_constraint", None):
        better = _unique_by_catalog(conn, exc)
        if better is not None:
            return better
    if name == "SQLITE_MISMATCH":  # a STRICT table names the value's type and the column
        found = _rerun(conn, sql, parameters)
        if found is not None and str(found).startswith("cannot store "):  # SQLITE_CONSTRAINT_DATATYPE
            return found
    if name == "SQLITE_CONSTRAINT_CHECK":
        better = _check_by_catalog(conn, exc)
        if better is not None:
            return better
    return exc


def _unique_by_catalog(conn: "Connection", exc: sqlite3.Error) -> sqlite3.Error | None:
    """A UNIQUE index on expressions (PostgreSQL names no column): SQLite names the
    columns of ``col COLLATE NOCASE`` keys, and the index when one is an expression."""
    table, index = getattr(exc, "hermes_table", None), getattr(exc, "hermes_constraint", "")
    columns = conn._shadow.index_columns(index) if index else []
    if not columns or not table:
        return None
    if None in columns:
        return make(sqlite3.IntegrityError, f"UNIQUE constraint failed: index '{index}'", "SQLITE_CONSTRAINT_UNIQUE")
    names = ", ".join(f"{table}.{c}" for c in columns)
    return make(sqlite3.IntegrityError, f"UNIQUE constraint failed: {names}", "SQLITE_CONSTRAINT_UNIQUE")


def _rerun(conn: "Connection", sql: str, parameters: Any) -> sqlite3.Error | None:
    """Run the statement on the shadow's empty tables; the IntegrityError it raises."""
    shadow = conn._shadow
    with shadow.lock:
        db = shadow.db
        steps = [0]

        def progress() -> int:
            steps[0] += 1
            return 1 if steps[0] * 100 > _STEPS else 0

        db.execute("SAVEPOINT hdb_refine")
        db.set_progress_handler(progress, 100)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                db.execute(sql, parameters)
        except sqlite3.IntegrityError as found:
            return found
        except Exception:
            return None
        finally:
            db.set_progress_handler(None, 0)
            db.execute("ROLLBACK TO hdb_refine")
            db.execute("RELEASE hdb_refine")
    return None


def _check_by_catalog(conn: "Connection", exc: sqlite3.Error) -> sqlite3.Error | None:
    table = getattr(exc, "hermes_table", None)
    constraint = getattr(exc, "hermes_constraint", None)
    if not table or constraint is None:
        return None
    with conn._shadow.lock:
        row = conn._shadow.db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", (table,)
        ).fetchone()
    if row is None or not row[0]:
        return None
    listed = checks(row[0])
    named = [c for c in listed if c[1] is not None and c[1].lower() == constraint.lower()]
    chosen = named[0] if named else _by_position(conn, table, constraint, listed)
    if chosen is None:
        return None
    return make(sqlite3.IntegrityError, f"CHECK constraint failed: {chosen[1] or chosen[2]}", "SQLITE_CONSTRAINT_CHECK")


def _by_position(conn: "Connection", table: str, constraint: str, listed: list) -> tuple | None:
    backend = conn._backend
    if backend.kind == "postgres":
        try:
            names = [r[0] for r in backend.query(
                "SELECT conname FROM pg_constraint WHERE conrelid = to_regclass(%s) AND contype = 'c' ORDER BY oid",
                (pg_names.quote(table),),
            )]
        except Exception:
            return None
        if constraint in names and len(names) == len(listed):
            return listed[names.index(constraint)]
        return None
    if "." in constraint:  # MariaDB names a column CHECK after its column: `t.col`
        column = constraint.rsplit(".", 1)[1]
        return next((c for c in listed if c[0] == column and c[1] is None), None)
    if constraint.upper().startswith("CONSTRAINT_") and constraint[11:].isdigit():
        table_level = [c for c in listed if c[0] is None and c[1] is None]
        n = int(constraint[11:]) - 1
        return table_level[n] if 0 <= n < len(table_level) else None
    return None


def match_outside_fts(conn: "Connection", sql: str) -> sqlite3.Error:
    """SQLite's error for a MATCH the server could not read (no FTS5 table on its
    left): SQLite's compile error (no such table/column), the shadow reloaded once
    first, else its run-time one."""
    from ..catalog import store
    from ..translate.params import scan

    params = scan(sql)
    problem = conn._shadow.check(sql, params.count, params.names)
    if problem is not None:
        conn._shadow.load(store.read(conn._backend))
        problem = conn._shadow.check(sql, params.count, params.names)
    return problem or make(sqlite3.OperationalError, "unable to use function MATCH in the requested context")
