"""FTS5 query syntax -> expression tree, with SQLite's exact behaviour.

The tree mirrors what FTS5 builds, including its quirks, because results,
phrase numbering (used by bm25/snippet/highlight) and error messages all
depend on them:

* implicit AND (juxtaposition) binds tighter than NOT > AND > OR, and it
  silently drops phrases with no tokens (``a ""`` == ``a``) while explicit
  operators keep them as never-matching nodes (``a AND ""`` matches nothing);
* a parenthesised group cannot take part in an implicit AND;
* ``col:(...)`` intersects with inner column filters;
* errors are raised in the order SQLite's Lemon parser detects them.

``parse_query`` returns a ``Query`` (or ``SpecialQuery`` for ``*reads`` and
``*id``) and raises ``FtsError`` with SQLite's message on bad input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from . import _lalr
from ._text import ascii_lower
from .errors import FtsError
from .tokenizers import Tokenizer

#: FTS5 truncates every token to this many bytes (index and query alike).
MAX_TOKEN_BYTES = 32768
DEFAULT_NEAR = 10
DETAILS = ("full", "column", "none")


def clip_token(tok: str) -> str:
    """Truncate a token to FTS5's maximum token size (in UTF-8 bytes)."""
    if len(tok) * 4 <= MAX_TOKEN_BYTES:
        return tok
    raw = tok.encode("utf-8", "surrogateescape")
    if len(raw) <= MAX_TOKEN_BYTES:
        return tok
    return raw[:MAX_TOKEN_BYTES].decode("utf-8", "surrogateescape")


# --------------------------------------------------------------------------
# expression tree


@dataclass(eq=False)
class Term:
    """One token of a phrase; ``prefix`` for ``tok*``, ``first`` for ``^``."""

    text: str
    prefix: bool = False
    first: bool = False


@dataclass(eq=False)
class Phrase:
    """A sequence of terms that must appear consecutively."""

    terms: list[Term] = field(default_factory=list)
    index: int = -1
    node: StringNode | None = None


@dataclass(eq=False)
class StringNode:
    """A phrase or NEAR group, optionally restricted to columns.

    ``eof`` marks a node that can never match (an empty phrase, or column
    filters whose intersection is empty).
    """

    phrases: list[Phrase]
    near: int = DEFAULT_NEAR
    colset: tuple[int, ...] | None = None
    eof: bool = False


@dataclass(eq=False)
class AndNode:
    """All children match."""

    children: list[Node]


@dataclass(eq=False)
class OrNode:
    """Any child matches."""

    children: list[Node]


@dataclass(eq=False)
class NotNode:
    """``left NOT right``: left matches and right does not."""

    left: Node
    right: Node


Node = StringNode | AndNode | OrNode | NotNode


@dataclass(eq=False)
class Query:
    """A parsed MATCH expression; ``phrases`` in FTS5's phrase order."""

    root: Node
    phrases: list[Phrase]
    columns: tuple[str, ...]


@dataclass(frozen=True)
class SpecialQuery:
    """``MATCH '*reads'`` / ``'*id'``: FTS5 diagnostics, one row of rowid 0."""

    name: str


# --------------------------------------------------------------------------
# lexer

_TERMINALS = [
    "OR", "AND", "NOT", "TERM", "COLON", "MINUS", "LCP", "RCP", "STRING",
    "LP", "RP", "CARET", "COMMA", "PLUS", "STAR",
]
_PUNCT = {
    "(": "LP", ")": "RP", "{": "LCP", "}": "RCP", ":": "COLON", ",": "COMMA",
    "+": "PLUS", "*": "STAR", "-": "MINUS", "^": "CARET",
}
_SPACE = " \t\n\r"


def _is_bareword(ch: str) -> bool:
    return ch >= "\x80" or ch.isascii() and (ch.isalnum() or ch in "_\x1a")


def _syntax_error(raw: str) -> FtsError:
    return FtsError(f'fts5: syntax error near "{raw}"')


