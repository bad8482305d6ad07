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


def test_text_with_nul_and_control_characters_migrates_exactly(server, cli):
    """Hermes stores content starting with a NUL marker: it moves, and reads back
    and searches as on SQLite (the shim's PostgreSQL escape, issue 9)."""
    values = ["a\x00b", "\x00marker then words", "\x01 one", "\x01\x02\x00", "plain words", "\uffff end"]
    path = server.path("nul.db")
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, u); CREATE VIRTUAL TABLE f USING fts5(x);")
    db.executemany("INSERT INTO t (a, u) VALUES (?, ?)", [(v, v) for v in values])
    db.executemany("INSERT INTO f (x) VALUES (?)", [(v + " words",) for v in values])
    db.commit()
    expected = {
        "rows": db.execute("SELECT id, a, u, length(a) FROM t ORDER BY a, id").fetchall(),
        "fts": db.execute("SELECT rowid, x FROM f WHERE f MATCH 'words' ORDER BY rowid").fetchall(),
    }
    db.close()
    r = cli("migrate", path, "--to", server.url)
    assert r.code == 0, r.err
    assert "verified: row counts and checksums match" in r.out
    conn = server.connect(path)
    assert conn.execute("SELECT id, a, u, length(a) FROM t ORDER BY a, id").fetchall() == expected["rows"]
    assert conn.execute("SELECT rowid, x FROM f WHERE f MATCH 'words' ORDER BY rowid").fetchall() == expected["fts"]
    assert conn.execute("SELECT count(*) FROM t WHERE a = ?", ("a\x00b",)).fetchone() == (1,)


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


# -- the FTS index: bulk-built, exactly what 'rebuild' writes; SIGKILL and resume ------------------

QUERIES = ["hello", "ünïcode", "message", "quote OR break", "mess*", '"line break"', "中文字符", "x* NOT hello"]


def _url(server, name):
    return server.url + "&namespace=" + name


def _state(server, name):
    """Every table of a migrated namespace, the FTS server tables included, in key order."""
    conn = hermes_dbapi.connect(_url(server, name))
    try:
        out = {table: _rows(conn, table) for table in ORDER}
        q = conn._backend.query
        idx, size = ("messages_fts_idx", "messages_fts_docsize")
        out["idx"] = [(bytes(t), int(i), f and bytes(f), p) for t, i, f, p in q(f"SELECT term, id, full_term, pos FROM {idx} ORDER BY term, id")]
        out["docsize"] = [(int(i), bytes(s), int(n)) for i, s, n in q(f"SELECT id, sz, total FROM {size} ORDER BY id")]
        if conn._backend.kind == "postgres":
            found = q("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = %s", (idx,))
        else:
            found = [(r[2], r[4]) for r in q(f"SHOW INDEX FROM {idx}")]
        out["indexes"] = sorted(str(r).replace(name + ".", "") for r in found)
        want = 2 if conn._backend.kind == "postgres" else 3  # primary key (term, id) and (id): rebuilt after a bulk load
        assert len(out["indexes"]) == want and ("pkey" in str(out["indexes"]) or "PRIMARY" in str(out["indexes"]))
        out["seq"] = conn.execute("INSERT INTO events (kind) VALUES ('probe')").lastrowid
        conn.rollback()
        return out
    finally:
        conn.close()


def _search(conn, query):
    return conn.execute(
        "SELECT rowid, rank, snippet(messages_fts, 0, '[', ']', '…', 8) FROM messages_fts "
        "WHERE messages_fts MATCH ? ORDER BY rank, rowid",
        (query,),
    ).fetchall()


