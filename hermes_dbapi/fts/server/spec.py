"""An FTS5 table's options (columns, content=, tokenize=, ...) from its DDL.

The shadow catalog already validated the statement (SQLite's own errors), so
this only has to read it back the way FTS5 reads its arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..tokenizers import Tokenizer, tokenizer_from_spec

_FTS5_DDL = re.compile(r"(?is)^\s*CREATE\s+VIRTUAL\s+TABLE\s+.*?\bUSING\s+fts5\s*(?:\((.*)\))?\s*;?\s*$")


@dataclass(frozen=True)
class FtsSpec:
    name: str  # as stored in sqlite_master
    columns: tuple[str, ...]
    unindexed: frozenset[int]
    content: str | None  # None: the table keeps its content; "": contentless; else the content table
    content_rowid: str
    tokenize: str | None
    prefix: tuple[int, ...]
    detail: str
    columnsize: bool

    @cached_property
    def tokenizer(self) -> Tokenizer:
        return tokenizer_from_spec(self.tokenize)

    @property
    def contentful(self) -> bool:
        return self.content is None

    def column_index(self, name: str) -> int | None:
        low = name.lower()
        for i, col in enumerate(self.columns):
            if col.lower() == low:
                return i
        return None


def is_fts5_ddl(sql: str) -> bool:
    return bool(_FTS5_DDL.match(sql or ""))


def parse(name: str, sql: str) -> FtsSpec:
    """Read the options of ``CREATE VIRTUAL TABLE name USING fts5(...)``."""
    m = _FTS5_DDL.match(sql)
    if m is None:
        raise ValueError(f"not an fts5 table: {name}")
    columns: list[str] = []
    unindexed: set[int] = set()
    opts: dict[str, str] = {}
    for arg in _split_args(m.group(1) or ""):
        key, eq, value = _split_option(arg)
        if eq:
            opts[key.lower()] = _dequote(value.strip())
            continue
        words = arg.split()
        first = _first_word(arg)
        columns.append(_dequote(first))
        if len(words) > 1 and words[-1].lower() == "unindexed":
            unindexed.add(len(columns) - 1)
    prefix = tuple(int(p) for p in re.split(r"[\s,]+", opts.get("prefix", "").strip()) if p)
    return FtsSpec(
        name=name,
        columns=tuple(columns),
        unindexed=frozenset(unindexed),
        content=opts.get("content"),
        content_rowid=opts.get("content_rowid", "rowid"),
        tokenize=opts.get("tokenize"),
        prefix=prefix,
        detail=opts.get("detail", "full").lower(),
        columnsize=opts.get("columnsize", "1").strip() != "0",
    )


def _split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments (quotes and brackets respected)."""
    out: list[str] = []
    buf: list[str] = []
    depth = 0
    quote = ""
    for ch in text:
        if quote:
            buf.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"`":
            quote = ch
        elif ch == "[":
            quote = "]"
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(buf).strip())
            buf = []
            continue
        buf.append(ch)
    if "".join(buf).strip():
        out.append("".join(buf).strip())
    return out


def _split_option(arg: str) -> tuple[str, bool, str]:
    quote = ""
    for i, ch in enumerate(arg):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
        elif ch == "[":
            quote = "]"
        elif ch == "=":
            return arg[:i].strip(), True, arg[i + 1 :]
    return arg, False, ""


def _first_word(arg: str) -> str:
    arg = arg.strip()
    if arg[:1] in "'\"`[":
        close = "]" if arg[0] == "[" else arg[0]
        i = 1
        while i < len(arg):
            if arg[i] == close:
                if close != "]" and i + 1 < len(arg) and arg[i + 1] == close:
                    i += 2
                    continue
                return arg[: i + 1]
            i += 1
        return arg
    return arg.split()[0]


def _dequote(value: str) -> str:
    if len(value) >= 2 and value[0] in "'\"`" and value[-1] == value[0]:
        q = value[0]
        return value[1:-1].replace(q + q, q)
    if len(value) >= 2 and value[0] == "[" and value[-1] == "]":
        return value[1:-1]
    return value
