"""A conjunctive query fetches only the rows holding all its terms (issue 8).

Every match of a query made of AND, phrases and NEAR holds each of its terms,
so the engine asks the index for postings ``among`` them; a lone term's row
count (bm25's IDF) is asked of the index apart, never taken from narrowed
postings.  The results must be those of an index that ignores the hint.
"""

from __future__ import annotations

from collections.abc import Collection

import pytest

from hermes_dbapi.fts.engine import search
from hermes_dbapi.fts.index import MemoryIndex
from hermes_dbapi.fts.ranking import Bm25
from hermes_dbapi.fts.tokenizers import tokenizer_from_spec

DOCS = [
    ("alpha beta gamma", "delta"),
    ("alpha gamma", "beta beta"),
    ("beta alpha", None),
    ("alpha", "alpha alpha"),
    ("gamma delta", "beta"),
    ("alphabet soup beta", "gamma alpha"),
    ("delta alpha beta", "alpha"),
    ("beta", "gamma"),
]


class Recording(MemoryIndex):
    """A MemoryIndex noting each ``among`` it is asked for; ``narrow=False`` ignores them."""

    def __init__(self, narrow: bool) -> None:
        super().__init__(["a", "b"], tokenizer_from_spec("unicode61"), "full")
        self.narrow = narrow
        self.asked: list[frozenset] = []
        for rowid, values in enumerate(DOCS, start=1):
            self.insert(rowid, values)

    def postings(self, term: str, prefix: bool = False, rowids: Collection[int] | None = None,
                 matches: bool = False, among: Collection[tuple[str, bool]] = ()) -> dict:
        self.asked.append(frozenset(among))
        return super().postings(term, prefix, rowids, matches, among if self.narrow else ())


def _outcome(index: MemoryIndex, query: str) -> tuple:
    ev = search(index, query)
    scorer = Bm25(ev)
    return ev.rowids(), [scorer.score(r) for r in ev.rowids()], [ev.instances(r) for r in ev.rowids()]


@pytest.mark.parametrize("query", [
    "alpha beta", "alpha AND beta AND gamma", '"alpha beta"', "NEAR(alpha beta, 1)", "alph* beta",
    "a:alpha beta", "^alpha beta", "alpha AND (beta gamma)", '"beta alpha" delta', "{a b}:alpha beta",
])
def test_conjunction_narrows_and_keeps_results(query: str) -> None:
    narrowed, whole = Recording(narrow=True), Recording(narrow=False)
    assert _outcome(narrowed, query) == _outcome(whole, query)
    assert any(len(among) > 1 for among in narrowed.asked), "no postings were narrowed"


@pytest.mark.parametrize("query", ["alpha OR beta", "alpha NOT beta", "alpha", "(alpha beta) OR gamma"])
def test_other_queries_fetch_whole_postings(query: str) -> None:
    index = Recording(narrow=True)
    _outcome(index, query)
    assert not any(index.asked)


def test_narrowed_postings_hold_only_rows_with_every_term() -> None:
    index = Recording(narrow=True)
    got = index.postings("alpha", among=[("alpha", False), ("gamma", False)])
    assert sorted(got) == [1, 2, 6]
    assert sorted(index.postings("alpha")) == [1, 2, 3, 4, 6, 7]


def test_lone_term_rank_counts_every_row_holding_it() -> None:
    """bm25's IDF of 'alpha' in 'alpha gamma' counts all six rows holding alpha, not the
    three that hold gamma too: row_frequency, not the narrowed postings."""
    narrowed = Recording(narrow=True)
    ev = search(narrowed, "alpha gamma")
    assert ev.phrase_hits(0) == 6 and ev.phrase_hits(1) == 5
