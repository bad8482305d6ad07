"""``EXPLAIN`` and ``EXPLAIN QUERY PLAN`` answered by SQLite itself, on the shadow.

Applications read SQLite's plan (Hermes' tests check that a query uses a given
index); a server's plan has another shape entirely.  The shadow holds the
namespace's exact SQLite schema, so SQLite's planner gives the plan it would
choose for the application's file (without ANALYZE statistics, as on a file
that was never analysed).  Errors are SQLite's own, for the same reason.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..connection import Connection
    from ..cursor import Cursor


def run(conn: "Connection", cursor: "Cursor", sql: str, parameters: Any) -> bool:
    with conn._shadow.lock, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # sqlite3 says it itself when it matters
        result = conn._shadow.db.execute(sql, parameters)
        names = tuple(col[0] for col in result.description or ())
        rows = [tuple(row) for row in result.fetchall()]
    cursor._raw_cursor().load(names, rows)
    cursor._set_result(names, -1, conn._last_rowid)
    return True
