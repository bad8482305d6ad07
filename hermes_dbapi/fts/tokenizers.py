"""Re-implementations of FTS5's built-in tokenizers.

Server backends index text with these so that what matches, what a token
is, and where it sits are the same as in SQLite.  Each tokenizer returns
``Token`` tuples ``(text, start, end)``: the folded token and the *character*
offsets of its source span in the input string.  (FTS5 reports UTF-8 byte
offsets; token boundaries always fall on character boundaries, so the two
are interchangeable, see ``byte_offsets``.)

``tokenizer_from_spec`` parses the value of a ``tokenize=`` table option and
raises ``FtsError`` with SQLite's messages on bad input.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import lru_cache

from . import porter
from ._text import ascii_lower
from .errors import FtsError
from .unicode61_tables import (
    CATEGORY_NAMES,
    CATEGORY_ZERO,
    category,
    category_runs,
    diacritics,
    fold_table,
)

#: (folded text, start char offset, end char offset)
Token = tuple[str, int, int]

ERR_CONSTRUCTOR = "error in tokenizer constructor"
ERR_DIRECTIVE = "parse error in tokenize directive"


class Tokenizer(ABC):
    """A tokenizer instance configured by its argument list."""

    @abstractmethod
    def tokenize(self, text: str) -> list[Token]:
        """Split ``text`` into tokens, in document order."""

    def terms(self, text: str) -> list[str]:
        """Just the token strings (what a query phrase is made of)."""
        return [t[0] for t in self.tokenize(text)]

    def utf8_spans(self, text: str, tokens: Sequence[Token]) -> list[Token]:
        """The UTF-8 byte offsets FTS5 reports for ``tokens`` of ``text``."""
        return byte_offsets(text, tokens)

    def needs_bytes(self, text: str) -> bool:
        """True if character offsets cannot express FTS5's offsets for ``text``."""
        return False


def byte_offsets(text: str, tokens: Sequence[Token]) -> list[tuple[str, int, int]]:
    """Convert character offsets of ``tokens`` to UTF-8 byte offsets."""
    if text.isascii():
        return list(tokens)
    points = sorted({p for _t, s, e in tokens for p in (s, e)})
    to_byte = {}
    nbytes = 0
    prev = 0
    for p in points:
        nbytes += len(text[prev:p].encode("utf-8", "surrogatepass"))
        to_byte[p] = nbytes
        prev = p
    return [(tok, to_byte[s], to_byte[e]) for tok, s, e in tokens]


# --------------------------------------------------------------------------
# character-class helpers


def _class_of(ranges: list[tuple[int, int]]) -> str:
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(f"\\U{lo:08x}")
        else:
            parts.append(f"\\U{lo:08x}-\\U{hi:08x}")
    return "[" + "".join(parts) + "]" if parts else "[^\\s\\S]"


