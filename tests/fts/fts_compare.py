"""Side-by-side comparison of our engine with the SQLite oracle."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from fts_oracle import OracleTable

from hermes_dbapi.fts.engine import Evaluation, search
from hermes_dbapi.fts.errors import FtsError
from hermes_dbapi.fts.index import MemoryIndex
from hermes_dbapi.fts.ranking import Bm25, ranked
from hermes_dbapi.fts.snippets import highlight, snippet
from hermes_dbapi.fts.tokenizers import tokenizer_from_spec

REL_TOL = 1e-9


class Pair:
    """The same rows in a SQLite FTS5 table and in a MemoryIndex."""

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[tuple[int, Sequence[str | None]]],
        tokenize: str = "unicode61",
        detail: str = "full",
        prefix: Sequence[int] = (),
        unindexed: Sequence[str] = (),
    ) -> None:
        self.oracle = OracleTable(columns, tokenize, detail, rows, prefix, unindexed)
        self.index = MemoryIndex(columns, tokenizer_from_spec(tokenize), detail, unindexed, prefix=prefix)
        for rowid, vals in rows:
            self.index.insert(rowid, vals)

    def delete(self, rowid: int) -> None:
        self.oracle.delete(rowid)
        self.index.delete(rowid)

    def ours(self, query: str, column: int | None = None) -> Evaluation | str:
        try:
            return search(self.index, query, column)
        except FtsError as exc:
            return f"ERROR: {exc.message}"

    def check_match(self, query: str) -> Evaluation | None:
        """Same rows (or same error); returns our evaluation when rows matched."""
        exp = self.oracle.match(query)
        got = self.ours(query)
        got_rows = got if isinstance(got, str) else got.rowids()
        assert got_rows == exp, f"MATCH {query!r}"
        return None if isinstance(got, str) else got

    def check_rank(self, query: str, ev: Evaluation, weights: Sequence[float] = ()) -> None:
        """ORDER BY rank / bm25(t, w...): same order, values within 1e-9."""
        exp = self.oracle.ranked(query, weights)
        if ev.special is not None:
            assert ranked(ev) == exp
            return
        scorer = Bm25(ev)
        got = sorted(((r, scorer.score(r, weights)) for r in ev.rowids()), key=lambda x: x[1])
        assert [r for r, _ in got] == [r for r, _ in exp], f"RANK ORDER {query!r}"
        for (r, a), (_r, b) in zip(got, exp):
            assert math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-15), f"BM25 {query!r} row {r}: {a} != {b}"

    def check_aux(self, query: str, ev: Evaluation, rnd: random.Random, limit: int = 25) -> int:
        """snippet()/highlight() with randomized arguments on some matching rows."""
        rows = ev.rowids()
        if len(rows) > limit:
            rows = sorted(rnd.sample(rows, limit))
        ncol = len(self.index.columns)
        checked = 0
        for _ in range(2):
            scol = rnd.choice([-1, -1, 0, 1, ncol - 1, ncol, -3])
            ntok = rnd.choice([1, 2, 3, 5, 8, 12, 20, 40, 64, 0, -1, 100])
            marks = rnd.choice([("[", "]", "..."), (">>>", "<<<", "..."), ("", "", ""), (None, "}", None)])
            hcol = rnd.choice(list(range(ncol)) + [-1, ncol])
            exp = {
                r: (s, h)
                for r, s, h in _oracle_aux(self.oracle, query, scol, ntok, marks, hcol)
            }
            for r in rows:
                try:
                    s = snippet(ev, r, scol, marks[0], marks[1], marks[2], ntok)
                except FtsError as exc:
                    s = f"ERROR: {exc.message}"
                h = highlight(ev, r, hcol, marks[0], marks[1])
                assert (s, h) == exp[r], (
                    f"AUX {query!r} row {r} snippet(col={scol}, n={ntok}, {marks}) highlight({hcol})"
                )
                checked += 1
        return checked


def _oracle_aux(oracle: OracleTable, query: str, scol, ntok, marks, hcol):
    try:
        return [
            (r, s, h)
            for r, s, h in oracle.aux(
                query,
                "snippet(t, ?, ?, ?, ?, ?), highlight(t, ?, ?, ?)",
                (scol, marks[0], marks[1], marks[2], ntok, hcol, marks[0], marks[1]),
            )
        ]
    except Exception as exc:  # snippet errors abort the whole statement
        msg = f"ERROR: {exc}"
        rows = oracle.aux(query, "highlight(t, ?, ?, ?)", (hcol, marks[0], marks[1]))
        return [(r, msg, h) for r, h in rows]
