"""PRAGMA statements on a server connection.

Where the shadow catalog is the truth it answers, being SQLite itself: the
schema PRAGMAs (``table_info``, ``index_list``, ...), the checks, and the
per-connection settings (``synchronous``, ``cache_size``, ``temp_store``, ...)
with SQLite's own parsing and defaults; unknown names give no rows there too.
What lives in a file header is kept per namespace on the server
(:mod:`.meta`); what describes the file (``page_count``, ``database_list``,
``wal_checkpoint``) answers as a WAL-mode file would, from server sizes.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Any, Callable

from .. import errors
from .._stdlib import sqlite3
from . import meta, refresh

if TYPE_CHECKING:
    from ..connection import Connection

Result = tuple[tuple[str, ...] | None, list[tuple]]

# A PRAGMA argument may be a quoted string holding ')' or ';' (issue 9: a hostile
# table name in ``PRAGMA table_info('...')``): quoted forms are matched whole.
_QUOTED = r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\""
_PRAGMA = re.compile(
    r"\s*PRAGMA\s+(?:(?P<schema>[A-Za-z_]\w*|\"[^\"]+\")\s*\.\s*)?(?P<name>[A-Za-z_]\w*)"
    rf"\s*(?:=\s*(?P<value>{_QUOTED}|[^;'\"]+?)|\(\s*(?P<arg>{_QUOTED}|[^)'\"]*)\s*\))?\s*;?\s*$",
    re.I | re.S,
)
_ON = {"1": 1, "on": 1, "true": 1, "yes": 1, "0": 0, "off": 0, "false": 0, "no": 0}
WAL_KEY = "journal_mode_wal"  # hermes_meta: 1 once the database was put in WAL mode
_JOURNAL_MODES = ("delete", "truncate", "persist", "memory", "wal", "off")
_MAX_MMAP = 0x7FFF0000  # SQLITE_MAX_MMAP_SIZE
PAGE_SIZE = 4096
# Read from the shadow after reloading it: they describe the namespace's schema.
SCHEMA_PRAGMAS = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
}

_scratch = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
_scratch_lock = threading.Lock()


def run(conn: "Connection", sql: str, parameters: Any) -> Result:
    match = _PRAGMA.match(sql)
    if match is None:
        conn._raise_sqlite_error(sql)
        raise errors.operational("malformed PRAGMA")
    name = match.group("name").lower()
    value = match.group("value")
    if value is None:
        value = match.group("arg")
    schema = (match.group("schema") or "main").strip('"').lower()
    handler = _HANDLERS.get(name) if schema in ("main",) else None
    if handler is not None:
        return handler(conn, name, value)
    if name in SCHEMA_PRAGMAS:
        refresh.shadow(conn)
    return shadow_rows(conn, sql)


def shadow_rows(conn: "Connection", sql: str, parameters: Any = ()) -> Result:
    with conn._shadow.lock:
        cursor = conn._shadow.db.execute(sql, parameters)
        names = tuple(d[0] for d in cursor.description) if cursor.description else None
        return names, cursor.fetchall()


def _clean(value: str) -> str:
    return value.strip().strip("'\"").lower()


def _foreign_keys(conn: "Connection", name: str, value: str | None) -> Result:
    """Per-connection flag, as in SQLite (default off).  The server enforces the
    constraints either way; MySQL/MariaDB honour OFF with foreign_key_checks."""
    if value is None:
        return ("foreign_keys",), [(conn._pragma_state.get("foreign_keys", 0),)]
    flag = _ON.get(_clean(value))
    if flag is not None and not conn._backend.in_transaction:  # SQLite ignores it inside a transaction
        conn._pragma_state["foreign_keys"] = flag
        if conn._backend.kind == "mysql":
            conn._backend.query(f"SET SESSION foreign_key_checks = {flag}")
            conn._backend.session_settings["foreign_key_checks"] = flag  # issue 5: restored on reconnect
    return None, []


def _busy_timeout(conn: "Connection", name: str, value: str | None) -> Result:
    if value is not None:
        try:
            milliseconds = max(0, int(value.strip()))
        except ValueError:
            milliseconds = 0
        conn._backend.set_busy_timeout(milliseconds / 1000)
    return ("timeout",), [(int(round(conn._backend.busy_timeout * 1000)),)]


def _journal_mode(conn: "Connection", name: str, value: str | None) -> Result:
    """SQLite's rules, with the namespace as the file: a database starts in
    rollback mode ("delete"), WAL once set is a property of the database (every
    connection then reads "wal", kept in hermes_meta), the other modes belong to
    the connection, and an in-memory database is always "memory".  The server's
    own concurrency does not depend on it."""
    if conn._drop_on_close:
        return ("journal_mode",), [("memory",)]
    mode = _clean(value) if value is not None else None
    if mode in _JOURNAL_MODES:
        if not getattr(conn._backend, "read_only", False):
            meta.put(conn._backend, WAL_KEY, int(mode == "wal"))
        if mode in ("wal", "delete"):
            conn._pragma_state.pop("journal_mode", None)
        else:
            conn._pragma_state["journal_mode"] = mode
    if meta.get(conn._backend, WAL_KEY):
        return ("journal_mode",), [("wal",)]
    return ("journal_mode",), [(conn._pragma_state.get("journal_mode", "delete"),)]


def _mmap_size(conn: "Connection", name: str, value: str | None) -> Result:
    if value is not None:
        number = _as_int(value)
        conn._pragma_state["mmap_size"] = min(max(number, 0), _MAX_MMAP)
    return ("mmap_size",), [(conn._pragma_state.get("mmap_size", 0),)]


def _as_int(value: str) -> int:
    """SQLite's reading of a PRAGMA integer argument (via a scratch SQLite)."""
    with _scratch_lock:
        _scratch.execute(f"PRAGMA user_version = {value}")
        number = _scratch.execute("PRAGMA user_version").fetchone()[0]
        _scratch.execute("PRAGMA user_version = 0")
    return int(number)


