"""FTS5 through ``hermes_dbapi.connect`` on every backend, compared with sqlite3.

Each test runs the same statements on the real sqlite3 and on the shim and
compares every result (rows with exact types, or the error class and text).
Corpora: ``dialects/fts/`` (documents and MATCH strings).
"""

from __future__ import annotations

import json
import random
import sqlite3 as std
from pathlib import Path

import pytest

DIALECTS = Path(__file__).resolve().parents[2] / "dialects" / "fts"
# NUL inside text is a general PostgreSQL limit (text cannot hold it), not an FTS one
DOCS = [r for r in json.loads((DIALECTS / "documents.json").read_text())["rows"] if not any("\x00" in (v or "") for v in r)]
QUERIES = json.loads((DIALECTS / "queries.json").read_text())

# Hermes' early schema (AUTOINCREMENT, as Hermes declares it: a plain INTEGER PRIMARY
# KEY lets SQLite reuse the id of a deleted last row, which server sequences never do).
EARLY = [
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT, content TEXT, tool_name TEXT, tool_calls TEXT)",
    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)",
    "CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
    "CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); END",
    "CREATE TRIGGER messages_fts_au AFTER UPDATE ON messages BEGIN "
    "INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content); "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
]

SEARCH = (
    "SELECT m.id, m.session, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet, rank "
    "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
    "WHERE messages_fts MATCH ? AND m.session IN (?, ?) ORDER BY rank LIMIT ? OFFSET ?"
)


# many hits of few ranks: the shapes of rank-ordered searches
RANKED_SCHEMA = [
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT, content TEXT)",
    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)",
    "CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN "
    "INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
]


def observe(conn, sql, params=()):
    try:
        return conn.execute(sql, params).fetchall()
    except std.Error as exc:
        return (type(exc).__name__, str(exc))


class Pair:
    def __init__(self, backend, tmp_path):
        self.ref = std.connect(str(tmp_path / "reference.db"))
        self.shim = backend.connect(backend.path("shim.db"))

    def same(self, sql, params=()):
        want, got = observe(self.ref, sql, params), observe(self.shim, sql, params)
        assert got == want, f"{sql} {params!r}"
        return got

    def script(self, statements):
        for s in statements:
            self.same(s)

    def commit(self):
        self.ref.commit()
        self.shim.commit()

    def fill(self, rows):
        """(session, content) rows into RANKED_SCHEMA's messages, committed."""
        for conn in (self.ref, self.shim):
            conn.executemany("INSERT INTO messages(session, content) VALUES (?, ?)", rows)
        self.commit()


@pytest.fixture
def pair(backend, tmp_path):
    p = Pair(backend, tmp_path)
    yield p
    p.ref.close()


def test_early_schema_sync_and_search(pair):
    pair.script(EARLY)
    rnd = random.Random(6)
    sessions = ["cli", "telegram", "slack"]
    ids: list[int] = []
    for batch in range(4):
        for _ in range(12):
            op = rnd.random()
            if op < 0.6 or not ids:
                doc = rnd.choice(DOCS)
                pair.same("INSERT INTO messages(session, content, tool_name) VALUES (?, ?, ?)",
                          (rnd.choice(sessions), doc[0], doc[1]))
                ids.append(pair.ref.execute("SELECT max(id) FROM messages").fetchone()[0])
            elif op < 0.8:
                pair.same("UPDATE messages SET content = ? WHERE id = ?", (rnd.choice(DOCS)[0], rnd.choice(ids)))
            else:
                victim = ids.pop(rnd.randrange(len(ids)))
                pair.same("DELETE FROM messages WHERE id = ?", (victim,))
        pair.commit()
        for q in QUERIES["hermes"] + ["fox", "dog OR search", "qu*", '"brown fox"']:
            pair.same(SEARCH, (q, "cli", "slack", 20, 0))
        pair.same("SELECT COUNT(*) FROM messages_fts")
        pair.same("SELECT EXISTS(SELECT 1 FROM messages_fts_docsize)")


def test_probes_and_errors(pair):
    pair.script(EARLY)
    pair.same("SELECT * FROM messages_fts LIMIT 0")
    pair.same("SELECT 1 FROM messages_fts WHERE messages_fts MATCH '\"\"' LIMIT 1")
    pair.same("CREATE VIRTUAL TABLE temp.fts_probe USING fts5(x)")
    pair.same("DROP TABLE temp.fts_probe")
    pair.same("CREATE VIRTUAL TABLE bad USING fts5(a, tokenize='nope')")
    for q in QUERIES["errors"][:40]:
        pair.same("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", (q,))


