"""Triggers whose bodies write FTS tables run in the shim, not on the server.

A server trigger cannot tokenize, so such a trigger lives only in the shadow
catalog (and ``hermes_sqlite_master``).  After an INSERT/UPDATE/DELETE on its
table the shim reads the affected rows (before the statement for UPDATE and
DELETE, by rowid after it), evaluates WHEN, and runs the body with ``new.x``
/ ``old.x`` bound as parameters, in the same transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import TokenType

from ... import statements
from ...translate import conflict_clause
from ...translate.params import MARKER, scan

_HEAD = re.compile(
    r"(?is)^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>\S+)\s+"
    r"(?P<time>BEFORE\s+|AFTER\s+|INSTEAD\s+OF\s+)?(?P<event>DELETE|INSERT|UPDATE)(?:\s+OF\s+(?P<cols>.*?))?"
    r"\s+ON\s+(?P<table>\S+?)(?:\s+FOR\s+EACH\s+ROW)?(?:\s+WHEN\s+(?P<when>.*))?\s*$"
)


@dataclass(frozen=True)
class Trigger:
    name: str
    table: str
    timing: str
    event: str
    of: tuple[str, ...]
    when: str | None
    body: tuple[str, ...]
    targets: tuple[str, ...]


def _unq(name: str) -> str:
    name = name.strip()
    if name[:1] in "\"`[" and len(name) > 1:
        return name[1:-1]
    return name.split(".")[-1]


@lru_cache(maxsize=512)
def parse(sql: str) -> Trigger | None:
    """A CREATE TRIGGER's parts (None if it is not one).  Cached: each schema load
    parses every trigger again, and tokenizing them was half a SessionDB open."""
    tokens = SQLite().tokenize(sql)
    begins = [t for t in tokens if t.token_type == TokenType.BEGIN]
    ends = [t for t in tokens if t.token_type == TokenType.END]
    if not begins or not ends:
        return None
    head = sql[: begins[0].start]
    body = sql[begins[0].end + 1 : ends[-1].start]
    m = _HEAD.match(head)
    if m is None:
        return None
    stmts = tuple(s for s in statements.split_script(body) if s.strip().strip(";").strip())
    targets = tuple(t for t in map(_target, stmts) if t)
    cols = tuple(_unq(c).lower() for c in (m.group("cols") or "").split(",") if c.strip())
    return Trigger(
        name=_unq(m.group("name")),
        table=_unq(m.group("table")),
        timing=(m.group("time") or "BEFORE").split()[0].upper(),
        event=m.group("event").upper(),
        of=cols,
        when=m.group("when"),
        body=stmts,
        targets=targets,
    )


def _target(stmt: str) -> str:
    m = re.match(r"(?is)^\s*(?:INSERT|REPLACE)\s+(?:OR\s+\w+\s+)?INTO\s+(\S+?)[\s(]", stmt) or re.match(
        r"(?is)^\s*(?:DELETE\s+FROM|UPDATE\s+(?:OR\s+\w+\s+)?)\s*(\S+?)[\s;]", stmt + " "
    )
    return _unq(m.group(1)).lower() if m else ""


def bind_row(text: str, row: dict[str, object], values: list[object]) -> str:
    """Replace ``new.x``/``old.x`` by markers numbered after ``values`` (which grows)."""
    template, keys = _template(text)
    base = len(values)
    values.extend(row.get(k) for k in keys)
    return _SLOT.sub(lambda m: f":{MARKER}{base + int(m.group(1))}", template)


_SLOT = re.compile(r":__hdb_slot(\d+)\b")


@lru_cache(maxsize=1024)
def _template(text: str) -> tuple[str, tuple[str, ...]]:
    """A trigger statement parsed once: its text with numbered slots, and the row key of each slot."""
    marked, update_or = conflict_clause.split(scan(text).sql)
    tree = sqlglot.parse_one(marked, read="sqlite")
    keys: list[str] = []
    for col in list(tree.find_all(exp.Column)):
        qual = col.table.lower()
        if qual in ("new", "old"):
            keys.append(f"{qual}.{col.name.lower()}")
            col.replace(exp.Placeholder(this=f"__hdb_slot{len(keys)}"))
    return conflict_clause.restore(tree.sql(dialect="sqlite"), update_or), tuple(keys)
