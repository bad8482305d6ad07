"""One migration, phase by phase: target state, schema, copy, later objects,
ids, verification.  Every phase is idempotent, so a re-run resumes."""

from __future__ import annotations

import hashlib
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..._stdlib import sqlite3
from ...translate.context import HIDDEN_ROWID
from . import fidelity
from .checksum import Checksum
from .fts_fill import FtsFill, key_of
from .meter import Meter
from .progress import Progress
from .source import Snapshot, Table, Virtual
from .target import TargetNamespace
from .writer import Writer

MAX_BATCH_BYTES = 32 * 1024 * 1024
#: test hook: SIGKILL the process after this many committed batches (a hard crash mid-phase)
KILL_AFTER_ENV = "HERMES_MIGRATE_KILL_AFTER"


class MigrationError(Exception):
    """A migration that must stop; the message says why and what to do."""


@dataclass
class TableResult:
    name: str
    source_rows: int
    target_rows: int = -1
    source_sum: str = ""
    target_sum: str = ""

    @property
    def ok(self) -> bool:
        return self.source_rows == self.target_rows and self.source_sum == self.target_sum


@dataclass
class Report:
    namespace: str
    server: str
    resumed: bool = False
    already_complete: bool = False
    copied: int = 0
    seconds: float = 0.0
    tables: list[TableResult] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (object, reason)
    ids: list[tuple[str, int]] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return all(t.ok for t in self.tables)


