"""FTS5 sync triggers run by PostgreSQL itself (fts/server/native.py, issue 8).

The server's tokenizer and index rows must be the shim's exactly: every code
point, long terms (a digest in the key), terms cut at FTS5's limit.  The
statements that SQLite resolves in ways a server trigger would not (REPLACE),
renamed columns and dropped FTS tables behave as in SQLite.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3 as std

import pytest

import hermes_dbapi
from hermes_dbapi.fts.query import clip_token
from hermes_dbapi.fts.server.storage import encode
from hermes_dbapi.fts.tokenizers import Unicode61

from .holding import held

SCHEMA = [
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT, content TEXT)",
    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id')",
    "CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
    "CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); END",
    "CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
]
MATCHING = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid"
CHECK = "INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)"
TEXTS = [
    "Hello World, hello again",
    "Café NAÏVE façade — “quoted” ΣΊΣΥΦΟΣ ﬁnance",
    "日本語のテキスト and ascii_words with-dashes 42",
    "x" * 600 + " tail",  # a term past 480 bytes: its key ends in a digest
    "é" * 20000 + " end",  # a term past FTS5's 32,768 bytes: cut there
    None,
    "",
]


@pytest.fixture
def pg(backend):
    if backend.name != "postgres":
        pytest.skip("the server runs the triggers on PostgreSQL only")
    return backend


def _both(backend, tmp_path, schema=SCHEMA):
    ref = std.connect(str(tmp_path / "ref.db"), isolation_level=None)
    shim = backend.connect(backend.path("native.db"), isolation_level=None)
    for conn in (ref, shim):
        for sql in schema:
            conn.execute(sql)
    return ref, shim


def _natives(shim) -> list[str]:
    return sorted(r[0] for r in shim._backend.query(
        "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
        "WHERE c.relnamespace = current_schema()::regnamespace AND tgname LIKE 'hdb_native_%%'"))


def _same(ref, shim, sql, params=()):
    want = ref.execute(sql, params).fetchall()
    assert shim.execute(sql, params).fetchall() == want, (sql, params)
    return want


def _blocks() -> list[str]:
    """Every code point (surrogates aside), each between two letters, in strings of 4,096."""
    out = []
    for start in range(1, 0x110000, 4096):
        cps = [c for c in range(start, min(start + 4096, 0x110000)) if not 0xD800 <= c <= 0xDFFF]
        out.append(" ".join(chr(c) + "A" + chr(c) for c in cps))
    return out


def test_the_server_tokenizes_every_code_point_as_the_shim(pg):
    conn = pg.connect()
    tokenizer = Unicode61()
    rnd = random.Random(8)
    texts = _blocks() + ["".join(chr(rnd.randint(1, 0x3000)) for _ in range(40)) for _ in range(300)]
    texts += ["ǅungla İstanbul ς Σ \u0345x \u0301a ÅNGSTRÖM", "", "   ", "a\u00a0b"]
    for text in texts:
        assert conn._backend.query("SELECT hdb_u61_terms(%s)", (text,))[0][0] == tokenizer.terms(text), text[:40]


def test_the_server_tokenizes_ascii_text_as_the_shim(pg):
    """ASCII text takes its own path on the server (split at once, A-Z folded by lower())."""
    conn = pg.connect()
    tokenizer = Unicode61()
    rnd = random.Random(9)
    texts = ["".join(chr(rnd.randint(1, 127)) for _ in range(rnd.randint(0, 60))) for _ in range(400)]
    texts += ["".join(map(chr, range(1, 128))), "", " ", "!!", " Ab9 ", "a", "-A-", "x\ty\nZ", "ABCXYZ abcxyz 0123456789"]
    for text in texts:
        assert conn._backend.query("SELECT hdb_u61_terms(%s)", (text,))[0][0] == tokenizer.terms(text), repr(text)


@pytest.mark.parametrize("size", [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000])
def test_the_servers_sha1_is_sha1(pg, size):
    data = bytes(range(256)) * 4
    conn = pg.connect()
    assert conn._backend.query("SELECT hdb_sha1(%s)", (data[:size],))[0][0] == hashlib.sha1(data[:size]).digest()


@pytest.mark.parametrize("token", ["a" * 40000, "é" * 20000, "aé" * 11000, "日" * 11000, "\U0001f600" * 9000])
def test_a_term_is_cut_where_the_shim_cuts_it(pg, token):
    conn = pg.connect()
    assert conn._backend.query("SELECT hdb_fts_raw(%s)", (token,))[0][0] == encode(clip_token(token))


def test_the_sync_triggers_run_on_the_server(pg, tmp_path):
    ref, shim = _both(pg, tmp_path)
    assert len(_natives(shim)) == 3
    for text in TEXTS:
        for conn in (ref, shim):
            conn.execute("INSERT INTO messages (session, content) VALUES ('s', ?)", (text,))
    storage = shim._fts_bridge.storage(shim._fts_bridge.specs["messages_fts"])
    rows = [(i + 1, (text,)) for i, text in enumerate(TEXTS)]
    postings, sizes, _ = storage.encode_rows(rows)
    q = shim._backend.query
    assert sorted(q("SELECT term, id, full_term, pos FROM messages_fts_idx")) == sorted(postings)
    assert sorted(q("SELECT id, sz, total FROM messages_fts_docsize")) == sorted(sizes)
    assert q("SELECT nrow, ntoken FROM messages_fts_data") == [(len(TEXTS), sum(s[2] for s in sizes))]
    for needle in ("hello", "cafe", "naive", "σίσυφοσ", "finance", "x" * 600, "tail", "end", "日本語のテキスト"):
        _same(ref, shim, MATCHING, (f'"{needle}"',))
    for conn in (ref, shim):
        conn.execute("UPDATE messages SET content = 'hello there' WHERE id = 2")
        conn.execute("DELETE FROM messages WHERE id IN (1, 4)")
    for needle in ("hello", "cafe", "there", "x" * 600, "tail"):
        _same(ref, shim, MATCHING, (f'"{needle}"',))
    _same(ref, shim, "SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH 'hello OR end'")
    shim.execute(CHECK)


def test_a_replace_leaves_the_old_terms_as_sqlite_does(pg, tmp_path):
    """SQLite's REPLACE deletes the old row without its delete trigger: its terms stay."""
    ref, shim = _both(pg, tmp_path)
    for conn in (ref, shim):
        conn.execute("INSERT INTO messages (id, content) VALUES (1, 'old words')")
        conn.execute("INSERT OR REPLACE INTO messages (id, content) VALUES (1, 'new words')")
        conn.execute("REPLACE INTO messages (id, content) VALUES (1, 'newer words')")
        conn.execute("INSERT INTO messages (id, content) VALUES (2, 'other')")
        conn.execute("UPDATE OR REPLACE messages SET id = 1, content = 'last' WHERE id = 2")
    for needle in ("old", "new", "newer", "words", "other", "last"):
        _same(ref, shim, MATCHING, (needle,))
    for conn in (ref, shim):  # the triggers run on the server again afterwards
        conn.execute("INSERT INTO messages (id, content) VALUES (5, 'after')")
    _same(ref, shim, MATCHING, ("after",))
    assert shim._backend.query("SELECT current_setting('hdb.native_triggers')") == [("1",)]