def _tokens(text: str):
    """Yield (kind, raw) pairs, ending with ("$", "")."""
    i = 0
    n = len(text)
    while True:
        while i < n and text[i] in _SPACE:
            i += 1
        if i >= n:
            yield (_lalr.EOF, "")
            return
        ch = text[i]
        if ch in _PUNCT:
            yield (_PUNCT[ch], ch)
            i += 1
        elif ch == '"':
            j = i + 1
            while True:
                if j >= n:
                    raise FtsError("unterminated string")
                if text[j] == '"':
                    j += 1
                    if j >= n or text[j] != '"':
                        break
                j += 1
            yield ("STRING", text[i:j])
            i = j
        elif _is_bareword(ch):
            j = i + 1
            while j < n and _is_bareword(text[j]):
                j += 1
            word = text[i:j]
            yield (word if word in ("OR", "NOT", "AND") else "STRING", word)
            i = j
        else:
            raise _syntax_error(ch)


def dequote(raw: str) -> str:
    """FTS5's dequote: strip a leading quote char and unescape doubled ones."""
    if not raw or raw[0] not in "['\"`":
        return raw
    q = "]" if raw[0] == "[" else raw[0]
    out = []
    i = 1
    while i < len(raw):
        if raw[i] == q:
            if i + 1 < len(raw) and raw[i + 1] == q:
                out.append(q)
                i += 2
                continue
            break
        out.append(raw[i])
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------
# grammar (same rules, order and precedence as FTS5's fts5parse.y)

_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("input", ("expr",)),
    ("colset", ("MINUS", "LCP", "colsetlist", "RCP")),
    ("colset", ("LCP", "colsetlist", "RCP")),
    ("colset", ("STRING",)),
    ("colset", ("MINUS", "STRING")),
    ("colsetlist", ("colsetlist", "STRING")),
    ("colsetlist", ("STRING",)),
    ("expr", ("expr", "AND", "expr")),
    ("expr", ("expr", "OR", "expr")),
    ("expr", ("expr", "NOT", "expr")),
    ("expr", ("colset", "COLON", "LP", "expr", "RP")),
    ("expr", ("LP", "expr", "RP")),
    ("expr", ("exprlist",)),
    ("exprlist", ("cnearset",)),
    ("exprlist", ("exprlist", "cnearset")),
    ("cnearset", ("nearset",)),
    ("cnearset", ("colset", "COLON", "nearset")),
    ("nearset", ("phrase",)),
    ("nearset", ("CARET", "phrase")),
    ("nearset", ("STRING", "LP", "nearphrases", "neardist_opt", "RP")),
    ("nearphrases", ("phrase",)),
    ("nearphrases", ("nearphrases", "phrase")),
    ("neardist_opt", ()),
    ("neardist_opt", ("COMMA", "STRING")),
    ("phrase", ("phrase", "PLUS", "STRING", "star_opt")),
    ("phrase", ("STRING", "star_opt")),
    ("star_opt", ("STAR",)),
    ("star_opt", ()),
]
_PRECEDENCE = {
    "OR": (1, "left"), "AND": (2, "left"), "NOT": (3, "left"),
    "TERM": (4, "left"), "COLON": (5, "left"),
}


def build_tables() -> _lalr.Tables:
    """The grammar's tables, built afresh (tests/fts/tools/gen_query_tables.py keeps them)."""
    return _lalr.build(_RULES, _TERMINALS, _PRECEDENCE)


@lru_cache(maxsize=1)
def _tables() -> _lalr.Tables:
    """The tables kept as data (issue 8: building them cost each process ~10 ms)."""
    from ._query_tables import TABLES

    return TABLES


# --------------------------------------------------------------------------
# semantic actions (what FTS5's sqlite3Fts5Parse* functions do)


@dataclass(eq=False)
class _NearSet:
    phrases: list[Phrase]
    near: int = DEFAULT_NEAR


