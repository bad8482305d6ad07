"""``hermes-dbapi migrate``: schema, exact values, ids, resume, --replace, refusals."""

from __future__ import annotations

import sqlite3

import pytest

import hermes_dbapi
from hermes_dbapi.cli.migration import writer as writer_module

from .sample_db import build

ORDER = {"sessions": "id", "messages": "id", "events": "id", "settings": "key"}


@pytest.fixture
def server(backend):
    if not backend.is_server:
        pytest.skip("migrate targets a server")
    return backend


@pytest.fixture
def source(server):
    path = server.path("state.db")
    build(path, messages=3000, fts=True)
    return path


def _rows(conn, table):
    return conn.execute(f"SELECT * FROM {table} ORDER BY {ORDER[table]}").fetchall()


def assert_same_data(server, path):
    src = sqlite3.connect(path)
    dst = server.connect(path)
    try:
        for table in ORDER:
            expected, got = _rows(src, table), _rows(dst, table)
            assert len(got) == len(expected), table
            for a, b in zip(expected, got):
                assert a == b and [type(v) for v in a] == [type(v) for v in b], (table, a, b)
    finally:
        src.close()
        dst.close()


def test_migrate_copies_exactly_and_ids_continue(server, source, cli):
    r = cli("migrate", source, "--to", server.url, "--batch", "700")
    assert r.code == 0, r.err
    assert "verified: row counts and checksums match" in r.out
    assert "ids of messages continue after 3500" in r.out
    assert "not migrated: virtual table messages_fts" in r.out or "messages_fts" not in r.err
    assert_same_data(server, source)
    again = cli("migrate", source, "--to", server.url)
    assert again.code == 0 and again.out.startswith("already complete")
    conn = server.connect(source)
    cur = conn.execute("INSERT INTO messages (session_id, role, timestamp) VALUES ('s0001', 'user', 2.0)")
    assert cur.lastrowid == 3501  # after sqlite_sequence, as SQLite would continue
    assert conn.execute("INSERT INTO events (kind) VALUES ('new')").lastrowid == 201
    conn.commit()
    changed = cli("migrate", source, "--to", server.url)  # the target has moved on: never "verified"
    assert changed.code == 1 and "MISMATCH" in changed.out


def test_header_values_follow(server, source, cli):
    """user_version, application_id and WAL mode live in the SQLite header: they move too."""
    src = sqlite3.connect(source)
    src.execute("PRAGMA user_version = 30")
    src.execute("PRAGMA application_id = 1213")
    src.execute("PRAGMA journal_mode = WAL")
    src.close()
    assert cli("migrate", source, "--to", server.url).code == 0
    conn = server.connect(source)
    got = [conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("user_version", "application_id", "journal_mode")]
    conn.close()
    assert got == [30, 1213, "wal"]


def test_resume_after_interruption(server, source, cli, monkeypatch):
    real_write = writer_module.Writer.write
    calls = {"n": 0}

    def flaky(self, table, columns, rows):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real_write(self, table, columns, rows)

    monkeypatch.setattr(writer_module.Writer, "write", flaky)
    r = cli("migrate", source, "--to", server.url, "--batch", "500")
    assert r.code == 1 and "interrupted" in r.err
    conn = server.connect(source)
    partial = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    conn.close()
    assert 0 < partial < 2970
    monkeypatch.setattr(writer_module.Writer, "write", real_write)
    r = cli("migrate", source, "--to", server.url, "--batch", "500")
    assert r.code == 0, r.err
    assert r.out.startswith("resumed") and "verified" in r.out
    assert_same_data(server, source)


def test_refuses_non_empty_target_unless_replace(server, source, cli):
    conn = server.connect(source)
    conn.execute("CREATE TABLE unrelated (x)")
    conn.execute("INSERT INTO unrelated VALUES (1)")
    conn.commit()
    conn.close()
    r = cli("migrate", source, "--to", server.url)
    assert r.code == 1 and "not empty" in r.err and "--replace" in r.err
    conn = server.connect(source)
    assert conn.execute("SELECT count(*) FROM unrelated").fetchone() == (1,)  # untouched
    conn.close()
    r = cli("migrate", source, "--to", server.url, "--replace")
    assert r.code == 0, r.err
    conn = server.connect(source)
    with pytest.raises(hermes_dbapi.OperationalError):
        conn.execute("SELECT * FROM unrelated")
    conn.close()
    assert_same_data(server, source)


def test_namespace_option(server, source, cli):
    name = server.prefix + "pinned_target"
    r = cli("migrate", source, "--to", server.url, "--namespace", name, "--quiet")
    assert r.code == 0, r.err
    assert name in server.namespaces()
    conn = hermes_dbapi.connect(server.url + "&namespace=" + name)
    assert conn.execute("SELECT count(*) FROM messages").fetchone() == (2970,)
    conn.close()


def test_values_that_cannot_round_trip_are_refused(server, cli):
    path = server.path("odd.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, x)")
    db.execute("INSERT INTO t (n, x) VALUES ('not a number', 5)")
    db.commit()
    db.close()
    before = set(server.namespaces())
    r = cli("migrate", path, "--to", server.url)
    assert r.code == 1
    assert "would not round-trip" in r.err and "t.n: 1 TEXT values" in r.err and "t.x: 1 INTEGER values" in r.err
    assert set(server.namespaces()) == before  # nothing left behind


def test_usage_errors(server, source, cli, tmp_path):
    assert cli("migrate", str(tmp_path / "missing.db"), "--to", server.url).code == 2
    assert cli("migrate", source, "--to", server.url, "--batch", "0").code == 2
    assert cli("migrate", source, "--to", "ftp://x/y").code == 2
    r = cli("migrate", source)  # no --to and HERMES_DB_URL is the server: fine
    assert r.code == 0, r.err


def test_implicit_rowids_carry_over(server, cli):
    """A table without an INTEGER PRIMARY KEY keeps its rowids (gaps, order) on the server."""
    path = server.path("rowids.db")
    src = sqlite3.connect(path)
    src.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT)")
    src.executemany("INSERT INTO sessions (rowid, id, title) VALUES (?, ?, ?)", [(7, "b", "x"), (3, "a", "y"), (20, "c", None)])
    src.commit()
    expected = src.execute("SELECT rowid, * FROM sessions ORDER BY rowid").fetchall()
    src.close()
    assert cli("migrate", path, "--to", server.url).code == 0
    conn = server.connect(path)
    try:
        assert conn.execute("SELECT rowid, * FROM sessions ORDER BY rowid").fetchall() == expected
        assert conn.execute("SELECT * FROM sessions ORDER BY rowid").fetchall() == [row[1:] for row in expected]
        assert conn.execute("INSERT INTO sessions VALUES ('d', NULL)").lastrowid == 21
    finally:
        conn.close()