def test_a_writer_without_the_setting_is_left_alone(pg, tmp_path):
    """A session that does not say hdb.native_triggers (another version, which runs the
    triggers itself; any other client) writes no index rows through them."""
    _ref, shim = _both(pg, tmp_path)
    raw = pg.raw_connect()
    try:
        raw.execute(f'SET search_path = "{shim._backend.namespace}"')
        raw.execute("INSERT INTO messages (content) VALUES ('unseen')")
        raw.commit()
    finally:
        raw.close()
    assert shim._backend.query("SELECT count(*) FROM messages_fts_idx") == [(0,)]
    shim.execute("INSERT INTO messages (content) VALUES ('seen')")
    assert shim.execute(MATCHING, ("seen",)).fetchall() == [(2,)]


def test_a_renamed_column_is_followed(pg, tmp_path):
    ref, shim = _both(pg, tmp_path)
    before = _natives(shim)
    for conn in (ref, shim):
        conn.execute("INSERT INTO messages (content) VALUES ('first')")
        conn.execute("ALTER TABLE messages RENAME COLUMN content TO body")
        conn.execute("INSERT INTO messages (body) VALUES ('second')")
    assert len(_natives(shim)) == 3 and _natives(shim) != before
    assert _same(ref, shim, MATCHING, ("second",)) == [(2,)]
    assert shim._backend.query("SELECT id FROM messages_fts_idx WHERE term = %s", (b"second",)) == [(2,)]


