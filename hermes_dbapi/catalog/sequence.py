"""``sqlite_sequence``: the highest id each AUTOINCREMENT table has handed out.

SQLite keeps one row per AUTOINCREMENT table that has had an insert, and
applications read it (``SELECT seq FROM sqlite_sequence WHERE name = ?``).  On
the servers the rowid column's identity sequence (PostgreSQL) or the table's
AUTO_INCREMENT (MariaDB) holds that number; the rows are read from there when
a statement names the table, in the order the tables were made.  Writing it
(SQLite lets an application reset a counter) is NotSupportedError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import errors
from ..translate import pg_names

if TYPE_CHECKING:
    from ..connection import Connection

NAME = "sqlite_sequence"
COLUMNS = ("name", "seq")


def rows(conn: "Connection") -> list[tuple[str, int]]:
    shadow = conn._shadow
    with shadow.lock:
        tables = [r[0] for r in shadow.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' ORDER BY rowid")]
    out = []
    for table in tables:
        column = shadow.rowid_column(table) if shadow.autoincrement(table) else None
        if column is None:
            continue
        seq = _handed_out(conn, table, column)
        if seq is not None:
            out.append((table, seq))
    return out


def _handed_out(conn: "Connection", table: str, column: str) -> int | None:
    backend = conn._backend
    if backend.kind == "postgres":
        got = backend.query("SELECT pg_sequence_last_value(pg_get_serial_sequence(%s, %s))",
                            (pg_names.quote(table), pg_names.fold(column)))
        return int(got[0][0]) if got and got[0][0] is not None else None
    got = backend.query("SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
                        "AND TABLE_NAME = %s", (table,))
    return int(got[0][0]) - 1 if got and got[0][0] is not None and int(got[0][0]) > 1 else None


def refuse_write(conn: "Connection") -> None:
    raise errors.not_supported("writing sqlite_sequence (the servers keep the counters)", conn._backend.dialect)
