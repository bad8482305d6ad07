"""Identifiers beyond the BMP on MySQL/MariaDB.

Their identifiers cannot hold characters outside the Basic Multilingual Plane
(an emoji table name fails with "Invalid utf8mb4 character string"), which
SQLite's can.  In the driver SQL each such character inside a backtick-quoted
identifier becomes ``~U1F600~``; string literals and comments keep theirs.
Result column names come from the shadow catalog, so the application sees its
own names; server error messages are decoded back.
"""

from __future__ import annotations

import re

_NON_BMP = re.compile("[\U00010000-\U0010ffff]")
_TOKENS = re.compile(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\"|/\*.*?\*/|`(?:[^`]|``)*`", re.S)
_ENCODED = re.compile(r"~U([0-9A-F]{5,6})~")


def _encode_char(match: re.Match[str]) -> str:
    return f"~U{ord(match.group()):X}~"


def _encode_token(match: re.Match[str]) -> str:
    token = match.group()
    return _NON_BMP.sub(_encode_char, token) if token[0] == "`" else token


def encode(sql: str) -> str:
    """``sql`` with non-BMP characters of its quoted identifiers encoded."""
    if _NON_BMP.search(sql) is None:
        return sql
    return _TOKENS.sub(_encode_token, sql)


def encode_name(name: str) -> str:
    """One identifier as the server knows it (for catalog lookups by name)."""
    return _NON_BMP.sub(_encode_char, name)


def decode(text: str) -> str:
    """A server message with encoded identifier characters restored."""
    if "~U" not in text:
        return text
    return _ENCODED.sub(lambda m: chr(int(m.group(1), 16)), text)
