"""Server-side helper functions the translation relies on (SQLite date.c port).

:func:`install` creates them in the connection's namespace (PG schema on the
``search_path`` / MariaDB current database) once per namespace and version.
Privileges needed: PostgreSQL ``CREATE`` on the schema (the namespace owner has
it; no superuser: the functions are plain ``LANGUAGE plpgsql``); MariaDB
``CREATE ROUTINE`` (+ ``ALTER ROUTINE`` to upgrade) on the database, and on a
server with binary logging ``log_bin_trust_function_creators=1`` (or SUPER).
Failure (read-only connection, missing privilege) is silent: statements that
need a helper then fail with the server's "function does not exist".
"""

from __future__ import annotations

from typing import Any

from ...backends.postgres import NAMESPACE_OID
from . import my_datetime, my_json, pg_blob, pg_cast, pg_datetime, pg_fts, pg_fts_index, pg_json, pg_text

VERSION = 16  # 16: hdb_u61_terms folds by lower() under "C" and splits ASCII text at once; 15: the native FTS triggers' functions (pg_fts_index); 11: FTS tables gain their running counts when it is installed (fts.server.upgrade); 12: hdb_utf8(NULL); 13: hdb_real_text; 14: hdb_fts_hits
_MARKER = f"hdb_helpers_v{VERSION}"


def statements(kind: str) -> list[str]:
    """The helpers every namespace of ``kind`` has (the version marker apart: :func:`marker`)."""
    if kind == "postgres":
        return [
            *pg_datetime.STATEMENTS,
            *pg_json.STATEMENTS,
            *pg_cast.STATEMENTS,
            *pg_text.STATEMENTS,
            *pg_blob.STATEMENTS,
            *pg_fts.STATEMENTS,
        ]
    return [*my_datetime.STATEMENTS, *my_json.STATEMENTS]


def marker(kind: str) -> str:
    """The function that says this version's helpers are there: made last."""
    if kind == "postgres":
        return f"CREATE OR REPLACE FUNCTION {_MARKER}() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 1'"
    return f"CREATE OR REPLACE FUNCTION {_MARKER}() RETURNS INT DETERMINISTIC NO SQL RETURN 1"


def optional(backend: Any) -> list[str]:
    """Helpers a namespace does without where the server cannot have them: the native FTS
    triggers' functions (a UTF-8 database only; ``fts/server/native.usable`` checks)."""
    if backend.kind == "postgres" and backend.conn.info.parameter_status("server_encoding") == "UTF8":
        return pg_fts_index.statements()
    return []


def _present(backend: Any) -> bool:
    if backend.kind == "postgres":
        sql = f"SELECT 1 FROM pg_proc WHERE proname = %s AND pronamespace = {NAMESPACE_OID}"
    else:
        sql = "SELECT 1 FROM information_schema.ROUTINES WHERE ROUTINE_NAME = %s AND ROUTINE_SCHEMA = DATABASE()"
    return bool(backend.query(sql, (_MARKER,)))


def install(backend: Any) -> bool:
    """Create the helpers in the namespace unless this version is there (call outside a
    transaction); whether they were created (a new namespace, or one of an earlier version).
    ``backend.helpers_current`` says afterwards whether this version is there."""
    backend.helpers_current = False
    try:
        if _present(backend):
            backend.helpers_current = True
            return False
        if getattr(backend, "read_only", False):
            return False
        with backend.conn.cursor() as cur:  # raw driver cursor: no parameters, so '%' stays literal
            for sql in statements(backend.kind):
                cur.execute(sql)
            for sql in optional(backend):
                try:
                    cur.execute(sql)
                except Exception:  # noqa: BLE001 - what needs it checks for it (fts/server/native.py)
                    pass
            cur.execute(marker(backend.kind))
    except Exception:  # noqa: BLE001 - no privilege / concurrent creator: the helper call reports it
        return False
    backend.helpers_current = True
    return True