def fingerprint(snapshot: Snapshot) -> str:
    text = "\n".join(t.sql for t in snapshot.tables)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Migration:
    def __init__(
        self,
        snapshot: Snapshot,
        target: TargetNamespace,
        *,
        batch: int = 10_000,
        replace: bool = False,
        meter: Callable[[int], Meter] = Meter,
        log: Callable[[str], None] = lambda _m: None,
    ) -> None:
        self.src = snapshot
        self.target = target
        self.batch = batch
        self.replace = replace
        self.make_meter = meter
        self.log = log
        self.progress = Progress(target.backend)
        self.report = Report(target.name, target.describe())
        self.writer: Writer | None = None
        self._created_namespace = False
        self._counts: dict[str, int] = {}
        self._batches = 0
        self._kill_after = int(os.environ.get(KILL_AFTER_ENV) or 0)
        self._fills: dict[str, FtsFill] = {}

    def committed(self) -> None:
        """One more batch is durable on the server (the test hook may crash here)."""
        self._batches += 1
        if self._kill_after and self._batches >= self._kill_after:
            os.kill(os.getpid(), signal.SIGKILL)

    def count(self, table: Table) -> int:
        if table.name not in self._counts:
            self._counts[table.name] = self.src.count(table)
        return self._counts[table.name]

    # -- the whole run ------------------------------------------------------------

    def run(self) -> Report:
        started = time.monotonic()
        self.prepare()
        if not self.report.already_complete:
            self.create_tables()
            self.writer = Writer(self.target)
            self.preflight()
            self.copy()
            self.create_later()
            self.continue_ids()
            self.copy_header()
        else:
            self.writer = Writer(self.target)
            stored = self._stored_names()
            for vt in self.src.virtual:
                fill = FtsFill.plan(self.src, self.writer, self.progress, vt) if vt.name.lower() in stored else None
                if fill is not None:
                    self._fills[vt.name] = fill
        self.verify()
        if self.report.verified:
            self.progress.finish()
        self.report.seconds = time.monotonic() - started
        return self.report

    # -- phases ---------------------------------------------------------------------

    def prepare(self) -> None:
        """Decide: fresh, resume, already complete, or refuse."""
        digest = fingerprint(self.src)
        if self.progress.exists() and not self.replace:
            info = self.progress.info()
            if info.get("fingerprint") != digest:
                raise MigrationError(
                    f"namespace {self.target.name} holds a migration of a different source schema "
                    f"({info.get('source', '?')}); use --replace to drop it and start over"
                )
            self.report.already_complete = bool(info.get("complete"))
            self.report.resumed = not self.report.already_complete
            self.log("migration already complete: verifying" if self.report.already_complete else "resuming")
            return
        existing = self.target.user_tables()
        if existing or self.progress.exists():
            if not self.replace:
                shown = ", ".join(existing[:5]) + (", …" if len(existing) > 5 else "")
                raise MigrationError(
                    f"target namespace {self.target.name} is not empty ({len(existing)} tables: {shown}); "
                    "use --replace to drop it and migrate again"
                )
            self.log(f"--replace: dropping namespace {self.target.name}")
        if self.replace:
            self.target.reset()
            self.progress = Progress(self.target.backend)
        self._created_namespace = True
        self.progress.create({"source": self.src.path, "fingerprint": digest})

    def _stored_names(self) -> set[str]:
        return {name.lower() for _type, name, _tbl, _sql in self.target.stored_schema()}

    def create_tables(self) -> None:
        stored = self._stored_names()
        for table in self.src.ordered_tables():
            if table.name.lower() not in stored:
                self._ddl(table.sql, f"table {table.name}", required=True)
        for vt in self.src.virtual:
            if vt.name.lower() not in stored:
                self._ddl(vt.sql, f"virtual table {vt.name} ({vt.module})", required=False)

    def _ddl(self, sql: str, what: str, required: bool) -> bool:
        try:
            self.target.conn.execute(sql)
            return True
        except sqlite3.Error as exc:
            reason = f"{type(exc).__name__}: {exc}"
            if required:
                raise MigrationError(f"cannot create {what} on the server: {reason}") from None
            self.report.skipped.append((what, reason))
            return False

    def preflight(self) -> None:
        assert self.writer is not None
        found: list[str] = []
        for table in self.src.tables:
            types = {c: kind for c, (_n, kind) in zip(table.columns, self.writer.server_columns(table.name, table.columns))}
            found += fidelity.problems(table.name, self.src.storage_classes(table), types, self.target.kind)
        if found:
            if self._created_namespace:
                self.target.backend.drop_namespace()
            raise MigrationError(
                "values would not round-trip exactly, nothing was migrated:\n  " + "\n  ".join(found)
            )

    def copy(self) -> None:
        assert self.writer is not None
        meter = self.make_meter(sum(self.count(t) for t in self.src.tables))
        self.writer.foreign_key_checks(False)
        try:
            for table in self.src.ordered_tables():
                self._copy_table(table, meter)
        finally:
            self.writer.foreign_key_checks(True)
            meter.finish()
        self.report.copied = meter.done

    def _copy_table(self, table: Table, meter: Meter) -> None:
        assert self.writer is not None
        state = self.progress.table(table.name)
        if state.done:
            meter.advance(state.checksum.rows, table.name)
            return
        if state.checksum.rows:
            meter.advance(state.checksum.rows, table.name)
            meter.done -= state.checksum.rows  # resumed rows are not this run's throughput
            meter.total -= state.checksum.rows
        checksum, last, rows, size = state.checksum, state.hwm, [], 0
        keep_rowid = len(self._written_columns(table)) > len(table.columns)
        for key, row in self.src.rows(table, state.hwm):
            rows.append((key[0], *row) if keep_rowid else row)
            size += checksum.add(row)
            last = key
            if len(rows) >= self.batch or size >= MAX_BATCH_BYTES:
                self._flush(table, rows, last, checksum, False)
                meter.advance(len(rows), table.name)
                self.committed()
                rows, size = [], 0
        self._flush(table, rows, last, checksum, True)
        meter.advance(len(rows), table.name)

    def _written_columns(self, table: Table) -> list[str]:
        """The source rowids of a table without a rowid alias go to its hidden column,
        so ``ORDER BY rowid`` reads the rows as it did in the file."""
        assert self.writer is not None
        if table.implicit_rowid and self.writer.has_column(table.name, HIDDEN_ROWID):
            return [HIDDEN_ROWID, *table.columns]
        return table.columns

    def _flush(self, table: Table, rows: list[tuple], last: Any, checksum: Checksum, done: bool) -> None:
        assert self.writer is not None
        try:
            with self.writer.transaction():
                self.writer.write(table.name, self._written_columns(table), rows)
                self.progress.record(table.name, last, checksum, done)
        except Exception as exc:
            raise MigrationError(f"copying table {table.name} failed near key {last}: {_one_line(exc)}") from None

    def create_later(self) -> None:
        """Indexes, views, FTS content and triggers, after the data (triggers must not fire on it)."""
        stored = self._stored_names()
        order = {"index": 0, "view": 1, "trigger": 3}
        created_vt = {vt.name.lower() for vt in self.src.virtual if vt.name.lower() in stored}
        for obj in sorted(self.src.later, key=lambda o: order[o.type]):
            if obj.name.lower() not in stored:
                self._ddl(obj.sql, f"{obj.type} {obj.name}", required=False)
        for vt in self.src.virtual:
            if vt.name.lower() not in created_vt:
                continue
            assert self.writer is not None
            self.writer.refresh()
            fill = FtsFill.plan(self.src, self.writer, self.progress, vt)
            if fill is not None:
                self._fills[vt.name] = fill
                if not self.progress.table(key_of(vt.name)).done:
                    self._index(fill)
            elif not self.progress.table(key_of(vt.name)).done:
                self._fill_virtual(vt)

    def _index(self, fill: FtsFill) -> None:
        """Build an FTS table's index in bulk, batch by batch (resumable)."""
        meter = self.make_meter(fill.count())
        done = self.progress.table(key_of(fill.vt.name)).checksum.rows
        if done:
            meter.total -= done
        try:
            fill.run(self.batch, lambda n: meter.advance(n, f"index {fill.vt.name}"), self.committed)
        except sqlite3.Error as exc:
            raise MigrationError(f"indexing {fill.vt.name} failed: {_one_line(exc)}") from None
        except Exception as exc:
            if type(exc).__module__.split(".")[0] in ("psycopg", "pymysql"):
                raise MigrationError(f"indexing {fill.vt.name} failed: {_one_line(exc)}") from None
            raise
        finally:
            meter.finish()

    def _fill_virtual(self, vt: Virtual) -> None:
        """Content of a virtual table the shim could create: rebuild or copy it."""
        conn = self.target.conn
        content = vt.options.get("content")
        try:
            if content == "":
                self.report.skipped.append((f"virtual table {vt.name} content", "contentless: cannot be rebuilt"))
                return
            if content:
                conn.execute(f"INSERT INTO {_q(vt.name)}({_q(vt.name)}) VALUES ('rebuild')")
            else:
                cols = ", ".join(_q(c) for c in ["rowid", *vt.columns])
                marks = ", ".join("?" * (len(vt.columns) + 1))
                sql = f"INSERT INTO {_q(vt.name)}({cols}) VALUES ({marks})"
                cursor = self.src.virtual_rows(vt)
                conn.execute("BEGIN")
                while chunk := cursor.fetchmany(self.batch):
                    conn.executemany(sql, chunk)
                conn.execute("COMMIT")
            with self.writer.transaction():  # type: ignore[union-attr]
                self.progress.record(f"fts:{vt.name}", None, Checksum(), True)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.report.skipped.append((f"virtual table {vt.name} content", f"{type(exc).__name__}: {exc}"))

    def continue_ids(self) -> None:
        assert self.writer is not None
        for table in self.src.tables:
            if table.rowid_alias:
                last = self.src.next_id(table)
                self.writer.continue_ids(table.name, table.rowid_alias, last)
                if last:
                    self.report.ids.append((table.name, last))
            elif table.implicit_rowid and self.writer.has_column(table.name, HIDDEN_ROWID):
                self.writer.continue_ids(table.name, HIDDEN_ROWID, self.src.next_id(table))

    def copy_header(self) -> None:
        """What SQLite keeps in the file header and applications read back:
        user_version, application_id and WAL mode."""
        for pragma in ("user_version", "application_id", "journal_mode"):
            value = self.src.db.execute(f"PRAGMA {pragma}").fetchone()[0]
            if pragma != "journal_mode" or value == "wal":
                self.target.conn.execute(f"PRAGMA {pragma} = {value}")

    def verify(self) -> None:
        assert self.writer is not None
        for table in self.src.tables:
            state = self.progress.table(table.name)
            if self.report.resumed or self.report.already_complete or not state.done:
                source = Checksum()
                source.add_all(self.src.plain_rows(table))
            else:
                source = state.checksum
            result = TableResult(table.name, self.count(table), source_sum=source.hex)
            target = Checksum()
            target.add_all(self.writer.stream(table.name, table.columns))
            result.target_rows, result.target_sum = target.rows, target.hex
            self.report.tables.append(result)
        for name, fill in self._fills.items():  # the index: rows and token totals as recorded while indexing
            want = self.progress.table(key_of(name)).checksum
            got = fill.stored()
            self.report.tables.append(TableResult(f"{name} (index)", fill.count(), got.rows,
                                                  f"{want.total:012d}", f"{got.total:012d}"))
            counts = fill.counts()  # what bm25 will read: must say what the size rows say
            if counts is not None:
                self.report.tables.append(TableResult(f"{name} (counts)", got.rows, counts.rows,
                                                      f"{got.total:012d}", f"{counts.total:012d}"))


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
