"""``Connection.set_trace_callback``: the statements a connection runs, as sqlite3 reports them.

sqlite3 hands the callback each statement when SQLite runs it, with its
parameters written in as SQL literals (``sqlite3_expanded_sql``), and the
statements the module runs itself: the implicit ``BEGIN``, ``COMMIT`` and
``ROLLBACK`` of commit()/rollback().  A statement that fails to prepare (a
syntax error, a missing table) or to bind never runs and is not reported; one
that fails while running (a constraint) is.  The statements SQLite runs inside
triggers and FTS5 tables are its own internals (``-- TRIGGER …``), which the
servers do not have: those are not reported.

Off the hot path: the cursor calls here only while a callback is set.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterable

from . import binding, errors, statements
from ._stdlib import LEGACY, sqlite3
from .fts.sqlvalues import real_to_text
from .translate import params


def emit(conn: Any, text: str) -> None:
    """Hand ``text`` to the connection's callback; what it raises is ignored, as sqlite3 does."""
    callback: Callable[[str], Any] | None = conn._trace
    if callback is None:
        return
    try:
        callback(text)
    except Exception:
        pass


def literal(value: Any) -> str:
    """A bound value as SQLite writes it into the expanded statement."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return "NULL" if value != value else real_to_text(value)  # SQLite binds NaN as NULL
    if isinstance(value, str):
        return "'" + value.split("\x00", 1)[0].replace("'", "''") + "'"  # a C string: up to a NUL
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "x'" + bytes(value).hex() + "'"
    return "'" + str(value).replace("'", "''") + "'"


def expanded(conn: Any, sql: str, parameters: Any) -> str:
    """``sql`` with each parameter replaced by the literal of the value bound to it."""
    found = params.scan(sql)
    if not found.count:
        return sql
    try:
        with warnings.catch_warnings():  # the statement's own binding already warned
            warnings.simplefilter("ignore", DeprecationWarning)
            values = binding.bind_scanned(conn, sql, found, parameters)
    except Exception:  # parameters that bound once but not twice (a one-shot sequence): as written
        return sql
    pieces, last = [], 0
    for start, end, index in found.spans:
        pieces.append(sql[last:start])
        pieces.append(literal(values[index - 1]))
        last = end
    pieces.append(sql[last:])
    return "".join(pieces)


def _ran(exc: BaseException) -> bool:
    """Did the failing statement run (and so get reported)?  Not when it failed to bind or prepare."""
    return isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.ProgrammingError) \
        and not errors.compile_time(exc)


def _report(conn: Any, sql: str, parameters: Any, was_in_transaction: bool) -> None:
    if conn._autocommit is LEGACY and not was_in_transaction and conn._backend.in_transaction \
            and statements.leading_keyword(sql) not in ("BEGIN", "SAVEPOINT"):
        emit(conn, "BEGIN " + (conn._isolation_level or ""))  # sqlite3's implicit BEGIN, as it writes it
    emit(conn, expanded(conn, sql, parameters))


def reported(conn: Any, sql: str, parameters: Any, run: Callable[[], Any]) -> None:
    """``run()`` the statement; report it once it ran, even if it then failed."""
    was = conn._backend.in_transaction
    try:
        run()
    except BaseException as exc:
        if _ran(exc):
            _report(conn, sql, parameters, was)
        raise
    _report(conn, sql, parameters, was)


def execute(conn: Any, cursor: Any, sql: str, parameters: Any) -> None:
    """``cursor.execute``, reported."""
    reported(conn, sql, parameters, lambda: conn._execute_on(cursor, sql, parameters))


def executemany(conn: Any, cursor: Any, sql: str, seq_of_parameters: Iterable[Any]) -> None:
    """``cursor.executemany`` item by item, each reported once it ran (sqlite3 steps
    the statement once per item); rowcount sums the items', lastrowid stays."""
    if not hasattr(seq_of_parameters, "__iter__"):
        conn._executemany_on(cursor, sql, seq_of_parameters)  # sqlite3's own refusal
        return
    total, ran = 0, False
    for item in seq_of_parameters:
        reported(conn, sql, item, lambda item=item: conn._executemany_on(cursor, sql, [item]))
        total += max(cursor.rowcount, 0)
        ran = True
    if not ran:
        conn._executemany_on(cursor, sql, [])
        return
    cursor._set_result(None, total if cursor.rowcount >= 0 else -1, cursor.lastrowid)
