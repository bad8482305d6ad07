"""Per-namespace integers SQLite keeps in its file header, kept on the server.

``PRAGMA user_version``, ``application_id`` and ``schema_version`` live in one
small table, ``hermes_meta (name, value)``, next to the data, so every
connection to the namespace reads what another one wrote.
"""

from __future__ import annotations

from ..backends.base import Backend

TABLE = "hermes_meta"
KEYS = ("user_version", "application_id", "schema_version")

_CREATE = {
    "postgres": f"CREATE TABLE IF NOT EXISTS {TABLE} (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "mysql": (
        f"CREATE TABLE IF NOT EXISTS {TABLE} (name VARCHAR(64) PRIMARY KEY, value BIGINT NOT NULL) "
        "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"
    ),
}
_UPSERT = {
    "postgres": (
        f"INSERT INTO {TABLE} (name, value) VALUES (%s, %s) ON CONFLICT (name) DO UPDATE SET value = "
    ),
    "mysql": f"INSERT INTO {TABLE} (name, value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE value = ",
}


def get(backend: Backend, name: str) -> int:
    """The stored value, 0 when never set (a fresh SQLite file says 0 too)."""
    if not backend.has_table(TABLE):
        return 0
    rows = backend.query(f"SELECT value FROM {TABLE} WHERE name = %s", (name,))
    return int(rows[0][0]) if rows else 0


def put(backend: Backend, name: str, value: int) -> None:
    backend.query(_CREATE[backend.kind])
    new = "EXCLUDED.value" if backend.kind == "postgres" else "VALUES(value)"
    backend.query(_UPSERT[backend.kind] + new, (name, value))


def bump(backend: Backend, name: str, steps: int) -> None:
    """Add ``steps`` to a counter (the schema cookie after DDL)."""
    if steps <= 0:
        return
    if backend.kind != "mysql" or not backend.has_table(TABLE):  # MySQL: CREATE commits
        backend.query(_CREATE[backend.kind])
    new = f"{TABLE}.value + EXCLUDED.value" if backend.kind == "postgres" else "value + VALUES(value)"
    backend.query(_UPSERT[backend.kind] + new, (name, steps))
