"""The names the server gave the namespace's tables and views, as it spells them.

SQLite matches table names without regard to ASCII case; the servers do not
always: MariaDB's table names are case-sensitive (on Linux), PostgreSQL's are
when quoted (``CREATE TABLE "Foo"``).  ``translate/passes/identifier_case.py``
rewrites a reference whose spelling the server would not find to the one it
has, from these lists (asked once per schema epoch); PostgreSQL's column names
likewise (``CREATE TABLE t ("Y" TEXT)`` then ``SELECT y FROM t``).
"""

from __future__ import annotations

from ..backends.base import Backend
from ..backends.postgres import NAMESPACE_OID

_SQL = {
    "postgres": (
        f"SELECT relname FROM pg_class WHERE relnamespace IN ({NAMESPACE_OID}, pg_my_temp_schema()) "
        "AND relkind IN ('r', 'v', 'p', 'm', 'f')"
    ),
    "mysql": "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()",
}


_COLUMNS = (  # PostgreSQL only: MariaDB's column names match without regard to case
    "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
    f"WHERE c.relnamespace IN ({NAMESPACE_OID}, pg_my_temp_schema()) "
    "AND c.relkind IN ('r', 'v', 'p', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped"
)


def columns_on_server(backend: Backend) -> dict[str, dict[str, list[str]]] | None:
    """PostgreSQL: table (as the server spells it) -> lower-cased column name -> the server's
    spellings; {} elsewhere; None if it cannot be asked now."""
    if backend.kind != "postgres":
        return {}
    try:
        rows = backend.query(_COLUMNS)
    except Exception:
        return None
    found: dict[str, dict[str, list[str]]] = {}
    for table, column in rows:
        found.setdefault(str(table), {}).setdefault(str(column).lower(), []).append(str(column))
    return found


def on_server(backend: Backend) -> dict[str, list[str]] | None:
    """Lower-cased name -> the server's spellings; None if it cannot be asked now."""
    sql = _SQL.get(backend.kind)
    if sql is None:
        return None
    try:
        rows = backend.query(sql)
    except Exception:  # e.g. PostgreSQL inside a failed transaction
        return None
    found: dict[str, list[str]] = {}
    for (name,) in rows:
        found.setdefault(str(name).lower(), []).append(str(name))
    return found
