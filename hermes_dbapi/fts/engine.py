"""Evaluate a parsed FTS5 query over an ``Index``: matching rows and instances.

This re-implements FTS5's expression *iterators*, not just the set algebra
its documentation describes, because the auxiliary functions see iterator
state: FTS5 reports a phrase's positions for a row whenever the phrase's
node is parked on that rowid, even if the node itself did not match there
(an ``OR`` sibling matched, or a ``NOT``'s right side found its terms but
failed its phrase/NEAR test).  Such "extra" instances change bm25, snippet
and highlight, so we reproduce the iteration exactly:

* term iterators walk rows holding a term; a column filter empties the
  position list but (for a whole term, or a prefix served by a ``prefix=``
  index) keeps the row, so the node parks there with "no match" - other
  prefix iterators skip such rows instead;
* a phrase/NEAR node parks on the first rowid where all its terms occur and
  then tests phrases in order, stopping at the first that fails (later
  phrases keep their previous buffers, as in FTS5);
* ``NEAR`` uses FTS5's greedy scan, which decides the surviving positions;
* AND/OR/NOT advance children in FTS5's order; an AND or an exhausted NOT
  clears the buffers below it the way FTS5 does.

``Evaluation`` exposes what FTS5's extension API offers (xInst, xPhraseSize,
xQueryPhrase, ...); ``ranking`` and ``snippets`` build on it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from .index import Index, pos_column, pos_offset
from .query import (
    AndNode,
    Node,
    NotNode,
    OrNode,
    Phrase,
    Query,
    SpecialQuery,
    StringNode,
    Term,
    clip_token,
    conjoin,
    parse_query,
)

_LOOKAHEAD_EOF = 1 << 62

#: (phrase index, column, token offset) - FTS5's xInst triple
Instance = tuple[int, int, int]


# --------------------------------------------------------------------------
# position-list algorithms


def phrase_match(terms: list[Sequence[int]], first: bool) -> list[int]:
    """Start positions where term i sits at start + i (``^``: offset 0 only)."""
    if not all(terms):
        return []
    if len(terms) == 1:
        head: Sequence[int] = terms[0]
    else:
        rest = [set(t) for t in terms[1:]]
        head = [p for p in terms[0] if all(p + i + 1 in s for i, s in enumerate(rest))]
    if first:
        return [p for p in head if pos_offset(p) == 0]
    return list(head)


def near_filter(poslists: list[list[int]], sizes: list[int], near: int) -> list[list[int]]:
    """FTS5's NEAR scan: the positions taking part in a match (all empty if none).

    A set of phrase positions matches when every phrase i starts no earlier
    than ``max_start - size_i - near``.  The scan advances the phrase whose
    next position is smallest, so it keeps exactly what FTS5 keeps.
    """
    n = len(poslists)
    idx = [0] * n
    cur = [pl[0] for pl in poslists]
    out: list[list[int]] = [[] for _ in range(n)]

    def advance(i: int) -> bool:
        idx[i] += 1
        cur[i] = poslists[i][idx[i]] if idx[i] < len(poslists[i]) else _LOOKAHEAD_EOF
        return cur[i] == _LOOKAHEAD_EOF

    def lookahead(i: int) -> int:
        j = idx[i] + 1
        return poslists[i][j] if j < len(poslists[i]) else _LOOKAHEAD_EOF

    while True:
        i_max = cur[0]
        matched = False
        while not matched:
            matched = True
            for i in range(n):
                i_min = i_max - sizes[i] - near
                if cur[i] < i_min or cur[i] > i_max:
                    matched = False
                    while cur[i] < i_min:
                        if advance(i):
                            return out
                    if cur[i] > i_max:
                        i_max = cur[i]
        for i in range(n):
            if not out[i] or cur[i] != out[i][-1]:
                out[i].append(cur[i])
        adv = 0
        best = lookahead(0)
        for i in range(1, n):
            la = lookahead(i)
            if la < best:
                best, adv = la, i
        if advance(adv):
            return out


# --------------------------------------------------------------------------
# iterators


class _TermIter:
    """Rows of one term (colset-filtered positions), like Fts5IndexIter."""

    __slots__ = ("rowids", "data", "i", "eof")

    def __init__(self, rowids: list[int], data: list[Sequence[int]]) -> None:
        self.rowids = rowids
        self.data = data
        self.i = 0
        self.eof = not rowids

    @property
    def rowid(self) -> int:
        return self.rowids[self.i]

    @property
    def poslist(self) -> Sequence[int]:
        return self.data[self.i]

    def next(self) -> None:
        self.i += 1
        self.eof = self.i >= len(self.rowids)

    def next_from(self, target: int) -> None:
        """Step at least once, then on to the first rowid >= target."""
        self.i = max(self.i + 1, bisect_left(self.rowids, target, self.i))
        self.eof = self.i >= len(self.rowids)


class _Machine:
    """One run of FTS5's expression iterators over an index."""

    def __init__(self, index: Index, query: Query, among: tuple[tuple[str, bool], ...] = ()) -> None:
        """``among``: the query's terms when every match holds them all (a conjunction):
        only rows holding all of them are fetched."""
        self.index = index
        self.among = among
        self.full = index.detail == "full"
        self.query = query
        self.buf: dict[int, list[int]] = {id(p): [] for p in query.phrases}
        self.iters: dict[int, _TermIter] = {}
        self.rowid: dict[int, int] = {}
        self.eof: dict[int, bool] = {}
        self.nomatch: dict[int, bool] = {}
        self._raw: dict[tuple[str, bool], dict[int, Sequence[int]]] = {}

    # -- term iterators ------------------------------------------------------
    def _open(self, term: Term, colset: tuple[int, ...] | None) -> _TermIter:
        key = (term.text, term.prefix)
        raw = self._raw.get(key)
        if raw is None:
            raw = self._raw[key] = dict(self.index.postings(term.text, term.prefix, among=self.among))
        rowids = sorted(raw)
        if colset is None or self.index.detail == "none":
            return _TermIter(rowids, [raw[r] for r in rowids])
        data = [[p for p in raw[r] if pos_column(p) in colset] for r in rowids]
        if term.prefix and len(term.text) not in getattr(self.index, "prefix_lengths", ()):
            # a prefix answered by merging full terms drops rows the column
            # filter left empty; a prefix= index lookup keeps them, like a term
            keep = [i for i, d in enumerate(data) if d]
            return _TermIter([rowids[i] for i in keep], [data[i] for i in keep])
        return _TermIter(rowids, data)

    # -- node state helpers -----------------------------------------------
    def set_eof(self, node: Node) -> None:
        self.eof[id(node)] = True
        self.nomatch[id(node)] = False
        for child in _children(node):
            self.set_eof(child)

    def zero(self, node: Node) -> None:
        if isinstance(node, StringNode):
            for ph in node.phrases:
                self.buf[id(ph)] = []
        else:
            for child in _children(node):
                self.zero(child)

    def _cmp(self, a: Node, b: Node) -> int:
        if self.eof[id(b)]:
            return -1
        if self.eof[id(a)]:
            return 1
        ra, rb = self.rowid[id(a)], self.rowid[id(b)]
        return (ra > rb) - (ra < rb)

    # -- first ----------------------------------------------------------------
    def first(self, node: Node) -> None:
        k = id(node)
        self.eof[k] = False
        self.nomatch[k] = False
        if isinstance(node, StringNode):
            if node.eof:
                self.eof[k] = True
                return
            for ph in node.phrases:
                for term in ph.terms:
                    it = self._open(term, node.colset)
                    self.iters[id(term)] = it
                    if it.eof:
                        self.eof[k] = True
                        return
        else:
            kids = _children(node)
            n_eof = 0
            for child in kids:
                self.first(child)
                n_eof += self.eof[id(child)]
            self.rowid[k] = self.rowid.get(id(kids[0]), 0)
            if isinstance(node, AndNode):
                if n_eof:
                    self.set_eof(node)
            elif isinstance(node, OrNode):
                if n_eof == len(kids):
                    self.set_eof(node)
            else:
                self.eof[k] = self.eof[id(kids[0])]
        self.test(node)

    # -- test -----------------------------------------------------------------
    def test(self, node: Node) -> None:
        if self.eof[id(node)]:
            return
        if isinstance(node, StringNode):
            self._test_string(node)
        elif isinstance(node, AndNode):
            self._test_and(node)
        elif isinstance(node, OrNode):
            self._test_or(node)
        else:
            self._test_not(node)

    def _is_term(self, node: StringNode) -> bool:
        return (
            len(node.phrases) == 1 and len(node.phrases[0].terms) == 1
            and not node.phrases[0].terms[0].first
        )

    def _test_string(self, node: StringNode) -> None:
        k = id(node)
        if self._is_term(node):
            ph = node.phrases[0]
            it = self.iters[id(ph.terms[0])]
            if self.full:
                self.buf[id(ph)] = list(it.poslist)
            else:
                # column: the (filtered) column list; none: a bare "present".
                # Only emptiness matters: instances come from the text later.
                hit = bool(it.poslist) or self.index.detail == "none"
                self.buf[id(ph)] = [0] if hit else []
            self.rowid[k] = it.rowid
            self.nomatch[k] = not self.buf[id(ph)]
            return
        # fts5ExprNearNextMatch: park all term iterators on one rowid
        last = self.iters[id(node.phrases[0].terms[0])].rowid
        synced = False
        while not synced:
            synced = True
            for ph in node.phrases:
                for term in ph.terms:
                    it = self.iters[id(term)]
                    if it.eof or it.rowid == last:
                        continue
                    synced = False
                    if last > it.rowid:
                        it.next_from(last)
                        if it.eof:
                            self.eof[k] = True
                            return
                    last = it.rowid
        self.rowid[k] = last
        self.nomatch[k] = not self._near_test(node)

    def _near_test(self, node: StringNode) -> bool:
        """fts5ExprNearTest (detail=full): fill phrase buffers, test NEAR."""
        for ph in node.phrases:
            iters = [self.iters[id(t)] for t in ph.terms]
            if len(ph.terms) > 1 or node.colset is not None or ph.terms[0].first:
                got = phrase_match([it.poslist for it in iters], ph.terms[0].first)
                self.buf[id(ph)] = got
                if not got:
                    return False
            else:
                self.buf[id(ph)] = list(iters[0].poslist)
        if len(node.phrases) == 1:
            return True
        out = near_filter(
            [self.buf[id(ph)] for ph in node.phrases],
            [len(ph.terms) for ph in node.phrases],
            node.near,
        )
        for ph, plist in zip(node.phrases, out):
            self.buf[id(ph)] = plist
        return bool(out[0])

    def _test_and(self, node: AndNode) -> None:
        k = id(node)
        last = self.rowid[k]
        matched = False
        while not matched:
            self.nomatch[k] = False
            matched = True
            for child in node.children:
                c = id(child)
                if last > self.rowid[c]:
                    self.next(child, True, last)
                if self.eof[c]:
                    self.set_eof(node)
                    matched = True
                    break
                if self.rowid[c] != last:
                    matched = False
                    last = self.rowid[c]
                if self.nomatch[c]:
                    self.nomatch[k] = True
        if self.nomatch[k] and node is not self.query.root:
            self.zero(node)
        self.rowid[k] = last

    def _test_or(self, node: OrNode) -> None:
        best = node.children[0]
        for child in node.children[1:]:
            cmp = self._cmp(best, child)
            if cmp > 0 or (cmp == 0 and not self.nomatch[id(child)]):
                best = child
        k = id(node)
        self.rowid[k] = self.rowid.get(id(best), 0)
        self.eof[k] = self.eof[id(best)]
        self.nomatch[k] = self.nomatch[id(best)]

    def _test_not(self, node: NotNode) -> None:
        p1, p2 = node.left, node.right
        while not self.eof[id(p1)]:
            cmp = self._cmp(p1, p2)
            if cmp > 0:
                self.next(p2, True, self.rowid[id(p1)])
                cmp = self._cmp(p1, p2)
            if cmp or self.nomatch[id(p2)]:
                break
            self.next(p1, False, 0)
        k = id(node)
        self.eof[k] = self.eof[id(p1)]
        self.nomatch[k] = self.nomatch[id(p1)]
        self.rowid[k] = self.rowid.get(id(p1), 0)
        if self.eof[id(p1)]:
            self.zero(p2)

    # -- next -----------------------------------------------------------------
    def next(self, node: Node, from_valid: bool, target: int) -> None:
        k = id(node)
        if isinstance(node, StringNode):
            self.nomatch[k] = False
            it = self.iters[id(node.phrases[0].terms[0])]
            if from_valid:
                it.next_from(target)
            else:
                it.next()
            if it.eof:
                self.eof[k] = True
                self.nomatch[k] = False
            else:
                self._test_string(node)
        elif isinstance(node, AndNode):
            self.next(node.children[0], from_valid, target)
            self._test_and(node)
        elif isinstance(node, OrNode):
            last = self.rowid[k]
            for child in node.children:
                c = id(child)
                if not self.eof[c] and (
                    self.rowid[c] == last or (from_valid and self.rowid[c] < target)
                ):
                    self.next(child, from_valid, target)
            self._test_or(node)
        else:
            self.next(node.left, from_valid, target)
            self._test_not(node)

    # -- driving ----------------------------------------------------------------
    def rows(self):
        """Yield each matching rowid; buffers describe it until the next yield."""
        root = self.query.root
        self.first(root)
        while not self.eof[id(root)] and self.nomatch[id(root)]:
            self.next(root, False, 0)
        while not self.eof[id(root)]:
            yield self.rowid[id(root)]
            self.next(root, False, 0)
            while not self.eof[id(root)] and self.nomatch[id(root)]:
                self.next(root, False, 0)

    def live_buffers(self, rowid: int) -> dict[int, list[int]]:
        """Per phrase index: the buffer FTS5's xInst would read now."""
        out: dict[int, list[int]] = {}
        for ph in self.query.phrases:
            node = ph.node
            if node is None or node.eof:
                continue
            k = id(node)
            if not self.eof.get(k, True) and self.rowid.get(k) == rowid:
                buf = self.buf[id(ph)]
                if buf:
                    out[ph.index] = list(buf)
        return out


