"""PostgreSQL through psycopg 3.

The driver runs in autocommit mode and we send BEGIN/COMMIT ourselves, so the
transaction state is always the server's (``info.transaction_status``).  Inside
a transaction every statement runs under a savepoint: PostgreSQL would
otherwise abort the whole transaction on the first failed statement, where
SQLite only undoes that statement.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence, TypeVar

import hashlib

import psycopg
from psycopg import adapt, pq
from psycopg import sql as pgsql
from psycopg.types.numeric import Int8BinaryDumper, Int8Dumper
from psycopg.types.string import TextLoader

from ..errors import postgres as pg_errors
from ..translate import pg_names
from ..url import Target
from . import pg_copy, pg_direct, pg_float, pg_quiet, pg_text
from .base import Backend, RawCursor, unreachable
from . import faults, locks  # issue 5: lost connections, lock=table (backends/faults.py, locks.py)
from .._stdlib import sqlite3

_IDLE = pq.TransactionStatus.IDLE
_IDLE_CODE = int(pq.TransactionStatus.IDLE)
_TUPLES_OK = pq.ExecStatus.TUPLES_OK
# issue 8: server-side binding refused the statement before running anything
# (untyped parameter, no function/operator for the parameter types, several
# statements, stale cached plan): run it with client-side binding from then on
_CLIENT_ONLY_STATES = frozenset({"42P18", "42725", "42883", "42804", "42601", "0A000"})
_STMT_SAVEPOINT = "hermes_stmt"
# issue 8: the setting, and its value for this version, under which the server runs the
# FTS sync triggers it was given (fts/server/native.py); set for every session at connect
NATIVE_TRIGGERS = ("hdb.native_triggers", "1")
# The namespace's oid in catalog queries.  quote_ident keeps a mixed-case namespace
# (the URL allows one) its case, which current_schema()::regnamespace would fold.
NAMESPACE_OID = "to_regnamespace(quote_ident(current_schema()))"
_GUARD_CLOSE = "; RELEASE SAVEPOINT " + _STMT_SAVEPOINT
_GUARD_OPEN_B = ("SAVEPOINT " + _STMT_SAVEPOINT).encode()
_GUARD_CLOSE_B = ("RELEASE SAVEPOINT " + _STMT_SAVEPOINT).encode()
_MAX_CARRIED = 64  # deferred writes and lazy commands waiting for the next statement
_T = TypeVar("_T")


def _quote(name: str) -> str:
    return pg_names.quote(name)  # as the driver SQL writes every name (translate/pg_names.py)


def _has_deferred(commands: Sequence[pg_direct.Carried]) -> bool:
    """Whether deferred writes (with parameters: no simple query) are among ``commands``."""
    return any(type(c) is not bytes for c in commands)


class _NumericLoader(adapt.Loader):
    """NUMERIC as sqlite3 would return it: int when integral text, else float."""

    def load(self, data: Any) -> int | float:
        text = bytes(data)
        if b"." in text or b"e" in text or b"E" in text or b"N" in text or b"I" in text:
            return float(text)
        return int(text)


class _BoolLoader(adapt.Loader):
    def load(self, data: Any) -> int:
        return 1 if bytes(data) == b"t" else 0


_TEXT_TYPES = ("date", "time", "timetz", "timestamp", "timestamptz", "interval", "json", "jsonb", "uuid", "money")


def _configure_types(conn: psycopg.Connection) -> None:
    adapters = conn.adapters
    adapters.register_loader("numeric", _NumericLoader)
    adapters.register_loader("bool", _BoolLoader)
    for name in _TEXT_TYPES:
        adapters.register_loader(name, TextLoader)
    # issue 8: no Python text loader; PgCursor and query() decode NUL escapes (pg_text.decode_rows)
    pg_float.install(adapters)
    # issue 8: ints always as int8 with server-side binding (psycopg would pick int2/int4
    # by value, and ``? * ?`` would overflow); client-side literals are unchanged
    adapters.register_dumper(int, Int8Dumper)
    adapters.register_dumper(int, Int8BinaryDumper)


class PgCursor(RawCursor):
    def __init__(self, backend: "PostgresBackend") -> None:
        super().__init__()
        self._backend = backend
        self._raw: psycopg.Cursor | None = None
        self.cur: Any = None  # the driver cursor (or pg_direct.DirectResult) holding the current result

    @property
    def raw(self) -> psycopg.Cursor:
        """Client-side binding (ClientCursor): the savepoint-guarded path.  issue 8:
        made on first use (most statements never need it); issue 5: a new one
        on the backend's new connection after a reconnect."""
        raw = self._raw
        if raw is None or raw.connection is not self._backend.conn:
            raw = self._raw = self._backend.conn.cursor()
        return raw

    @raw.setter
    def raw(self, value: psycopg.Cursor) -> None:
        self._raw = value

    def reset(self) -> None:
        super().reset()
        self.text_columns: tuple[int, ...] = ()  # result columns holding text (pg_text.decode_rows)

    def _fetchone(self) -> tuple | None:
        row = self.cur.fetchone()
        if row is None or not self.text_columns:
            return row
        return pg_text.decode_row(row, self.text_columns)

    def _fetchmany(self, size: int) -> list[tuple]:
        return pg_text.decode_rows(self.cur.fetchmany(size), self.text_columns)

    def _fetchall(self) -> list[tuple]:
        return pg_text.decode_rows(self.cur.fetchall(), self.text_columns)

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
        self.cur = None