def test_fts_index_is_bulk_built_as_rebuild_would(server, source, cli):
    name = server.prefix + "fts_bulk"
    db = sqlite3.connect(source)  # the sample's deletes bypassed its FTS index: make SQLite's own consistent
    db.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
    db.commit()
    db.close()
    assert cli("migrate", source, "--to", server.url, "--namespace", name, "--batch", "400").code == 0
    bulk = _state(server, name)
    assert len(bulk["docsize"]) == 2970 and bulk["idx"]
    conn = hermes_dbapi.connect(_url(server, name))
    try:
        conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
        src = sqlite3.connect(source)
        for query in QUERIES:
            want, got = _search(src, query), _search(conn, query)
            assert [(r, s) for r, _k, s in got] == [(r, s) for r, _k, s in want], query
            assert [k for _r, k, _s in got] == pytest.approx([k for _r, k, _s in want], rel=1e-12), query
        src.close()
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")  # the row-by-row path
        conn.commit()
    finally:
        conn.close()
    rebuilt = _state(server, name)
    assert rebuilt["idx"] == bulk["idx"] and rebuilt["docsize"] == bulk["docsize"]


@pytest.mark.parametrize("kill_after", [4, 13], ids=["copy_phase", "fts_phase"])
def test_sigkill_and_resume_equals_uninterrupted(server, source, cli, kill_after, monkeypatch):
    """A hard crash (SIGKILL after N committed batches) mid-copy or mid-index, then a re-run:
    the target equals an uninterrupted migration's, FTS index included.  Mid-index, the
    batches are tokenized by worker processes, which exit when the migration is killed."""
    import os
    import subprocess
    import sys
    import time

    from hermes_dbapi.cli.migration.fts_workers import WORKERS_ENV
    from hermes_dbapi.cli.migration.run import KILL_AFTER_ENV

    if kill_after == 13:
        monkeypatch.setenv(WORKERS_ENV, "2")

    whole, killed = server.prefix + f"whole{kill_after}", server.prefix + f"killed{kill_after}"
    assert cli("migrate", source, "--to", server.url, "--namespace", whole, "--batch", "300").code == 0
    argv = [sys.executable, "-m", "hermes_dbapi", "migrate", source, "--to", server.url,
            "--namespace", killed, "--batch", "300", "--quiet"]
    crashed = subprocess.run(argv, env={**os.environ, KILL_AFTER_ENV: str(kill_after)}, capture_output=True, text=True)
    assert crashed.returncode == -9, crashed.stderr
    deadline = time.monotonic() + 10
    while _fts_workers() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _fts_workers()
    conn = hermes_dbapi.connect(_url(server, killed))
    progress = dict(conn._backend.query("SELECT tbl, copied FROM hermes_migrate_progress WHERE tbl <> ''"))
    conn.close()
    if kill_after == 4:
        assert 0 < progress["messages"] < 2970 and "fts:messages_fts" not in progress
    else:
        assert progress["messages"] == 2970 and 0 < progress["fts:messages_fts"] < 2970
    r = cli("migrate", source, "--to", server.url, "--namespace", killed, "--batch", "300")
    assert r.code == 0, r.err
    assert r.out.startswith("resumed") and "verified" in r.out
    assert _state(server, killed) == _state(server, whole)


def test_fts_load_pieces_and_text_capped_batches_change_nothing(server, source, cli, monkeypatch):
    """Tiny limits (lines per piece, bytes per MariaDB statement, text per batch): many more
    batches and pieces, the same server rows as a migration with the default limits."""
    from hermes_dbapi.cli.migration import fts_fill, fts_load

    whole, small = server.prefix + "pieces_default", server.prefix + "pieces_small"
    assert cli("migrate", source, "--to", server.url, "--namespace", whole).code == 0
    batches: list[int] = []
    statements: list[str] = []
    real_load = fts_load.FtsLoader.load

    def counted(self, batch):
        batches.append(batch.rows)
        pieces = [p for _t, _c, found in batch.loads for p in found]
        statements.extend(pieces)
        if not self.pg:  # a statement is cut after MAX_STATEMENT bytes unless one row is that long
            assert all(len(p) < 3000 or max(map(len, p.split("),("))) > 1000 for p in pieces)
        return real_load(self, batch)

    monkeypatch.setenv("HERMES_MIGRATE_WORKERS", "0")  # tokenized in this process, where the limits are patched
    monkeypatch.setattr(fts_load, "PIECE_LINES", 7)
    monkeypatch.setattr(fts_load, "MAX_STATEMENT", 2000)
    monkeypatch.setattr(fts_fill, "MAX_BATCH_TEXT", 3000)
    monkeypatch.setattr(fts_load.FtsLoader, "load", counted)
    assert cli("migrate", source, "--to", server.url, "--namespace", small).code == 0
    assert sum(batches) == 2970 and len(batches) > 20 and max(batches) < 2970
    assert len(statements) > 3 * len(batches)  # postings cut into pieces of 7 lines
    assert _state(server, small) == _state(server, whole)


