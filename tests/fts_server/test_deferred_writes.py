"""FTS index writes sent with the next statement (issue 8, PostgreSQL).

A trigger's index rows go to the server ahead of whatever the connection sends
next (a trigger the shim runs: ``remove_diacritics 2`` is a tokenizer the
server does not index with itself, fts/server/native.py).  Whatever that is (a read of the index, a savepoint's undo, COMMIT), it
must see them, and a write that fails there must not leave a transaction that
commits without it.
"""

from __future__ import annotations

import sqlite3 as std

import pytest

import hermes_dbapi

from .holding import held

SCHEMA = [
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT)",
    "CREATE TABLE counts (id INTEGER PRIMARY KEY, n INTEGER)",
    "INSERT INTO counts VALUES (1, 0)",
    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
]
MATCHING = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid"
CHECK = "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)"


def _both(backend, tmp_path):
    ref = std.connect(str(tmp_path / "ref.db"), isolation_level=None)
    shim = backend.connect(backend.path("deferred.db"), isolation_level=None)
    _on_both(ref, shim, SCHEMA)
    return ref, shim


def _on_both(ref, shim, statements):
    for conn in (ref, shim):
        for sql in statements:
            conn.execute(sql)


def _same(ref, shim, sql, params=()):
    want = ref.execute(sql, params).fetchall()
    got = shim.execute(sql, params).fetchall()
    assert got == want, sql
    return got


def test_the_next_read_sees_the_index_rows(backend, tmp_path):
    ref, shim = _both(backend, tmp_path)
    for conn in (ref, shim):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO messages (content) VALUES ('alpha beta')")
    assert _same(ref, shim, MATCHING, ("alpha",)) == [(1,)]
    for conn in (ref, shim):
        conn.execute("INSERT INTO messages (content) VALUES ('beta gamma')")
        conn.execute("UPDATE counts SET n = n + 1")
        conn.execute("COMMIT")
    assert _same(ref, shim, MATCHING, ("beta",)) == [(1,), (2,)]
    shim.execute(CHECK)


def test_a_savepoint_undo_takes_the_index_rows_with_it(backend, tmp_path):
    ref, shim = _both(backend, tmp_path)
    _on_both(ref, shim, [
        "BEGIN",
        "INSERT INTO messages (content) VALUES ('kept words')",
        "SAVEPOINT s",
        "INSERT INTO messages (content) VALUES ('undone words')",
        "ROLLBACK TO SAVEPOINT s",
        "RELEASE SAVEPOINT s",
        "COMMIT",
    ])
    assert _same(ref, shim, MATCHING, ("words",)) == [(1,)]
    assert _same(ref, shim, MATCHING, ("undone",)) == []
    shim.execute(CHECK)


def test_rollback_drops_the_index_rows(backend, tmp_path):
    ref, shim = _both(backend, tmp_path)
    _on_both(ref, shim, ["BEGIN IMMEDIATE", "INSERT INTO messages (content) VALUES ('gone')", "ROLLBACK"])
    assert _same(ref, shim, MATCHING, ("gone",)) == []
    shim.execute(CHECK)


def test_more_writes_than_one_pipeline_carries(backend, tmp_path):
    """A rebuild of 300 rows of 100 words writes hundreds of index statements before
    its next read: they go in bounded pipelines, in order."""
    ref, shim = _both(backend, tmp_path)
    rows = [(" ".join(f"w{(i * 7 + j) % 1000}" for j in range(100)) + f" row{i}",) for i in range(300)]
    for conn in (ref, shim):
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO messages (content) VALUES (?)", rows)
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
    for word in ("w0", "w999", "row299", "w500"):
        _same(ref, shim, MATCHING, (word,))
    for conn in (ref, shim):
        conn.execute("COMMIT")
    shim.execute(CHECK)


def test_a_failed_index_write_rolls_the_transaction_back(backend, tmp_path):
    """Another session holds the index table: the INSERT has reported success, its
    index rows fail with the next statement.  The transaction cannot commit without
    them, so it is rolled back whole, as SQLite rolls back by itself after a busy or
    I/O error it cannot undo statement by statement; the error says so."""
    if backend.name != "postgres":
        pytest.skip("index writes are deferred on PostgreSQL only")
    shim = backend.connect(backend.path("deferred.db"), isolation_level=None, timeout=0.3)
    for sql in SCHEMA:
        shim.execute(sql)
    shim.execute("INSERT INTO messages (content) VALUES ('before')")
    with held(backend, shim, "messages_fts_idx"):
        shim.execute("BEGIN IMMEDIATE")
        shim.execute("INSERT INTO messages (content) VALUES ('during')")
        with pytest.raises(hermes_dbapi.OperationalError, match="database is locked"):
            shim.execute("UPDATE counts SET n = n + 1")
        assert not shim.in_transaction
    assert shim.execute("SELECT content FROM messages ORDER BY id").fetchall() == [("before",)]
    assert shim.execute("SELECT n FROM counts").fetchall() == [(0,)]
    assert shim.execute(MATCHING, ("during",)).fetchall() == []
    shim.execute(CHECK)
    shim.execute("INSERT INTO messages (content) VALUES ('after')")  # the connection goes on
    assert len(shim.execute(MATCHING, ("after",)).fetchall()) == 1
