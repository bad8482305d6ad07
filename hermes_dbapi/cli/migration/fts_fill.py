"""Bulk, resumable filling of an FTS5 table's server index during a migration.

FTS5's ``'rebuild'`` through the shim re-reads the whole content table in one
statement and writes postings with ``INSERT … ON CONFLICT``: slow, all in
memory, and lost when interrupted.  Here the rows to index stream from the
source snapshot in rowid order; each batch is tokenized with the same code
the shim indexes with (``Storage.encode_rows``, so the server tables hold
exactly what ``'rebuild'`` writes) and written with the driver's fast path
(``COPY`` / multi-row ``INSERT``, see ``fts_load``) in one transaction with the batch's
progress row, so a re-run resumes after the last committed batch.

Only tables whose rows have a unique, ordered key are filled this way: a
table that keeps its own content, or external content keyed by the content
table's rowid (or its alias).  Anything else falls back to ``'rebuild'``."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from queue import Empty, Queue
from typing import Any

from ...fts.server.select import ROWID_NAMES
from ...fts.server.spec import FtsSpec, is_fts5_ddl, parse
from ...fts.server.storage import Storage
from .checksum import Checksum
from .fts_load import Encoded, FtsLoader
from .fts_workers import EncodePool
from .progress import Progress
from .source import Snapshot, Virtual, quote_ident
from .writer import Writer

#: text (characters/bytes of the indexed values) of one batch at most: long messages make
#: shorter batches, so the memory of the batches in flight stays bounded whatever the rows hold
MAX_BATCH_TEXT = 4 * 1024 * 1024


def _text_size(values: list[Any]) -> int:
    return sum(len(v) for v in values if isinstance(v, (str, bytes)))


def _qpg(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def key_of(name: str) -> str:
    return f"fts:{name}"


class FtsFill:
    """Index one FTS5 table's rows from the source into the target's server tables."""

    def __init__(self, src: Snapshot, writer: Writer, progress: Progress, vt: Virtual, spec: FtsSpec,
                 storage: Storage, key_sql: str, table_sql: str) -> None:
        self.src, self.writer, self.progress = src, writer, progress
        self.vt, self.spec, self.storage = vt, spec, storage
        self._key, self._from = key_sql, table_sql
        self.loader = FtsLoader(storage, writer.raw, writer.kind)

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
            self._defer_indexes()
        after = state.hwm[0] if state.hwm else None
        tally = state.checksum  # rows: indexed rows; total: their token count
        for encoded in self._encoded(after, batch):
            self._flush(encoded, tally)
            advance(encoded.rows)
            committed()
        self._restore_indexes()
        with self.writer.transaction():
            self.progress.record(key_of(self.vt.name), self.progress.table(key_of(self.vt.name)).hwm, tally, True)

    # PostgreSQL builds the postings' indexes two to three times faster from the loaded
    # table than row by row while loading; InnoDB gains nothing (its table is the primary key).

    def _defer_indexes(self) -> None:
        if self.writer.kind != "postgres":
            return
        q = self.writer.target.backend.query
        idx = self.storage.idx
        for (name,) in q("SELECT conname FROM pg_constraint WHERE conrelid = to_regclass(%s) AND contype = 'p'", (idx,)):
            q(f"ALTER TABLE {idx} DROP CONSTRAINT {_qpg(name)}")
        q(f"DROP INDEX IF EXISTS {self._id_index()}")

    def _restore_indexes(self) -> None:
        """Idempotent: a run killed while building them builds them again."""
        if self.writer.kind != "postgres":
            return
        q = self.writer.target.backend.query
        idx = self.storage.idx
        if not q("SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass(%s) AND contype = 'p'", (idx,)):
            q(f"ALTER TABLE {idx} ADD PRIMARY KEY (term, id)")  # PostgreSQL names it as CREATE TABLE did
        q(f"CREATE INDEX IF NOT EXISTS {self._id_index()} ON {idx} (id)")

    def _id_index(self) -> str:
        return _qpg(self.spec.name.lower() + "_idx_id")  # as Storage.create names it

    def _batches(self, after: int | None, batch: int) -> Iterator[list[tuple[int, list[Any]]]]:
        """Source rows in rowid order, in batches of ``batch`` rows or ``MAX_BATCH_TEXT`` of text."""
        pending: list[tuple[int, list[Any]]] = []
        size = 0
        for row in self.rows(after):
            pending.append(row)
            size += _text_size(row[1])
            if len(pending) >= batch or size >= MAX_BATCH_TEXT:
                yield pending
                pending, size = [], 0
        if pending:
            yield pending

    def _encoded(self, after: int | None, batch: int) -> Iterator[Encoded]:
        """Encoded batches in rowid order: by worker processes (``fts_workers``), else by a
        producer thread that reads and tokenizes the next batches while this one is on
        the wire (the server works, the GIL is free)."""
        pool = EncodePool.start(self.writer.kind, self.vt.name, self.vt.sql)
        if pool is not None:
            try:
                yield from pool.map(self._batches(after, batch))
            finally:
                pool.close()
            return
        queue: Queue = Queue(maxsize=2)
        stop = threading.Event()

        def produce() -> None:
            try:
                for rows in self._batches(after, batch):
                    queue.put(self.loader.encode(rows))
                    if stop.is_set():
                        return
                queue.put(None)
            except BaseException as exc:  # handed to the consumer, raised there
                queue.put(exc)

        worker = threading.Thread(target=produce, name="hermes-migrate-fts", daemon=True)
        worker.start()
        try:
            while (item := queue.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            while worker.is_alive():  # unblock a producer waiting on a full queue
                try:
                    queue.get(timeout=0.1)
                except Empty:
                    pass
            worker.join()

    def _flush(self, encoded: Encoded, tally: Checksum) -> None:
        with self.writer.transaction():
            self.loader.load(encoded)
            self.storage.add_counts(encoded.rows, encoded.tokens)
            tally.rows += encoded.rows
            tally.total += encoded.tokens
            self.progress.record(key_of(self.vt.name), [encoded.last], tally, False)

    def stored(self) -> Checksum:
        """What the server holds: indexed rows and their token count (from the size rows)."""
        rows, total = self.storage.summed_stats()
        return Checksum(rows, total)

    def counts(self) -> Checksum | None:
        """The running counts bm25 reads (None for a table without them)."""
        if not self.storage.counted():
            return None
        rows, total = self.storage.stats()
        return Checksum(rows, total)