@pytest.mark.parametrize("detail", ["full"])  # SQLite 3.40.1 itself segfaults on some detail=column cases
def test_grammar_rank_snippet_highlight(pair, detail):
    pair.same(f"CREATE VIRTUAL TABLE t USING fts5(a, b, c, detail={detail})")
    for i, row in enumerate(DOCS):
        pair.same("INSERT INTO t(rowid, a, b, c) VALUES (?, ?, ?, ?)", (i + 1, *row))
    pair.commit()
    for q in QUERIES["grammar"]:
        pair.same("SELECT rowid, rank, highlight(t, 0, '[', ']'), snippet(t, -1, '<', '>', '…', 8), "
                  "bm25(t, 2.0, 1.0) FROM t WHERE t MATCH ? ORDER BY rank", (q,))


def test_contentful_forms(pair):
    pair.script([
        "CREATE VIRTUAL TABLE t USING fts5(content)",
        "INSERT INTO t(content) VALUES ('alpha beta'), ('beta gamma'), ('gamma delta alpha')",
        "INSERT INTO t(rowid, content) VALUES (10, 'omega alpha')",
    ])
    pair.same("SELECT rowid, content FROM t('alpha')")
    pair.same("SELECT rowid FROM t WHERE t = 'beta'")
    pair.same("SELECT rowid, * FROM t WHERE content MATCH 'gamma' ORDER BY rank")
    pair.same("UPDATE t SET content = 'zeta' WHERE rowid = 2")
    pair.same("DELETE FROM t WHERE t MATCH 'alpha' AND rowid > 5")
    pair.same("SELECT rowid, content FROM t ORDER BY rowid")
    pair.same("INSERT INTO t(t) VALUES ('delete-all')")
    pair.same("INSERT INTO t(t) VALUES ('optimize')")
    pair.same("INSERT INTO t(t, rank) VALUES ('merge', 16)")
    pair.same("INSERT INTO t(t) VALUES ('bogus')")
    pair.same("SELECT rowid FROM t WHERE t MATCH 'zeta OR alpha'")


# values that array literals and NUL escaping must carry intact (PostgreSQL writes an
# index's rows as array parameters: quotes, backslashes, braces, commas, NULL-looking text)
AWKWARD = ['a\\b "q" {x,y}', "nul\x00here", 'esc\x01x \\"', None, "NULL", "", "it's", "é ü 😀", "\\x41"]


def test_contentful_values_that_array_literals_must_carry(pair):
    pair.same("CREATE VIRTUAL TABLE f USING fts5(a, b)")
    for i, value in enumerate(AWKWARD, 1):
        pair.same("INSERT INTO f(rowid, a, b) VALUES (?, ?, ?)", (i, value, f"x{i}"))
    pair.shim.executemany("INSERT INTO f(a, b) VALUES (?, ?)", [(v, "y") for v in AWKWARD])
    pair.ref.executemany("INSERT INTO f(a, b) VALUES (?, ?)", [(v, "y") for v in AWKWARD])
    pair.same("SELECT rowid, a, b FROM f ORDER BY rowid")
    pair.same("SELECT rowid, highlight(f, 0, '[', ']') FROM f WHERE f MATCH 'here OR q OR x OR NULL OR x41'")
    pair.same("INSERT INTO f(f) VALUES ('integrity-check')")


def test_hits_table_stays_small_over_many_searches(backend):
    """Nothing vacuums or purges the temporary table a search's hits go through;
    emptying it with DELETE alone made it (and every search) grow with each search.
    Every search keeps its answer across the table's renewals; PostgreSQL tells the
    table's size."""
    if not backend.is_server:
        pytest.skip("a server's temporary hits table")
    conn = backend.connect()
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(a)")
    conn.executemany("INSERT INTO f(a) VALUES (?)", [(f"common word{i}",) for i in range(500)])
    conn.commit()
    want = [(i, f"common word{i - 1}") for i in range(1, 501)]
    for n in range(60):  # 30,000 hits written in all, inside a transaction and outside
        if n == 30:
            conn.execute("BEGIN")
        got = conn.execute("SELECT rowid, a FROM f WHERE f MATCH 'common' ORDER BY rank, rowid").fetchall()
        assert sorted(got) == want
    conn.rollback()
    if backend.name == "postgres":
        size = conn._backend.query(
            "SELECT sum(pg_relation_size(c.oid)) FROM pg_class c WHERE c.relname LIKE 'hermes_fts_hits%%' "
            "AND c.relpersistence = 't' AND pg_table_is_visible(c.oid)")[0][0]
        assert 0 < size <= 64 * 8192  # 30,000 rows would take about 160 pages