class _Parse:
    def __init__(self, columns: Sequence[str], tokenizer: Tokenizer, detail: str) -> None:
        self.columns = tuple(columns)
        self.tokenizer = tokenizer
        self.detail = detail
        self.phrases: list[Phrase] = []
        self.result: Node | None = None

    # phrases -------------------------------------------------------------
    def term(self, append: Phrase | None, raw: str, prefix: bool) -> Phrase:
        toks = [clip_token(t) for t in self.tokenizer.terms(dequote(raw))]
        if append is None:
            phrase = Phrase()
            self.phrases.append(phrase)
        else:
            phrase = append
        phrase.terms.extend(Term(t) for t in toks)
        if phrase.terms:
            phrase.terms[-1].prefix = prefix
        return phrase

    def nearset(self, near: _NearSet | None, phrase: Phrase) -> _NearSet:
        if near is None:
            return _NearSet([phrase])
        last = near.phrases[-1]
        if not phrase.terms:
            self._drop(phrase)
            near.phrases.pop()
            phrase = last
        elif not last.terms:
            self._drop(last)
            near.phrases.pop()
        near.phrases.append(phrase)
        return near

    def _drop(self, phrase: Phrase) -> None:
        for i, p in enumerate(self.phrases):
            if p is phrase:
                del self.phrases[i]
                return

    def near_keyword(self, raw: str) -> None:
        if raw != "NEAR":
            raise _syntax_error(raw)

    def distance(self, near: _NearSet, raw: str | None) -> None:
        if raw is None:
            near.near = DEFAULT_NEAR
            return
        value = 0
        for ch in raw:
            if not "0" <= ch <= "9":
                raise FtsError(f'expected integer, got "{raw}"')
            value = (value * 10 + ord(ch) - 48) & 0xFFFFFFFF
        near.near = value - (1 << 32) if value >= 1 << 31 else value

    # columns -------------------------------------------------------------
    def colset(self, cols: tuple[int, ...] | None, raw: str) -> tuple[int, ...]:
        name = ascii_lower(dequote(raw))
        for i, col in enumerate(self.columns):
            if ascii_lower(col) == name:
                return tuple(sorted(set(cols or ()) | {i}))
        raise FtsError(f"no such column: {dequote(raw)}")

    def invert(self, cols: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.columns)) if i not in cols)

    def set_colset(self, node: Node | None, cols: tuple[int, ...]) -> None:
        if self.detail == "none":
            raise FtsError("fts5: column queries are not supported (detail=none)")
        self._set_colset(node, cols)

    def _set_colset(self, node: Node | None, cols: tuple[int, ...]) -> None:
        if isinstance(node, StringNode):
            if node.eof:
                return
            if node.colset is not None:
                node.colset = tuple(c for c in node.colset if c in cols)
                if not node.colset:
                    node.eof = True
            else:
                node.colset = cols
        elif isinstance(node, NotNode):
            self._set_colset(node.left, cols)
            self._set_colset(node.right, cols)
        elif node is not None:
            for child in node.children:
                self._set_colset(child, cols)

    # nodes ---------------------------------------------------------------
    def string_node(self, near: _NearSet) -> StringNode:
        node = StringNode(near.phrases, near.near)
        for phrase in near.phrases:
            phrase.node = node
            if not phrase.terms:
                node.eof = True
        if self.detail != "full":
            first = near.phrases[0]
            if (
                len(near.phrases) != 1 or len(first.terms) > 1
                or (first.terms and first.terms[0].first)
            ):
                kind = "phrase" if len(near.phrases) == 1 else "NEAR"
                raise FtsError(
                    f"fts5: {kind} queries are not supported (detail!=full)"
                )
        return node

    def node(self, kind: str, left: Node, right: Node) -> Node:
        if kind == "NOT":
            return NotNode(left, right)
        cls = AndNode if kind == "AND" else OrNode
        children: list[Node] = []
        for child in (left, right):
            if isinstance(child, cls):
                children.extend(child.children)
            else:
                children.append(child)
        return cls(children)

    def implicit_and(self, left: Node, right: StringNode) -> Node:
        prev = left.children[-1] if isinstance(left, AndNode) else left
        # Here ``eof`` can only mean "empty phrase": juxtaposed operands have
        # not been through a column-filter intersection yet.
        if right.eof:
            self._drop(right.phrases[0])
            return left
        if isinstance(prev, StringNode) and prev.eof:
            self._drop(prev.phrases[0])
            if prev is left:
                return right
            assert isinstance(left, AndNode)
            left.children[-1] = right
            return left
        return self.node("AND", left, right)


