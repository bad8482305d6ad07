"""A generated SQLite database with every value type, for the migrate tests."""

from __future__ import annotations

import random
import sqlite3

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, title TEXT, started_at REAL NOT NULL,
                       message_count INTEGER DEFAULT 0, meta BLOB);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
                       role TEXT NOT NULL, content TEXT, tokens INTEGER, score REAL, payload BLOB, timestamp REAL NOT NULL);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT, n INTEGER);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE VIEW recent AS SELECT id, content FROM messages WHERE id > 10;
"""

FTS = """
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id');
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
"""

_TEXTS = ["hello", "", "é😀 ünïcode", "line\nbreak", "quote ' \" \\ back", "x" * 3000, "中文字符", "tab\tsep"]
_FLOATS = [0.0, 1.5, -2.25, 1e-300, 1.7976931348623157e308, 0.1, 3.141592653589793, -1e10]
_INTS = [0, 1, -1, 2**63 - 1, -(2**63), 42, 2**31, -(2**40)]


def build(path: str, messages: int = 3000, sessions: int = 50, fts: bool = False, seed: int = 7) -> None:
    rnd = random.Random(seed)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA + (FTS if fts else ""))
    for s in range(sessions):
        db.execute(
            "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
            (f"s{s:04d}", rnd.choice(["cli", "telegram"]), rnd.choice([None, f"title {s}", "ünï"]),
             1700000000.0 + s * 0.001, rnd.randrange(100), rnd.choice([None, b"", bytes(range(256)), b"\x00\x01"])),
        )
    rows = []
    for m in range(messages):
        rows.append((
            f"s{rnd.randrange(sessions):04d}", rnd.choice(["user", "assistant", "tool"]),
            rnd.choice(_TEXTS + [None, f"message {m}"]), rnd.choice(_INTS + [None]),
            rnd.choice(_FLOATS + [None]), rnd.choice([None, b"\x00\xff" * rnd.randrange(5), rnd.randbytes(20)]),
            1700000000.0 + m / 7,
        ))
    db.executemany(
        "INSERT INTO messages (session_id, role, content, tokens, score, payload, timestamp) VALUES (?,?,?,?,?,?,?)",
        rows,
    )
    db.execute("DELETE FROM messages WHERE id % 97 = 0")  # holes in the ids
    db.execute("INSERT INTO messages (id, session_id, role, timestamp) VALUES (?, 's0000', 'user', 1.0)", (messages + 500,))
    db.execute("DELETE FROM messages WHERE id = ?", (messages + 500,))  # sqlite_sequence stays ahead of max(id)
    db.executemany("INSERT INTO events (kind, n) VALUES (?, ?)", [(f"k{i % 5}", i) for i in range(200)])
    db.executemany("INSERT INTO settings VALUES (?, ?)", [(f"key{i}", rnd.choice(_TEXTS)) for i in range(30)])
    db.commit()
    db.close()
