"""FTS5's ``highlight()`` and ``snippet()``, reproduced token for token.

Both walk the column text with the table tokenizer and wrap each run of
overlapping phrase instances in one open/close pair (so a matched phrase is
one span).  ``snippet`` first picks a window of ``n`` tokens: for every
instance it scores the window centred on it (1000 per distinct phrase, 1 per
repeat) and the window starting at the preceding sentence start (after
``.`` or ``:`` plus whitespace; +120 at the text start, +100 elsewhere);
the first strictly best window wins.  With ``column < 0`` every column
competes.  Quirks kept on purpose (SQLite 3.40 behaviour): arguments
convert like SQLite values; each copied stretch of text stops at its first
NUL; ``highlight(t, -1, ...)`` yields the rowid as text (FTS5 reads the
content row's column 0); a phrase starting before the snippet window is not
marked at all; a one-token window at token 0 is treated as "no window"
(``snippet(..., 1)`` then marks every later instance too).
"""

from __future__ import annotations

import re

from .engine import Evaluation, Instance
from .errors import FtsError
from .sqlvalues import value_int, value_text

#: Text being highlighted: normally the ``str`` itself (character offsets are
#: equivalent to FTS5's byte offsets), but its UTF-8 ``bytes`` when a
#: tokenizer quirk puts offsets inside characters (trigram folding).  Results
#: are then decoded with ``surrogateescape``.
Buf = str | bytes


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class _CInstIter:
    """Coalesced phrase-instance ranges [start, end] (token positions) in one column."""

    def __init__(self, ev: Evaluation, inst: list[Instance], col: int) -> None:
        self.ev = ev
        self.inst = inst
        self.col = col
        self.i = 0
        self.start = -1
        self.end = -1
        self.next()

    def next(self) -> None:
        self.start = -1
        self.end = -1
        while self.i < len(self.inst):
            ip, ic, io = self.inst[self.i]
            if ic == self.col:
                iend = io - 1 + self.ev.phrase_size(ip)
                if self.start < 0:
                    self.start, self.end = io, iend
                elif io <= self.end:
                    if iend > self.end:
                        self.end = iend
                else:
                    break
            self.i += 1


def _prepare(ev: Evaluation, text: str) -> tuple[Buf, list[tuple[str, int, int]]]:
    """The text as a buffer plus its tokens with offsets into that buffer."""
    tokenizer = ev.index.tokenizer
    tokens = tokenizer.tokenize(text)
    if not tokenizer.needs_bytes(text):
        return text, tokens
    return text.encode("utf-8", "surrogateescape"), tokenizer.utf8_spans(text, tokens)


class _Out:
    """The output buffer; appends follow fts5HighlightAppend's C semantics."""

    def __init__(self, text: Buf) -> None:
        self.text = text
        self.binary = isinstance(text, bytes)
        self.parts: list = []
        self.off = 0

    def add(self, s: str | None) -> None:
        if s is not None:
            self.parts.append(s.encode("utf-8", "surrogateescape") if self.binary else s)

    def copy_to(self, end: int) -> None:
        """Copy input from ``off`` to ``end`` as ``%.*s`` does: a segment stops
        at its first NUL, and a negative length copies the rest."""
        nul = b"\0" if self.binary else "\0"
        piece = self.text[self.off :] if end - self.off < 0 else self.text[self.off : end]
        self.parts.append(piece.split(nul, 1)[0])  # type: ignore[arg-type]

    def result(self) -> str:
        if self.binary:
            return b"".join(self.parts).decode("utf-8", "surrogateescape")
        return "".join(self.parts)


def _highlight_walk(
    tokens: list[tuple[str, int, int]],
    it: _CInstIter,
    out: _Out,
    open_: str | None,
    close: str | None,
    range_start: int = 0,
    range_end: int = 0,
) -> None:
    """fts5HighlightCb over ``tokens``; a window [range_start, range_end]
    limits output to those tokens (FTS5 tests ``range_end > 0``, so a window
    ending at token 0 counts as none)."""
    ranged = range_end > 0
    for ipos, (_tok, start, end) in enumerate(tokens):
        if ranged:
            if ipos < range_start or ipos > range_end:
                continue
            if range_start and ipos == range_start:
                out.off = start
        if ipos == it.start:
            out.copy_to(start)
            out.add(open_)
            out.off = start
        if ipos == it.end:
            if ranged and it.start < range_start:
                out.add(open_)
            out.copy_to(end)
            out.add(close)
            out.off = end
            it.next()
        if ranged and ipos == range_end:
            out.copy_to(end)
            out.off = end
            if it.start <= ipos < it.end:
                out.add(close)