def _merge(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(points):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _subtract(ranges: list[tuple[int, int]], cps: set[int]) -> list[tuple[int, int]]:
    out = []
    for lo, hi in ranges:
        cur = lo
        for cp in sorted(c for c in cps if lo <= c <= hi):
            if cp > cur:
                out.append((cur, cp - 1))
            cur = cp + 1
        if cur <= hi:
            out.append((cur, hi))
    return out


# --------------------------------------------------------------------------
# unicode61


def parse_categories(spec: str) -> frozenset[str] | None:
    """Parse a ``categories`` value the way SQLite does, or None if invalid.

    Words are split on spaces/tabs and only their first two characters
    count (``L*,N*`` means ``L*``); a word whose first letter is not a
    Unicode major class is ignored, but any word (even ignored) enables
    SQLite's unclassified category 0.
    """
    wild = {
        "C": "Cc Cf Cn Cs Co", "L": "Ll Lm Lo Lt Lu LC", "M": "Mc Me Mn",
        "N": "Nd Nl No", "P": "Pc Pd Pe Pf Pi Po Ps", "S": "Sc Sk Sm So",
        "Z": "Zl Zp Zs",
    }
    out: set[str] = set()
    i = 0
    n = len(spec)
    while i < n:
        while i < n and spec[i] in " \t":
            i += 1
        if i >= n:
            break
        major = spec[i]
        minor = spec[i + 1] if i + 1 < n else ""
        if major not in wild:
            pass  # SQLite ignores words of unknown major class
        elif minor == "*":
            out.update(wild[major].split())
        elif major + minor in CATEGORY_NAMES:
            out.add(major + minor)
        else:
            return None
        out.add(CATEGORY_ZERO)
        while i < n and spec[i] not in " \t":
            i += 1
    return frozenset(out)


@lru_cache(maxsize=64)
def _unicode61_regex(
    cats: frozenset[str], ascii_tokens: bytes, exceptions: frozenset[int]
) -> re.Pattern[str]:
    starts, names = category_runs()
    ranges: list[tuple[int, int]] = []
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else 0x10FFFF
        if names[i] in cats:
            ranges.append((max(start, 128), end))
    ranges = [(lo, hi) for lo, hi in ranges if lo <= hi]
    # exceptions flip the category verdict of their code point
    flip_on = {cp for cp in exceptions if category(cp) not in cats}
    flip_off = {cp for cp in exceptions if category(cp) in cats}
    ranges = _subtract(ranges, flip_off)
    ranges += [(cp, cp) for cp in flip_on]
    ranges += [(c, c) for c in range(1, 128) if ascii_tokens[c]]
    alnum = _merge(ranges)
    dia = [(cp, cp) for cp in diacritics()]
    cont = _merge(alnum + dia)
    return re.compile(_class_of(alnum) + _class_of(cont) + "*")


@lru_cache(maxsize=64)
def _ascii_text_regex(ascii_tokens: bytes) -> re.Pattern[str]:
    """Token runs of text that is all ASCII, where only the ASCII table decides
    (issue 7/8: a small class, about a third faster than the full Unicode one)."""
    return re.compile(_class_of(_merge([(c, c) for c in range(1, 128) if ascii_tokens[c]])) + "+")


_FOLD_CACHE = 100_000  # distinct words remembered per tokenizer (a few MB at most)


class Unicode61(Tokenizer):
    """FTS5 ``unicode61``: Unicode-category token characters, case folding."""

    def __init__(self, args: Sequence[str] = ()) -> None:
        if len(args) % 2:
            raise FtsError(ERR_CONSTRUCTOR)
        cat_spec = "L* N* Co"
        for i in range(0, len(args), 2):
            if ascii_lower(args[i]) == "categories":
                cat_spec = args[i + 1]
        cats = parse_categories(cat_spec)
        if cats is None:
            raise FtsError(ERR_CONSTRUCTOR)
        ascii_tokens = bytearray(128)
        for c in range(1, 128):
            ascii_tokens[c] = category(c) in cats
        exceptions: set[int] = set()
        remove = 1
        dia = diacritics()
        for i in range(0, len(args), 2):
            key, val = ascii_lower(args[i]), args[i + 1]
            if key == "remove_diacritics":
                if val not in ("0", "1", "2"):
                    raise FtsError(ERR_CONSTRUCTOR)
                remove = int(val)
            elif key in ("tokenchars", "separators"):
                want = key == "tokenchars"
                for ch in val:
                    cp = ord(ch)
                    if cp < 128:
                        ascii_tokens[cp] = want
                    elif (category(cp) in cats) != want and cp not in dia:
                        exceptions.add(cp)
            elif key != "categories":
                raise FtsError(ERR_CONSTRUCTOR)
        ascii_tokens[0] = 0
        self.remove_diacritics = remove
        self._regex = _unicode61_regex(cats, bytes(ascii_tokens), frozenset(exceptions))
        self._ascii_regex = _ascii_text_regex(bytes(ascii_tokens))
        self._fold = fold_table(remove)
        self._folded: dict[str, str] = {}  # word -> folded word, for ``terms``

    @property
    def pattern(self) -> str:
        """The token regular expression (``[start][continuation]*``, ``\\U`` escapes), which
        the server's tokenizer is built from (translate/helpers/pg_fts_index.py)."""
        return self._regex.pattern

    def tokenize(self, text: str) -> list[Token]:
        folded = text.translate(self._fold)
        regex = self._ascii_regex if text.isascii() else self._regex
        spans = [m.span() for m in regex.finditer(text)]
        if len(folded) == len(text):  # folding kept every character: slice it
            return [(folded[s:e], s, e) for s, e in spans]
        return [(text[s:e].translate(self._fold), s, e) for s, e in spans]

    def terms(self, text: str) -> list[str]:
        """The folded tokens without offsets (what indexing needs), folded once per
        distinct word: the fold maps each character to at most one, so folding a
        token alone equals slicing the folded text (see ``tokenize``)."""
        words = (self._ascii_regex if text.isascii() else self._regex).findall(text)
        cache = self._folded
        try:
            return [cache[w] for w in words]
        except KeyError:
            pass
        out = []
        fold = self._fold
        for w in words:
            got = cache.get(w)
            if got is None:
                got = w.translate(fold)
                if len(cache) < _FOLD_CACHE:
                    cache[w] = got
            out.append(got)
        return out


# --------------------------------------------------------------------------
# ascii

_ASCII_FOLD = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


@lru_cache(maxsize=64)
def _ascii_regex(ascii_tokens: bytes) -> re.Pattern[str]:
    ranges = [(c, c) for c in range(1, 128) if ascii_tokens[c]]
    ranges.append((128, 0x10FFFF))
    return re.compile(_class_of(_merge(ranges)) + "+")


class Ascii(Tokenizer):
    """FTS5 ``ascii``: ASCII alphanumerics and every non-ASCII character."""

    def __init__(self, args: Sequence[str] = ()) -> None:
        if len(args) % 2:
            raise FtsError(ERR_CONSTRUCTOR)
        tok = bytearray(128)
        for c in b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
            tok[c] = 1
        for i in range(0, len(args), 2):
            key, val = ascii_lower(args[i]), args[i + 1]
            if key not in ("tokenchars", "separators"):
                raise FtsError(ERR_CONSTRUCTOR)
            for ch in val:
                if ord(ch) < 128:
                    tok[ord(ch)] = key == "tokenchars"
        tok[0] = 0
        self._regex = _ascii_regex(bytes(tok))

    def tokenize(self, text: str) -> list[Token]:
        return [
            (m.group().translate(_ASCII_FOLD), m.start(), m.end())
            for m in self._regex.finditer(text)
        ]


# --------------------------------------------------------------------------
# porter


class Porter(Tokenizer):
    """FTS5 ``porter``: Porter-stems the tokens of a parent tokenizer."""

    def __init__(self, args: Sequence[str] = ()) -> None:
        name = args[0] if args else "unicode61"
        factory = _REGISTRY.get(ascii_lower(name))
        if factory is None:
            raise FtsError(ERR_CONSTRUCTOR)
        self.parent = factory(list(args[1:]))

    def tokenize(self, text: str) -> list[Token]:
        stem = porter.stem
        return [(stem(t), s, e) for t, s, e in self.parent.tokenize(text)]


# --------------------------------------------------------------------------
# trigram


class Trigram(Tokenizer):
    """FTS5 ``trigram``: every 3-character window, up to the first NUL."""

    def __init__(self, args: Sequence[str] = ()) -> None:
        if len(args) % 2:
            raise FtsError(ERR_CONSTRUCTOR)
        fold = True
        for i in range(0, len(args), 2):
            key, val = ascii_lower(args[i]), args[i + 1]
            if key != "case_sensitive" or val not in ("0", "1"):
                raise FtsError(ERR_CONSTRUCTOR)
            fold = val == "0"
        self.case_sensitive = not fold

    def tokenize(self, text: str) -> list[Token]:
        nul = text.find("\0")
        if nul >= 0:
            text = text[:nul]
        if not self.case_sensitive:
            text = text.translate(fold_table(0))
        return [(text[i : i + 3], i, i + 3) for i in range(len(text) - 2)]

    def utf8_spans(self, text: str, tokens: Sequence[Token]) -> list[Token]:
        """FTS5 quirk: a trigram's end offset is its start plus the length of
        the *folded* trigram, so folding that changes a character's UTF-8
        length shifts the end (possibly into the middle of a character)."""
        spans = byte_offsets(text, tokens)
        if self.case_sensitive or text.isascii():
            return spans
        return [(t, s, s + len(t.encode("utf-8", "surrogatepass"))) for t, s, _e in spans]

    def needs_bytes(self, text: str) -> bool:
        if self.case_sensitive or text.isascii():
            return False
        raw = text.encode("utf-8", "surrogatepass")
        return len(raw) != len(text.translate(fold_table(0)).encode("utf-8", "surrogatepass"))


# --------------------------------------------------------------------------
# registry and tokenize= parsing

TokenizerFactory = Callable[[Sequence[str]], Tokenizer]

_REGISTRY: dict[str, TokenizerFactory] = {
    "unicode61": Unicode61,
    "ascii": Ascii,
    "porter": Porter,
    "trigram": Trigram,
}
_BUILTIN = dict(_REGISTRY)


def only_builtin_tokenizers() -> bool:
    """No custom tokenizer registered (a fresh process tokenizes exactly as this one)."""
    return _REGISTRY == _BUILTIN


def register_tokenizer(name: str, factory: TokenizerFactory) -> None:
    """Make a custom tokenizer available to ``tokenize=`` (names are case-blind)."""
    _REGISTRY[ascii_lower(name)] = factory
    tokenizer_from_spec.cache_clear()


def _is_bareword(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "_\x1a") or not ch.isascii()


def split_tokenize_arg(value: str) -> list[str]:
    """Split a ``tokenize=`` value into words as FTS5 does.

    A word is a run of bareword characters (ASCII alphanumerics, ``_``,
    non-ASCII) or a single-quoted literal with ``''`` escapes.
    """
    words: list[str] = []
    i = 0
    n = len(value)
    space = " \t\n\v\f\r"
    while i < n:
        while i < n and value[i] in space:
            i += 1
        if i >= n:
            if not words:  # whitespace-only value: no word where one is due
                raise FtsError(ERR_DIRECTIVE)
            break
        if value[i] == "'":
            j = i + 1
            buf = []
            while True:
                if j >= n:
                    raise FtsError(ERR_DIRECTIVE)
                if value[j] == "'":
                    if j + 1 < n and value[j + 1] == "'":
                        buf.append("'")
                        j += 2
                        continue
                    j += 1
                    break
                buf.append(value[j])
                j += 1
            words.append("".join(buf))
            i = j
        else:
            j = i
            while j < n and _is_bareword(value[j]):
                j += 1
            if j == i:
                raise FtsError(ERR_DIRECTIVE)
            words.append(value[i:j])
            i = j
    return words


def create_tokenizer(words: Sequence[str]) -> Tokenizer:
    """Instantiate the tokenizer named by ``words[0]`` with the rest as args."""
    if not words:
        return Unicode61(())
    factory = _REGISTRY.get(ascii_lower(words[0]))
    if factory is None:
        raise FtsError(f"no such tokenizer: {words[0]}")
    try:
        return factory(list(words[1:]))
    except FtsError as exc:
        if exc.message == ERR_CONSTRUCTOR:
            raise
        raise FtsError(ERR_CONSTRUCTOR) from exc


@lru_cache(maxsize=256)
def tokenizer_from_spec(value: str | None) -> Tokenizer:
    """The tokenizer for a ``tokenize=`` value (None/empty = unicode61)."""
    return create_tokenizer(split_tokenize_arg(value or ""))
