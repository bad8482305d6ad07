"""PRAGMA statements on a server connection.

Schema PRAGMAs (``table_info``, ``index_list``, ...) are answered by the shadow
catalog, which is SQLite itself; settings that only make sense for a file
(``journal_mode``, ``synchronous``, ...) answer as a WAL-mode file would.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .. import errors

if TYPE_CHECKING:
    from ..connection import Connection

_PRAGMA = re.compile(
    r"\s*PRAGMA\s+(?:(?P<schema>[A-Za-z_]\w*|\"[^\"]+\")\s*\.\s*)?(?P<name>[A-Za-z_]\w*)"
    r"\s*(?:=\s*(?P<value>[^;]+?)|\((?P<arg>[^)]*)\))?\s*;?\s*$",
    re.I | re.S,
)

# Settings a server makes meaningless: read the value a WAL-mode file reports.
_FIXED = {
    "journal_mode": "wal",
    "synchronous": 1,
    "locking_mode": "normal",
}
_ON = {"1": 1, "on": 1, "true": 1, "yes": 1, "0": 0, "off": 0, "false": 0, "no": 0}


def run(conn: "Connection", sql: str, parameters: Any) -> tuple[tuple[str, ...] | None, list[tuple]]:
    match = _PRAGMA.match(sql)
    if match is None:
        conn._raise_sqlite_error(sql)
        raise errors.operational("malformed PRAGMA")
    name = match.group("name").lower()
    value = match.group("value")
    if name == "foreign_keys":
        return _foreign_keys(conn, value)
    if name == "busy_timeout":
        return _busy_timeout(conn, value if value is not None else match.group("arg"))
    if name in _FIXED:
        result = _FIXED[name]
        if value is not None and name == "journal_mode":
            result = value.strip().strip("'\"").lower()
        if value is not None and name != "journal_mode":
            return None, []
        return (name,), [(result,)]
    with conn._shadow.lock:
        cursor = conn._shadow.db.execute(sql)
        names = tuple(d[0] for d in cursor.description) if cursor.description else None
        return names, cursor.fetchall()


def _foreign_keys(conn: "Connection", value: str | None) -> tuple[tuple[str, ...] | None, list[tuple]]:
    """Per-connection flag, as in SQLite (default off).  The server enforces the
    constraints either way; MySQL/MariaDB honour OFF with foreign_key_checks."""
    if value is None:
        return ("foreign_keys",), [(conn._pragma_state.get("foreign_keys", 0),)]
    flag = _ON.get(value.strip().strip("'\"").lower())
    if flag is not None and not conn._backend.in_transaction:  # SQLite ignores it inside a transaction
        conn._pragma_state["foreign_keys"] = flag
        if conn._backend.kind == "mysql":
            conn._backend.query(f"SET SESSION foreign_key_checks = {flag}")
    return None, []


def _busy_timeout(conn: "Connection", value: str | None) -> tuple[tuple[str, ...] | None, list[tuple]]:
    if value is not None:
        try:
            milliseconds = max(0, int(value.strip()))
        except ValueError:
            milliseconds = 0
        conn._backend.set_busy_timeout(milliseconds / 1000)
    return ("timeout",), [(int(round(conn._backend.busy_timeout * 1000)),)]
