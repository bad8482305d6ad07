"""The postings interface the FTS engine evaluates against, plus an in-memory one.

The engine never touches storage directly: a server backend implements
``Index`` over its postings tables (term, rowid, column, offset), its
per-row token counts and the content rows; tests use ``MemoryIndex``.

Positions use FTS5's encoding ``column << 32 | offset`` so phrase and NEAR
arithmetic is the same integer arithmetic SQLite does.  What an index stores
per (term, row) depends on the table's ``detail=`` option:

* ``full``: every position;
* ``column``: one entry ``column << 32`` per column holding the term;
* ``none``: nothing (an empty list): only that the row holds the term.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Protocol

from .query import DETAILS, clip_token
from .sqlvalues import sql_text
from .tokenizers import Tokenizer

#: rowid -> sorted encoded positions
Postings = Mapping[int, Sequence[int]]


def pos(column: int, offset: int) -> int:
    """Encode a (column, token offset) pair as FTS5 does."""
    return column << 32 | offset


def pos_column(p: int) -> int:
    """Column of an encoded position."""
    return p >> 32


def pos_offset(p: int) -> int:
    """Token offset of an encoded position."""
    return p & 0xFFFFFFFF


class Index(Protocol):
    """What evaluating MATCH and the auxiliary functions needs to read."""

    @property
    def columns(self) -> Sequence[str]:
        """Column names, in table order."""

    @property
    def detail(self) -> str:
        """``full``, ``column`` or ``none``."""

    @property
    def tokenizer(self) -> Tokenizer:
        """The table's tokenizer (queries, snippet and highlight use it)."""

    @property
    def prefix_lengths(self) -> Sequence[int]:
        """The table's ``prefix=`` index lengths in characters (may be empty).

        They never change which rows match, but FTS5 walks a prefix index
        differently from a scan of full terms, which shows in edge cases.
        """

    def postings(
        self, term: str, prefix: bool = False, rowids: Collection[int] | None = None, matches: bool = False,
        among: Collection[tuple[str, bool]] = (),
    ) -> Postings:
        """Rows holding ``term`` (or any term starting with it if ``prefix``).

        For a prefix, positions of all matching terms are merged per row.
        ``rowids``, when given, is a hint: only those rows are needed.
        ``matches``, a hint too: these rows are the query's matches (an index
        may load what ranking them needs along with them).
        ``among``, a hint: only rows that also hold each of these (term, prefix)
        pairs are needed (the others may be left out).
        """

    def row_frequency(self, term: str, prefix: bool = False) -> int:
        """Number of rows holding ``term`` (or a term starting with it if ``prefix``)."""

    def row_count(self) -> int:
        """Number of rows in the index (FTS5's xRowCount)."""

    def total_tokens(self) -> int:
        """Tokens in all columns of all rows (xColumnTotalSize(-1))."""

    def column_sizes(self, rowid: int) -> Sequence[int]:
        """Tokens per column of one row, as indexed (xColumnSize)."""

    def column_texts(self, rowid: int) -> Sequence[str | None]:
        """The row's column values as text (xColumnText), None for NULL."""