def test_an_alter_that_makes_them_eligible_makes_them(pg, tmp_path):
    """The triggers name a column the table gains later: the server's follow the ALTER."""
    schema = [SCHEMA[0].replace(", content TEXT)", ")"), *SCHEMA[1:]]
    ref, shim = _both(pg, tmp_path, schema)
    assert _natives(shim) == []
    shim.close()
    shim = pg.connect(pg.path("native.db"), isolation_level=None)  # a fresh connection: no statement before
    for conn in (ref, shim):
        conn.execute("ALTER TABLE messages ADD COLUMN content TEXT")
        conn.execute("INSERT INTO messages (content) VALUES ('added later')")
    assert len(_natives(shim)) == 3
    assert _same(ref, shim, MATCHING, ("later",)) == [(1,)]
    assert shim._backend.query("SELECT id FROM messages_fts_idx WHERE term = %s", (b"later",)) == [(1,)]


def test_a_dropped_fts_table_fails_the_insert_as_in_sqlite(pg, tmp_path):
    ref, shim = _both(pg, tmp_path)
    for conn in (ref, shim):
        conn.execute("DROP TABLE messages_fts")
    assert _natives(shim) == []
    errors = []
    for conn, module in ((ref, std), (shim, hermes_dbapi)):
        with pytest.raises(module.OperationalError) as caught:
            conn.execute("INSERT INTO messages (content) VALUES ('x')")
        errors.append(str(caught.value))
    assert errors[0] == errors[1] == "no such table: main.messages_fts"
    _same(ref, shim, "SELECT count(*) FROM messages")


def test_a_temp_trigger_beside_them_runs_all_in_the_shim(pg, tmp_path):
    schema = [*SCHEMA, "CREATE TABLE log (msg TEXT)",
              "CREATE TEMP TRIGGER messages_log AFTER INSERT ON messages BEGIN "
              "INSERT INTO log VALUES (new.content); END"]
    ref, shim = _both(pg, tmp_path, schema)
    for conn in (ref, shim):
        conn.execute("INSERT INTO messages (content) VALUES ('once')")
    _same(ref, shim, MATCHING, ("once",))
    _same(ref, shim, "SELECT msg FROM log")
    assert shim._backend.query("SELECT pos FROM messages_fts_idx") == [("0",)]  # indexed once, not twice


def test_a_locked_index_fails_the_insert_alone(pg, tmp_path):
    """The index rows are written by the INSERT itself: a lock on them fails that
    statement with SQLite's busy error, and the transaction goes on."""
    shim = pg.connect(pg.path("locked.db"), isolation_level=None, timeout=0.3)
    for sql in SCHEMA:
        shim.execute(sql)
    with held(pg, shim, "messages_fts_idx"):
        shim.execute("BEGIN IMMEDIATE")
        with pytest.raises(hermes_dbapi.OperationalError, match="database is locked"):
            shim.execute("INSERT INTO messages (content) VALUES ('during')")
        assert shim.in_transaction
    shim.execute("INSERT INTO messages (content) VALUES ('after')")
    shim.execute("COMMIT")
    assert shim.execute("SELECT content FROM messages").fetchall() == [("after",)]
    assert shim.execute(MATCHING, ("after",)).fetchall() == shim.execute("SELECT id FROM messages").fetchall()
    shim.execute(CHECK)