def test_search_hits_travel_with_the_statement(backend, tmp_path):
    """A search's hits (rowid, rank) go to the server as parameters of the statement
    itself (``hdb_fts_hits``: two arrays on PostgreSQL, a JSON_TABLE on MariaDB), not
    through a temporary table filled in a round trip of its own; a rank-ordered search
    of many hits keeps the table, indexed by rank, unless a LIMIT lets its best hits
    go alone.  The rows are sqlite3's either way."""
    if not backend.is_server:
        pytest.skip("a server's hits")
    ref, shim = std.connect(":memory:"), backend.connect(backend.path("hits.db"))
    for conn in (ref, shim):
        for sql in EARLY[:3]:
            conn.execute(sql)
        conn.executemany("INSERT INTO messages(session, content) VALUES (?, ?)",
                         [(("cli", "slack")[i % 2], ("alpha beta", "alpha", "gamma")[i % 3]) for i in range(1200)])
        conn.commit()
    few = (SEARCH, ("beta", "cli", "slack", 5, 2))
    best = ("SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 3", ("alpha",))
    many = ("SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank", ("alpha",))

    def hits_tables():
        if backend.name == "postgres":  # the server's word: its temporary tables
            return len(shim._backend.query(
                "SELECT relname FROM pg_class WHERE relname LIKE 'hermes_fts_hits%%' AND relkind = 'r' "
                "AND relpersistence = 't' AND pg_table_is_visible(oid)"))
        return len(shim._fts_bridge.temp_rows)  # MariaDB lists no temporary tables: the tables written

    assert observe(shim, *few) == observe(ref, *few)
    assert hits_tables() == 0
    assert observe(shim, *best) == observe(ref, *best)  # 800 hits, the best 256 sent
    assert hits_tables() == 0
    assert observe(shim, *many) == observe(ref, *many)  # 800 hits
    assert hits_tables() == 1


def _plan_of(shim, sql):
    return next(planned for (text, _stash), (_epoch, planned, _names) in shim._fts_bridge._plans.items() if text == sql)