class MemoryIndex:
    """An ``Index`` kept in dictionaries: the reference implementation.

    ``unindexed`` names columns that are stored but not tokenized (FTS5's
    UNINDEXED).  ``content``, if given, supplies column texts instead of
    the indexed values, as an external-content table does.  ``prefix`` is
    the table's ``prefix=`` option (lengths in characters).
    """

    def __init__(
        self,
        columns: Sequence[str],
        tokenizer: Tokenizer,
        detail: str = "full",
        unindexed: Collection[str] = (),
        content: Callable[[int], Sequence[str | None]] | None = None,
        prefix: Sequence[int] = (),
    ) -> None:
        if detail not in DETAILS:
            raise ValueError(f"bad detail: {detail}")
        self._columns = tuple(columns)
        self._tokenizer = tokenizer
        self._detail = detail
        self._indexed = tuple(c not in set(unindexed) for c in self._columns)
        self._content = content
        self._prefix = tuple(prefix)
        self._terms: dict[str, dict[int, list[int]]] = {}
        self._sorted_terms: list[str] = []
        self._sizes: dict[int, tuple[int, ...]] = {}
        self._texts: dict[int, tuple[str | None, ...]] = {}
        self._total = 0

    # -- writing ----------------------------------------------------------
    def insert(self, rowid: int, values: Sequence[object]) -> None:
        """Index one row (replacing nothing: delete first to update).

        Values are read as SQLite text (numbers and blobs too); None is NULL.
        """
        if rowid in self._sizes:
            raise KeyError(f"rowid {rowid} already indexed")
        values = [sql_text(v) for v in values]
        sizes = []
        for col, text in enumerate(values):
            if text is None or not self._indexed[col]:
                sizes.append(0)
                continue
            toks = self._tokenizer.tokenize(text)
            sizes.append(len(toks))
            for off, (tok, _s, _e) in enumerate(toks):
                self._add(clip_token(tok), rowid, col, off)
        self._sizes[rowid] = tuple(sizes)
        self._texts[rowid] = tuple(values)
        self._total += sum(sizes)

    def _add(self, term: str, rowid: int, col: int, off: int) -> None:
        rows = self._terms.get(term)
        if rows is None:
            rows = self._terms[term] = {}
            insort(self._sorted_terms, term)
        plist = rows.setdefault(rowid, [])
        if self._detail == "full":
            plist.append(pos(col, off))
        elif self._detail == "column":
            if not plist or plist[-1] != pos(col, 0):
                plist.append(pos(col, 0))

    def delete(self, rowid: int) -> None:
        """Remove one row from the index."""
        sizes = self._sizes.pop(rowid)
        self._texts.pop(rowid)
        self._total -= sum(sizes)
        for term in [t for t, rows in self._terms.items() if rowid in rows]:
            rows = self._terms[term]
            del rows[rowid]
            if not rows:
                del self._terms[term]
                i = bisect_left(self._sorted_terms, term)
                del self._sorted_terms[i]

    # -- Index protocol ---------------------------------------------------
    @property
    def columns(self) -> Sequence[str]:
        return self._columns

    @property
    def detail(self) -> str:
        return self._detail

    @property
    def tokenizer(self) -> Tokenizer:
        return self._tokenizer

    @property
    def prefix_lengths(self) -> Sequence[int]:
        return self._prefix

    def postings(
        self, term: str, prefix: bool = False, rowids: Collection[int] | None = None, matches: bool = False,
        among: Collection[tuple[str, bool]] = (),
    ) -> Postings:
        got = self._postings(term, prefix)
        others = set(among) - {(term, prefix)}
        if not others:
            return got
        # the hint taken (as the server index takes it), so the engine's use of it is
        # checked against FTS5 wherever this index is
        holding = [set(self._postings(t, p)) for t, p in others]
        return {r: plist for r, plist in got.items() if all(r in rows for rows in holding)}

    def _postings(self, term: str, prefix: bool) -> Postings:
        if not prefix:
            return self._terms.get(term, {})
        merged: dict[int, list[int]] = {}
        terms = self._sorted_terms
        i = bisect_left(terms, term)
        many = False
        while i < len(terms) and terms[i].startswith(term):
            for rowid, plist in self._terms[terms[i]].items():
                if rowid in merged:
                    merged[rowid] = merged[rowid] + list(plist)
                    many = True
                else:
                    merged[rowid] = list(plist)
            i += 1
        if many:
            for rowid, plist in merged.items():
                merged[rowid] = sorted(set(plist))
        return merged

    def row_count(self) -> int:
        return len(self._sizes)

    def total_tokens(self) -> int:
        return self._total

    def row_frequency(self, term: str, prefix: bool = False) -> int:
        return len(self.postings(term, prefix))

    def column_sizes(self, rowid: int) -> Sequence[int]:
        return self._sizes[rowid]

    def column_texts(self, rowid: int) -> Sequence[str | None]:
        if self._content is not None:
            return self._content(rowid)
        return self._texts[rowid]

    def terms(self) -> list[str]:
        """All distinct indexed terms, sorted (like fts5vocab)."""
        return list(self._sorted_terms)