def _header_value(conn: "Connection", name: str, value: str | None) -> Result:
    """user_version, application_id, schema_version: 32-bit integers per namespace."""
    if value is None:
        return (name,), [(meta.get(conn._backend, name),)]
    number = _as_int(value)
    if getattr(conn._backend, "read_only", False):
        raise errors.operational("attempt to write a readonly database", "SQLITE_READONLY")
    meta.put(conn._backend, name, number)
    return None, []


def _page_size(conn: "Connection", name: str, value: str | None) -> Result:
    if value is not None:
        return None, []  # a page size cannot change once a database has content
    return ("page_size",), [(PAGE_SIZE,)]


def _locking_mode(conn: "Connection", name: str, value: str | None) -> Result:
    """Per connection; the server's own locking is unaffected."""
    if value is not None and _clean(value) in ("normal", "exclusive"):
        conn._pragma_state["locking_mode"] = _clean(value)
    return ("locking_mode",), [(conn._pragma_state.get("locking_mode", "normal"),)]


def _page_count(conn: "Connection", name: str, value: str | None) -> Result:
    return ("page_count",), [(max(1, -(-_server_bytes(conn) // PAGE_SIZE)),)]


def _freelist_count(conn: "Connection", name: str, value: str | None) -> Result:
    """The server reuses free space itself: nothing for a VACUUM to reclaim."""
    return ("freelist_count",), [(0,)]


def _server_bytes(conn: "Connection") -> int:
    backend = conn._backend
    if backend.kind == "postgres":
        sql = (
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')"
        )
    else:
        sql = (
            "SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES "
            "WHERE TABLE_SCHEMA = DATABASE()"
        )
    return int(backend.query(sql)[0][0])


def _database_list(conn: "Connection", name: str, value: str | None) -> Result:
    path = getattr(conn._backend, "file_path", "") or ""
    return ("seq", "name", "file"), [(0, "main", path)]


def _wal_checkpoint(conn: "Connection", name: str, value: str | None) -> Result:
    """Nothing is ever waiting in a WAL: (busy, log, checkpointed) = (0, 0, 0)."""
    return ("busy", "log", "checkpointed"), [(0, 0, 0)]


def _optimize(conn: "Connection", name: str, value: str | None) -> Result:
    return ("optimize",), []  # the server keeps its own statistics


_HANDLERS: dict[str, Callable[["Connection", str, str | None], Result]] = {
    "foreign_keys": _foreign_keys,
    "busy_timeout": _busy_timeout,
    "journal_mode": _journal_mode,
    "mmap_size": _mmap_size,
    "user_version": _header_value,
    "application_id": _header_value,
    "schema_version": _header_value,
    "page_size": _page_size,
    "locking_mode": _locking_mode,
    "page_count": _page_count,
    "freelist_count": _freelist_count,
    "database_list": _database_list,
    "wal_checkpoint": _wal_checkpoint,
    "optimize": _optimize,
}
