"""Loading FTS server rows fast: the load text is built directly, not row tuples.

An FTS index has tens of postings per indexed row, so the per-posting cost
decides a migration's speed.  The values are exactly ``Storage.encode_rows``'
(same tokenizing, same term keys, same position lists), but each posting
becomes one line of PostgreSQL ``COPY`` text, or one tuple of a MariaDB/MySQL
multi-row ``INSERT`` written as literals, and everything that depends on the
term alone (its key, the long-term digest, the escaping) is computed once
per distinct term."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...backends import pg_text
from ...fts.server.storage import Storage, encode, term_key, varints
from ...fts.sqlvalues import sql_text

#: bytes of one multi-row INSERT statement (below MariaDB's default max_allowed_packet of 16 MB)
MAX_STATEMENT = 4 * 1024 * 1024
_CACHE_TERMS = 200_000


def _pg_bytea(raw: bytes) -> str:
    return "\\\\x" + raw.hex()  # COPY text: the backslash is escaped


def _my_bytes(raw: bytes) -> str:
    return "X'" + raw.hex() + "'" if raw else "''"


def _pg_text(text: str) -> str:
    text = pg_text.encode(text)  # NUL and U+0001 as the shim stores them (backends/pg_text.py)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _my_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0") + "'"


@dataclass
class Encoded:
    """One batch's load text, ready to send: (table, columns, lines) triples."""

    loads: list[tuple[str, str, list[str]]]
    rows: int
    tokens: int
    last: int | None  # the batch's highest rowid


class FtsLoader:
    """Writes one batch of indexed rows to an FTS table's server tables."""

    def __init__(self, storage: Storage, raw: Any, kind: str) -> None:
        self.storage = storage
        self.raw = raw
        self.kind = kind
        self.pg = kind == "postgres"
        self._terms: dict[str, tuple[str, str]] = {}  # term -> (before rowid, after rowid) parts of its line

    def _parts(self, term: str) -> tuple[str, str]:
        raw = encode(term)
        key = term_key(raw)
        if self.pg:
            got = (_pg_bytea(key) + "\t", "\t" + (_pg_bytea(raw) if key is not raw else "\\N") + "\t")
        else:
            got = ("(" + _my_bytes(key) + ",", "," + (_my_bytes(raw) if key is not raw else "NULL") + ",'")
        if len(self._terms) < _CACHE_TERMS:
            self._terms[term] = got
        return got

    def write(self, rows: Sequence[tuple[int, Sequence[object]]]) -> tuple[int, int]:
        """Index ``(rowid, values)`` rows; (rows indexed, their tokens) — inside the caller's transaction."""
        batch = self.encode(rows)
        self.load(batch)
        return batch.rows, batch.tokens

    def load(self, batch: Encoded) -> None:
        """Send an encoded batch (inside the caller's transaction)."""
        for table, cols, lines in batch.loads:
            self._load(table, cols, lines)

    def encode(self, rows: Sequence[tuple[int, Sequence[object]]]) -> Encoded:
        """Tokenize ``(rowid, values)`` rows into load text (no server access: may run in another thread)."""
        storage = self.storage
        parts = self._terms
        tokenize = storage.tokenize_row
        postings: list[str] = []
        add = postings.append
        docs: list[tuple[int, bytes, int]] = []
        tokens = 0
        if self.pg:
            for rowid, values in rows:
                sizes, terms = tokenize(values)
                rid = str(rowid)
                for term, plist in terms.items():
                    head, mid = parts.get(term) or self._parts(term)
                    add(f"{head}{rid}{mid}{plist[0] if len(plist) == 1 else ','.join(map(str, plist))}\n")
                total = sum(sizes)
                tokens += total
                docs.append((rowid, varints(sizes), total))
        else:
            for rowid, values in rows:
                sizes, terms = tokenize(values)
                rid = str(rowid)
                for term, plist in terms.items():
                    head, mid = parts.get(term) or self._parts(term)
                    add(f"{head}{rid}{mid}{plist[0] if len(plist) == 1 else ','.join(map(str, plist))}')")
                total = sum(sizes)
                tokens += total
                docs.append((rowid, varints(sizes), total))
        loads = [(storage.idx, "(term, id, full_term, pos)", postings)]
        if self.pg:
            lines = [f"{r}\t{_pg_bytea(sz)}\t{t}\n" for r, sz, t in docs]
        else:
            lines = [f"({r},{_my_bytes(sz)},{t})" for r, sz, t in docs]
        loads.append((storage.docsize, "(id, sz, total)", lines))
        if storage.spec.contentful:
            ncol = len(storage.spec.columns)
            cols = "(id, " + ", ".join(f"c{i}" for i in range(ncol)) + ")"
            if self.pg:
                lines = [str(r) + "".join("\t" + ("\\N" if v is None else _pg_text(sql_text(v) or ""))
                                          for v in values) + "\n" for r, values in rows]
            else:
                lines = ["(" + str(r) + "".join("," + ("NULL" if v is None else _my_text(sql_text(v) or ""))
                                                for v in values) + ")" for r, values in rows]
            loads.append((storage.content, cols, lines))
        return Encoded(loads, len(docs), tokens, rows[-1][0] if rows else None)

    def _load(self, table: str, cols: str, lines: list[str]) -> None:
        if not lines:
            return
        if self.pg:
            with self.raw.cursor() as cur, cur.copy(f"COPY {table} {cols} FROM STDIN") as copy:
                for start in range(0, len(lines), 20_000):
                    copy.write("".join(lines[start:start + 20_000]))
            return
        head = f"INSERT INTO {table} {cols} VALUES "
        with self.raw.cursor() as cur:
            chunk: list[str] = []
            size = 0
            for line in lines:
                chunk.append(line)
                size += (len(line) if line.isascii() else 4 * len(line)) + 1
                if size >= MAX_STATEMENT:
                    cur.execute(head + ",".join(chunk))
                    chunk, size = [], 0
            if chunk:
                cur.execute(head + ",".join(chunk))
