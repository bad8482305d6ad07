"""A compact session store in the shape of Hermes Agent's SessionDB.

Written only against ``import hermes_dbapi as sqlite3``: with ``HERMES_DB_URL``
unset it runs on a SQLite file, set it runs unchanged on PostgreSQL or MariaDB.
Writes go through one funnel (``BEGIN IMMEDIATE`` + jittered retry on "locked"),
as Hermes' does.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable

import hermes_dbapi as sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    title TEXT,
    started_at REAL NOT NULL,
    message_count INTEGER DEFAULT 0
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    timestamp REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
"""


class SessionDB:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, timeout=1.0, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self.conn.executescript(SCHEMA)

    def _write(self, fn: Callable[[Any], Any], attempts: int = 15) -> Any:
        for attempt in range(attempts):
            with self._lock:
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    result = fn(self.conn)
                    self.conn.commit()
                    return result
                except sqlite3.OperationalError as exc:
                    self.conn.rollback()
                    if "locked" not in str(exc).lower() and "busy" not in str(exc).lower():
                        raise
                except BaseException:
                    self.conn.rollback()
                    raise
            time.sleep(random.uniform(0.02, 0.15))
        raise sqlite3.OperationalError("database is locked after max retries")

    def create_session(self, session_id: str, source: str, title: str | None = None) -> None:
        self._write(
            lambda c: c.execute(
                "INSERT INTO sessions (id, source, title, started_at) VALUES (?, ?, ?, ?)",
                (session_id, source, title, time.time()),
            )
        )

    def append_message(self, session_id: str, role: str, content: str) -> int:
        def insert(c: Any) -> int:
            cur = c.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                (session_id, role, content, time.time()),
            )
            c.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (session_id,))
            return cur.lastrowid

        return self._write(insert)

    def _read(self, sql: str, params: tuple) -> list[dict]:
        """Reads share the connection with writer threads: under the same lock, as
        sqlite3 connections are not safe for interleaved use (nor are Hermes')."""
        with self._lock:
            return [dict(r) for r in self.conn.execute(sql, params)]

    def get_messages(self, session_id: str) -> list[dict]:
        return self._read(
            "SELECT id, role, content FROM messages WHERE session_id = ? ORDER BY timestamp, id", (session_id,)
        )

    def search(self, needle: str, limit: int = 10) -> list[dict]:
        return self._read(
            "SELECT m.id, m.session_id, m.content FROM messages m WHERE instr(m.content, ?) > 0 "
            "ORDER BY m.id LIMIT ?",
            (needle, limit),
        )

    def list_sessions(self, limit: int = 20, offset: int = 0) -> list[dict]:
        return self._read(
            "SELECT id, source, title, message_count FROM sessions ORDER BY started_at DESC, id LIMIT ? OFFSET ?",
            (limit, offset),
        )

    def close(self) -> None:
        self.conn.close()