def _children(node: Node) -> list[Node]:
    if isinstance(node, (AndNode, OrNode)):
        return node.children
    if isinstance(node, NotNode):
        return [node.left, node.right]
    return []


# --------------------------------------------------------------------------
# public API


class Evaluation:
    """The matches of one query over one index, with FTS5's cursor API."""

    def __init__(self, index: Index, query: Query | SpecialQuery) -> None:
        self.index = index
        self._buffers: dict[int, dict[int, list[int]]] = {}
        self._instances: dict[int, list[Instance]] = {}
        self._hits: dict[int, int] = {}
        self._among: tuple[tuple[str, bool], ...] = ()
        #: set for ``MATCH '*reads'``-style diagnostics: one row, rowid 0,
        #: no phrases and NULL column texts (FTS5's "special" plan)
        self.special: str | None = None
        if isinstance(query, SpecialQuery):
            self.special = query.name
            query = Query(StringNode([], eof=True), [], tuple(index.columns))
            self._buffers[0] = {}
        elif lone_term(index.detail, query):
            # issue 8: one term in every column (the usual search): its postings are the
            # matches and their buffers, as the iterators would find them row by row
            phrase = query.phrases[0]
            term = phrase.terms[0]
            raw = index.postings(term.text, term.prefix, matches=True)
            self._buffers = {r: {phrase.index: list(raw[r])} for r in sorted(raw) if raw[r]}
        else:
            self._among = _conjunction_terms(query)
            machine = _Machine(index, query, self._among)
            for rowid in machine.rows():
                self._buffers[rowid] = machine.live_buffers(rowid)
        self.query = query
        self._rowids = list(self._buffers)

    def rowids(self) -> list[int]:
        """Matching rowids, ascending (FTS5's default scan order)."""
        return self._rowids

    def phrase_count(self) -> int:
        """Number of phrases in the query (xPhraseCount)."""
        return len(self.query.phrases)

    def phrase_size(self, phrase: int) -> int:
        """Tokens in phrase ``phrase`` (xPhraseSize)."""
        return len(self.query.phrases[phrase].terms)

    def phrase_positions(self, rowid: int) -> dict[int, list[int]]:
        """Encoded positions FTS5 reports for each phrase of a matching row."""
        bufs = self._buffers[rowid]
        if self.index.detail == "full":
            return bufs
        return self._populate(rowid, bufs)

    def _populate(self, rowid: int, live: dict[int, list[int]]) -> dict[int, list[int]]:
        """detail=column/none: FTS5 finds instances by re-tokenizing the row."""
        out: dict[int, list[int]] = {i: [] for i in live}
        phrases = [self.query.phrases[i] for i in live]
        for col, text in enumerate(self.index.column_texts(rowid)):
            if text is None:
                continue
            active = [
                (ph.index, ph.terms[0]) for ph in phrases
                if ph.node is not None and (ph.node.colset is None or col in ph.node.colset)
            ]
            if not active:
                continue
            for off, (tok, _s, _e) in enumerate(self.index.tokenizer.tokenize(text)):
                tok = clip_token(tok)
                for i, term in active:
                    if tok == term.text or (term.prefix and tok.startswith(term.text)):
                        out[i].append(col << 32 | off)
        return {i: p for i, p in out.items() if p}

    def instances(self, rowid: int) -> list[Instance]:
        """All phrase instances of a row, in FTS5's xInst order."""
        got = self._instances.get(rowid)
        if got is None:
            merged = sorted(
                (p, phrase)
                for phrase, plist in self.phrase_positions(rowid).items()
                for p in plist
            )
            got = [(phrase, pos_column(p), pos_offset(p)) for p, phrase in merged]
            self._instances[rowid] = got
        return got

    def phrase_hits(self, phrase: int) -> int:
        """Rows matching phrase ``phrase`` alone (xQueryPhrase's row count).

        The phrase keeps its column filter and ``^`` but not its NEAR group.
        """
        got = self._hits.get(phrase)
        if got is None:
            got = self._hits[phrase] = _count_phrase(self.index, self.query.phrases[phrase], self._among)
        return got