@pytest.mark.parametrize("kind", ["postgres", "mysql"])
def test_worker_processes_encode_exactly_as_this_process(kind):
    """The spawned tokenizing workers give the same load text, in order, as encoding here;
    with a custom tokenizer registered (unknown to a fresh process) there are no workers."""
    from hermes_dbapi.cli.migration.fts_load import FtsLoader
    from hermes_dbapi.cli.migration.fts_workers import EncodePool
    from hermes_dbapi.fts import tokenizers
    from hermes_dbapi.fts.server.spec import parse
    from hermes_dbapi.fts.server.storage import Storage

    sql = "CREATE VIRTUAL TABLE m USING fts5(a, b, tokenize='porter unicode61 remove_diacritics 2')"
    words = ["Hello", "wörld", "中文字符", "x" * 700, "running", "naïve", "tab\there", "it's", "NUL\x00in"]
    rows = [(i, [" ".join(words[j % len(words)] for j in range(i, i + 1 + i % 13)), None if i % 5 else str(i)])
            for i in range(1, 400)]
    batches = [rows[i:i + 37] for i in range(0, len(rows), 37)]
    local = FtsLoader(Storage(type("K", (), {"kind": kind})(), parse("m", sql)), None, kind)  # type: ignore[arg-type]
    pool = EncodePool.start(kind, "m", sql, workers=2)
    assert pool is not None
    try:
        assert list(pool.map(iter(batches))) == [local.encode(b) for b in batches]
    finally:
        pool.close()
    tokenizers.register_tokenizer("mine", lambda args: tokenizers.Unicode61())
    try:
        assert EncodePool.start(kind, "m", sql, workers=2) is None
    finally:
        del tokenizers._REGISTRY["mine"]
        tokenizers.tokenizer_from_spec.cache_clear()


def _fts_workers() -> list[str]:
    """Running FTS tokenizing workers (any migration's: none should outlive theirs)."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"fts_workers import worker_main" in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def test_fts_postings_of_a_term_share_pages_on_postgres(server, source, cli):
    """PostgreSQL: each batch's postings are loaded in key order, as 'rebuild' writes
    them, so a term's postings share table pages (InnoDB keeps key order itself)."""
    if server.name != "postgres":
        pytest.skip("PostgreSQL's heap order")
    name = server.prefix + "fts_layout"
    assert cli("migrate", source, "--to", server.url, "--namespace", name, "--batch", "400").code == 0
    conn = hermes_dbapi.connect(_url(server, name))
    try:
        q = conn._backend.query
        page = "(ctid::text::point)[0]"
        (term,) = q("SELECT term FROM messages_fts_idx WHERE full_term IS NULL AND octet_length(term) <= 16 "
                    "GROUP BY term ORDER BY count(*) DESC, term LIMIT 1")[0]
        (pages, holding) = q(f"SELECT count(DISTINCT {page}), count(*) FROM messages_fts_idx WHERE term = %s",
                             (term,))[0]
        (total,) = q(f"SELECT count(DISTINCT {page}) FROM messages_fts_idx")[0]
        assert holding > 200 and pages * 4 <= total, (pages, holding, total)
    finally:
        conn.close()
