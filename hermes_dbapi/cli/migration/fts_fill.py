"""Bulk, resumable filling of an FTS5 table's server index during a migration.

FTS5's ``'rebuild'`` through the shim re-reads the whole content table in one
statement and writes postings with ``INSERT … ON CONFLICT``: slow, all in
memory, and lost when interrupted.  Here the rows to index stream from the
source snapshot in rowid order; each batch is tokenized with the same code
the shim indexes with (``Storage.encode_rows``, so the server tables hold
exactly what ``'rebuild'`` writes) and written with the driver's fast path
(``COPY`` / multi-row ``INSERT``) in one transaction with the batch's
progress row, so a re-run resumes after the last committed batch.

Only tables whose rows have a unique, ordered key are filled this way: a
table that keeps its own content, or external content keyed by the content
table's rowid (or its alias).  Anything else falls back to ``'rebuild'``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...fts.server.select import ROWID_NAMES
from ...fts.server.spec import FtsSpec, is_fts5_ddl, parse
from ...fts.server.storage import Storage
from .checksum import Checksum
from .progress import Progress
from .source import Snapshot, Virtual, quote_ident
from .writer import Writer

#: rows indexed per transaction are capped by the postings they produce
MAX_POSTINGS = 200_000


def key_of(name: str) -> str:
    return f"fts:{name}"


class FtsFill:
    """Index one FTS5 table's rows from the source into the target's server tables."""

    def __init__(self, src: Snapshot, writer: Writer, progress: Progress, vt: Virtual, spec: FtsSpec,
                 storage: Storage, key_sql: str, table_sql: str) -> None:
        self.src, self.writer, self.progress = src, writer, progress
        self.vt, self.spec, self.storage = vt, spec, storage
        self._key, self._from = key_sql, table_sql

    @classmethod
    def plan(cls, src: Snapshot, writer: Writer, progress: Progress, vt: Virtual) -> "FtsFill | None":
        """The bulk fill of ``vt``, or None when it needs the generic ``'rebuild'``."""
        if vt.module.lower() != "fts5" or not is_fts5_ddl(vt.sql):
            return None
        spec = parse(vt.name, vt.sql)
        if spec.content == "":
            return None
        if spec.contentful:
            key, table = "rowid", quote_ident(vt.name)
        else:
            content = next((t for t in src.tables if t.name.lower() == spec.content.lower()), None)
            if content is None or content.key != ["rowid"]:
                return None
            wanted = spec.content_rowid.lower()
            if wanted in ROWID_NAMES:
                key = "rowid"
            elif content.rowid_alias is not None and content.rowid_alias.lower() == wanted:
                key = quote_ident(content.rowid_alias)
            else:
                return None
            table = quote_ident(content.name)
        fill = cls(src, writer, progress, vt, spec, Storage(writer.target.backend, spec), key, table)
        try:  # the columns must exist in the source, as 'rebuild' would need them
            src.db.execute(fill._select() + " LIMIT 0").fetchall()
        except Exception:
            return None
        return fill

    def _select(self) -> str:
        cols = ", ".join(quote_ident(c) for c in self.spec.columns)
        return f"SELECT {self._key}, {cols} FROM {self._from}"

    def count(self) -> int:
        return int(self.src.db.execute(f"SELECT count(*) FROM {self._from}").fetchone()[0])

    def rows(self, after: int | None) -> Iterator[tuple[int, list[Any]]]:
        sql = self._select()
        params: tuple = ()
        if after is not None:
            sql += f" WHERE {self._key} > ?"
            params = (after,)
        cursor = self.src.db.execute(sql + f" ORDER BY {self._key}", params)
        while chunk := cursor.fetchmany(2000):
            for row in chunk:
                yield int(row[0]), list(row[1:])

    def run(self, batch: int, advance: Callable[[int], None], committed: Callable[[], None]) -> None:
        state = self.progress.table(key_of(self.vt.name))
        if state.done:
            return
        if state.hwm is None:
            self.storage.delete_all()  # whatever an interrupted 'rebuild' or trigger left
        after = state.hwm[0] if state.hwm else None
        tally = state.checksum  # rows: indexed rows; total: their token count
        pending: list[tuple[int, list[Any]]] = []
        for rowid, values in self.rows(after):
            pending.append((rowid, values))
            if len(pending) >= batch:
                self._flush(pending, tally, False)
                advance(len(pending))
                committed()
                pending = []
        self._flush(pending, tally, True)
        advance(len(pending))

    def _flush(self, rows: list[tuple[int, list[Any]]], tally: Checksum, done: bool) -> None:
        postings, docs, contents = self.storage.encode_rows(rows)
        base = self.spec.name.lower() if self.writer.kind == "postgres" else self.spec.name
        with self.writer.transaction():
            for start in range(0, len(postings), MAX_POSTINGS):
                self.writer.write(base + "_idx", ["term", "id", "full_term", "pos"], postings[start:start + MAX_POSTINGS])
            self.writer.write(base + "_docsize", ["id", "sz", "total"], docs)
            if contents:
                cols = [f"c{i}" for i in range(len(self.spec.columns))]
                self.writer.write(base + "_content", ["id", *cols], contents)
            tally.rows += len(docs)
            tally.total += sum(d[2] for d in docs)
            last = [rows[-1][0]] if rows else self.progress.table(key_of(self.vt.name)).hwm
            self.progress.record(key_of(self.vt.name), last, tally, done)

    def stored(self) -> Checksum:
        """What the server holds: indexed rows and their token count."""
        rows, total = self.storage.stats()
        return Checksum(rows, total)
