"""FTS5's ``bm25()`` (and so the default ``rank``), computed identically.

Same formula and operation order as FTS5 so the doubles are bit-equal:
IDF = ln((N - n + 0.5) / (n + 0.5)) clamped to 1e-6 when <= 0, with n the
rows matching the phrase alone; k1 = 1.2, b = 0.75; document length and
average length count tokens of all columns; per-column weights scale each
instance's contribution to the phrase frequency.  Lower (more negative) is
a better match.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .engine import Evaluation
from .errors import FtsCorrupt
from .sqlvalues import value_double

K1 = 1.2
B = 0.75


class Bm25:
    """bm25 for one evaluation: IDFs and average length computed once."""

    def __init__(self, ev: Evaluation) -> None:
        self.ev = ev
        self.idf: list[float] = []
        if ev.special is not None:  # '*reads' etc.: bm25() is -0.0
            self.avgdl = 1.0
            return
        n_row = ev.index.row_count()
        if n_row <= 0:  # more rows deleted than inserted ('delete' of rows never indexed)
            raise FtsCorrupt()
        self.avgdl = average_length(n_row, ev.index.total_tokens())
        self.idf = [idf(n_row, ev.phrase_hits(i)) for i in range(ev.phrase_count())]

    def scores(self, rowids: Sequence[int]) -> list[float | None]:
        """Unweighted ``bm25(t)`` of many matching rows: :meth:`score` for each, with
        its arithmetic in the same order (so the same doubles), in one tight loop when
        the index keeps positions (issue 8: a common term ranks thousands of rows)."""
        ev = self.ev
        avgdl = self.avgdl
        if ev.special is not None or ev.index.detail != "full" or not 0.0 < avgdl < math.inf:
            return [self.score(r) for r in rowids]
        # avgdl positive and finite: every denominator below is positive (a frequency
        # is at least 0, a length at least 0), so plain division is _divide's
        positions_of = ev.phrase_positions
        sizes_of = ev.index.column_sizes
        phrases = list(enumerate(self.idf))
        k1_plus_1 = K1 + 1.0
        one_minus_b = 1 - B
        out: list[float | None] = []
        for rowid in rowids:
            positions = positions_of(rowid)
            length_part = one_minus_b + B * float(sum(sizes_of(rowid))) / avgdl
            score = 0.0
            for i, idf in phrases:
                freq = float(len(positions.get(i, ())))
                score += idf * (freq * k1_plus_1 / (freq + K1 * length_part))
            out.append(None if score != score else -1.0 * score)
        return out

    def score(self, rowid: int, weights: Sequence[object] = ()) -> float | None:
        """``bm25(t, *weights)`` for a matching row (None: NaN, which SQLite returns as NULL)."""
        if self.ev.special is not None:
            return -0.0
        if not weights and self.ev.index.detail == "full":
            # issue 8: unweighted, each instance adds 1.0, so a phrase's frequency is its
            # count of positions (n additions of 1.0 are exactly float(n)): no merge of
            # the instances into xInst order
            positions = self.ev.phrase_positions(rowid)
            freq = [float(len(positions.get(i, ()))) for i in range(len(self.idf))]
        else:
            freq = [0.0] * len(self.idf)
            w = [value_double(x) for x in weights]
            for phrase, col, _off in self.ev.instances(rowid):
                freq[phrase] += w[col] if len(w) > col else 1.0
        d = float(sum(self.ev.index.column_sizes(rowid)))
        score = 0.0
        for i, idf in enumerate(self.idf):
            score += idf * _divide(freq[i] * (K1 + 1.0), freq[i] + K1 * (1 - B + _divide(B * d, self.avgdl)))
        return None if score != score else -1.0 * score


def average_length(n_row: int, n_token: int) -> float:
    """FTS5's average row length in tokens (all columns)."""
    return _divide(float(n_token), float(n_row))


def idf(n_row: int, hits: int) -> float:
    """FTS5's IDF of a phrase matching ``hits`` of ``n_row`` rows (1e-6 when not above 0)."""
    value = _log((n_row - hits + 0.5) / (hits + 0.5))  # below 0 when counts fell under the hits
    return 1e-6 if value <= 0.0 else value


def _divide(a: float, b: float) -> float:
    """C's double division: by zero it is an infinity or NaN, not an error (the
    running counts can reach zero tokens while rows still match)."""
    if b != 0.0:
        return a / b
    if a != a or a == 0.0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _log(x: float) -> float:
    """C's log(): -inf at zero, NaN below."""
    if x > 0.0:
        return math.log(x)
    return -math.inf if x == 0.0 else math.nan


def bm25(ev: Evaluation, rowid: int, weights: Sequence[object] = ()) -> float:
    """One-off ``bm25()``; use ``Bm25`` to score many rows of one query."""
    return Bm25(ev).score(rowid, weights)


def ranked(ev: Evaluation, weights: Sequence[object] = ()) -> list[tuple[int, float | None]]:
    """(rowid, rank) pairs in ``ORDER BY rank`` order (ties by rowid).

    The default rank is bm25; special queries (``*reads``) rank as NULL.
    """
    if ev.special is not None:
        return [(r, None) for r in ev.rowids()]
    scorer = Bm25(ev)
    rows = [(r, scorer.score(r, weights)) for r in ev.rowids()]
    rows.sort(key=lambda rs: (rs[1] is not None, rs[1] or 0.0))  # NULL first, as ORDER BY does
    return rows