def test_a_rowid_indexed_twice_keeps_both_as_fts5_does(pg, tmp_path):
    """The index already holds the rowid (written to the FTS table directly): the
    trigger's rows join it, as FTS5's do."""
    ref, shim = _both(pg, tmp_path)
    for conn in (ref, shim):
        conn.execute("INSERT INTO messages_fts (rowid, content) VALUES (1, 'manual words')")
        conn.execute("INSERT INTO messages (id, content) VALUES (1, 'trigger words')")
    for needle in ("manual", "trigger", "words", "NEAR(manual words)"):
        _same(ref, shim, MATCHING, (needle,))
    _same(ref, shim, "SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH 'words'")


def test_a_native_trigger_it_would_not_make_turns_them_off(pg, tmp_path):
    """Another version's native trigger on the namespace: this connection runs every
    trigger in the shim, with the server's off for its session (indexed once)."""
    _ref, shim = _both(pg, tmp_path)
    q = shim._backend.query
    q("CREATE FUNCTION hdb_native_elsewhere() RETURNS trigger LANGUAGE plpgsql AS "
      "$f$ BEGIN RETURN NULL; END $f$")
    q("CREATE TRIGGER hdb_native_elsewhere AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION hdb_native_elsewhere()")
    other = pg.connect(pg.path("native.db"), isolation_level=None)
    other.execute("INSERT INTO messages (content) VALUES ('once')")
    assert other._backend.query("SELECT current_setting('hdb.native_triggers')") == [("off",)]
    assert other.execute(MATCHING, ("once",)).fetchall() == [(1,)]
    assert q("SELECT pos FROM messages_fts_idx") == [("0",)]


MULTI = [
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT, tag TEXT, n INTEGER)",
    "CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, tag UNINDEXED, n, content='notes', content_rowid='id')",
    "CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN "
    "INSERT INTO notes_fts(rowid, title, body, tag, n) VALUES (new.id, new.title, new.body, new.tag, new.n); END",
    "CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN "
    "INSERT INTO notes_fts(notes_fts, rowid, title, body, tag, n) "
    "VALUES ('delete', old.id, old.title, old.body, old.tag, old.n); END",
]
NOTES = [(1, "Alpha title", "alpha body text " * 50, "tagged", 7), (2, None, "beta", "x", None),
         (3, "Gamma", "", "alpha", 12345), (4, "δέλτα Δ", "ünïcödé words", None, -3)]


def test_several_columns_and_executemany(pg, tmp_path):
    """Columns after the first (positions col << 32), an UNINDEXED one, an INTEGER
    one, rows inserted by executemany (PostgreSQL's COPY fires the triggers too)."""
    ref, shim = _both(pg, tmp_path, MULTI)
    assert len(_natives(shim)) == 2
    for conn in (ref, shim):
        conn.executemany("INSERT INTO notes VALUES (?, ?, ?, ?, ?)", NOTES)
    storage = shim._fts_bridge.storage(shim._fts_bridge.specs["notes_fts"])
    postings, sizes, _ = storage.encode_rows([(r[0], r[1:]) for r in NOTES])
    q = shim._backend.query
    assert sorted(q("SELECT term, id, full_term, pos FROM notes_fts_idx")) == sorted(postings)
    assert sorted(q("SELECT id, sz, total FROM notes_fts_docsize")) == sorted(sizes)
    query = "SELECT rowid, bm25(notes_fts) FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank, rowid"
    for needle in ("alpha", "body:alpha", "title:gamma", "tagged", "12345", "delta", "unicode"):
        _same(ref, shim, query, (needle,))
    for conn in (ref, shim):
        conn.execute("DELETE FROM notes WHERE id IN (1, 4)")
    for needle in ("alpha", "delta", "beta"):
        _same(ref, shim, query, (needle,))
    shim.execute("INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)")