def lone_term(detail: str, query: Query) -> bool:
    """Whether ``query`` is a single term with no column filter and no ``^``, on a table
    of ``detail`` full (what the index can count and rank on its own)."""
    root = query.root
    return (
        detail == "full" and isinstance(root, StringNode) and not root.eof and root.colset is None
        and len(root.phrases) == 1 and len(root.phrases[0].terms) == 1 and not root.phrases[0].terms[0].first
    )


def _conjunction_terms(query: Query) -> tuple[tuple[str, bool], ...]:
    """The (term, prefix) pairs of a query every match of which holds them all (only
    AND, phrases and NEAR: no OR, no NOT), when there are two or more; else ()."""
    pairs: set[tuple[str, bool]] = set()
    nodes: list[Node] = [query.root]
    while nodes:
        node = nodes.pop()
        if isinstance(node, AndNode):
            nodes.extend(_children(node))
        elif isinstance(node, StringNode) and not node.eof and all(ph.terms for ph in node.phrases):
            pairs.update((t.text, t.prefix) for ph in node.phrases for t in ph.terms)
        else:
            return ()
    return tuple(sorted(pairs)) if len(pairs) > 1 else ()


def _count_phrase(index: Index, ph: Phrase, among: tuple[tuple[str, bool], ...] = ()) -> int:
    """Rows where ``ph`` matches on its own (what xQueryPhrase would visit).  ``among``:
    the evaluation's narrowing (``_conjunction_terms``), used only where it keeps every
    row holding the phrase's terms; a lone term is counted by the index."""
    node = ph.node
    if not ph.terms or node is None or node.colset == ():
        return 0
    cols = node.colset if index.detail != "none" else None
    if cols is None and len(ph.terms) == 1 and not ph.terms[0].first:
        return index.row_frequency(ph.terms[0].text, ph.terms[0].prefix)
    if not set(among) <= {(t.text, t.prefix) for t in ph.terms}:
        among = ()
    per_term: list[dict[int, Sequence[int]]] = []
    for t in ph.terms:
        raw = index.postings(t.text, t.prefix, among=among)
        if cols is not None:
            raw = {r: kept for r, p in raw.items() if (kept := [x for x in p if pos_column(x) in cols])}
        per_term.append(raw)
    per_term_sorted = sorted(per_term, key=len)
    rows = set(per_term_sorted[0])
    for other in per_term_sorted[1:]:
        rows.intersection_update(other)
    first = ph.terms[0].first
    if index.detail != "full" or (len(ph.terms) == 1 and not first):
        return len(rows)
    return sum(1 for r in rows if phrase_match([t[r] for t in per_term], first))


def search(index: Index, text: str, column: int | None = None) -> Evaluation:
    """Parse ``text`` for ``index``'s table and evaluate it."""
    return search_all(index, [(text, column)])


def search_all(index: Index, constraints: Sequence[tuple[str, int | None]]) -> Evaluation:
    """Evaluate every MATCH constraint on one table (text, column filter) together:
    FTS5 ANDs them, and a special query ('*reads') among them is the whole answer."""
    special = next((text for text, _c in constraints if text.startswith("*")), None)
    if special is not None:
        return Evaluation(index, parse_query(special, index.columns, index.tokenizer, index.detail))
    queries = [parse_query(text, index.columns, index.tokenizer, index.detail, column) for text, column in constraints]
    return Evaluation(index, conjoin([q for q in queries if isinstance(q, Query)]))
