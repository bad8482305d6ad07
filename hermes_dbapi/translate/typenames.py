"""SQLite column type names → one canonical type per affinity, before parsing.

SQLite accepts any run of words as a type name (``UNSIGNED BIG INT``, ``NATIVE
CHARACTER(70)``) and derives the column's *affinity* from substrings of it.
sqlglot understands only the type names other databases have, so we rewrite
each declared type, at the token level, into a canonical name sqlglot parses:
``BIGINT``, ``TEXT``, ``BLOB``, ``DOUBLE`` or ``NUMERIC`` (only for a name that says
a number; ``JSON``, ``UUID`` or a converter's ``point`` are TEXT) -- or ``INTEGER`` for
a column declared exactly ``INTEGER``, which SQLite treats as a rowid alias when
it is the primary key.  The declared text itself is SQLite's business: the
shadow catalog keeps it for ``PRAGMA table_info``.
"""

from __future__ import annotations

from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import Token, TokenType

_SQLITE = SQLite()

# Words that end a type name inside a column definition.
_CONSTRAINT_WORDS = {
    "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT",
    "COLLATE", "REFERENCES", "GENERATED", "AS", "ON",
}
_TABLE_CONSTRAINT_WORDS = {"CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"}


def affinity(declared: str) -> str:
    """SQLite's affinity rules (datatype3.html §3.1), in their order."""
    upper = declared.upper()
    if "INT" in upper:
        return "INTEGER"
    if "CHAR" in upper or "CLOB" in upper or "TEXT" in upper:
        return "TEXT"
    if "BLOB" in upper or not upper.strip():
        return "BLOB"
    if "REAL" in upper or "FLOA" in upper or "DOUB" in upper:
        return "REAL"
    return "NUMERIC"


def canonical(declared: str) -> str:
    """The type name sqlglot will see for a declared SQLite type."""
    if declared.strip().upper() == "INTEGER":
        return "INTEGER"
    kind = affinity(declared)
    if kind == "INTEGER":
        return "BIGINT"
    if kind == "REAL":
        return "DOUBLE"
    upper = declared.upper()
    if kind == "NUMERIC" and any(word in upper for word in ("DATE", "TIME")):
        return "TEXT"  # applications store ISO strings in DATETIME columns
    if kind == "NUMERIC" and "BOOL" in upper:
        return "BIGINT"
    if kind == "NUMERIC" and not any(word in upper for word in _NUMBER_WORDS):
        return "TEXT"  # a name that is no number's (JSON, UUID, a converter's): applications store text
    return kind


_NUMBER_WORDS = ("NUM", "DEC", "MONEY")  # NUMERIC, NUMBER(10), DECIMAL(10, 2), MONEY


def _word(tok: Token) -> str:
    """The first keyword of a token (sqlglot makes ``PRIMARY KEY`` one token)."""
    if tok.token_type in (TokenType.STRING, TokenType.IDENTIFIER) or not tok.text:
        return ""
    return tok.text.split()[0].upper()


def tokenize(sql: str) -> list[Token]:
    """SQLite's tokens of ``sql`` (one list for the rewrites of a CREATE or ALTER)."""
    return _SQLITE.tokenize(sql)


def normalize(sql: str, tokens: list[Token]) -> str:
    """Rewrite the declared types of CREATE TABLE / ALTER TABLE ADD COLUMN
    (``tokens``: :func:`tokenize` of ``sql``, or of a text with the same offsets)."""
    words = [_word(t) for t in tokens]
    if len(tokens) < 3 or words[0] not in ("CREATE", "ALTER"):
        return sql
    spans: list[tuple[int, int, str]] = []  # token index range [a, b) → declared text
    if words[0] == "ALTER":
        if "ADD" not in words:
            return sql
        start = words.index("ADD") + 1
        if start < len(words) and words[start] == "COLUMN":
            start += 1
        _column_def(tokens, words, start, len(tokens), spans)
    else:
        if "TABLE" not in words[:6] or "VIRTUAL" in words[:4]:
            return sql
        open_at = next((i for i, t in enumerate(tokens) if t.token_type == TokenType.L_PAREN), None)
        if open_at is None or "AS" in words[:open_at]:
            return sql
        for a, b in _split_defs(tokens, open_at):
            if words[a] not in _TABLE_CONSTRAINT_WORDS:
                _column_def(tokens, words, a, b, spans)
    return _apply(sql, tokens, spans)


def _split_defs(tokens: list[Token], open_at: int) -> list[tuple[int, int]]:
    defs: list[tuple[int, int]] = []
    depth, start = 0, open_at + 1
    for i in range(open_at, len(tokens)):
        kind = tokens[i].token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
            if depth == 0:
                if i > start:
                    defs.append((start, i))
                break
        elif kind == TokenType.COMMA and depth == 1:
            defs.append((start, i))
            start = i + 1
    return defs


def _column_def(tokens: list[Token], words: list[str], a: int, b: int, spans: list[tuple[int, int, str]]) -> None:
    i = a + 1  # skip the column name
    start = i
    depth = 0
    while i < b:
        kind = tokens[i].token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and (words[i] in _CONSTRAINT_WORDS or kind in (TokenType.COMMA, TokenType.SEMICOLON)):
            break
        i += 1
    declared = _declared_text(tokens[start:i])
    spans.append((start, i, declared))


def _declared_text(tokens: list[Token]) -> str:
    out = ""
    for prev, tok in zip([None, *tokens], tokens):
        text = tok.text if tok.token_type != TokenType.STRING else f"'{tok.text}'"
        if prev is not None and tok.token_type not in (TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA):
            if prev.token_type not in (TokenType.L_PAREN,):
                out += " "
        out += text
    return out


def _apply(sql: str, tokens: list[Token], spans: list[tuple[int, int, str]]) -> str:
    pieces: list[str] = []
    last = 0
    for a, b, declared in spans:
        if a == b:  # untyped column: stays untyped
            continue
        pieces.append(sql[last : tokens[a].start])
        pieces.append(canonical(declared))
        last = tokens[b - 1].end + 1
    pieces.append(sql[last:])
    return "".join(pieces)
