"""issue 8: statements outside a transaction straight through libpq.

psycopg's cursor spends most of a point SELECT's client time in Python
(generators, prepared-statement bookkeeping, result objects).  Here a
statement is dumped by psycopg's own Transformer (the connection's adapters,
so values and types are exactly psycopg's), executed with ``exec_params`` the
first time and as a named prepared statement from the second, and its rows are
loaded lazily from the PGresult by a Transformer, as psycopg does.  The libpq
calls release the GIL while they wait.  Errors become psycopg's own exception
classes, so the error mapping and the lost-connection handling see what they
always saw.
"""

from __future__ import annotations

import re
import select
from typing import Any, Sequence

import psycopg
from psycopg import errors as pg_exc
from psycopg import pq
from psycopg.adapt import PyFormat, Transformer

_OK = frozenset({pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK, pq.ExecStatus.EMPTY_QUERY})
_TUPLES_OK = pq.ExecStatus.TUPLES_OK
_BAD = pq.ConnStatus.BAD
_PLACEHOLDER = re.compile(r"%%|%s|%")
_PIPELINE_SYNC = pq.ExecStatus.PIPELINE_SYNC
_COPY_IN = pq.ExecStatus.COPY_IN
_COMMAND_OK = pq.ExecStatus.COMMAND_OK
# what one send of a pipeline is (DirectPath._pipeline_results)
_PARAMS, _PREPARE, _PREPARED = 0, 1, 2
_PREPARE_AT = 2  # executions of one statement before it is prepared (a one-off costs no extra round trip)
_MAX_PREPARED = 256
_EAGER_ROWS = 16  # rows of a result loaded at once, its Transformer reused (DirectResult)


class Unsupported(Exception):
    """Driver SQL this path does not take (named placeholders, binary formats)."""


class CarriedFailure(Exception):
    """A deferred write carried ahead of a statement failed: the statement did not run.
    ``error``: the server's error, a psycopg exception."""

    def __init__(self, error: psycopg.Error) -> None:
        super().__init__(str(error))
        self.error = error


# what may go ahead of a statement in its pipeline: a command without parameters, or a
# deferred write (driver SQL and its parameters, prepared from its second run)
Carried = bytes | tuple[str, Sequence[Any]]


def dollar_query(sql: str) -> bytes:
    """psycopg's ``%s`` placeholders as ``$n`` (``%%`` is a literal percent)."""
    count = 0

    def swap(match: re.Match) -> str:
        nonlocal count
        token = match.group()
        if token == "%%":
            return "%"
        if token == "%":
            raise Unsupported(sql)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(swap, sql).encode("utf-8")


class DirectResult:
    """The slice of a psycopg cursor PgCursor reads: ``pgresult``, ``rowcount``, fetches.

    issue 8: a result of at most ``_EAGER_ROWS`` rows is loaded at once and its
    Transformer handed back to ``path`` for the next statement (a Transformer
    keeps the dumpers and loaders it looked up: a fresh one per call spent
    1.3 µs finding them again); a larger one is loaded lazily by its own."""

    __slots__ = ("pgresult", "rowcount", "_tx", "_pos", "_count", "_rows")

    def __init__(self, result: pq.abc.PGresult, tx: Transformer, path: "DirectPath | None" = None) -> None:
        self.pgresult = result
        self._rows: list[tuple] | None = None
        if result.status == _TUPLES_OK:
            self._count = result.ntuples
            self.rowcount = self._count
            tx.set_pgresult(result)
            if path is not None and self._count <= _EAGER_ROWS:
                try:
                    self._rows = tx.load_rows(0, self._count, tuple)
                except Exception:  # noqa: BLE001 - a value that does not load: raised at fetch, as psycopg does
                    pass
                else:
                    path.spare, tx = tx, None
        else:
            self._count = 0
            tuples = result.command_tuples
            self.rowcount = -1 if tuples is None else tuples
            if path is not None:
                path.spare, tx = tx, None
        self._tx = tx
        self._pos = 0

    def fetchone(self) -> tuple | None:
        pos = self._pos
        if pos >= self._count:
            return None
        self._pos = pos + 1
        if self._rows is not None:
            return self._rows[pos]
        return self._tx.load_row(pos, tuple)

    def fetchmany(self, size: int) -> list[tuple]:
        pos = self._pos
        end = min(pos + size, self._count)
        if end <= pos:
            return []
        self._pos = end
        if self._rows is not None:
            return self._rows[pos:end]
        return self._tx.load_rows(pos, end, tuple)

    def fetchall(self) -> list[tuple]:
        return self.fetchmany(self._count)

    def nextset(self) -> None:
        return None


