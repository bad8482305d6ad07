"""The FTS5 query grammar: accepted language, semantics and exact errors."""

from __future__ import annotations

import random

import pytest
from fts_compare import Pair
from fts_corpus import load
from fts_oracle import needs_oracle

from hermes_dbapi.fts.errors import FtsError
from hermes_dbapi.fts.query import (
    AndNode,
    NotNode,
    OrNode,
    SpecialQuery,
    StringNode,
    dequote,
    parse_query,
)
from hermes_dbapi.fts.tokenizers import tokenizer_from_spec

pytestmark = needs_oracle

COLS = ("a", "b", "c")
DOCS = [
    "a b c", "a", "b", "c", "a c", "b c", "x y z", "a x", "b a", "c b a", "a b",
    "one two three four five six seven eight nine ten eleven twelve a",
    "near NEAR and AND", "é école 日本語 テキスト", "a_b foo_bar x86_64", "b a b a b c",
]
ROWS = [
    (i, (d, DOCS[(i * 7) % len(DOCS)], "" if i % 3 else DOCS[(i * 5) % len(DOCS)]))
    for i, d in enumerate(DOCS, 1)
]
QUERIES = load("queries.json")
ALL = QUERIES["grammar"] + QUERIES["errors"] + QUERIES["hermes"]


@pytest.fixture(scope="module", params=["full", "column", "none"])
def pair(request) -> Pair:
    return Pair(COLS, ROWS, "unicode61", request.param)


@pytest.mark.parametrize("query", ALL)
def test_hand_written_queries(pair: Pair, query: str) -> None:
    """dialects/fts/queries.json: rows or the exact error, per detail= mode."""
    ev = pair.check_match(query)
    if ev is not None and ev.rowids() and ev.special is None:
        pair.check_rank(query, ev)
        pair.check_aux(query, ev, random.Random(len(query)))


_FUZZ_ALPHABET = [
    "a", "b", "c", "x", "é", "日本", "a*", "AND", "OR", "NOT", "NEAR", "near", "(", ")", "{", "}",
    ":", ",", "+", "*", "-", "^", '"', '""', '"a b"', " ", " ", " ", "\t", "2", "a:", "b:", "q:",
    "NEAR(", ".", "'", "&", "_",
]


def _fuzz_queries(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(_FUZZ_ALPHABET) for _ in range(rnd.randint(1, 9))) for _ in range(n)]


@pytest.mark.parametrize("chunk", range(4))
def test_fuzzed_queries(pair: Pair, chunk: int) -> None:
    """Random token soup: same rows, or the same error SQLite reports first."""
    for query in _fuzz_queries(chunk, 400):
        pair.check_match(query)


def test_every_ascii_character() -> None:
    """Bareword characters, operators and invalid characters, in context."""
    pair = Pair(COLS, ROWS)
    for code in range(1, 128):
        ch = chr(code)
        for query in (ch, f"a{ch}b", f"a {ch} b", f"{ch}a", f'"{ch}"', f"a{ch}"):
            pair.check_match(query)


def test_column_match_form() -> None:
    """``col MATCH ?`` restricts the whole query to that column."""
    pair = Pair(COLS, ROWS)
    for query in ["a", "a OR x", "b:a", "{a b}:(a OR c)", "NEAR(a b)", '"b a"', "a NOT c"]:
        for col, name in enumerate(COLS):
            exp = [
                r for (r,) in pair.oracle.conn.execute(
                    f"SELECT rowid FROM t WHERE {name} MATCH ?", (query,)
                )
            ]
            ev = pair.ours(query, column=col)
            assert not isinstance(ev, str)
            assert ev.rowids() == exp, (query, name)


def test_special_queries() -> None:
    tok = tokenizer_from_spec("unicode61")
    assert parse_query("*reads", COLS, tok) == SpecialQuery("reads")
    assert parse_query("* ID", COLS, tok) == SpecialQuery("id")
    with pytest.raises(FtsError, match="^unknown special query: x$"):
        parse_query("*  x y", COLS, tok)
    pair = Pair(COLS, ROWS)
    for query in ("*reads", "*id"):
        ev = pair.check_match(query)
        assert ev is not None and ev.special is not None
        pair.check_rank(query, ev)


def test_tree_shapes() -> None:
    """Precedence and the quirks the tree must keep (see query.py)."""
    tok = tokenizer_from_spec("unicode61")

    def root(q: str):
        parsed = parse_query(q, COLS, tok)
        assert not isinstance(parsed, SpecialQuery)
        return parsed.root

    r = root("a OR b c NOT d")
    assert isinstance(r, OrNode) and isinstance(r.children[1], NotNode)
    assert isinstance(r.children[1].left, AndNode)
    assert isinstance(root('a ""'), StringNode)  # empty phrase dropped
    r = root('a AND ""')
    assert isinstance(r, AndNode) and r.children[1].eof  # but kept by AND
    r = root("a:(b:x)")
    assert isinstance(r, StringNode) and r.eof and r.colset == ()
    parsed = parse_query('NEAR("" a "" b, 3)', COLS, tok)
    assert [p.terms[0].text for p in parsed.phrases] == ["a", "b"]
    assert parsed.root.near == 3


def test_dequote() -> None:
    assert dequote('"a""b"') == 'a"b'
    assert dequote("[x]") == "x"
    assert dequote("plain") == "plain"


def test_kept_tables_are_a_fresh_build() -> None:
    """fts/_query_tables.py is what fts/_lalr.py builds from the grammar today
    (after a grammar change: python tests/fts/tools/gen_query_tables.py)."""
    from hermes_dbapi.fts import query

    assert query._tables() == query.build_tables()
