"""FTS5 MATCH latency on 100,000 messages: hermes_dbapi on each server vs SQLite FTS5.

Hermes' schema (``messages`` + the external-content ``messages_fts`` with its
triggers) is filled the fast way on every backend (executemany into
``messages`` in one transaction, then FTS5's ``'rebuild'``, then ``VACUUM`` as
Hermes' maintenance runs it: on PostgreSQL the server's VACUUM (ANALYZE), the
state autovacuum reaches by itself where it is on, unlike on this machine), from
the seeded corpus generator of ``tests/fts/fts_corpus.py``.  Each query shape then runs
in two forms: Hermes' search (join, snippet, ``ORDER BY rank LIMIT 20``) and a
bare ``MATCH`` returning every rowid.  Figures are medians of interleaved
rounds; the ratio is server latency / SQLite latency from the same run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from .common import hermes_connect

MESSAGES = 100_000
QUICK_MESSAGES = 10_000
SCHEMA = (
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT, content TEXT, tool_name TEXT, "
    "tool_calls TEXT)",
    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)",
)
TRIGGERS = (
    "CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
    "CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); END",
)
SEARCH = (
    "SELECT m.id, m.session, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet, rank "
    "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
    "WHERE messages_fts MATCH ? AND m.session IN (?, ?) ORDER BY rank LIMIT 20"
)
BARE = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?"
#: (label, MATCH string): rare to common terms and the grammar Hermes' sanitizer sends
QUERIES = (
    ("rare term", "bowdlerize"),
    ("common term", "database"),
    ("prefix", "connect*"),
    ("phrase", '"quick brown"'),
    ("OR", "agent OR memory"),
    ("AND NOT", "server NOT error"),
    ("NEAR", "NEAR(python sqlite, 5)"),
    ("CJK", "日本語"),
    ("code token", '"chat-send"'),
)
SESSIONS = ("cli", "telegram", "slack")


def _documents(count: int) -> list[tuple]:
    """(session, content, tool_name, tool_calls) rows from the seeded test-corpus generator."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "fts"))
    try:
        from fts_corpus import documents
    finally:
        sys.path.pop(0)
    rows = []
    for i, (_rowid, vals) in enumerate(documents(count, seed=6)):
        if any("\x00" in (v or "") for v in vals):
            continue
        rows.append((SESSIONS[i % len(SESSIONS)], *vals))
    return rows[:count]


def _setup(server: str | None, path: str, rows: list[tuple]) -> tuple[Any, float]:
    conn = hermes_connect(server, path)
    started = time.perf_counter()
    for ddl in SCHEMA:
        conn.execute(ddl)
    conn.executemany("INSERT INTO messages(session, content, tool_name, tool_calls) VALUES (?, ?, ?, ?)", rows)
    conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
    for ddl in TRIGGERS:
        conn.execute(ddl)
    conn.commit()
    conn.execute("VACUUM")  # the steady state autovacuum or Hermes' own maintenance leaves
    return conn, time.perf_counter() - started


def run(servers: list[str], workdir: str, quick: bool) -> dict:
    """Median ms per query on SQLite and each server, and server/SQLite ratios."""
    count = QUICK_MESSAGES if quick else MESSAGES
    rounds = 3 if quick else 5
    rows = _documents(count)
    backends: dict[str, Any] = {}
    setup_s: dict[str, float] = {}
    for server in [None, *servers]:
        name = server or "sqlite"
        backends[name], setup_s[name] = _setup(server, os.path.join(workdir, f"fts_{name}.db"), rows)
    results = []
    for label, query in QUERIES:
        for form, sql, params in (("search", SEARCH, (query, "cli", "slack")), ("bare", BARE, (query,))):
            samples: dict[str, list[float]] = {name: [] for name in backends}
            counts: dict[str, int] = {}
            for r in range(rounds):
                order = list(backends) if r % 2 == 0 else list(reversed(backends))
                for name in order:
                    start = time.perf_counter()
                    got = backends[name].execute(sql, params).fetchall()
                    samples[name].append(time.perf_counter() - start)
                    counts[name] = len(got)
            ms = {name: statistics.median(v) * 1000 for name, v in samples.items()}
            results.append({"query": label, "match": query, "form": form, "rows": counts["sqlite"],
                            "same_rows": len(set(counts.values())) == 1, "ms": ms,
                            "ratio": {s: ms[s] / ms["sqlite"] for s in backends if s != "sqlite"}})
    for conn in backends.values():
        conn.close()
    return {"messages": len(rows), "rounds": rounds, "setup_s": setup_s, "queries": results}