class DirectPath:
    """One psycopg connection's direct statements and its prepared ones."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn
        self._queries: dict[str, bytes] = {}
        self._seen: dict[tuple, int | bytes] = {}  # (sql, types) -> executions so far, or the prepared name
        self._serial = 0
        self._formats: dict[int, list] = {}
        self.spare: Transformer | None = None  # one no result reads any more (see DirectResult)

    def _dump(self, sql: str, params: Sequence[Any]) -> tuple[bytes, Transformer, Any, Any, Any]:
        query = self._queries.get(sql)
        if query is None:
            query = self._queries[sql] = dollar_query(sql)
            if len(self._queries) > 4 * _MAX_PREPARED:
                self._queries.clear()
                self._queries[sql] = query
        tx = self.spare
        if tx is None:
            tx = Transformer(self.conn)
        else:
            self.spare = None
        if not params:
            return query, tx, None, None, None
        formats = self._formats.get(len(params))
        if formats is None:
            formats = self._formats[len(params)] = [PyFormat.AUTO] * len(params)
        values = tx.dump_sequence(params, formats)
        return query, tx, values, tx.types, tx.formats

    def execute(self, sql: str, params: Sequence[Any], prepare: bool = True) -> DirectResult:
        """Run one statement (blocking libpq call; the GIL is released while it waits).
        ``prepare=False``: never as a prepared statement (inside a transaction without a
        savepoint, where a plan gone stale under DDL would abort the transaction)."""
        query, tx, values, types, formats = self._dump(sql, params)
        pgconn = self.conn.pgconn
        if not prepare:
            result = pgconn.exec_params(query, values, types, formats)
            if result.status not in _OK:
                raise self._error(result)
            return DirectResult(result, tx, self)
        key = (sql, types)
        stage = self._stage(key)
        if type(stage) is bytes:
            result = pgconn.exec_prepared(stage, values, formats)
        elif stage:
            result = pgconn.exec_prepared(self._prepare(pgconn, query, types, key), values, formats)
        else:
            result = pgconn.exec_params(query, values, types, formats)
        if result.status not in _OK:
            raise self._error(result)
        return DirectResult(result, tx, self)

    def guarded(self, before: Sequence[Carried], sql: str, params: Sequence[Any], after: bytes) -> DirectResult:
        """The ``before`` commands, the statement and ``after`` in one pipeline (one
        round trip); the first failure raises, the statements after it did not run.
        The statement is prepared from its second run on, as :meth:`execute` does, the
        Parse travelling in the same pipeline (``before`` ends with the statement's
        savepoint, which undoes a failed one)."""
        parses: list[tuple[int, bytes, tuple]] = []
        sends, carried = self._ahead(before, parses)
        tx = self._send(sends, sql, params, True, parses)
        at = len(sends) - 1
        sends.append((_PARAMS, after, None, None, None))
        results = self._pipeline_results(sends, parses)
        self._check(results, carried)
        return DirectResult(results[at], tx, self)

    def batch(self, statements: Sequence[tuple[str, Sequence[Any]]],
              before: Sequence[Carried] = (), prepare: bool = False) -> list[DirectResult]:
        """The ``before`` commands and several statements in one pipeline, and each
        statement's result; the first failure raises and the statements after it did
        not run.  ``prepare``: each statement is prepared from its second run, as
        :meth:`guarded` does (for the shim's own statements, whose result columns
        never change under DDL)."""
        parses: list[tuple[int, bytes, tuple]] = []
        sends, carried = self._ahead(before, parses)
        loaders = []
        for sql, params in statements:
            tx = self._send(sends, sql, params, prepare, parses)
            loaders.append((len(sends) - 1, tx))
        results = self._pipeline_results(sends, parses)
        self._check(results, carried)
        return [DirectResult(results[i], tx, self) for i, tx in loaders]

    def _ahead(self, before: Sequence[Carried], parses: list[tuple[int, bytes, tuple]]) -> tuple[list, int]:
        """The sends of what goes ahead of the statements, and how many of them up to
        the last deferred write (a failure there is a :class:`CarriedFailure`)."""
        sends: list[tuple[int, Any, Any, Any, Any]] = []
        carried = 0
        for item in before:
            if type(item) is bytes:
                sends.append((_PARAMS, item, None, None, None))
            else:
                self._send(sends, item[0], item[1], True, parses)
                carried = len(sends)
        return sends, carried

    def _send(self, sends: list, sql: str, params: Sequence[Any], prepare: bool,
              parses: list[tuple[int, bytes, tuple]]) -> Transformer:
        """Append the statement's run to ``sends`` (last), preceded by its Parse when
        this run prepares it (noted in ``parses``); its loader."""
        query, tx, values, types, formats = self._dump(sql, params)
        key = (sql, types)
        stage = self._stage(key) if prepare else False
        if type(stage) is bytes:
            sends.append((_PREPARED, stage, values, formats, None))
        elif not stage:
            sends.append((_PARAMS, query, values, types, formats))
        else:
            name = self._new_name()
            parses.append((len(sends), name, key))
            sends.append((_PREPARE, name, query, types, None))
            sends.append((_PREPARED, name, values, formats, None))
        return tx

    def _pipeline_results(self, sends: list[tuple[int, Any, Any, Any, Any]],
                          parses: Sequence[tuple[int, bytes, tuple]] = ()) -> list[pq.abc.PGresult]:
        """``(how, ...)`` sent as one libpq pipeline: a statement with its parameters
        (``_PARAMS``: query, values, types, formats), a Parse (``_PREPARE``: name,
        query, types) or a prepared statement's run (``_PREPARED``: name, values,
        formats); one result each (PIPELINE_ABORTED after a failure), unchecked.
        ``parses``: (index in ``sends``, name, key) of the Parses, each name kept
        once its Parse succeeded (even if the statement itself failed)."""
        pgconn = self.conn.pgconn
        pgconn.enter_pipeline_mode()
        try:
            for how, a, b, c, d in sends:
                if how == _PARAMS:
                    pgconn.send_query_params(a, b, c, d)
                elif how == _PREPARED:
                    pgconn.send_query_prepared(a, b, c)
                else:
                    pgconn.send_prepare(a, b, c)
            pgconn.pipeline_sync()
            results = self._collect(pgconn, True)
        finally:
            pgconn.exit_pipeline_mode()
        for where, name, key in parses:
            if results[where].status == _COMMAND_OK:
                self._seen[key] = name
        return results

    def _check(self, results: list[pq.abc.PGresult], carried: int = 0) -> None:
        """Raise the first failure; :class:`CarriedFailure` when it is among the first
        ``carried`` results (a deferred write's)."""
        for at, result in enumerate(results):
            if result.status not in _OK:
                if at < carried:
                    raise CarriedFailure(self._error(result))
                raise self._error(result)

    def script(self, sql: bytes) -> list[pq.abc.PGresult]:
        """Several statements in one simple query (one round trip); the first failure raises."""
        pgconn = self.conn.pgconn
        pgconn.send_query(sql)
        results = self._collect(pgconn, False)
        self._check(results)
        return results

    def copy_in(self, sql: bytes, chunks: Sequence[bytes]) -> list[pq.abc.PGresult]:
        """A simple query holding one ``COPY … FROM STDIN`` (other statements may
        come before and after it), fed ``chunks`` of COPY data: two round trips, the
        COPY's start and then the data with the rest; the first failure raises."""
        pgconn = self.conn.pgconn
        pgconn.send_query(sql)
        results = self._collect(pgconn, False, until_copy=True)
        if results and results[-1].status == _COPY_IN:
            results.pop()
            stopped: BaseException | None = None
            try:
                for chunk in chunks:
                    while not pgconn.put_copy_data(chunk):  # 0: the send buffer is full
                        self._drain(pgconn)
            except BaseException as exc:  # e.g. KeyboardInterrupt: end the COPY, failed
                stopped = exc
            while not pgconn.put_copy_end(None if stopped is None else b"interrupted by the client"):
                self._drain(pgconn)
            results += self._collect(pgconn, False)
            if stopped is not None:
                raise stopped
        self._check(results)
        return results

    @staticmethod
    def _drain(pgconn: Any) -> None:
        while pgconn.flush():
            select.poll().poll(10)

    def rows(self, result: pq.abc.PGresult) -> list[tuple]:
        """Every row of a result of :meth:`script`, in psycopg's Python types."""
        if result.status != _TUPLES_OK:
            return []
        return DirectResult(result, Transformer(self.conn)).fetchall()

    def _collect(self, pgconn: Any, pipelined: bool, until_copy: bool = False) -> list[pq.abc.PGresult]:
        """Wait for the results of what was sent: a pipeline's up to its sync, or a
        simple query's up to its end (``until_copy``: or up to a COPY's start)."""
        waiter = select.poll()
        waiter.register(pgconn.socket, select.POLLIN)
        try:
            self._drain(pgconn)  # non-blocking connection: send what is left
            out: list[pq.abc.PGresult] = []
            while True:
                while pgconn.is_busy():
                    waiter.poll()
                    pgconn.consume_input()
                result = pgconn.get_result()
                if result is None:
                    if not pipelined:
                        break
                    continue  # the end of one pipelined statement's results
                if result.status == _PIPELINE_SYNC:
                    break
                out.append(result)
                if pgconn.status == _BAD:
                    raise self._error(result)
                if until_copy and result.status == _COPY_IN:
                    break
            return out
        except BaseException:
            if pgconn.status != _BAD:
                pgconn.get_cancel().cancel()  # e.g. KeyboardInterrupt: leave the connection usable
                while pgconn.get_result() is not None:
                    pass
            raise

    def _stage(self, key: tuple) -> bytes | bool:
        """Where the statement ``key`` stands: its prepared name; True when this run
        prepares it; False when it runs unnamed (this run is counted)."""
        seen = self._seen.get(key, 0)
        if type(seen) is bytes:
            return seen
        if seen + 1 < _PREPARE_AT:
            self._seen[key] = seen + 1
            return False
        return True

    def _new_name(self) -> bytes:
        if len(self._seen) >= _MAX_PREPARED:
            self.forget()
        self._serial += 1
        return b"hdb_%d" % self._serial

    def _prepare(self, pgconn: Any, query: bytes, types: Any, key: tuple) -> bytes:
        name = self._new_name()
        result = pgconn.prepare(name, query, types)
        if result.status not in _OK:
            raise self._error(result)
        self._seen[key] = name
        return name

    def forget(self) -> None:
        """Deallocate this path's prepared statements (the cache is bounded)."""
        names = [name for name in self._seen.values() if type(name) is bytes]
        self._seen.clear()
        if names:  # one round trip for all of them
            self.script(b"; ".join(b"DEALLOCATE " + name for name in names))

    def _error(self, result: pq.abc.PGresult) -> psycopg.Error:
        pgconn = self.conn.pgconn
        if pgconn.status == _BAD or result.status == pq.ExecStatus.FATAL_ERROR and not result.error_field(
            pq.DiagnosticField.SQLSTATE
        ):
            message = pgconn.error_message.decode("utf-8", "replace").strip() or "connection lost"
            return psycopg.OperationalError(message)
        return pg_exc.error_from_result(result, encoding=self.conn.info.encoding)