class PostgresBackend(faults.PgFaults, Backend):
    kind = "postgres"
    dialect = "postgres"

    def __init__(self, conn: psycopg.Connection, namespace: str, read_only: bool) -> None:
        self.conn = conn
        self.namespace = namespace
        self.read_only = read_only
        version = conn.info.server_version
        self.server_version = (version // 10000, version % 10000)
        self._meta = conn.cursor()
        self._client_only: set[str] = set()  # issue 8: driver SQL that needs client-side binding
        self._copy_plans: dict[tuple[str, int], pg_copy.Plan | None] = {}  # issue 8: executemany as COPY
        self._copy_tables: dict[str, tuple[pg_copy.Column, ...] | None] = {}
        self._direct: pg_direct.DirectPath | None = None  # issue 8: statements outside a transaction
        # issue 8: lazy savepoint commands and deferred FTS index writes, sent ahead of the next statement
        self._pending: list[pg_direct.Carried] = []
        self._encoding = conn.info.encoding
        digest = hashlib.sha256(namespace.encode()).digest()[:8]
        self._lock_key = int.from_bytes(digest, "big", signed=True)  # the namespace's write lock
        self.busy_timeout = 5.0

    @classmethod
    def open(cls, target: Target, namespace: str, *, timeout: float) -> "PostgresBackend":
        url = target.url
        params: dict[str, Any] = dict(url.driver_options)
        for key, value in (("host", url.host), ("port", url.port), ("user", url.user), ("dbname", url.dbname)):
            if value is not None:
                params[key] = value
        if url.password is not None:
            params["password"] = url.password
        params.setdefault("connect_timeout", 10)
        options = f"-c search_path=\"{namespace}\" -c TimeZone=UTC -c lock_timeout={int(timeout * 1000)}"
        options += " -c {}={}".format(*NATIVE_TRIGGERS)
        if target.read_only:
            options += " -c default_transaction_read_only=on"
        params["options"] = options
        try:
            conn = psycopg.connect(autocommit=True, cursor_factory=psycopg.ClientCursor, **params)
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            if url.password:
                reason = reason.replace(url.password, "***")
            raise unreachable(target, reason) from None
        _configure_types(conn)
        pg_quiet.own(conn)
        backend = cls(conn, namespace, target.read_only)
        backend._faults_init(target)  # issue 5: reconnect settings + idle-socket probe
        backend._ensure_namespace()
        return backend

    def _ensure_namespace(self) -> None:
        exists = self.query("SELECT 1 FROM pg_namespace WHERE nspname = %s", (self.namespace,))
        if exists:
            return
        if self.read_only:
            raise unreachable_readonly(self.namespace)
        try:
            self._meta.execute(pgsql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(pgsql.Identifier(self.namespace)))
        except psycopg.errors.UniqueViolation:
            pass  # another process created it between our check and our CREATE

    # -- running statements -------------------------------------------------

    def cursor(self) -> PgCursor:
        return PgCursor(self)  # issue 5: its driver cursors follow self.conn across reconnects

    def _translate(self, exc: psycopg.Error, in_transaction: bool = True, verb: str = "") -> Exception:
        if self._driver_is_lost(exc):  # issue 5: the connection died under this call (backends/faults.py)
            return self._lost(exc, in_transaction, verb)
        return pg_errors.translate(exc, self._lookup)

    def _lookup(self, sql: str, params: tuple) -> list:
        try:
            return [row[0] for row in self.query(sql, params)]
        except Exception:
            return []

    def execute(
        self, cursor: PgCursor, sql: str, params: Sequence[Any], *, returning_rowid: bool = False, table: str = ""
    ) -> None:
        cursor.reset()
        params = pg_text.encode_params(params)
        guarded = self.conn.pgconn.transaction_status != _IDLE_CODE
        try:
            if guarded:
                raw = self._execute_guarded(cursor, sql, params)
            else:
                if self._probe.poll(0):  # issue 5: the server hung up while we were idle: reconnect first
                    self._revive()
                raw = self._execute_unguarded(cursor, sql, params)
        except psycopg.Error as exc:
            if guarded:
                self._undo_statement()
            raise self._translate(exc, guarded) from None
        cursor.cur = raw
        cursor.rowcount = raw.rowcount
        result = raw.pgresult  # not raw.description: that builds Column objects on every access
        if result is None or not (result.nfields or result.status == _TUPLES_OK):
            return
        if returning_rowid:
            ids = [row[-1] for row in raw.fetchall() if row[-1] is not None]  # None: an upsert's update
            cursor.inserted = len(ids)
            if ids:
                cursor.lastrowid = ids[-1]
                cursor.max_rowid = max(ids)
                cursor.min_rowid = min(ids)
            return
        encoding = self._encoding
        cursor.names = tuple([result.fname(i).decode(encoding) for i in range(result.nfields)])
        cursor.text_columns = pg_text.text_columns(result)

    def _execute_guarded(self, cursor: PgCursor, sql: str, params: Any) -> Any:
        """Inside a transaction: the savepoint, the statement and its release in one
        round trip (a libpq pipeline, server-side binding; client-side binding in one
        simple query for the statements PostgreSQL cannot type that way)."""
        if sql not in self._client_only:
            try:
                return self._carrying_pending(
                    lambda pending: self._direct_path().guarded([*pending, _GUARD_OPEN_B], sql, params, _GUARD_CLOSE_B))
            except pg_direct.Unsupported:
                pass  # nothing was sent
            except psycopg.Error as exc:
                if exc.sqlstate not in _CLIENT_ONLY_STATES or self._driver_is_lost(exc):
                    raise
                self._undo_statement()
                if exc.sqlstate == "0A000":  # a prepared plan went stale under DDL: client-side this once
                    self._direct_path().forget()
                else:
                    self._remember_client_only(sql)
        self.flush()
        raw = cursor.raw
        # the savepoint alone first: the server parses a simple query whole, so a statement it
        # cannot parse would take the savepoint with it and leave the transaction aborted
        raw.execute(_GUARD_OPEN_B)
        raw.execute(sql + _GUARD_CLOSE, params)
        return raw

    def _direct_path(self) -> pg_direct.DirectPath:
        direct = self._direct
        if direct is None or direct.conn is not self.conn:
            direct = self._direct = pg_direct.DirectPath(self.conn)
        return direct

    def _remember_client_only(self, sql: str) -> None:
        if len(self._client_only) >= 4096:
            self._client_only.clear()
        self._client_only.add(sql)

    def _execute_unguarded(self, cursor: PgCursor, sql: str, params: Any) -> Any:
        """issue 8: outside a transaction, straight through libpq (backends/pg_direct.py:
        prepared from the second execution); client-side binding for the statements
        PostgreSQL cannot type that way.  Autocommit: a refused statement has done nothing."""
        if sql in self._client_only:
            raw = cursor.raw
            raw.execute(sql, params)
            return raw
        direct = self._direct_path()
        try:
            return direct.execute(sql, params)
        except pg_direct.Unsupported:
            pass
        except psycopg.Error as exc:
            if exc.sqlstate not in _CLIENT_ONLY_STATES or self.conn.pgconn.transaction_status != _IDLE_CODE:
                raise
            if exc.sqlstate == "0A000":  # a prepared plan went stale under DDL: prepare afresh
                direct.forget()
                try:
                    return direct.execute(sql, params)
                except psycopg.Error as again:
                    if again.sqlstate not in _CLIENT_ONLY_STATES:
                        raise
        self._remember_client_only(sql)
        raw = cursor.raw
        raw.execute(sql, params)
        return raw

    def _undo_statement(self) -> None:
        try:
            self._meta.execute("ROLLBACK TO SAVEPOINT " + _STMT_SAVEPOINT)
            self._meta.execute("RELEASE SAVEPOINT " + _STMT_SAVEPOINT)
        except psycopg.Error:
            pass  # connection-level trouble: the caller's error says more

    def executemany(
        self,
        cursor: PgCursor,
        sql: str,
        seq: Iterable[Sequence[Any]],
        *,
        table: str = "",
        returning_rowid: bool = False,
        profile: Any = None,
    ) -> None:
        if profile is not None and not profile.escaped:
            plan = self._copy_plan(sql, len(profile.kinds))
            fits = plan is not None and pg_copy.fits(plan, profile.kinds)
            if fits and self._copy(cursor, plan, seq, profile):  # type: ignore[arg-type]  # a list when profiled
                return
        cursor.reset()
        # all or nothing, so the caller can redo it item by item after a failure
        guarded = self.conn.info.transaction_status != _IDLE
        if not guarded:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        try:
            self.flush()
            self._meta.execute("SAVEPOINT " + _STMT_SAVEPOINT if guarded else "BEGIN")
            cursor.raw.executemany(sql, [pg_text.encode_params(p) for p in seq], returning=returning_rowid)
            if returning_rowid:
                total, last, highest, lowest = 0, None, None, None
                while True:
                    rows = cursor.raw.fetchall()
                    total += len(rows)
                    ids = [row[-1] for row in rows if row[-1] is not None]  # None: an upsert's update
                    if ids:
                        last = ids[-1]
                        top, bottom = max(ids), min(ids)
                        highest = top if highest is None else max(highest, top)
                        lowest = bottom if lowest is None else min(lowest, bottom)
                    if not cursor.raw.nextset():
                        break
                cursor.lastrowid, cursor.max_rowid, cursor.min_rowid, cursor.rowcount = last, highest, lowest, total
            self._meta.execute("RELEASE SAVEPOINT " + _STMT_SAVEPOINT if guarded else "COMMIT")
        except BaseException as exc:  # a server error, or e.g. a str the driver cannot encode after earlier items went
            driver = isinstance(exc, psycopg.Error)
            if guarded:
                self._undo_statement()
            elif not (driver and self._driver_is_lost(exc)):  # issue 5: a dead connection rolled back already
                self._meta.execute("ROLLBACK")
            if driver:
                raise self._translate(exc, guarded) from None
            raise
        if not returning_rowid:
            cursor.rowcount = cursor.raw.rowcount

    def _copy_plan(self, sql: str, count: int) -> pg_copy.Plan | None:
        key = (sql, count)
        if key not in self._copy_plans:
            if len(self._copy_plans) >= 256:
                self._copy_plans.clear()
            self._copy_plans[key] = pg_copy.plan(sql, count, self._table_columns)
        return self._copy_plans[key]

    def _table_columns(self, table: str) -> tuple[pg_copy.Column, ...] | None:
        if table not in self._copy_tables:
            self._copy_tables[table] = pg_copy.table_columns(self.query, table)
        return self._copy_tables[table]

    def schema_changed(self) -> None:
        self._copy_plans.clear()
        self._copy_tables.clear()

    def _copy(self, cursor: PgCursor, plan: pg_copy.Plan, rows: list[tuple], profile: Any) -> bool:
        """issue 8: the batch as one COPY (see pg_copy), all or nothing, with the
        rowcount and ids the INSERTs would have reported; the lazy commands, the
        statement savepoint, the COPY, the id read-back and the release are one simple
        query (two round trips).  False, with nothing sent, when a str cannot be encoded."""
        try:
            chunks = pg_copy.text_chunks(profile.columns, profile.kinds, self._encoding)
        except UnicodeEncodeError:
            return False  # the INSERT way reports it as it would for any batch
        cursor.reset()
        guarded = self.in_transaction
        if not guarded:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        if _has_deferred(self._pending):
            self.flush()  # deferred writes have parameters: not in a simple query
        head = [*self._take_pending(), _GUARD_OPEN_B] if guarded else []
        tail = []
        if plan.sequence is not None:  # ids the server made: the session's last one
            tail.append(b"SELECT currval('" + plan.sequence.replace("'", "''").encode() + b"'::regclass)")
        if guarded:
            tail.append(_GUARD_CLOSE_B)
        direct = self._direct_path()
        try:
            results = direct.copy_in(b"; ".join([*head, plan.sql.encode(), *tail]), chunks)
        except psycopg.Error as exc:
            if guarded:
                self._undo_statement()
            raise self._translate(exc, guarded) from None
        cursor.rowcount = len(rows)
        if plan.rowid >= 0:
            cursor.lastrowid = rows[-1][plan.rowid]
            ids = [row[plan.rowid] for row in rows]
            cursor.max_rowid, cursor.min_rowid = max(ids), min(ids)
        elif plan.sequence is not None:  # the sequence's last value: the rows took the values up to it
            cursor.lastrowid = cursor.max_rowid = direct.rows(results[len(head) + 1])[0][0]
            cursor.min_rowid = cursor.lastrowid - len(rows) + 1
        return True

    # -- transactions -------------------------------------------------------

    def begin(self, mode: str) -> None:
        """IMMEDIATE and EXCLUSIVE take the namespace's write lock for the whole
        transaction (an advisory lock released by COMMIT/ROLLBACK), waiting up to
        the busy timeout, as SQLite's write lock does."""
        self._begin(mode, None)

    def begin_and_query(self, mode: str, sql: str) -> list[tuple]:
        """issue 8: the query travels with BEGIN (several statements, one round trip)."""
        return self._begin(mode, sql)

    def _begin(self, mode: str, probe: str | None) -> list[tuple]:
        self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        locking = mode in ("IMMEDIATE", "EXCLUSIVE")
        try:
            if locking and self.lock_strategy == "table":  # issue 5: lock row (backends/locks.py)
                locks.pg_begin_locked(self)
                return [] if probe is None else self.query(probe)
            # issue 8: one pipeline straight through libpq, the lock and the probe prepared
            # from their second run (each its own statement: the probe's snapshot is taken
            # once the lock is held); the lock key is our own integer
            statements = []
            if locking:
                take = "pg_try_advisory_xact_lock" if self.busy_timeout <= 0 else "pg_advisory_xact_lock"
                statements.append((f"SELECT {take}({self._lock_key})", ()))
            if probe is not None:
                statements.append((probe, ()))
            results = self._direct_path().batch(statements, (b"BEGIN",), prepare=True)
            if locking and self.busy_timeout <= 0 and not results[0].fetchone()[0]:
                raise psycopg.errors.LockNotAvailable("write lock is held")
            if probe is None:
                return []
            return pg_text.decode_rows(results[-1].fetchall(), pg_text.text_columns(results[-1].pgresult))
        except psycopg.Error as exc:
            if self._lost_before_start(exc):  # issue 5: nothing had started: begin on the new connection
                return self._begin(mode, probe)
            if self.in_transaction:  # the lock or the probe failed: no half-begun transaction
                self._run_control("ROLLBACK")
            raise self._translate(exc, locking) from None

    def commit(self) -> None:
        self._run_control("COMMIT")

    def rollback(self) -> None:
        self._pending.clear()  # the rollback undoes them anyway
        try:
            self._run_control("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if not faults.is_lost(exc):  # issue 5: a lost connection's transaction is rolled back
                raise

    def savepoint(self, verb: str, name: str, *, lazy: bool = False) -> None:
        """``lazy``: inside a transaction, sent with the next statement (issue 8: the
        trigger engine's savepoint and its release cost no round trip of their own).
        A lazy command's own failure is reported by that next statement."""
        if lazy and self.in_transaction:
            self._pending.append(f"{verb} {name}".encode())
            return
        if verb != "SAVEPOINT" and name.startswith("hermes_") and not self.in_transaction:
            return  # a deferred write failed and the transaction was rolled back: nothing left to undo
        self._run_control(f"{verb} {name}")

    def flush(self) -> None:
        """Send the lazy savepoint commands now (before anything that bypasses the
        paths that carry them)."""
        if self._pending:
            try:
                self._send_now(self._take_pending())
            except psycopg.Error as exc:
                raise self._translate(exc, True) from None

    def _take_pending(self) -> list[pg_direct.Carried]:
        commands, self._pending = self._pending, []
        return commands

    def _run_control(self, statement: str) -> None:
        commands = self._take_pending()
        commands.append(statement.encode())
        try:
            self._send_now(commands)  # issue 8: no psycopg cursor per COMMIT
        except psycopg.Error as exc:
            raise self._translate(exc, True, statement) from None

    def _send_now(self, commands: list[pg_direct.Carried]) -> None:
        """Commands in one round trip: a simple query, or a pipeline when deferred
        writes (with parameters) are among them."""
        direct = self._direct_path()
        if not _has_deferred(commands):
            direct.script(b"; ".join(commands))  # type: ignore[arg-type]
            return
        try:
            direct.batch((), commands)
        except pg_direct.CarriedFailure as failed:
            raise self._abandon(failed.error) from None

    def _abandon(self, error: psycopg.Error) -> Exception:
        """A deferred write failed after the statement that made it had reported
        success: the transaction cannot go on without it, so it is rolled back whole,
        as SQLite rolls back by itself after the errors it cannot undo statement by
        statement (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY, SQLITE_NOMEM).  The error
        to raise, in sqlite3's classes."""
        self._pending.clear()
        translated = self._translate(error, True)
        self._roll_back_after()
        return translated

    def _roll_back_after(self) -> None:
        """End the transaction a failure left open (best effort: when the connection
        itself is in trouble, the error already says more)."""
        if self.in_transaction and self.conn.pgconn.status != pq.ConnStatus.BAD:
            try:
                self._direct_path().script(b"ROLLBACK")
            except psycopg.Error:
                pass

    @property
    def in_transaction(self) -> bool:
        return self.conn.pgconn.transaction_status != _IDLE_CODE

    def set_busy_timeout(self, seconds: float) -> None:
        self.busy_timeout = max(0.0, float(seconds))
        if not self.in_transaction:
            self._ensure_live()  # issue 5
        self._run_control(f"SET lock_timeout = {int(self.busy_timeout * 1000)}")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        in_transaction = self.in_transaction
        if not in_transaction:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        values = pg_text.encode_params(params)  # NULs in FTS text and catalog values too
        try:
            self.flush()
            try:  # issue 8: straight through libpq, never prepared (no savepoint guards it)
                result = self._direct_path().execute(sql, values, prepare=False)
            except pg_direct.Unsupported:
                with self.conn.cursor() as cur:
                    cur.execute(sql, values)
                    if cur.description is None:
                        return []
                    return pg_text.decode_rows(cur.fetchall(), pg_text.text_columns(cur.pgresult))
            if not result.pgresult.nfields:
                return []
            return pg_text.decode_rows(result.fetchall(), pg_text.text_columns(result.pgresult))
        except psycopg.Error as exc:  # never a driver exception to the application
            raise self._translate(exc, in_transaction) from None

    def _carrying_pending(self, send: Callable[[list[bytes]], _T]) -> _T:
        """Run one pipeline that sends the lazy savepoint commands first.  They are
        done with once it ran, even when it failed (the pipeline stops at the first
        failure, after them); kept when nothing was sent (``pg_direct.Unsupported``)."""
        pending = self._pending
        try:
            result = send(pending)
        except pg_direct.CarriedFailure as failed:
            raise self._abandon(failed.error) from None
        except psycopg.Error:
            pending.clear()
            raise
        pending.clear()
        return result

    def _pipelined(self, statements: Sequence[tuple[str, Sequence[Any]]],
                   prepare: bool = False) -> list[pg_direct.DirectResult]:
        """``statements`` in one libpq pipeline behind the lazy commands; raises
        ``pg_direct.Unsupported`` when nothing was sent."""
        in_transaction = self.in_transaction
        if not in_transaction:
            self._ensure_live()  # issue 5
        encoded = [(sql, pg_text.encode_params(params)) for sql, params in statements]
        direct = self._direct_path()
        try:
            return self._carrying_pending(lambda pending: direct.batch(encoded, pending, prepare))
        except psycopg.Error as exc:  # never a driver exception to the application
            raise self._translate(exc, in_transaction) from None

    def write_all(self, statements: Sequence[tuple[str, Sequence[Any]]], prepare: bool = False,
                  defer: bool = False) -> None:
        """issue 8: the FTS index writes of one statement in one libpq pipeline;
        ``defer``: inside a transaction, sent ahead of the next statement instead (no
        round trip of their own; see :meth:`_abandon` for a failure)."""
        if defer and self.in_transaction:
            self._pending.extend([(sql, pg_text.encode_params(params)) for sql, params in statements])
            if len(self._pending) > _MAX_CARRIED:  # a pipeline's results must not outgrow the socket's buffers
                self.flush()
            return
        if len(statements) < 2 and not prepare:
            super().write_all(statements)
            return
        try:
            self._pipelined(statements, prepare)
        except pg_direct.Unsupported:
            super().write_all(statements)  # nothing was sent; query() sends the lazy commands first

    def temp_ddl(self, statements: Sequence[str]) -> None:
        """Read-only connection outside a transaction: in a READ WRITE transaction of
        its own (the session's read-only default stays)."""
        if not self.read_only or self.in_transaction:
            super().temp_ddl(statements)
            return
        self._ensure_live()  # issue 5
        self.flush()
        try:
            self._direct_path().script("; ".join(["BEGIN READ WRITE", *statements, "COMMIT"]).encode())
        except psycopg.Error as exc:
            error = self._translate(exc, False)
            self._roll_back_after()
            raise error from None

    def query_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple]]:
        """issue 8: the reads of one FTS evaluation step in one libpq pipeline."""
        if len(statements) < 2:
            return super().query_all(statements)
        try:
            results = self._pipelined(statements)
        except pg_direct.Unsupported:
            return super().query_all(statements)  # nothing was sent
        return [pg_text.decode_rows(r.fetchall(), pg_text.text_columns(r.pgresult)) if r.pgresult.nfields else []
                for r in results]

    def advance_identity(self, table: str, column: str, value: int | None = None) -> None:
        """Move the identity sequence of ``table.column`` past ``value`` (None: the
        column's highest value), never back."""
        table_sql = _quote(table)
        column = pg_names.fold(column)  # pg_get_serial_sequence takes the column's name as it is
        if value is None:
            top, params = f"(SELECT max({_quote(column)}) FROM {table_sql})", (table_sql, column)
        else:
            top, params = "%s", (table_sql, column, value)
        self.query(
            f"SELECT setval(seq, top) FROM (SELECT pg_get_serial_sequence(%s, %s)::regclass AS seq, {top} AS top) s "
            "WHERE top > COALESCE(pg_sequence_last_value(s.seq), 0)",
            params,
        )

    def rewind_identity(self, table: str, column: str, floor: int = 0) -> None:
        """Set the identity sequence of ``table.column`` back to max(column) (and no
        lower than ``floor``), so the next automatic id is max + 1 as in SQLite,
        after a statement whose skipped or failed rows, or a rollback whose undone
        rows, used up sequence values.  Only when the sequence is past that, and
        under a SHARE ROW EXCLUSIVE lock taken at once (no other writer of the
        table is in flight; held to the end of the transaction, as SQLite's write
        lock is): when another transaction writes the table, the ids keep their
        gap.  Outside a transaction the DO block is its own.  Best effort."""
        table_sql = _quote(table)
        column_sql = _quote(column)
        column = pg_names.fold(column)
        sequence = "pg_get_serial_sequence('" + table_sql.replace("'", "''") + "', '" + column.replace("'", "''") + "')"
        target = f"GREATEST(COALESCE((SELECT max({column_sql}) FROM {table_sql}), 0), {int(floor)})"
        # one round trip; the lock only when the sequence is past the target (a DO block: no parameters)
        body = (
            "DO $hermes$ DECLARE top bigint; BEGIN "
            f"IF COALESCE(pg_sequence_last_value({sequence}::regclass), 0) <= {target} THEN RETURN; END IF; "
            f"LOCK TABLE {table_sql} IN SHARE ROW EXCLUSIVE MODE NOWAIT; "
            f"top := {target}; "
            f"PERFORM setval({sequence}::regclass, GREATEST(top, 1), top >= 1); "
            "END $hermes$"
        )
        guarded = self.in_transaction
        sql = f"SAVEPOINT hermes_rewind; {body}; RELEASE SAVEPOINT hermes_rewind" if guarded else body
        try:
            self.flush()
            self._meta.execute(sql)
        except psycopg.Error:
            try:
                if guarded:
                    self._meta.execute("ROLLBACK TO SAVEPOINT hermes_rewind; RELEASE SAVEPOINT hermes_rewind")
            except psycopg.Error:
                pass  # connection-level trouble: the next statement reports it

    def vacuum(self) -> None:
        """``VACUUM (ANALYZE)`` of the namespace's tables: dead rows reclaimed, planner
        statistics and the visibility map brought up to date (index-only scans skip
        the table for pages it marks all-visible: FTS postings are read by term,
        scattered over the table in insertion order), as autovacuum would in time
        (it may be off).  A table another session is vacuuming or altering is
        skipped, not waited for; a read-only connection leaves them be."""
        if self.read_only:
            return
        tables = self.query(
            "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'm') ORDER BY c.relname", (self.namespace,))
        if tables:  # query() sent whatever was pending
            skip = ", SKIP_LOCKED" if self.server_version >= (12,) else ""
            self._meta.execute(f"VACUUM (ANALYZE{skip}) " + ", ".join(t[0] for t in tables))

    def has_table(self, name: str) -> bool:
        return bool(self.query("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.namespace}"."{name}"',))[0][0])

    def drop_namespace(self) -> None:
        self.flush()
        self._meta.execute(pgsql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(pgsql.Identifier(self.namespace)))

    def close(self) -> None:
        self.conn.close()


def unreachable_readonly(namespace: str) -> Exception:
    from ..errors import operational

    return operational(f"unable to open database file (read-only, namespace {namespace} does not exist)", "SQLITE_CANTOPEN")