def highlight(
    ev: Evaluation, rowid: int, column: object, open_: object, close: object
) -> str | None:
    """``highlight(t, column, open, close)`` for a matching row."""
    col = value_int(column)
    text = _column_text(ev, rowid, col)
    if text is None:
        return None
    buf, tokens = _prepare(ev, text)
    out = _Out(buf)
    it = _CInstIter(ev, ev.instances(rowid), col)
    _highlight_walk(tokens, it, out, value_text(open_), value_text(close))
    out.copy_to(len(buf))
    return out.result()


def _column_text(ev: Evaluation, rowid: int, col: int) -> str | None:
    if ev.special is not None:
        return None
    if col == -1:
        return str(rowid)
    if col < -1 or col >= len(ev.index.columns):
        return None
    return ev.index.column_texts(rowid)[col]


_STOP_RE = re.compile(r"[.:][ \t\n\r]+")
_BSTOP_RE = re.compile(rb"[.:][ \t\n\r]+")


def _sentence_starts(text: Buf, tokens: list[tuple[str, int, int]]) -> list[int]:
    """Token positions starting a sentence: the first token, and tokens
    preceded by whitespace preceded by ``.`` or ``:`` (fts5SentenceFinderCb)."""
    pattern = _BSTOP_RE if isinstance(text, bytes) else _STOP_RE
    after = set()
    for m in pattern.finditer(text):  # type: ignore[arg-type]
        after.update(range(m.start() + 2, m.end() + 1))
    starts = [0] if tokens else []
    if after:
        starts += [i for i, (_t, s, _e) in enumerate(tokens) if i and s in after]
    return starts


def _score(
    ev: Evaluation,
    inst: list[Instance],
    doc_size: int,
    col: int,
    start: int,
    ntok: int,
) -> tuple[int, int]:
    """fts5SnippetScore: (score, adjusted window start)."""
    seen: set[int] = set()
    score = 0
    first = -1
    last = 0
    end = start + ntok
    for ip, ic, io in inst:
        if ic == col and start <= io < end:
            score += 1 if ip in seen else 1000
            seen.add(ip)
            if first < 0:
                first = io
            last = io + ev.phrase_size(ip)
    adj = first - _cdiv(ntok - (last - first), 2)
    if adj + ntok > doc_size:
        adj = doc_size - ntok
    if adj < 0:
        adj = 0
    return score, adj


def snippet(
    ev: Evaluation,
    rowid: int,
    column: object,
    open_: object,
    close: object,
    ellipsis: object,
    max_tokens: object,
) -> str | None:
    """``snippet(t, column, open, close, ellipsis, max_tokens)`` for a matching row."""
    icol = value_int(column)
    opening = value_text(open_) or ""
    closing = value_text(close) or ""
    ell = value_text(ellipsis) or ""
    ntok = value_int(max_tokens)
    ncol = len(ev.index.columns)
    inst = ev.instances(rowid)
    texts = [None] * ncol if ev.special is not None else ev.index.column_texts(rowid)
    sizes = ev.index.column_sizes(rowid)
    prepared: dict[int, tuple[Buf, list[tuple[str, int, int]]]] = {}

    best_col = icol if icol >= 0 else 0
    best_start = 0
    best_score = 0
    col_size = 0
    for i in range(ncol):
        if not (icol < 0 or icol == i):
            continue
        doc = texts[i]
        if doc is None:
            firsts: list[int] = []
        else:
            prepared[i] = _prepare(ev, doc)
            firsts = _sentence_starts(*prepared[i])
        doc_size = sizes[i]
        for _ip, ic, io in inst:
            if ic != i:
                continue
            score, adj = _score(ev, inst, doc_size, i, io, ntok)
            if score > best_score:
                best_score, best_col, best_start, col_size = score, i, adj, doc_size
            if firsts and doc_size > ntok:
                jj = 0
                while jj < len(firsts) - 1 and not firsts[jj + 1] > io:
                    jj += 1
                if firsts[jj] < io:
                    score, _ = _score(ev, inst, doc_size, i, firsts[jj], ntok)
                    score += 120 if firsts[jj] == 0 else 100
                    if score > best_score:
                        best_score, best_col = score, i
                        best_start, col_size = firsts[jj], doc_size

    if best_col >= ncol:
        raise FtsError("column index out of range")
    text = texts[best_col]
    if col_size == 0:
        col_size = sizes[best_col]
    if text is None:
        return None
    buf, tokens = prepared.get(best_col) or _prepare(ev, text)
    out = _Out(buf)
    it = _CInstIter(ev, inst, best_col)
    range_end = best_start + ntok - 1
    if best_start > 0:
        out.add(ell)
    while it.start >= 0 and it.start < best_start:
        it.next()
    _highlight_walk(tokens, it, out, opening, closing, best_start, range_end)
    if range_end >= col_size - 1:
        out.copy_to(len(buf))
    else:
        out.add(ell)
    return out.result()
