"""``RAISE(ABORT|FAIL|ROLLBACK|IGNORE, 'msg')`` inside trigger bodies.

A RAISE call is replaced by a unique string literal before the statement
goes to the server; a result cell holding that literal means SQLite would
have raised there.
"""

from __future__ import annotations

import re

from sqlglot import exp

from .. import errors
from .._stdlib import sqlite3

_MARK = "__hdb_raise_5e1f_"


_KIND = re.compile(r"(?i)\bRAISE\s*\(\s*(ABORT|FAIL|ROLLBACK|IGNORE)\b")


def quote_kinds(text: str) -> str:
    """``RAISE(ROLLBACK, ...)`` -> ``RAISE('ROLLBACK', ...)``: sqlglot reads keywords there."""
    return _KIND.sub(lambda m: f"RAISE('{m.group(1).upper()}'", text)


class TriggerRaise(Exception):
    """RAISE(ABORT|FAIL|ROLLBACK): the statement fails with ``error``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.error = errors.make(sqlite3.IntegrityError, message, "SQLITE_CONSTRAINT_TRIGGER")


def failing(error: Exception) -> TriggerRaise:
    """A conflict under UPDATE OR FAIL: the statement stops with ``error`` (its own
    text and code), the rows it changed before kept."""
    stop = TriggerRaise("FAIL", str(error))
    stop.error = error
    return stop


class IgnoreRow(Exception):
    """RAISE(IGNORE): the rest of the trigger and the current row are skipped."""


def mark(tree: exp.Expression) -> tuple[exp.Expression, dict[str, tuple[str, str]]]:
    """Replace every RAISE(...) by a marker literal; markers -> (kind, message)."""
    found: dict[str, tuple[str, str]] = {}

    def swap(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Anonymous) and str(node.this).upper() == "RAISE" and node.expressions:
            kind = node.expressions[0].name.upper()
            message = node.expressions[1].name if len(node.expressions) > 1 else ""
            key = f"{_MARK}{len(found)}"
            found[key] = (kind, message)
            return exp.Literal.string(key)
        return node

    return tree.transform(swap), found


def check(rows: list[tuple], found: dict[str, tuple[str, str]]) -> None:
    """Raise what SQLite would if a marker appears in ``rows``."""
    for row in rows:
        for cell in row:
            if isinstance(cell, str) and cell in found:
                kind, message = found[cell]
                if kind == "IGNORE":
                    raise IgnoreRow()
                raise TriggerRaise(kind, message)
