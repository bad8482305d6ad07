"""The namespace's SQLite schema, kept on the server next to the data.

One table, ``hermes_sqlite_master``, holds ``(seq, type, name, tbl_name, sql)``
as the shadow catalog dumps it.  It is rewritten after each DDL statement, in
the same transaction when the server has transactional DDL, so every process
can rebuild the same shadow when it connects.  Tables and indexes the server
has but the store does not (made without the shim) are reconstructed from the
server's own catalog (:mod:`.reconstruct`).
"""

from __future__ import annotations

from ..backends.base import Backend
from . import meta, reconstruct

TABLE = "hermes_sqlite_master"
INTERNAL = (TABLE, meta.TABLE)

_CREATE = {
    "postgres": (
        f"CREATE TABLE IF NOT EXISTS {TABLE} (seq BIGINT PRIMARY KEY, type TEXT NOT NULL, "
        "name TEXT NOT NULL, tbl_name TEXT NOT NULL, sql TEXT NOT NULL)"
    ),
    "mysql": (
        f"CREATE TABLE IF NOT EXISTS {TABLE} (seq BIGINT PRIMARY KEY, type VARCHAR(16) NOT NULL, "
        "name VARCHAR(255) NOT NULL, tbl_name VARCHAR(255) NOT NULL, `sql` LONGTEXT NOT NULL) "
        "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"
    ),
}


def _sql_column(backend: Backend) -> str:
    return "`sql`" if backend.kind == "mysql" else "sql"


def read(backend: Backend) -> list[tuple[str, str, str, str]]:
    """The stored schema plus reconstructed foreign objects ([] for a new namespace)."""
    rows: list[tuple[str, str, str, str]] = []
    if backend.has_table(TABLE):
        found = backend.query(f"SELECT type, name, tbl_name, {_sql_column(backend)} FROM {TABLE} ORDER BY seq")
        rows = [tuple(row) for row in found]  # type: ignore[misc]
    try:
        return rows + reconstruct.missing(backend, rows, INTERNAL)
    except Exception:  # a catalog we cannot read must never stop a connection
        return rows


def write(backend: Backend, rows: list[tuple[str, str, str, str]], cookie: int = 0) -> None:
    """Replace the stored schema with ``rows``; advance the schema cookie by ``cookie``."""
    if backend.kind != "mysql" or not backend.has_table(TABLE):  # MySQL: CREATE commits
        backend.query(_CREATE[backend.kind])
    backend.query(f"DELETE FROM {TABLE}")
    if rows:
        values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
        flat = [item for seq, row in enumerate(rows) for item in (seq, *row)]
        backend.query(f"INSERT INTO {TABLE} (seq, type, name, tbl_name, {_sql_column(backend)}) VALUES {values}", flat)
    meta.bump(backend, "schema_version", cookie)