def test_rank_ordered_limit_sends_the_best_hits(pair, backend):
    """``ORDER BY rank … LIMIT n`` over many hits: only the best hits go to the server
    (at least 256, four times LIMIT + OFFSET, and every hit tying the last of them),
    inline; when the statement's other conditions leave fewer than n rows of them,
    it runs again with every hit.  The rows are sqlite3's: ties at the cut, a filter
    that only the worse hits pass, OFFSET, and the shapes that need every hit (no
    LIMIT, DESC, GROUP BY, DISTINCT)."""
    pair.script(RANKED_SCHEMA)
    # 'alpha' in 1,800 rows of four lengths (four ranks, 450 rows each: the cut ties);
    # the best-ranked (shortest) rows are all session 'cli', the worst all 'rare'
    texts = ["alpha", "alpha beta", "alpha beta gamma", "alpha beta gamma delta"]
    rows = [(("cli", "slack", "slack", "rare")[i % 4], texts[i % 4]) for i in range(1800)]
    pair.fill(rows)
    ranked = "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank"
    cut = [
        (SEARCH, ("alpha", "cli", "slack", 20, 0)),
        (SEARCH, ("alpha", "slack", "slack", 30, 5)),
        (ranked + " LIMIT 9", ("alpha",)),
        (ranked + ", rowid DESC LIMIT 5 OFFSET 3", ("alpha",)),
        (ranked + " LIMIT 0", ("alpha",)),
        ("SELECT rowid, (SELECT count(*) FROM messages) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank "
         "LIMIT 5", ("alpha",)),  # a nested query's aggregate: still one row per hit
        ("SELECT m.session, rank FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
         "WHERE messages_fts MATCH 'alpha' ORDER BY rank, m.session DESC LIMIT 7", ()),
        ("SELECT m.id, rank FROM messages m JOIN messages_fts f ON f.rowid = m.id "
         "WHERE f.messages_fts MATCH 'alpha' ORDER BY f.rank LIMIT 4, 6", ()),
        ("SELECT f.rowid, m.session FROM messages_fts f LEFT JOIN messages m ON m.id = f.rowid + 1 "
         "WHERE f.messages_fts MATCH 'alpha' ORDER BY f.rank LIMIT 3", ()),
    ]
    for sql, params in cut:
        pair.same(sql, params)
    short = (SEARCH, ("alpha", "rare", "rare", 10, 0))  # the best 450 hits are 'cli': none is 'rare'
    every = [
        (ranked + " LIMIT -1", ("alpha",)),
        (ranked + " DESC LIMIT 9", ("alpha",)),
        (ranked + " LIMIT 3 OFFSET 500", ("alpha",)),  # 4 x 503 is more than half the hits
        ("SELECT m.session, min(rank) FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
         "WHERE messages_fts MATCH 'alpha' GROUP BY m.session ORDER BY min(rank) LIMIT 2", ()),
        ("SELECT DISTINCT rank FROM messages_fts WHERE messages_fts MATCH 'alpha' ORDER BY rank LIMIT 3", ()),
    ]
    for sql, params in [short, *every]:
        pair.same(sql, params)
    if backend.is_server:
        assert _plan_of(pair.shim, short[0]).paused > 0  # it fell short and ran again with every hit
        assert _plan_of(pair.shim, cut[2][0]).paused == 0  # the best hits sufficed
        assert _plan_of(pair.shim, cut[2][0]).cut is not None
        assert _plan_of(pair.shim, every[2][0]).cut is not None  # planned, but OFFSET 500 leaves nothing to cut
        assert all(_plan_of(pair.shim, sql).cut is None for sql, _p in [every[1], *every[3:]])


def test_match_in_each_place_sqlite_plans_it(pair, backend):
    """Where a MATCH may stand, as SQLite's planner decides: a WHERE term or the ON of
    the join that brings the FTS table in (an inner join's ON too), several MATCHes on
    one table ANDed (phrases in order for bm25 and highlight); elsewhere (NOT, a
    comparison, the optional side of an outer join in WHERE, a RIGHT/FULL join, an
    alias for the hidden column) SQLite's error, its compile error first."""
    pair.script([
        "CREATE VIRTUAL TABLE t USING fts5(a, b)",
        "CREATE TABLE m (id INTEGER PRIMARY KEY, x TEXT)",
        "INSERT INTO t(rowid, a, b) VALUES (1, 'hello world', 'x'), (2, 'hello', 'world'), (3, 'world', 'peace')",
        "INSERT INTO m VALUES (1, 'q'), (2, 'r'), (3, 's'), (4, 't')",
    ])
    pair.commit()
    aux = "SELECT rowid, highlight(t, 0, '[', ']'), highlight(t, 1, '[', ']'), bm25(t) FROM t "
    same = [
        "SELECT f.rowid, m.id FROM m JOIN t f ON f.rowid = m.id AND t MATCH 'world' ORDER BY 2",
        "SELECT f.rowid, m.id FROM t f JOIN m ON f.rowid = m.id AND t MATCH 'world' ORDER BY 2",
        "SELECT f.rowid, m.id FROM m LEFT JOIN t f ON f.rowid = m.id AND f.t MATCH 'world' ORDER BY 2",
        "SELECT f.rowid, m.id FROM m LEFT JOIN t f ON t MATCH 'peace' ORDER BY 2",
        "SELECT f.rowid, m.id FROM m LEFT JOIN t f ON f.rowid = m.id AND a MATCH 'hello' JOIN m n ON n.id = m.id ORDER BY 2",
        "SELECT rowid FROM t WHERE t MATCH 'hello' AND (t MATCH 'world') ORDER BY rowid",
        aux + "WHERE t MATCH 'hello' AND a MATCH 'world' ORDER BY rank",
        aux + "WHERE a MATCH 'world' AND t = 'hello' ORDER BY rank",
        aux + "WHERE t MATCH 'hello' AND t MATCH 'world OR peace' AND b MATCH 'world' ORDER BY rank",
        aux + "('hello') WHERE b MATCH 'world'",
        "SELECT rowid FROM t WHERE t MATCH 'hello' AND t MATCH '*reads'",
        "SELECT rowid FROM t WHERE t MATCH 'hello' AND t MATCH 'a:'",
        "SELECT rowid FROM t WHERE t MATCH 'hello' AND t MATCH ''",
        "SELECT rowid FROM t WHERE (t MATCH 'hello' AND rowid > 0) AND (rowid < 2 OR rowid > 9)",
        # errors
        "SELECT rowid FROM t f WHERE f MATCH 'hello'",
        "SELECT rowid FROM t f WHERE f.f MATCH 'hello'",
        "SELECT rowid FROM t WHERE NOT t MATCH 'hello'",
        "SELECT rowid FROM t WHERE (t MATCH 'hello') = 1",
        "SELECT rowid FROM t WHERE 'hello' MATCH t",
        "SELECT f.rowid FROM m LEFT JOIN t f ON f.rowid = m.id WHERE t MATCH 'hello'",
        "SELECT f.rowid FROM m RIGHT JOIN t f ON f.rowid = m.id WHERE t MATCH 'hello'",
        "SELECT f.rowid FROM m LEFT JOIN t f ON f.rowid = m.id JOIN m n ON n.id = m.id AND t MATCH 'hello'",
        "SELECT rowid FROM t WHERE zz MATCH 'x'",
        "SELECT rowid FROM t WHERE t MATCH 'hello' AND NOT zz MATCH 1",
        "SELECT rowid FROM t, m WHERE t MATCH 'hello' AND x MATCH 1",
    ]
    for sql in same:
        pair.same(sql)
    if backend.is_server:  # SQLite unions index scans for an OR: not emulated
        with pytest.raises(std.NotSupportedError, match="MATCH on an FTS5 table inside OR"):
            pair.shim.execute("SELECT rowid FROM t WHERE t MATCH 'hello' OR rowid = 3")


