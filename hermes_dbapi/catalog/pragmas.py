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
    "foreign_keys": 1,
    "locking_mode": "normal",
}


def run(conn: "Connection", sql: str, parameters: Any) -> tuple[tuple[str, ...] | None, list[tuple]]:
    match = _PRAGMA.match(sql)
    if match is None:
        conn._raise_sqlite_error(sql)
        raise errors.operational("malformed PRAGMA")
    name = match.group("name").lower()
    value = match.group("value")
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
