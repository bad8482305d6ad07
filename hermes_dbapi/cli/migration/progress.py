"""The progress table in the target namespace: resumable, exactly-once copying.

One row per source table: the high-water key copied so far, the row count and
the partial source checksum of those rows.  A batch's rows and its progress
row are written in the same server transaction, so after an interruption the
table holds exactly the rows up to the recorded high-water mark.  A row with
an empty table name holds the migration's own state (source, schema digest)."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from .checksum import Checksum

TABLE = "hermes_migrate_progress"

_CREATE = {
    "postgres": f"CREATE TABLE IF NOT EXISTS {TABLE} (tbl TEXT PRIMARY KEY, hwm TEXT, copied BIGINT NOT NULL, "
    "checksum TEXT NOT NULL, done INTEGER NOT NULL, info TEXT)",
    "mysql": f"CREATE TABLE IF NOT EXISTS {TABLE} (tbl VARCHAR(255) PRIMARY KEY, hwm LONGTEXT, copied BIGINT NOT NULL, "
    "checksum VARCHAR(64) NOT NULL, done INTEGER NOT NULL, info LONGTEXT) ENGINE=InnoDB",
}


@dataclass
class TableProgress:
    hwm: list[Any] | None
    checksum: Checksum
    done: bool


def _encode(key: list[Any] | None) -> str | None:
    if key is None:
        return None
    return json.dumps([{"b": base64.b64encode(k).decode()} if isinstance(k, bytes) else k for k in key])


def _decode(text: str | None) -> list[Any] | None:
    if text is None:
        return None
    return [base64.b64decode(k["b"]) if isinstance(k, dict) else k for k in json.loads(text)]


class Progress:
    def __init__(self, backend: Any) -> None:
        self.backend = backend

    def exists(self) -> bool:
        return self.backend.has_table(TABLE)

    def create(self, info: dict[str, Any]) -> None:
        self.backend.query(_CREATE[self.backend.kind])
        self._upsert("", None, Checksum(), False, json.dumps(info))

    def info(self) -> dict[str, Any]:
        rows = self.backend.query(f"SELECT info, done FROM {TABLE} WHERE tbl = ''")
        if not rows:
            return {}
        data = json.loads(rows[0][0] or "{}")
        data["complete"] = bool(rows[0][1])
        return data

    def table(self, name: str) -> TableProgress:
        rows = self.backend.query(f"SELECT hwm, copied, checksum, done FROM {TABLE} WHERE tbl = %s", (name,))
        if not rows:
            return TableProgress(None, Checksum(), False)
        hwm, copied, digest, done = rows[0]
        return TableProgress(_decode(hwm), Checksum.parse(int(copied), digest), bool(done))

    def record(self, name: str, hwm: list[Any] | None, checksum: Checksum, done: bool) -> None:
        """Write one table's progress (inside the caller's transaction)."""
        self._upsert(name, _encode(hwm), checksum, done, None)

    def finish(self) -> None:
        self.backend.query(f"UPDATE {TABLE} SET done = 1 WHERE tbl = ''")

    def _upsert(self, name: str, hwm: str | None, checksum: Checksum, done: bool, info: str | None) -> None:
        values = (name, hwm, checksum.rows, checksum.hex, int(done), info)
        if self.backend.kind == "postgres":
            sql = (
                f"INSERT INTO {TABLE} (tbl, hwm, copied, checksum, done, info) VALUES (%s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (tbl) DO UPDATE SET hwm = EXCLUDED.hwm, copied = EXCLUDED.copied, "
                "checksum = EXCLUDED.checksum, done = EXCLUDED.done"
            )
        else:
            sql = (
                f"INSERT INTO {TABLE} (tbl, hwm, copied, checksum, done, info) VALUES (%s, %s, %s, %s, %s, %s) "
                "ON DUPLICATE KEY UPDATE hwm = VALUES(hwm), copied = VALUES(copied), "
                "checksum = VALUES(checksum), done = VALUES(done)"
            )
        with self.backend.conn.cursor() as cur:
            cur.execute(sql, values)
