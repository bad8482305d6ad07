"""A consistent, read-only snapshot of the source SQLite database.

Opened as ``file:SRC?mode=ro`` with the standard ``sqlite3`` (never the shim),
with one read transaction held for the whole migration so every table, count
and checksum comes from the same snapshot.  Rows are streamed in key order
(rowid, or the primary key of a WITHOUT ROWID table) from a high-water mark.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator
from urllib.parse import quote

from ..._stdlib import sqlite3

_FTS_SHADOWS = {
    "fts5": ("_data", "_idx", "_content", "_docsize", "_config"),
    "fts4": ("_content", "_segments", "_segdir", "_docsize", "_stat"),
    "fts3": ("_content", "_segments", "_segdir", "_docsize", "_stat"),
}
_VIRTUAL_RE = re.compile(r"^\s*CREATE\s+VIRTUAL\s+TABLE\s+.*?\bUSING\s+(\w+)\s*(?:\((.*)\))?\s*$", re.I | re.S)


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass
class Table:
    """An ordinary table to copy."""

    name: str
    sql: str
    columns: list[str]  # copied columns (generated/hidden ones excluded)
    key: list[str]  # keyset columns: ["rowid"] or the primary key of a WITHOUT ROWID table
    rowid_alias: str | None
    parents: set[str] = field(default_factory=set)  # tables its foreign keys reference

    @property
    def implicit_rowid(self) -> bool:
        """An ordinary rowid table without an alias: its rowids go to the hidden column."""
        return self.key == ["rowid"] and self.rowid_alias is None


@dataclass
class Virtual:
    """A virtual table (FTS5/FTS4/...): created through the shim if it can."""

    name: str
    sql: str
    module: str
    options: dict[str, str]
    columns: list[str]


@dataclass
class SchemaObject:
    type: str
    name: str
    tbl_name: str
    sql: str


class Snapshot:
    def __init__(self, path: str) -> None:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such SQLite database: {path}")
        uri = "file:" + quote(os.path.abspath(path)) + "?mode=ro"
        self.path = path
        self.db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self.db.execute("BEGIN")
        self.objects = [
            SchemaObject(*row)
            for row in self.db.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
            )
        ]  # the first read fixes the snapshot
        self.virtual = [v for v in map(self._virtual, self.objects) if v is not None]
        shadows = {
            v.name.lower() + suffix for v in self.virtual for suffix in _FTS_SHADOWS.get(v.module.lower(), ())
        }
        self.tables = [
            self._table(o)
            for o in self.objects
            if o.type == "table"
            and not o.name.lower().startswith("sqlite_")
            and o.name.lower() not in shadows
            and not _VIRTUAL_RE.match(o.sql)
        ]
        self.later = [o for o in self.objects if o.type in ("index", "view", "trigger")]

    def close(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        finally:
            self.db.close()

    # -- schema ---------------------------------------------------------------

    def _virtual(self, obj: SchemaObject) -> Virtual | None:
        if obj.type != "table":
            return None
        match = _VIRTUAL_RE.match(obj.sql)
        if match is None:
            return None
        options: dict[str, str] = {}
        columns: list[str] = []
        for arg in _split_args(match.group(2) or ""):
            if "=" in arg:
                key, value = arg.split("=", 1)
                options[key.strip().lower()] = value.strip().strip("'\"")
            elif arg.strip():
                columns.append(arg.split()[0].strip("'\"`[]"))
        return Virtual(obj.name, obj.sql, match.group(1), options, columns)

    def _table(self, obj: SchemaObject) -> Table:
        q = quote_ident(obj.name)
        info = self.db.execute(f"SELECT name, pk, hidden FROM pragma_table_xinfo({_lit(obj.name)})").fetchall()
        columns = [name for name, _pk, hidden in info if not hidden]
        without_rowid = False
        try:
            self.db.execute(f"SELECT rowid FROM {q} LIMIT 0")
        except sqlite3.OperationalError:
            without_rowid = True
        pk = [name for name, pk, _h in sorted(info, key=lambda r: r[1]) if pk]
        alias = None
        if not without_rowid and len(pk) == 1:
            probe = self.db.execute(f"SELECT rowid IS {quote_ident(pk[0])} FROM {q} LIMIT 1").fetchone()
            declared = self.db.execute(
                f"SELECT type FROM pragma_table_info({_lit(obj.name)}) WHERE name = ?", (pk[0],)
            ).fetchone()
            if declared and declared[0].upper() == "INTEGER" and (probe is None or probe[0]):
                alias = pk[0]
        parents = {
            row[2] for row in self.db.execute(f"SELECT * FROM pragma_foreign_key_list({_lit(obj.name)})")
        }
        parents.discard(obj.name)
        return Table(obj.name, obj.sql, columns, pk if without_rowid else ["rowid"], alias, parents)

    def ordered_tables(self) -> list[Table]:
        """Tables with referenced tables first (foreign keys), else in creation order."""
        by_name = {t.name.lower(): t for t in self.tables}
        done: list[Table] = []
        seen: set[str] = set()

        def visit(table: Table, stack: set[str]) -> None:
            key = table.name.lower()
            if key in seen or key in stack:
                return
            stack.add(key)
            for parent in sorted(table.parents):
                if parent.lower() in by_name:
                    visit(by_name[parent.lower()], stack)
            seen.add(key)
            done.append(table)

        for table in self.tables:
            visit(table, set())
        return done

    # -- data -----------------------------------------------------------------

    def count(self, table: Table) -> int:
        return int(self.db.execute(f"SELECT count(*) FROM {quote_ident(table.name)}").fetchone()[0])

    def storage_classes(self, table: Table) -> dict[str, dict[str, int]]:
        """Per column: how many values of each storage class (plus ``nul`` texts)."""
        if not table.columns:
            return {}
        parts = [f"typeof({quote_ident(c)})" for c in table.columns]
        nuls = [f"instr({quote_ident(c)}, char(0)) > 0" for c in table.columns]
        sql = f"SELECT {', '.join(parts + nuls)}, count(*) FROM {quote_ident(table.name)} GROUP BY {', '.join(parts + nuls)}"
        found: dict[str, dict[str, int]] = {c: {} for c in table.columns}
        n = len(table.columns)
        for row in self.db.execute(sql):
            for i, column in enumerate(table.columns):
                kind = row[i] if not (row[i] == "text" and row[n + i]) else "text+nul"
                found[column][kind] = found[column].get(kind, 0) + row[-1]
        return found

    def rows(self, table: Table, after: list[Any] | None = None) -> Iterator[tuple[list[Any], tuple]]:
        """(key, row) in key order, starting after the high-water key ``after``."""
        keys = ", ".join(quote_ident(k) if k != "rowid" else "rowid" for k in table.key)
        cols = ", ".join(quote_ident(c) for c in table.columns)
        sql = f"SELECT {keys}, {cols} FROM {quote_ident(table.name)}"
        params: list[Any] = []
        if after:
            sql += f" WHERE ({keys}) > ({', '.join('?' * len(after))})" if len(after) > 1 else f" WHERE {keys} > ?"
            params = list(after)
        sql += f" ORDER BY {keys}"
        width = len(table.key)
        cursor = self.db.execute(sql, params)
        while chunk := cursor.fetchmany(2000):
            for row in chunk:
                yield list(row[:width]), row[width:]

    def plain_rows(self, table: Table) -> Iterator[tuple]:
        cols = ", ".join(quote_ident(c) for c in table.columns)
        return self.db.execute(f"SELECT {cols} FROM {quote_ident(table.name)}")

    def next_id(self, table: Table) -> int:
        """The highest id SQLite would never hand out again: max(rowid) and sqlite_sequence."""
        if table.rowid_alias is None:
            if not table.implicit_rowid:
                return 0
            return int(self.db.execute(f"SELECT max(rowid) FROM {quote_ident(table.name)}").fetchone()[0] or 0)
        high = self.db.execute(f"SELECT max(rowid) FROM {quote_ident(table.name)}").fetchone()[0] or 0
        try:
            seq = self.db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table.name,)).fetchone()
        except sqlite3.OperationalError:
            seq = None
        return max(int(high), int(seq[0]) if seq and seq[0] is not None else 0)

    def virtual_rows(self, vt: Virtual) -> Iterator[tuple]:
        cols = ", ".join(quote_ident(c) for c in vt.columns)
        return self.db.execute(f"SELECT rowid, {cols} FROM {quote_ident(vt.name)} ORDER BY rowid")


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _split_args(text: str) -> list[str]:
    """Split a module argument list on top-level commas (quotes and parentheses kept)."""
    out, depth, quote_char, current = [], 0, "", []
    for ch in text:
        if quote_char:
            current.append(ch)
            if ch == quote_char:
                quote_char = ""
            continue
        if ch in "'\"`[":
            quote_char = "]" if ch == "[" else ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    if "".join(current).strip():
        out.append("".join(current).strip())
    return out
