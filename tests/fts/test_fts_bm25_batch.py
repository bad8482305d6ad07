"""Bm25.scores (many rows in one loop) gives exactly Bm25.score's doubles.

The server search ranks thousands of rows through ``scores``; SQLite's
ranks are checked against ``score`` by test_fts_engine.py.  Here the two
must agree bit for bit (repr tells -0.0, NaN-as-None and every last bit),
on generated queries and on counts that make the arithmetic degenerate.
"""

from __future__ import annotations

import pytest
from fts_corpus import COLUMNS, documents, queries

from hermes_dbapi.fts.engine import search
from hermes_dbapi.fts.errors import FtsError
from hermes_dbapi.fts.index import MemoryIndex
from hermes_dbapi.fts.ranking import Bm25
from hermes_dbapi.fts.tokenizers import tokenizer_from_spec


class Counted:
    """A MemoryIndex whose running counts say what the test wants (as the
    server's counts can after 'delete' commands of rows never indexed)."""

    def __init__(self, index: MemoryIndex, rows: int, tokens: int) -> None:
        self._index, self._rows, self._tokens = index, rows, tokens

    def __getattr__(self, name: str) -> object:
        return getattr(self._index, name)

    def row_count(self) -> int:
        return self._rows

    def total_tokens(self) -> int:
        return self._tokens


def _index(detail: str = "full", ndocs: int = 400) -> MemoryIndex:
    index = MemoryIndex(COLUMNS, tokenizer_from_spec("unicode61"), detail)
    for rowid, values in documents(ndocs):
        index.insert(rowid, values)
    return index


def _same(index: object, query: str) -> int:
    """Assert scores == score for ``query``; the number of rows compared."""
    try:
        ev = search(index, query)
    except FtsError:
        return 0
    rows = ev.rowids()
    if not rows:
        return 0
    scorer = Bm25(ev)
    assert repr(scorer.scores(rows)) == repr([scorer.score(r) for r in rows]), query
    return len(rows)


@pytest.mark.parametrize("detail", ["full", "column"])
def test_generated_queries(detail: str) -> None:
    index = _index(detail)
    docs = documents(400)
    compared = sum(_same(index, q) for q in queries(docs, 150, seed=8, mode=detail))
    assert compared > 1000  # the queries did match rows


@pytest.mark.parametrize(
    ("rows", "tokens"),
    [(1, 0), (3, 50), (1, 10**12), (10**9, 1)],
    ids=["no_tokens", "fewer_rows_than_hits", "huge_average", "tiny_average"],
)
def test_degenerate_counts(rows: int, tokens: int) -> None:
    index = Counted(_index(ndocs=60), rows, tokens)
    compared = sum(_same(index, q) for q in ["the", "data*", "search OR tool", '"quick brown"', "a AND b"])
    assert compared > 0
