"""SQLite's parameter numbering, and markers sqlglot can carry through a rewrite.

SQLite numbers parameters as it meets them: ``?`` takes the next index, ``?NNN``
takes NNN, and a named parameter (``:a``, ``@a``, ``$a``) takes the next index
the first time its name appears and the same index afterwards.  We scan the
tokens (so ``?`` inside strings, quoted identifiers and comments stay text),
record each index's name, and replace every parameter by ``:__hdb_pN`` so the
AST names it by index whatever order later passes print it in.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import TokenType

MARKER = "__hdb_p"
_SQLITE = SQLite()


@dataclass(frozen=True)
class ParamScan:
    sql: str  # the statement with every parameter replaced by :__hdb_pN
    count: int  # highest index, as sqlite3_bind_parameter_count()
    names: tuple[str | None, ...]  # per index (1-based at position i-1): ":a", "@a", "$a", "?NNN" or None
    spans: tuple[tuple[int, int, int], ...] = ()  # (start, end, index) of each parameter in the original text


def scan(sql: str) -> ParamScan:
    """Number the parameters of one statement the way SQLite does."""
    tokens = _SQLITE.tokenize(sql)
    pieces: list[str] = []
    last = 0
    names: dict[int, str | None] = {}
    by_name: dict[str, int] = {}
    highest = 0
    spans: list[tuple[int, int, int]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        adjacent = nxt is not None and nxt.start == tok.end + 1
        span: tuple[int, int] | None = None
        if tok.token_type == TokenType.PLACEHOLDER:
            if adjacent and nxt.token_type == TokenType.NUMBER and nxt.text.isdigit():
                index = int(nxt.text)
                if names.get(index) is None:  # an index without a name takes "?NNN" (sqlite3 3.12+ warns of a sequence)
                    names[index] = "?" + nxt.text
                highest = max(highest, index)
                span, i = (tok.start, nxt.end), i + 1
            else:
                highest += 1
                index = highest
                span = (tok.start, tok.end)
            names.setdefault(index, None)
        elif (tok.token_type in (TokenType.COLON, TokenType.PARAMETER)) and adjacent and _is_name(nxt.text):
            name = (":" if tok.token_type == TokenType.COLON else "@") + nxt.text
            index, highest = _named(name, by_name, names, highest)
            span, i = (tok.start, nxt.end), i + 1
        elif tok.token_type == TokenType.VAR and tok.text.startswith("$") and len(tok.text) > 1:
            index, highest = _named(tok.text, by_name, names, highest)
            span = (tok.start, tok.end)
        if span is not None:
            spans.append((span[0], span[1] + 1, index))
            pieces.append(sql[last : span[0]])
            pieces.append(f":{MARKER}{index}")
            last = span[1] + 1
        i += 1
    if last == 0:
        return ParamScan(sql, 0, ())
    pieces.append(sql[last:])
    return ParamScan("".join(pieces), highest, tuple(names.get(n) for n in range(1, highest + 1)), tuple(spans))


def _is_name(text: str) -> bool:
    return bool(text) and (text[0].isalnum() or text[0] == "_")


def _named(name: str, by_name: dict[str, int], names: dict[int, str | None], highest: int) -> tuple[int, int]:
    if name in by_name:
        return by_name[name], highest
    highest += 1
    by_name[name] = highest
    names[highest] = name
    return highest, highest


def marker_index(name: str) -> int | None:
    """0-based parameter index of a marker produced by :func:`scan`, else None."""
    if name.startswith(MARKER) and name[len(MARKER) :].isdigit():
        return int(name[len(MARKER) :]) - 1
    return None