def test_unordered_search_comes_in_rowid_order(pair, backend):
    """Without ORDER BY, FTS5 returns a MATCH's rows in rowid order (its scan): the
    shim asks the server for that order when each row is one hit of the one FTS
    table, also when a nested query in the select list aggregates; not for a
    SELECT whose own aggregate makes one row."""
    pair.script(RANKED_SCHEMA)
    pair.fill([("cli", ("alpha beta", "alpha")[i % 2]) for i in range(600)])
    scan = [
        "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH 'alpha'",
        "SELECT rowid, (SELECT count(*) FROM messages) FROM messages_fts WHERE messages_fts MATCH 'alpha'",
        "SELECT * FROM (SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'alpha')",
    ]
    grouped = "SELECT count(*), max(rank) FROM messages_fts WHERE messages_fts MATCH 'alpha'"
    for sql in [*scan, grouped]:
        pair.same(sql)
    if backend.is_server:
        assert all('ORDER BY "messages_fts"."hermes_rowid"' in _plan_of(pair.shim, sql).text for sql in scan)
        assert "ORDER BY" not in _plan_of(pair.shim, grouped).text


def _rank_indexes(conn):
    """Index definitions on the connection's PostgreSQL hits tables."""
    rows = conn._backend.query(
        "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
        "WHERE c.relname LIKE 'hermes_fts_hits%%' AND c.relpersistence = 't' AND pg_table_is_visible(c.oid)")
    return [definition.split(" USING btree ")[1] for (definition,) in rows]


