"""What kind of statement a SQLite text is, without parsing it.

Transaction-control statements never go through sqlglot (its output for them
changes between releases); they are recognised here by their keywords.  The
same leading-keyword test decides sqlite3's legacy implicit BEGIN, which the
standard module also makes from the first keyword alone.  Scripts are split
with SQLite's own ``complete_statement``, so trigger bodies and semicolons in
strings stay whole.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ._stdlib import sqlite3

_SKIP = re.compile(r"(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?(?:\*/|\Z))*", re.S)
_WORD = re.compile(r"[A-Za-z_]+")
_NAME = r'(?:"(?:[^"]|"")+"|`(?:[^`]|``)+`|\[[^\]]+\]|\'(?:[^\']|\'\')+\'|[A-Za-z_][A-Za-z0-9_$]*)'
_CONTROL = {
    "BEGIN": re.compile(r"BEGIN(?:\s+(DEFERRED|IMMEDIATE|EXCLUSIVE))?(?:\s+TRANSACTION(?:\s+" + _NAME + r")?)?", re.I),
    "COMMIT": re.compile(r"(?:COMMIT|END)(?:\s+TRANSACTION(?:\s+" + _NAME + r")?)?", re.I),
    "ROLLBACK": re.compile(
        r"ROLLBACK(?:\s+TRANSACTION(?:\s+(?!TO\b)" + _NAME + r")?)?(?:\s+TO(?:\s+SAVEPOINT)?\s+(" + _NAME + r"))?",
        re.I,
    ),
    "SAVEPOINT": re.compile(r"SAVEPOINT\s+(" + _NAME + r")", re.I),
    "RELEASE": re.compile(r"RELEASE(?:\s+SAVEPOINT)?\s+(" + _NAME + r")", re.I),
}
_DML = {"INSERT", "UPDATE", "DELETE", "REPLACE"}


@dataclass(frozen=True)
class Control:
    """A transaction-control statement: verb, BEGIN mode, savepoint name."""

    verb: str  # BEGIN | COMMIT | ROLLBACK | SAVEPOINT | RELEASE
    mode: str = "DEFERRED"
    savepoint: str | None = None


def leading_keyword(sql: str) -> str:
    match = _WORD.match(sql, _SKIP.match(sql).end())
    return match.group(0).upper() if match else ""


def is_empty(sql: str) -> bool:
    """Only whitespace, comments and semicolons: sqlite3 runs it as a no-op."""
    at = 0
    while True:
        at = _SKIP.match(sql, at).end()
        if at < len(sql) and sql[at] == ";":
            at += 1
            continue
        return at == len(sql)


def is_dml(keyword: str) -> bool:
    return keyword in _DML


def control(sql: str, keyword: str) -> Control | None | bool:
    """A :class:`Control` for a well-formed control statement; False if it is a
    malformed one (SQLite must report the syntax error); None otherwise."""
    verb = "COMMIT" if keyword == "END" else keyword
    pattern = _CONTROL.get(verb)
    if pattern is None:
        return None
    start = _SKIP.match(sql).end()
    match = pattern.match(sql, start)
    if match is None or not _only_trailer(sql, match.end()):
        return False
    if verb == "BEGIN":
        return Control("BEGIN", (match.group(1) or "DEFERRED").upper())
    if verb in ("SAVEPOINT", "RELEASE"):
        return Control(verb, savepoint=_unquote(match.group(1)))
    if verb == "ROLLBACK" and match.group(1):
        return Control("ROLLBACK", savepoint=_unquote(match.group(1)))
    return Control(verb)


def _only_trailer(sql: str, at: int) -> bool:
    rest = sql[at:]
    rest = rest[_SKIP.match(rest).end() :]
    if rest.startswith(";"):
        rest = rest[1:]
        rest = rest[_SKIP.match(rest).end() :]
    return rest == ""


def _unquote(name: str) -> str:
    if name[0] in "\"`'" and name[-1] == name[0]:
        return name[1:-1].replace(name[0] * 2, name[0])
    if name[0] == "[":
        return name[1:-1]
    return name


def savepoint_identifier(name: str) -> str:
    """A server-safe identifier for a SQLite savepoint name (case-insensitive)."""
    return "hdb_sp_" + hashlib.sha1(name.lower().encode("utf-8", "surrogatepass")).hexdigest()[:20]


def split_script(script: str) -> list[str]:
    """The statements of a script, split where SQLite itself would split them."""
    statements: list[str] = []
    start = 0
    at = script.find(";")
    while at != -1:
        piece = script[start : at + 1]
        if sqlite3.complete_statement(piece):
            if piece.strip(" \t\r\n;"):
                statements.append(piece)
            start = at + 1
        at = script.find(";", at + 1)
    tail = script[start:]
    if _SKIP.match(tail).end() < len(tail):
        statements.append(tail)
    return statements
