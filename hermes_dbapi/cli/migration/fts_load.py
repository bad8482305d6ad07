"""Loading FTS server rows fast: the load text is built directly, not row tuples.

An FTS index has tens of postings per indexed row, so the per-posting cost
decides a migration's speed.  The values are exactly ``Storage.encode_rows``'
(same tokenizing, same term keys, same position lists), but each posting
becomes one line of PostgreSQL ``COPY`` text, or one tuple of a MariaDB/MySQL
multi-row ``INSERT`` written as literals, and everything that depends on the
term alone (its key, the long-term digest, the escaping) is computed once
per distinct term.  Lines are joined into pieces of load text as they are
made (a ``COPY`` chunk, or a whole ``INSERT`` statement): a batch waiting in
the queue is a few large strings, not half a million small ones (about a
third of the memory, which bounds a migration's peak RSS)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...backends import pg_copy, pg_text
from ...fts.server.storage import Storage, encode, term_key, varints
from ...fts.sqlvalues import sql_text

#: bytes of one multi-row INSERT statement (below MariaDB's default max_allowed_packet of 16 MB)
MAX_STATEMENT = 4 * 1024 * 1024
#: lines joined into one piece of load text (about 400 KB)
PIECE_LINES = 10_000
_CACHE_TERMS = 200_000


def _my_bytes(raw: bytes) -> str:
    return "X'" + raw.hex() + "'" if raw else "''"


def _pg_text(text: str) -> str:
    return pg_copy.escape(pg_text.encode(text))  # NUL and U+0001 as the shim stores them (backends/pg_text.py)


def _my_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0") + "'"


class _CopyText:
    """PostgreSQL: one line of ``COPY`` text per row."""

    posting_end = "\n"

    @staticmethod
    def posting_parts(key: bytes, raw: bytes) -> tuple[str, str]:
        return pg_copy.bytea(key) + "\t", "\t" + (pg_copy.bytea(raw) if key is not raw else "\\N") + "\t"

    @staticmethod
    def docsize(rowid: int, sizes: bytes, total: int) -> str:
        return f"{rowid}\t{pg_copy.bytea(sizes)}\t{total}\n"

    @staticmethod
    def content(rowid: int, values: Sequence[object]) -> str:
        return str(rowid) + "".join("\t" + ("\\N" if v is None else _pg_text(sql_text(v) or "")) for v in values) + "\n"


class _InsertTuples:
    """MariaDB/MySQL: one literal tuple of a multi-row ``INSERT`` per row."""

    posting_end = "')"

    @staticmethod
    def posting_parts(key: bytes, raw: bytes) -> tuple[str, str]:
        return "(" + _my_bytes(key) + ",", "," + (_my_bytes(raw) if key is not raw else "NULL") + ",'"

    @staticmethod
    def docsize(rowid: int, sizes: bytes, total: int) -> str:
        return f"({rowid},{_my_bytes(sizes)},{total})"

    @staticmethod
    def content(rowid: int, values: Sequence[object]) -> str:
        return "(" + str(rowid) + "".join("," + ("NULL" if v is None else _my_text(sql_text(v) or "")) for v in values) + ")"


@dataclass
class Encoded:
    """One batch's load text, ready to send: (table, columns, pieces) triples; a piece
    is ``COPY`` text (PostgreSQL) or a whole ``INSERT`` statement (MariaDB/MySQL)."""

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
        self.format = _CopyText if self.pg else _InsertTuples
        self._terms: dict[str, tuple[str, str]] = {}  # term -> (before rowid, after rowid) parts of its line

    def _parts(self, term: str) -> tuple[str, str]:
        raw = encode(term)
        got = self.format.posting_parts(term_key(raw), raw)
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
        idx_cols = "(term, id, full_term, pos)"
        pieces: list[str] = []
        postings: list[str] = []
        add = postings.append
        docs: list[tuple[int, bytes, int]] = []
        tokens = 0
        end = self.format.posting_end
        for rowid, values in rows:
            sizes, terms = tokenize(values)
            rid = str(rowid)
            for term, plist in terms.items():
                head, mid = parts.get(term) or self._parts(term)
                add(f"{head}{rid}{mid}{plist[0] if len(plist) == 1 else ','.join(map(str, plist))}{end}")
            total = sum(sizes)
            tokens += total
            docs.append((rowid, varints(sizes), total))
            if len(postings) >= PIECE_LINES:
                pieces += self._pieces(storage.idx, idx_cols, self._clustered(postings))
                postings.clear()
        pieces += self._pieces(storage.idx, idx_cols, self._clustered(postings))
        del postings
        loads = [(storage.idx, idx_cols, pieces)]
        docsize = self.format.docsize
        lines = [docsize(r, sz, t) for r, sz, t in docs]
        loads.append((storage.docsize, "(id, sz, total)", self._pieces(storage.docsize, "(id, sz, total)", lines)))
        if storage.spec.contentful:
            ncol = len(storage.spec.columns)
            cols = "(id, " + ", ".join(f"c{i}" for i in range(ncol)) + ")"
            content = self.format.content
            lines = [content(r, values) for r, values in rows]
            loads.append((storage.content, cols, self._pieces(storage.content, cols, lines)))
        return Encoded(loads, len(docs), tokens, rows[-1][0] if rows else None)

    def _clustered(self, lines: list[str]) -> list[str]:
        """PostgreSQL: a piece's postings in key order (a line starts with its term's key
        in hex, which sorts as the bytes do), so that a term's postings share table
        pages, as ``Storage.insert_rows`` writes them; InnoDB keeps key order itself."""
        if self.pg:
            lines.sort()
        return lines

    def _pieces(self, table: str, cols: str, lines: list[str]) -> list[str]:
        """``lines`` as load text: one ``COPY`` piece, or ``INSERT`` statements of at most
        ``MAX_STATEMENT`` bytes (one when they fit, as they do unless rows are huge)."""
        if not lines:
            return []
        if self.pg:
            return ["".join(lines)]
        head = f"INSERT INTO {table} {cols} VALUES "
        text = ",".join(lines)
        if (len(text) if text.isascii() else 4 * len(text)) < MAX_STATEMENT - len(head):
            return [head + text]
        del text
        out: list[str] = []
        chunk: list[str] = []
        size = 0
        for line in lines:
            chunk.append(line)
            size += (len(line) if line.isascii() else 4 * len(line)) + 1
            if size >= MAX_STATEMENT:
                out.append(head + ",".join(chunk))
                chunk, size = [], 0
        if chunk:
            out.append(head + ",".join(chunk))
        return out

    def _load(self, table: str, cols: str, pieces: list[str]) -> None:
        if not pieces:
            return
        if self.pg:
            with self.raw.cursor() as cur, cur.copy(f"COPY {table} {cols} FROM STDIN") as copy:
                for piece in pieces:
                    copy.write(piece)
            return
        with self.raw.cursor() as cur:
            for statement in pieces:
                cur.execute(statement)