def test_rank_ordered_search_reads_hits_in_rank_order(pair, backend):
    """``ORDER BY rank [LIMIT n]`` over many hits: on PostgreSQL the hits table is
    indexed by (rank, rowid), so the server reads the first n hits instead of joining
    every match (a common term's 10,000 hits took 23 ms to join for a LIMIT of 20,
    0.1 ms through the index); fewer hits than ``_INDEX_FROM`` make no index (they are
    joined fast without one, and keeping it would cost them more).  The rows are
    sqlite3's: ties in rank broken by rowid, DESC, OFFSET, inside a transaction that
    is rolled back (the table and its index made again after)."""
    pair.script(RANKED_SCHEMA)
    words = ["alpha", "beta alpha", "alpha alpha gamma", "delta", "alpha beta beta"]
    # many equal documents: equal ranks, ordered by rowid; 'alpha' in 576, 'beta' in 288
    rows = [(("cli", "slack")[i % 2], words[i % 5]) for i in range(720)]
    pair.fill(rows)
    ranked = "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank"
    few = [
        (SEARCH, ("beta", "cli", "slack", 7, 0)),
        (ranked + " LIMIT 9", ("gamma OR delta",)),
        (ranked + " DESC LIMIT 9", ("beta",)),
        (ranked, ("nothing",)),
    ]
    for sql, params in few:
        pair.same(sql, params)
    if backend.name == "postgres":
        assert _rank_indexes(pair.shim) == []
    many = [
        (SEARCH, ("alpha", "cli", "slack", 7, 0)),
        (SEARCH, ("alpha", "cli", "cli", 10, 30)),
        (SEARCH, ("alpha OR gamma", "cli", "slack", 600, 0)),
        (ranked + " LIMIT 9", ("alpha",)),
        (ranked + " DESC LIMIT 9", ("alpha",)),
        (ranked + ", rowid DESC LIMIT 5 OFFSET 3", ("alpha",)),
    ]
    for sql, params in many + few:  # the small ones again, through the indexed tables now
        pair.same(sql, params)
    pair.same("BEGIN")
    pair.same(ranked + " LIMIT 4", ("alpha",))
    pair.same("ROLLBACK")
    pair.same(ranked + " LIMIT 4", ("alpha",))
    pair.same(SEARCH, ("alpha", "cli", "slack", 3, 0))
    if backend.name == "postgres":
        assert sorted(_rank_indexes(pair.shim)) == ["(rnk NULLS FIRST, rid)"] * 2  # two shapes of hits


def _read_only_pair(backend, tmp_path, rows=720):
    """(reference, shim) read-only connections to the same FTS data, made by writers."""
    ref_path, shim_path = str(tmp_path / "reference.db"), backend.path("read_only.db")
    words = ["alpha", "beta alpha", "alpha alpha gamma", "delta", "alpha beta beta"]
    data = [(("cli", "slack")[i % 2], words[i % 5]) for i in range(rows)]
    writers = [std.connect(ref_path), backend.connect(shim_path)]
    for conn in writers:
        for sql in EARLY[:3]:
            conn.execute(sql)
        conn.executemany("INSERT INTO messages(session, content) VALUES (?, ?)", data)
        conn.commit()
    writers[0].close()
    ref = std.connect(f"file:{ref_path}?mode=ro", uri=True)
    return ref, backend.connect(f"file:{shim_path}?mode=ro", uri=True)


READ_ONLY_SEARCHES = [
    (SEARCH, ("alpha", "cli", "slack", 7, 0)),
    ("SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 9", ("alpha",)),
    ("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", ("gamma",)),
    ("SELECT count(*), min(rank) FROM messages_fts WHERE messages_fts MATCH ?", ("beta",)),
]


def test_read_only_connection_searches(backend, tmp_path):
    """SQLite searches FTS5 tables on a read-only connection (``mode=ro``); so does the
    shim, whose hits tables are made outside the read-only rule, apart (a temporary
    table is not the database): the rows are sqlite3's, outside a transaction and
    inside one once the session has the search's table; writes are still refused."""
    ref, shim = _read_only_pair(backend, tmp_path)
    try:
        for _round in range(10):  # later rounds find the tables made, and renew them (576 hits a search)
            for sql, params in READ_ONLY_SEARCHES:
                assert observe(shim, sql, params) == observe(ref, sql, params), sql
        for conn in (ref, shim):
            conn.execute("BEGIN")
        for sql, params in READ_ONLY_SEARCHES:
            assert observe(shim, sql, params) == observe(ref, sql, params), sql
        for conn in (ref, shim):
            conn.rollback()
        insert = "INSERT INTO messages(session, content) VALUES ('cli', 'alpha')"
        assert observe(shim, insert) == observe(ref, insert) == ("OperationalError", "attempt to write a readonly database")
    finally:
        ref.close()


def test_read_only_connection_searches_first_inside_a_transaction(backend, tmp_path):
    """A read-only connection's first search of a kind inside a transaction: the hits
    travel as the statement's parameters, no table to make (which the servers refuse
    there)."""
    ref, shim = _read_only_pair(backend, tmp_path, rows=50)
    try:
        for conn in (ref, shim):
            conn.execute("BEGIN")
        for sql, params in READ_ONLY_SEARCHES:
            assert observe(shim, sql, params) == observe(ref, sql, params), sql
    finally:
        ref.close()


