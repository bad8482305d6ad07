"""The engine's ``Index`` over an FTS table's server tables.

Only the postings of the query's terms are fetched (prefix terms by a range
scan); sizes and texts are fetched per needed row, in batches, and cached for
the one evaluation this object serves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ..tokenizers import Tokenizer
from .spec import FtsSpec
from .storage import Storage

_NARROWING_TERMS = 2

#: rowids -> {rowid: column values}, for tables whose text lives elsewhere
TextSource = Callable[[Sequence[int]], dict[int, Sequence[object]]]


class ServerIndex:
    def __init__(self, storage: Storage, texts: TextSource, sizes: bool = False, stats: bool = False) -> None:
        """``sizes``/``stats``: the evaluation will need the matches' sizes / the
        table's row count and token total (loaded with a lone term's postings)."""
        self.storage = storage
        self._wants_sizes = sizes
        self._wants_stats = stats
        self.spec: FtsSpec = storage.spec
        self._texts_of = texts
        self._postings: dict[tuple[str, bool, tuple], dict[int, list[int]]] = {}
        self._stats: tuple[int, int] | None = None
        self._sizes: dict[int, list[int]] = {}
        self._texts: dict[int, tuple[str | None, ...]] = {}

    @property
    def columns(self) -> Sequence[str]:
        return self.spec.columns

    @property
    def detail(self) -> str:
        return self.spec.detail

    @property
    def tokenizer(self) -> Tokenizer:
        return self.spec.tokenizer

    @property
    def prefix_lengths(self) -> Sequence[int]:
        return self.spec.prefix

    def postings(self, term: str, prefix: bool = False, rowids: Collection[int] | None = None,
                 matches: bool = False, among: Collection[tuple[str, bool]] = ()) -> dict:
        # two others narrow enough: each is a semi-join the server plans (a long phrase,
        # trigrams above all, took seconds with a dozen)
        others = tuple(sorted(set(among) - {(term, prefix)}))[:_NARROWING_TERMS]
        key = (term, prefix, others)
        got = self._postings.get(key)
        if got is None and others:  # a term's whole postings serve a narrower request too
            got = self._postings.get((term, prefix, ()))
        if got is None:
            if others:
                got = self.storage.postings(term, prefix, others)
            elif matches and self._wants_sizes:
                stats = self._wants_stats and self._stats is None
                got, sizes, totals = self.storage.postings_with_sizes(term, prefix, stats)
                self._sizes.update(sizes)
                if totals is not None:
                    self._stats = totals
            else:
                got = self.storage.postings(term, prefix)
            self._postings[key] = got
        return got

    def seed(self, term: str, postings: dict[int, list[int]], sizes: dict[int, list[int]] | None = None,
             stats: tuple[int, int] | None = None) -> None:
        """Postings of ``term`` (no prefix) fetched already, with their rows' sizes and
        the table's counts when known (``ranked.py``: the rows of a search it ranked,
        or a lone term's every row, fetched while deciding)."""
        self._postings[(term, False, ())] = postings
        self._sizes.update(sizes or {})
        if stats is not None:
            self._stats = stats

    def row_frequency(self, term: str, prefix: bool = False) -> int:
        """Rows holding ``term``: counted by the server unless its postings are here."""
        got = self._postings.get((term, prefix, ()))
        if got is None:
            counted = self.storage.row_frequency(term, prefix)
            if counted is not None:
                return counted
            got = self.postings(term, prefix)
        return len(got)

    def _stat(self) -> tuple[int, int]:
        if self._stats is None:
            self._stats = self.storage.stats()
        return self._stats

    def row_count(self) -> int:
        return self._stat()[0]

    def total_tokens(self) -> int:
        return self._stat()[1]

    def prefetch(self, rowids: Sequence[int], texts: bool, stats: bool = False) -> None:
        """Load sizes (and texts) of many rows in a few queries; ``stats``: the table's
        row count and token total too, with the sizes (bm25 will need them)."""
        missing = [r for r in rowids if r not in self._sizes]
        if missing and stats and self._stats is None:
            sizes, self._stats = self.storage.sizes_and_stats(missing)
            self._sizes.update(sizes)
        elif missing:
            self._sizes.update(self.storage.sizes(missing))
        if texts:
            missing = [r for r in rowids if r not in self._texts]
            if missing:
                from ..sqlvalues import sql_text

                got = self._texts_of(missing)
                ncol = len(self.spec.columns)
                for r in missing:
                    vals = got.get(r)
                    self._texts[r] = tuple(sql_text(v) for v in vals) if vals is not None else (None,) * ncol

    def column_sizes(self, rowid: int) -> Sequence[int]:
        if rowid not in self._sizes:
            self.prefetch([rowid], texts=False)
        return self._sizes.get(rowid) or [0] * len(self.spec.columns)

    def column_texts(self, rowid: int) -> Sequence[str | None]:
        if rowid not in self._texts:
            self.prefetch([rowid], texts=True)
        return self._texts[rowid]
