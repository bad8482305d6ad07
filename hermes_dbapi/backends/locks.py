"""``lock=table``: the namespace's write lock as a locked row (issue 5).

The default strategy (``lock=advisory``) takes PostgreSQL's
``pg_advisory_xact_lock`` or MySQL's ``GET_LOCK``.  Targets without usable
advisory locks (PgBouncer in transaction mode, where session state does not
stick; CockroachDB, which has none) get ``lock=table`` instead: one row of a
``hermes_locks`` table in the namespace, created once with ``INSERT … ON
CONFLICT DO NOTHING`` (MySQL: ``INSERT IGNORE``), and ``BEGIN IMMEDIATE``
becomes ``BEGIN`` + ``SELECT … FOR UPDATE`` of that row, waiting up to the
busy timeout (``NOWAIT`` when it is 0).  The row lock is the transaction's, so
COMMIT, ROLLBACK, a closed connection or a dead process release it.  The
table is an internal one (``hermes_`` prefix): the shadow catalog never
shows it.
"""

from __future__ import annotations

import math
from typing import Any

TABLE = "hermes_locks"
ROW = "write"
_SELECT = f"SELECT name FROM {TABLE} WHERE name = %s FOR UPDATE"

# MySQL/MariaDB errors that mean "the lock row stayed taken": lock wait timeout,
# NOWAIT (MySQL 8), max_statement_time (MariaDB), MAX_EXECUTION_TIME (MySQL)
_MY_TIMEOUTS = {1205, 3572, 1969, 3024}


def pg_begin_locked(backend: Any) -> None:
    """``BEGIN`` and lock the row, in one round trip (psycopg errors propagate:
    the caller rolls back and maps 55P03 to ``database is locked``)."""
    if not getattr(backend, "_lock_row_ready", False):
        _pg_prepare(backend)
    milliseconds = int(backend.busy_timeout * 1000)
    if milliseconds <= 0:
        backend._meta.execute("BEGIN; " + _SELECT + " NOWAIT", (ROW,))
    else:
        # SET LOCAL: the timeout lives in the transaction (PgBouncer transaction mode)
        backend._meta.execute(f"BEGIN; SET LOCAL lock_timeout = {milliseconds}; " + _SELECT, (ROW,))


def _pg_prepare(backend: Any) -> None:
    import psycopg

    try:
        backend._meta.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (name TEXT PRIMARY KEY)")
    except (psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
        pass  # another process created it at the same moment
    backend._meta.execute(f"INSERT INTO {TABLE} (name) VALUES (%s) ON CONFLICT DO NOTHING", (ROW,))
    backend._lock_row_ready = True


def my_begin_locked(backend: Any) -> None:
    """``START TRANSACTION`` and lock the row; raises sqlite3 errors."""
    import pymysql

    from ..errors import locked

    if not getattr(backend, "_lock_row_ready", False):
        try:
            _my_prepare(backend)
        except pymysql.Error as exc:
            raise backend._translate(exc, "") from None
    backend._run_control("START TRANSACTION")
    seconds = backend.busy_timeout
    if seconds <= 0:
        sql = _SELECT + " NOWAIT"
    elif backend.is_mariadb:  # sub-second waits: max_statement_time is a double (seconds)
        sql = (
            f"SET STATEMENT max_statement_time = {seconds:.3f}, innodb_lock_wait_timeout = {math.ceil(seconds) + 1} "
            "FOR " + _SELECT
        )
    else:
        sql = _SELECT.replace(
            "SELECT ", f"SELECT /*+ MAX_EXECUTION_TIME({max(1, int(seconds * 1000))}) "
            f"SET_VAR(innodb_lock_wait_timeout={math.ceil(seconds) + 1}) */ ", 1
        )
    try:
        backend._meta.execute(sql, (ROW,))
    except pymysql.Error as exc:
        errno = exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0
        error = backend._translate(exc, "")
        if backend.in_transaction:
            try:
                backend._meta.execute("ROLLBACK")
            except pymysql.Error:
                pass
        raise (locked() if errno in _MY_TIMEOUTS else error) from None


def _my_prepare(backend: Any) -> None:
    cur = backend._meta
    cur.execute(
        backend._ddl(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (name VARCHAR(64) PRIMARY KEY) "
            "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"
        )
    )
    cur.execute(f"SELECT name FROM {TABLE} WHERE name = %s", (ROW,))  # a plain read never waits
    if not cur.fetchall():  # INSERT IGNORE of an existing row would wait for its holder
        cur.execute(f"INSERT IGNORE INTO {TABLE} (name) VALUES (%s)", (ROW,))
    backend._lock_row_ready = True