def _reduce(p: _Parse, rule: int, v: list):
    """Run the semantic action of ``rule`` on its right-hand-side values."""
    if rule == 0:
        p.result = v[0]
        return None
    if rule == 1:
        return p.invert(v[2])
    if rule == 2:
        return v[1]
    if rule == 3:
        return p.colset(None, v[0][1])
    if rule == 4:
        return p.invert(p.colset(None, v[1][1]))
    if rule == 5:
        return p.colset(v[0], v[1][1])
    if rule == 6:
        return p.colset(None, v[0][1])
    if rule in (7, 8, 9):
        return p.node(v[1][0], v[0], v[2])
    if rule == 10:
        p.set_colset(v[3], v[0])
        return v[3]
    if rule == 11:
        return v[1]
    if rule in (12, 13):
        return v[0]
    if rule == 14:
        return p.implicit_and(v[0], v[1])
    if rule == 15:
        return p.string_node(v[0])
    if rule == 16:
        node = p.string_node(v[2])
        p.set_colset(node, v[0])
        return node
    if rule == 17:
        return p.nearset(None, v[0])
    if rule == 18:
        if v[1].terms:
            v[1].terms[0].first = True
        return p.nearset(None, v[1])
    if rule == 19:
        p.near_keyword(v[0][1])
        p.distance(v[2], v[3])
        return v[2]
    if rule == 20:
        return p.nearset(None, v[0])
    if rule == 21:
        return p.nearset(v[0], v[1])
    if rule == 22:
        return None
    if rule == 23:
        return v[1][1]
    if rule == 24:
        return p.term(v[0], v[2][1], v[3])
    if rule == 25:
        return p.term(None, v[0][1], v[1])
    if rule == 26:
        return True
    return False  # rule 27: empty star_opt


def _run(p: _Parse, text: str) -> None:
    tables = _tables()
    states = [0]
    values: list = [None]
    for kind, raw in _tokens(text):
        while True:
            st = states[-1]
            act = tables.actions[st].get(kind)
            if act is None:
                dflt = tables.default_reduce[st]
                if dflt is None:
                    raise _syntax_error(raw)
                act = ("reduce", dflt)
            if act[0] == "shift":
                states.append(act[1])
                values.append((kind, raw))
                break
            if act[0] == "accept":
                return
            rule = act[1]
            lhs, rhs = tables.rules[rule]
            k = len(rhs)
            args = values[len(values) - k :] if k else []
            result = _reduce(p, rule, args)
            if k:
                del states[-k:]
                del values[-k:]
            if rule == 0:
                return
            states.append(tables.gotos[states[-1]][lhs])
            values.append(result)


def parse_query(
    text: str,
    columns: Sequence[str],
    tokenizer: Tokenizer,
    detail: str = "full",
    column: int | None = None,
) -> Query | SpecialQuery:
    """Parse an FTS5 MATCH string.

    ``column`` restricts the whole query to one column, as ``col MATCH ?``
    does.  The text is cut at the first NUL, as SQLite reads it as a C string.
    """
    nul = text.find("\0")
    if nul >= 0:
        text = text[:nul]
    if text.startswith("*"):
        return _special(text[1:])
    p = _Parse(columns, tokenizer, detail)
    _run(p, text)
    root = p.result
    assert root is not None
    if column is not None and 0 <= column < len(p.columns):
        p.set_colset(root, (column,))
    for i, phrase in enumerate(p.phrases):
        phrase.index = i
    return Query(root, p.phrases, p.columns)


def conjoin(queries: Sequence[Query]) -> Query:
    """Several MATCH constraints on one table: FTS5 ANDs them, their phrases in order."""
    if len(queries) == 1:
        return queries[0]
    phrases = [phrase for q in queries for phrase in q.phrases]
    for i, phrase in enumerate(phrases):
        phrase.index = i
    return Query(AndNode([q.root for q in queries]), phrases, queries[0].columns)


def _special(text: str) -> SpecialQuery:
    text = text.lstrip(" ")
    word = text.split(" ", 1)[0]
    if ascii_lower(word) in ("reads", "id"):
        return SpecialQuery(ascii_lower(word))
    raise FtsError(f"unknown special query: {word}")
