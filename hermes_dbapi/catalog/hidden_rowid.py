"""Does a server table hold the hidden implicit-rowid column?

Tables the shim creates for an ordinary SQLite table without an INTEGER PRIMARY
KEY get ``hdb_rowid`` (translate/passes/ddl.py).  Tables made before that, by
``CREATE TABLE … AS SELECT`` or outside the shim lack it; for those a rowid
stays unsupported (NotSupportedError) rather than a server error.
"""

from __future__ import annotations

from ..backends.base import Backend
from ..backends.postgres import NAMESPACE_OID
from ..translate.context import HIDDEN_ROWID

_SQL = {
    "postgres": (
        "SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        f"WHERE c.relnamespace IN ({NAMESPACE_OID}, pg_my_temp_schema()) AND lower(c.relname) = lower(%s) "
        "AND a.attname = %s AND NOT a.attisdropped"
    ),
    "mysql": (
        "SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() "
        "AND LOWER(TABLE_NAME) = LOWER(%s) AND COLUMN_NAME = %s"
    ),
}


def on_server(backend: Backend, table: str) -> bool | None:
    """True/False from the server's catalog; None if it cannot be asked now."""
    sql = _SQL.get(backend.kind)
    if sql is None:
        return None
    try:
        return bool(backend.query(sql, (table, HIDDEN_ROWID)))
    except Exception:  # e.g. PostgreSQL inside a failed transaction
        return None
