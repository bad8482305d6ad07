"""The catalog's hook into the statement path: statements it answers itself.

Called by ``Connection._run_special`` before translation; True means the
statement was handled (maintenance statements, queries reading the catalog).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import explain, maintenance, master

if TYPE_CHECKING:
    from ..connection import Connection
    from ..cursor import Cursor

_QUERIES = {"SELECT", "WITH", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE"}


def run_special(conn: "Connection", cursor: "Cursor", sql: str, keyword: str, parameters: Any) -> bool:
    if keyword == "ALTER":  # a missing table is SQLite's error, not the server's
        maintenance.check_on_fresh_shadow(conn, sql)
        return False
    if keyword == "EXPLAIN":
        return explain.run(conn, cursor, sql, parameters)
    if keyword in maintenance.KEYWORDS:
        return maintenance.run(conn, cursor, sql, keyword, parameters)
    if keyword in _QUERIES and master.MENTION.search(sql):
        return master.handle(conn, cursor, sql, keyword, parameters)
    return False