def test_view_content_and_trigram_rebuild(pair):
    pair.script([
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, role TEXT, content TEXT, tool_name TEXT, tool_calls TEXT)",
        "CREATE VIEW messages_fts_src AS SELECT id, CASE WHEN role = 'tool' THEN substr(content, 1, 20) "
        "ELSE content END AS content, tool_name, tool_calls FROM messages",
        "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, "
        "content='messages_fts_src', content_rowid='id')",
        "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, "
        "content='messages_fts_src', content_rowid='id', tokenize='trigram')",
    ])
    for i, (content, tool_name, tool_calls) in enumerate(DOCS):
        pair.same("INSERT INTO messages(role, content, tool_name, tool_calls) VALUES (?, ?, ?, ?)",
                  ("tool" if i % 3 == 0 else "user", content, tool_name, tool_calls))
    pair.same("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
    pair.same("INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild')")
    pair.commit()
    for q in QUERIES["hermes"] + ["fox", "tool_name:search", "{content tool_calls}: data*"]:
        pair.same("SELECT rowid, snippet(messages_fts, -1, '>>>', '<<<', '...', 40), rank FROM messages_fts "
                  "WHERE messages_fts MATCH ? ORDER BY rank", (q,))
    for q in ['"qui"', '"own fo"', "abc"]:
        pair.same("SELECT rowid, rank FROM messages_fts_trigram WHERE messages_fts_trigram MATCH ? ORDER BY rank", (q,))


def test_rollback_undoes_index(pair):
    pair.script(EARLY)
    pair.same("INSERT INTO messages(content) VALUES ('kept words')")
    pair.commit()
    pair.same("INSERT INTO messages(content) VALUES ('lost words')")
    pair.ref.rollback()
    pair.shim.rollback()
    pair.same("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'words'")
    pair.same("DROP TABLE messages_fts")
    pair.same("SELECT name FROM sqlite_master ORDER BY name")


def test_executemany_batches_like_row_by_row(pair):
    """executemany into an FTS table: one batched write, same rowids, rowcount and partial effect on error."""
    pair.same("CREATE VIRTUAL TABLE t USING fts5(a, b)")
    pair.same("INSERT INTO t(rowid, a) VALUES (50, 'seed')")
    rows = [(f"word{i} common", None if i % 3 else f"extra{i}") for i in range(30)]
    for conn in (pair.ref, pair.shim):
        cur = conn.executemany("INSERT INTO t(a, b) VALUES (?, ?)", rows)
        assert (cur.rowcount, cur.lastrowid) == (30, None)
    pair.same("SELECT last_insert_rowid()")
    pair.same("SELECT rowid, a, b FROM t WHERE t MATCH 'common OR seed' ORDER BY rowid")
    for conn in (pair.ref, pair.shim):  # a duplicate rowid midway: the rows before it stay
        with pytest.raises(std.IntegrityError):
            conn.executemany("INSERT INTO t(rowid, a) VALUES (?, ?)", [(200, "x"), (201, "y"), (50, "dup")])
    pair.same("SELECT rowid, a FROM t WHERE rowid >= 50 ORDER BY rowid")
    pair.same("INSERT INTO t(t) VALUES ('integrity-check')")


def test_unencodable_text_refused_before_anything_runs(pair):
    """A str UTF-8 cannot encode (a lone surrogate), bound to an FTS write, a write whose
    triggers index it, or a MATCH: sqlite3's UnicodeEncodeError, placed in the value,
    before anything runs; the transaction and the index stay as they were."""
    pair.script(EARLY)
    pair.same("CREATE VIRTUAL TABLE t USING fts5(a)")
    pair.same("INSERT INTO messages(content) VALUES ('kept words')")
    pair.same("INSERT INTO t(rowid, a) VALUES (1, 'kept words')")
    bad = "bad \ud800 words"
    for sql, params in [("INSERT INTO t(rowid, a) VALUES (?, ?)", (2, bad)),
                        ("INSERT INTO messages(content) VALUES (?)", (bad,)),
                        ("SELECT rowid FROM t WHERE t MATCH ?", (bad,)),
                        ("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", (bad,))]:
        raised = []
        for conn in (pair.ref, pair.shim):
            with pytest.raises(UnicodeEncodeError) as caught:
                conn.execute(sql, params)
            raised.append(str(caught.value))
        assert raised[1] == raised[0], sql
        assert pair.shim.in_transaction == pair.ref.in_transaction
    pair.commit()
    pair.same("SELECT rowid FROM t WHERE t MATCH 'words'")
    pair.same("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'words'")
    pair.same("INSERT INTO t(t) VALUES ('integrity-check')")
    pair.same("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")


def test_snippets_for_returned_rows_and_expressions(pair):
    """snippet()/highlight() as plain result columns, under LIMIT, and inside expressions and filters."""
    pair.same("CREATE VIRTUAL TABLE t USING fts5(a)")
    for i in range(40):
        pair.same("INSERT INTO t(a) VALUES (?)", (f"alpha beta {i} gamma {'alpha ' * (i % 4)}delta",))
    for sql in [
        "SELECT rowid, snippet(t, 0, '[', ']', '..', 3) FROM t WHERE t MATCH 'alpha' ORDER BY rank LIMIT 5",
        "SELECT highlight(t, 0, '<', '>') AS h, rowid FROM t WHERE t MATCH 'gamma' ORDER BY rank LIMIT 3 OFFSET 2",
        "SELECT rowid, length(snippet(t, 0, '[', ']', '..', 3)) FROM t WHERE t MATCH 'alpha' ORDER BY rank",
        "SELECT rowid FROM t WHERE t MATCH 'alpha' AND highlight(t, 0, '[', ']') LIKE '%[alpha] [alpha]%'",
        "SELECT highlight(t, 0, '[', ']') AS h FROM t WHERE t MATCH 'delta' ORDER BY h DESC LIMIT 4",
        "SELECT snippet(t, 0, '[', ']', '..', 2), snippet(t, 0, '[', ']', '..', 2) FROM t WHERE t MATCH 'beta' LIMIT 2",
        "SELECT snippet(t, 0, '[', ']') FROM t WHERE t MATCH 'beta'",
        "SELECT rowid FROM t WHERE t MATCH 'nomatch' AND snippet(t, 0, '[', ']') IS NULL",
    ]:
        pair.same(sql)


def test_snippet_cut_inside_a_character(pair):
    """trigram snippets can end inside a UTF-8 character: sqlite3 cannot decode them, and says so on fetch."""
    pair.same("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='trigram')")
    pair.same("INSERT INTO t(a) VALUES ('の APPLE queried 日本語 ponies token baz AND nine foo.bar lazy v1.2.3 ſ 中 "
              "AND... ǅemal in runs out? lazy are conditional uber :')")
    pair.same("INSERT INTO t(a) VALUES ('plain ascii foo text')")
    sql = "SELECT rowid, snippet(t, 0, '[', ']', '~', 40) FROM t WHERE t MATCH 'foo' ORDER BY rowid DESC"
    for conn in (pair.ref, pair.shim):
        conn.text_factory = bytes
    pair.same(sql)
    for conn in (pair.ref, pair.shim):
        conn.text_factory = str
    pair.same(sql)
    outcomes = []
    for conn in (pair.ref, pair.shim):
        cur = conn.execute(sql)
        got = [cur.fetchone()]
        for _ in range(2):  # the undecodable row stays next: every fetch raises again
            with pytest.raises(std.OperationalError) as err:
                cur.fetchone()
            got.append(str(err.value))
        outcomes.append(got)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("module", ["rtree(id, minx, maxx)", "fts4(body)", "fts3(body)", "fts5vocab(t, row)"])
def test_other_virtual_table_modules_are_refused(backend, module):
    """Only FTS5 is emulated: CREATE VIRTUAL TABLE with another module is NotSupportedError
    on a server and leaves nothing behind (it used to succeed, then every use failed
    with "no such table"); the transaction goes on.  SQLite itself creates it."""
    conn = backend.connect(backend.path("modules.db"))
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
    conn.execute("INSERT INTO t(a) VALUES ('kept')")
    sql = f"CREATE VIRTUAL TABLE v USING {module}"
    if not backend.is_server:
        conn.execute(sql)
        return
    with pytest.raises(std.NotSupportedError, match=f"virtual table module {module.split('(')[0]}"):
        conn.execute(sql)
    assert conn.in_transaction
    conn.commit()
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'v'").fetchall() == []
    assert conn.execute("SELECT a FROM t WHERE t MATCH 'kept'").fetchall() == [("kept",)]
