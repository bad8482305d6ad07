"""A compact session store in the shape of Hermes Agent's SessionDB.

Written only against ``import hermes_dbapi as sqlite3``: with ``HERMES_DB_URL``
unset it runs on a SQLite file, set it runs unchanged on PostgreSQL or MariaDB.
What it shares with Hermes' store:

* sessions and messages, with an FTS5 index over message content kept in sync
  by triggers (an external-content table: the text lives once, in messages);
* titles unique when set (a partial UNIQUE index: many sessions have none);
* one write funnel: ``BEGIN IMMEDIATE`` and a jittered retry on "locked";
* search with ``snippet()`` and ``rank``, and pages of sessions and messages.
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
CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;

CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(content, content='messages', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
"""


class TitleInUse(ValueError):
    """Another session already has this title."""


def fts_query(text: str) -> str:
    """Words of free text as an FTS5 query: each a quoted string, all required.
    Quotes inside a word are doubled, so no user text is FTS5 syntax."""
    words = text.split()
    return " ".join('"' + w.replace('"', '""') + '"' for w in words)


class SessionDB:
    def __init__(self, path: str, *, timeout: float = 1.0) -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, timeout=timeout, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self.retries = 0  # "database is locked" answers the funnel absorbed
        self.conn.executescript(SCHEMA)

    # -- the write funnel ---------------------------------------------------

    def _write(self, fn: Callable[[Any], Any], attempts: int = 15) -> Any:
        for _ in range(attempts):
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
            self.retries += 1
            time.sleep(random.uniform(0.02, 0.15))
        raise sqlite3.OperationalError("database is locked after max retries")

    def create_session(self, session_id: str, source: str, title: str | None = None) -> None:
        def insert(c: Any) -> None:
            try:
                c.execute(
                    "INSERT INTO sessions (id, source, title, started_at) VALUES (?, ?, ?, ?)",
                    (session_id, source, title, time.time()),
                )
            except sqlite3.IntegrityError as exc:
                raise _title_error(exc, title) from None

        self._write(insert)

    def set_title(self, session_id: str, title: str | None) -> bool:
        """True if the session exists; TitleInUse if another session has the title."""
        def update(c: Any) -> bool:
            try:
                return c.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id)).rowcount == 1
            except sqlite3.IntegrityError as exc:
                raise _title_error(exc, title) from None

        return self._write(update)

    def append_message(self, session_id: str, role: str, content: str | None) -> int:
        def insert(c: Any) -> int:
            cur = c.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                (session_id, role, content, time.time()),
            )
            c.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (session_id,))
            return cur.lastrowid

        return self._write(insert)

    def edit_message(self, message_id: int, content: str | None) -> bool:
        return self._write(
            lambda c: c.execute("UPDATE messages SET content = ? WHERE id = ?", (content, message_id)).rowcount == 1
        )

    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages (the FTS index follows); returns messages deleted."""
        def delete(c: Any) -> int:
            gone = c.execute("DELETE FROM messages WHERE session_id = ?", (session_id,)).rowcount
            c.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            return gone

        return self._write(delete)

    # -- reads ----------------------------------------------------------------

    def _read(self, sql: str, params: tuple) -> list[dict]:
        """Reads share the connection with writer threads: under the same lock, as
        sqlite3 connections are not safe for interleaved use (nor are Hermes')."""
        with self._lock:
            return [dict(r) for r in self.conn.execute(sql, params)]

    def get_session(self, session_id: str) -> dict | None:
        rows = self._read("SELECT id, source, title, message_count FROM sessions WHERE id = ?", (session_id,))
        return rows[0] if rows else None

    def get_messages(self, session_id: str, limit: int = -1, after_id: int = 0) -> list[dict]:
        """A page of a session's messages in order: those after ``after_id``, at most ``limit``."""
        return self._read(
            "SELECT id, role, content FROM messages WHERE session_id = ? AND id > ? "
            "ORDER BY timestamp, id LIMIT ?",
            (session_id, after_id, limit),
        )

    def search(self, text: str, limit: int = 10, offset: int = 0, session_id: str | None = None) -> list[dict]:
        """Messages holding every word of ``text``, best first (bm25), with a snippet."""
        query = fts_query(text)
        if not query:
            return []
        return self._read(
            "SELECT m.id, m.session_id, m.role, "
            "snippet(messages_fts, 0, '>>>', '<<<', '...', 8) AS snippet, round(rank, 6) AS score "
            "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
            "WHERE messages_fts MATCH ? AND (? IS NULL OR m.session_id = ?) "
            "ORDER BY rank, m.id LIMIT ? OFFSET ?",
            (query, session_id, session_id, limit, offset),
        )

    def list_sessions(self, limit: int = 20, offset: int = 0) -> list[dict]:
        return self._read(
            "SELECT id, source, title, message_count FROM sessions ORDER BY started_at DESC, id LIMIT ? OFFSET ?",
            (limit, offset),
        )

    def check_index(self) -> None:
        """FTS5's own consistency check of the index against the messages (raises if not)."""
        with self._lock:
            self.conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")

    def close(self) -> None:
        self.conn.close()


def _title_error(exc: Exception, title: str | None) -> Exception:
    if "UNIQUE constraint failed: sessions.title" in str(exc):
        return TitleInUse(f"title {title!r} is already in use")
    return exc
