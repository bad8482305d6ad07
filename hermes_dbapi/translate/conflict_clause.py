"""``UPDATE OR <algorithm>``: SQLite's conflict clause on an UPDATE, which sqlglot
does not read (it reads ``INSERT OR …`` as ``Insert.alternative``).

:func:`split` takes the clause out of the statement text before parsing and
says which algorithm it named; the statement is then an ordinary UPDATE, and
the caller resolves conflicts as the algorithm says (``update_conflicts.py``).
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import TokenType

ALGORITHMS = ("ROLLBACK", "ABORT", "REPLACE", "FAIL", "IGNORE")
META = "hdb_update_or"  # tree.meta: the algorithm of a parsed UPDATE OR <algorithm>
ROW_BY_ROW = ("REPLACE", "FAIL", "IGNORE")  # ABORT is a server's own behaviour, ROLLBACK too plus the end

_MAYBE = re.compile(r"\bUPDATE\s+OR\b", re.IGNORECASE)
_SQLITE = SQLite()


def split(text: str) -> tuple[str, str]:
    """(``text`` without the UPDATE's ``OR <algorithm>``, the algorithm or "").
    Only the statement's own UPDATE counts (first, or after its WITH clause),
    never one inside a trigger body."""
    if not _MAYBE.search(text):
        return text, ""
    tokens = _SQLITE.tokenize(text)
    at = _update_at(tokens)
    if at is None or at + 2 >= len(tokens):
        return text, ""
    nxt, alg = tokens[at + 1], tokens[at + 2]
    if nxt.token_type == TokenType.OR and alg.text.upper() in ALGORITHMS:
        return text[: nxt.start] + text[alg.end + 1:], alg.text.upper()
    return text, ""


_LEADING_REPLACE = re.compile(r"^\s*REPLACE\b", re.IGNORECASE)
_MAYBE_WITH_REPLACE = re.compile(r"^\s*WITH\b.*\bREPLACE\b", re.IGNORECASE | re.DOTALL)


def replace_into(text: str) -> str:
    """SQLite's ``REPLACE INTO`` (first, or after the statement's WITH clause) as
    ``INSERT OR REPLACE INTO``, which sqlglot reads (it reads neither as written)."""
    if _LEADING_REPLACE.match(text):
        return _LEADING_REPLACE.sub("INSERT OR REPLACE", text, count=1)
    if not _MAYBE_WITH_REPLACE.match(text):
        return text
    tokens = _SQLITE.tokenize(text)
    at = _keyword_at(tokens, TokenType.REPLACE)
    if at is None or at + 1 >= len(tokens) or tokens[at + 1].token_type != TokenType.INTO \
            or tokens[at - 1].token_type != TokenType.R_PAREN:  # not the end of the WITH clause: INSERT OR REPLACE
        return text
    return text[: tokens[at].start] + "INSERT OR REPLACE" + text[tokens[at].end + 1:]


def replaces(tree: exp.Expression) -> bool:
    """A parsed statement that resolves conflicts by REPLACE (``INSERT OR REPLACE``, ``REPLACE
    INTO`` after :func:`replace_into`, ``UPDATE OR REPLACE`` after :func:`split`)."""
    if isinstance(tree, exp.Insert):
        return (tree.args.get("alternative") or "").upper() == "REPLACE"
    return tree.meta.get(META) == "REPLACE"


def restore(text: str, algorithm: str) -> str:
    """``text`` (an UPDATE that :func:`split` took the clause from, as sqlglot
    wrote it again) with ``OR <algorithm>`` back after its UPDATE."""
    if not algorithm:
        return text
    tokens = _SQLITE.tokenize(text)
    at = _update_at(tokens)
    if at is None:
        return text
    end = tokens[at].end + 1
    return f"{text[:end]} OR {algorithm}{text[end:]}"


def _update_at(tokens: list) -> int | None:
    """Index of the statement's own UPDATE keyword (outside parentheses), if it is one."""
    return _keyword_at(tokens, TokenType.UPDATE)


def _keyword_at(tokens: list, keyword: TokenType) -> int | None:
    """Index of the statement's own ``keyword`` (first, or after its WITH clause:
    outside parentheses), if the statement is one."""
    if not tokens or tokens[0].token_type not in (keyword, TokenType.WITH):
        return None
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.token_type == TokenType.L_PAREN:
            depth += 1
        elif tok.token_type == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and tok.token_type == keyword:
            return i
    return None
