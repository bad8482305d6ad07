"""Issue 6's sync bar: an external-content FTS table kept by triggers stays exact.

Hermes' trigger pattern (``EARLY``) maintains ``messages_fts`` from
``messages``.  A seeded mix of INSERT/UPDATE/DELETE on ``messages`` (content
from the server corpus documents, some NULL, some updates that leave the
content alone) runs on sqlite3 and through the shim; after every batch both
run ``'integrity-check'`` (plain, and ``rank = 1``, which in SQLite 3.40
compares the index with the content table) and a set of queries whose rows,
rank and snippets must be identical.  At the end every word of the corpus
vocabulary is queried on both.

``HERMES_FTS_SYNC_OPS`` sets the number of operations (default: the issue's
10,000, about 90 s per server backend; lower it while iterating).
"""

from __future__ import annotations

import os
import random
import sqlite3 as std

from .server_corpus import corpus_documents
from .test_fts_server import EARLY

OPS = int(os.environ.get("HERMES_FTS_SYNC_OPS", "10000"))
BATCH = 500
CHECKS = [
    "INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')",
    "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)",
    "SELECT COUNT(*) FROM messages_fts",
    "SELECT COUNT(*), SUM(length(content)) FROM messages",
]
SEARCH = ("SELECT rowid, rank, snippet(messages_fts, 0, '[', ']', '...', 12), highlight(messages_fts, 0, '<', '>') "
          "FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank")
PROBES = ["database", "search OR query*", '"quick brown"', "NEAR(tool agent, 5)", "日本語", '"C++"',
          "café", "^the", "data* NOT sessions", '"chat-send"']


def _observe(conn, sql: str, params: tuple = ()) -> object:
    try:
        return conn.execute(sql, params).fetchall()
    except std.Error as exc:
        return (type(exc).__name__, str(exc))


def _vocabulary(docs) -> list[str]:
    words = set()
    for _rowid, (content, _tool, _calls) in docs:
        words.update(w for w in (content or "").split() if w.isalnum())
    return sorted(words)


def test_trigger_sync_through_mixed_writes(backend, tmp_path) -> None:
    ref = std.connect(str(tmp_path / "reference.db"))
    shim = backend.connect(backend.path("shim.db"))
    both = (ref, shim)
    for statement in EARLY:
        for conn in both:
            conn.execute(statement)
    docs = [vals for _rowid, vals in corpus_documents()]
    rnd = random.Random(10_000)
    ids: list[int] = []
    sessions = ["cli", "telegram", "slack", "discord"]

    def same(sql: str, params: tuple = ()) -> object:
        want, got = _observe(ref, sql, params), _observe(shim, sql, params)
        assert got == want, f"{sql} {params!r}"
        return want

    for done in range(1, OPS + 1):
        op = rnd.random()
        if op < 0.45 or len(ids) < 20:
            content, tool, calls = rnd.choice(docs)
            if rnd.random() < 0.02:
                content = None
            params = (rnd.choice(sessions), content, tool, calls)
            for conn in both:
                conn.execute("INSERT INTO messages(session, content, tool_name, tool_calls) VALUES (?, ?, ?, ?)",
                             params)
            ids.append(ref.execute("SELECT last_insert_rowid()").fetchone()[0])
            assert shim.execute("SELECT last_insert_rowid()").fetchone()[0] == ids[-1]
        elif op < 0.65:
            params = (rnd.choice(docs)[0], rnd.choice(ids))
            for conn in both:
                conn.execute("UPDATE messages SET content = ? WHERE id = ?", params)
        elif op < 0.75:
            params = (rnd.choice(sessions), rnd.choice(ids))  # the trigger still re-indexes the same text
            for conn in both:
                conn.execute("UPDATE messages SET session = ? WHERE id = ?", params)
        elif op < 0.8:
            low = rnd.choice(ids)  # several rows in one statement
            for conn in both:
                conn.execute("UPDATE messages SET content = content || ' extra' WHERE id BETWEEN ? AND ?",
                             (low, low + 3))
        else:
            victim = ids.pop(rnd.randrange(len(ids)))
            for conn in both:
                conn.execute("DELETE FROM messages WHERE id = ?", (victim,))
        if done % BATCH == 0 or done == OPS:
            for conn in both:
                conn.commit()
            for sql in CHECKS:
                assert not isinstance(same(sql), tuple), sql  # integrity-check passes on both
            for query in PROBES:
                same(SEARCH, (query,))
    for word in _vocabulary(corpus_documents()):
        same("SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank", (f'"{word}"',))
    same("SELECT id, session, content FROM messages ORDER BY id")
    ref.close()


def test_integrity_check_sees_drift(backend, tmp_path) -> None:
    """A content change the triggers did not see fails 'integrity-check' with rank = 1, as in SQLite."""
    ref = std.connect(str(tmp_path / "reference.db"))
    shim = backend.connect(backend.path("shim.db"))
    script = [*EARLY, "INSERT INTO messages(content) VALUES ('alpha beta'), ('gamma delta')",
              "DROP TRIGGER messages_fts_au", "UPDATE messages SET content = 'changed' WHERE id = 1"]
    checks = CHECKS[:2] + ["INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 0)",
                           "INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')", *CHECKS[:2]]
    for sql in script:
        assert _observe(shim, sql) == _observe(ref, sql), sql
    for sql in checks:
        assert _observe(shim, sql) == _observe(ref, sql), sql
    assert _observe(shim, SEARCH, ("changed",)) == _observe(ref, SEARCH, ("changed",))
    ref.close()
