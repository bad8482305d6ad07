"""A lone term's search ranked by the server (issue 8, ``fts/server/ranked.py``).

``... WHERE t MATCH 'word' ORDER BY rank LIMIT n`` on a server: the server
computes every row's bm25 and sends the best rows only.  The rows, their rank
doubles bit for bit, snippets and highlights must be sqlite3's, on every
backend; on PostgreSQL and MariaDB the server must actually have ranked them,
and only for the queries it can rank exactly.
"""

from __future__ import annotations

import random

import pytest

from hermes_dbapi.fts.server import select
from hermes_dbapi.fts.server.storage import Storage

from .test_fts_server import RANKED_SCHEMA, SEARCH, Pair

WORDS = [f"w{i}" for i in range(300)]


@pytest.fixture
def pair(backend, tmp_path):
    p = Pair(backend, tmp_path)
    p.script(RANKED_SCHEMA)
    rnd = random.Random(8)
    rows = []
    for i in range(1500):
        late = i >= 1400  # session 'late': long rows holding 'topic' once, ranked below all others
        words = [rnd.choice(WORDS) for _ in range(rnd.randint(36, 40) if late else rnd.randint(1, 30))]
        for _ in range((1 if late else rnd.choice((1, 1, 1, 2, 3))) if i % 5 else 0):  # bm25 frequencies
            words.insert(rnd.randrange(len(words) + 1), "topic")
        rows.append(("late" if late else ("cli", "slack", "rare")[i % 3], " ".join(words)))
    p.fill(rows)
    yield p
    p.ref.close()


@pytest.fixture
def server_ranked(backend, monkeypatch):
    """How many searches the server ranked (the real method, counted)."""
    calls = []
    real = Storage.best_by_bm25

    def counted(self, *args):
        calls.append(args[0])
        return real(self, *args)

    monkeypatch.setattr(Storage, "best_by_bm25", counted)
    return calls


RANKED = "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank"
SNIPPETS = ("SELECT rowid, highlight(messages_fts, 0, '[', ']'), snippet(messages_fts, 0, '<', '>', '~', 4), rank "
            "FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank, rowid DESC LIMIT ? OFFSET ?")


@pytest.mark.parametrize(("sql", "params", "by_server"), [
    (SEARCH, ("topic", "cli", "slack", 20, 0), True),
    (SEARCH, ("TOPIC", "slack", "slack", 7, 13), True),
    (SNIPPETS, ("topic", 10, 0), True),
    (SNIPPETS, ("topic", 5, 40), True),
    (RANKED + " LIMIT 3", ("topic",), True),
    (RANKED + " LIMIT 0", ("topic",), True),
    # 4 x 200 best rows wanted, twice that above the 1,200 rows holding it: the engine
    # ranks the rows the deciding round trip fetched
    (RANKED + ", rowid LIMIT 200", ("topic",), False),
])
def test_lone_term_search_is_sqlites(pair, backend, server_ranked, sql, params, by_server) -> None:
    """The rows, rank doubles and snippets of sqlite3; the server ranked them where many
    more rows hold the term than the statement wants."""
    pair.same(sql, params)
    assert len(server_ranked) == (1 if backend.is_server and by_server else 0)


def test_best_rows_falling_short_run_again_with_every_hit(pair, backend, server_ranked) -> None:
    """Rows of session 'late' are the last 100, none among the best: the server's
    best rows leave the statement short, and it runs again over every hit (the
    plan's next runs skip the cut for a while, as the engine's cut does)."""
    pair.same(SEARCH, ("topic", "late", "late", 5, 0))
    assert len(server_ranked) == (1 if backend.is_server else 0)
    if backend.is_server:
        plan = next(p for (text, _s), (_e, p, _n) in pair.shim._fts_bridge._plans.items() if text == SEARCH)
        assert plan.paused > 0  # it fell short and ran again with every hit
    pair.same(SEARCH, ("topic", "late", "late", 50, 10))
    assert len(server_ranked) == (1 if backend.is_server else 0)


def test_a_rowid_indexed_twice_ranks_as_the_engine_does(pair, backend, server_ranked, monkeypatch) -> None:
    """External content indexed twice under one rowid (FTS5 keeps both; the shim, like
    FTS5, then answers differently from a fresh index): positions that appear twice
    count once in bm25's frequency, as the engine counts them."""
    if not backend.is_server:
        pytest.skip("the server's ranking")
    for rowid, text in [(3, "topic topic w1"), (7, "topic w2 w3"), (7, "topic w2 w3"), (9, "w4 topic")]:
        pair.shim.execute("INSERT INTO messages_fts(rowid, content) VALUES (?, ?)", (rowid, text))
    pair.shim.commit()
    queries = [(RANKED + ", rowid LIMIT 40", ("topic",)), (SNIPPETS, ("topic", 30, 0))]
    by_server = [pair.shim.execute(sql, params).fetchall() for sql, params in queries]
    assert len(server_ranked) == 2
    monkeypatch.setattr(select, "_ranked_by_server", lambda *args: (None, None))
    assert [pair.shim.execute(sql, params).fetchall() for sql, params in queries] == by_server
    assert len(server_ranked) == 2


@pytest.mark.parametrize("query", ["topi*", '"topic w1"', "content:topic", "^topic", "topic OR w1", "topic w1"])
def test_other_queries_are_ranked_by_the_engine(pair, backend, server_ranked, query) -> None:
    """A prefix, a phrase, a column filter, ``^``, OR, AND: the engine ranks them."""
    pair.same(RANKED + " LIMIT 5", (query,))
    assert server_ranked == []
