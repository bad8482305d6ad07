"""Lost server connections (issue 5): reconnect outside a transaction, fail loudly inside one.

The rules (the lessons of hermes-agent #88889, review "Blocker 4"):

* **Outside a transaction** a lost connection is replaced on the next call.
  Before a call that starts outside a transaction, the backend polls the
  driver socket (no round trip): an idle connection never has anything to
  read, so a readable socket means the server hung up (session killed, server
  restarted).  The call then runs on a fresh connection with the same
  namespace, session settings, busy timeout and read-only mode, and the
  statement is sent exactly once.  A connection that dies *during* a statement
  outside a transaction raises (the statement may or may not have run) and the
  next call reconnects.  Reconnecting waits up to the busy timeout for a
  restarting server, as SQLite's busy handler waits for a lock.
* **Inside a transaction** nothing is ever replayed: the server has rolled the
  transaction back, so the call raises ``OperationalError`` (SQLITE_IOERR)
  saying so, and the connection is usable again with ``in_transaction`` False.
* **During COMMIT** the outcome is unknown: the error says so and is never
  reported as success.  A lost ROLLBACK is a rollback.

Every error raised here carries ``hermes_connection_lost = True`` (and
``hermes_outcome_unknown`` for COMMIT and statements outside a transaction).
The backends implement four small driver hooks; the policy lives here.
"""

from __future__ import annotations

import random
import select
import time
from typing import Any

from .._stdlib import sqlite3
from ..errors import make

LOST_IN_TRANSACTION = (
    "disk I/O error: the connection to the server was lost inside a transaction; "
    "the server rolled the transaction back and no statement was replayed"
)
COMMIT_UNKNOWN = (
    "disk I/O error: the connection to the server was lost during COMMIT; "
    "the transaction outcome is UNKNOWN (it may or may not have been committed); NOT retrying"
)
LOST_STATEMENT = (
    "disk I/O error: the connection to the server was lost during the statement (outside a transaction); "
    "whether it took effect is unknown; the next call reconnects"
)
CANNOT_RECONNECT = "unable to open database file: the connection to the server was lost and reconnecting failed"


class _Lost:
    """Stands in for the socket poller once the connection is known dead."""

    @staticmethod
    def poll(timeout: int = 0) -> list:
        return [(-1, 0)]


LOST = _Lost()


def _error(message: str, code: str, detail: str, *, unknown: bool = False) -> sqlite3.Error:
    err = make(sqlite3.OperationalError, f"{message} ({detail})" if detail else message, code)
    err.hermes_connection_lost = True
    err.hermes_outcome_unknown = unknown
    return err


def is_lost(exc: BaseException) -> bool:
    """True for the sqlite3 errors this module raises."""
    return bool(getattr(exc, "hermes_connection_lost", False))


class Reconnecting:
    """Mixin for backends: the fault policy.  The backend provides the hooks
    ``_driver_fd``, ``_driver_is_lost``, ``_driver_reopen``, ``_driver_forget``
    and ``_driver_ping``, plus ``busy_timeout`` and ``in_transaction``."""

    _probe: Any = LOST
    reconnects = 0  # how many times this backend got a fresh connection
    lost_transactions = 0  # transactions that died with their connection (Transactions watches it)
    lock_strategy = "advisory"  # URL option lock=advisory|table (backends/locks.py)

    # -- hooks (driver specific) --------------------------------------------

    def _driver_fd(self) -> int:
        raise NotImplementedError

    def _driver_is_lost(self, exc: BaseException) -> bool:
        raise NotImplementedError

    def _driver_reopen(self) -> None:
        """Replace the driver connection by a fresh one with the same settings."""
        raise NotImplementedError

    def _driver_forget(self) -> None:
        """Drop the dead driver connection; ``in_transaction`` must read False."""
        raise NotImplementedError

    def _driver_ping(self) -> None:
        raise NotImplementedError

    # -- policy ---------------------------------------------------------------

    def _arm_probe(self) -> None:
        poller = select.poll()
        poller.register(self._driver_fd(), select.POLLIN | select.POLLPRI)
        self._probe = poller

    def _ensure_live(self) -> None:
        """Before a call that starts outside a transaction: reconnect if the
        server hung up meanwhile (one poll syscall, no round trip)."""
        if self._probe.poll(0):
            self._revive()

    def _revive(self) -> None:
        if self._probe is not LOST:
            # something to read on an idle connection: the server's goodbye
            # (or, rarely, a notice); one round trip tells which
            try:
                self._driver_ping()
                self._arm_probe()
                return
            except Exception as exc:
                if not self._driver_is_lost(exc):
                    raise
                self._driver_forget()
                self._probe = LOST
        self._reconnect()

    def _reconnect(self) -> None:
        """A fresh connection, waiting up to the busy timeout for the server."""
        deadline = time.monotonic() + max(float(getattr(self, "busy_timeout", 0.0)), 0.0)
        delay = 0.02
        while True:
            try:
                self._driver_reopen()
            except Exception as exc:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    detail = " ".join(str(exc).split())[:300]
                    raise _error(CANNOT_RECONNECT, "SQLITE_CANTOPEN", detail) from None
                time.sleep(min(delay * random.uniform(0.5, 1.0), remaining))
                delay = min(delay * 2, 0.5)
                continue
            self.reconnects += 1
            self._arm_probe()
            return

    def _lost(self, exc: BaseException, in_transaction: bool, verb: str = "") -> sqlite3.Error:
        """The connection died under a call: forget it (the next call
        reconnects) and return the error that call raises."""
        self._driver_forget()
        self._probe = LOST
        detail = " ".join(str(exc).split())[:300]
        verb = verb.split(None, 1)[0].upper() if verb else ""
        if verb == "COMMIT":
            self.lost_transactions += 1
            return _error(COMMIT_UNKNOWN, "SQLITE_IOERR", detail, unknown=True)
        if in_transaction or verb in ("ROLLBACK", "SAVEPOINT", "RELEASE"):
            self.lost_transactions += 1
            return _error(LOST_IN_TRANSACTION, "SQLITE_IOERR", detail)
        return _error(LOST_STATEMENT, "SQLITE_IOERR", detail, unknown=True)

    def _lost_before_start(self, exc: BaseException) -> bool:
        """BEGIN (or a lock request before it) failed on a dead connection:
        nothing had started, so the caller may begin again.  True when it
        should (the connection has been replaced); False if not a loss."""
        if not self._driver_is_lost(exc):
            return False
        self._driver_forget()
        self._probe = LOST
        self._reconnect()
        return True


# -- the driver hooks ----------------------------------------------------------


class _DeadPgConnection:
    """Stands in for a lost psycopg connection until the next call replaces it:
    no transaction, and any use fails (the callers probe first)."""

    closed = True
    broken = True

    def __init__(self) -> None:
        from types import SimpleNamespace

        from psycopg import pq

        idle = pq.TransactionStatus.IDLE
        self.info = SimpleNamespace(transaction_status=idle, backend_pid=0, encoding="utf-8")
        self.pgconn = SimpleNamespace(transaction_status=int(idle), socket=-1)

    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        return _DeadPgCursor()  # rebound by the reconnect (PgFaults._driver_reopen)

    def close(self) -> None:
        pass


class _DeadPgCursor:
    connection = None

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        import psycopg

        raise psycopg.OperationalError("the connection is lost")

    executemany = execute

    def close(self) -> None:
        pass


_PG_LOST_STATES = ("57P01", "57P02", "57P03")


class PgFaults(Reconnecting):
    """psycopg 3: a new connection object on reconnect; live cursors are rebound."""

    def _faults_init(self, target: Any) -> None:
        import weakref

        self._target = target
        self.lock_strategy = target.url.option("lock") or "advisory"
        self._cursors: Any = weakref.WeakSet()  # PgCursors to rebind after a reconnect
        self._arm_probe()

    def _driver_fd(self) -> int:
        return self.conn.pgconn.socket

    def _driver_is_lost(self, exc: BaseException) -> bool:
        import psycopg

        if not isinstance(exc, psycopg.OperationalError):
            return False
        sqlstate = getattr(exc, "sqlstate", None) or ""
        if self.conn.closed or self.conn.broken or self.conn.pgconn.status == psycopg.pq.ConnStatus.BAD:
            return True  # the last: lost under libpq directly (backends/pg_direct.py)
        return sqlstate.startswith("08") or sqlstate in _PG_LOST_STATES

    def _driver_reopen(self) -> None:
        fresh = type(self).open(self._target, self.namespace, timeout=self.busy_timeout)
        self.conn, self._meta = fresh.conn, fresh._meta
        self._pending = []  # lazy savepoints of the lost transaction
        for cursor in list(self._cursors):
            cursor.raw = self.conn.cursor()

    def _driver_forget(self) -> None:
        self._pending = []
        try:
            self.conn.close()
        except Exception:
            pass
        self.conn = _DeadPgConnection()

    def _driver_ping(self) -> None:
        self._meta.execute("SELECT 1")


# MySQL/MariaDB client errors of a dead connection: gone away, lost during a
# query, server shutdown, killed, lost (MySQL 8: disconnected for inactivity)
_MY_LOST_ERRNOS = {0, 2006, 2013, 2055, 1053, 1927, 4031}


class MyFaults(Reconnecting):
    """PyMySQL: the connection object reconnects in place, so cursors stay valid."""

    def _faults_init(self, target: Any) -> None:
        self._target = target
        self.lock_strategy = target.url.option("lock") or "advisory"
        self.session_settings: dict[str, Any] = {}  # SET SESSION name = value, replayed on reconnect
        self._arm_probe()

    def _driver_fd(self) -> int:
        return self.conn._sock.fileno()

    def _driver_is_lost(self, exc: BaseException) -> bool:
        import pymysql

        if not isinstance(exc, (pymysql.err.OperationalError, pymysql.err.InterfaceError)):
            return False
        errno = exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0
        return not self.conn.open or errno in _MY_LOST_ERRNOS

    def _driver_reopen(self) -> None:
        conn = self.conn
        conn.connect()  # PyMySQL redoes the handshake: charset, sql_mode, autocommit, init_command
        self._holding_lock = False
        cur = self._meta
        cur.execute(f"USE `{self.namespace}`")
        cur.execute(f"SET collation_connection = {self.collation}")  # init_command says only NAMES utf8mb4
        if self.read_only:
            cur.execute("SET SESSION TRANSACTION READ ONLY")
        cur.execute(f"SET SESSION innodb_lock_wait_timeout = {max(1, round(self.busy_timeout))}")
        for name, value in self.session_settings.items():
            cur.execute(f"SET SESSION {name} = {value}")

    def _driver_forget(self) -> None:
        conn = self.conn
        try:
            conn._force_close()
        except Exception:
            pass
        conn.server_status = 0  # the last OK packet's "in transaction" bit no longer holds
        self._holding_lock = False  # GET_LOCK locks die with the session
        self._pending = []  # lazy savepoint commands of the lost transaction

    def _driver_ping(self) -> None:
        self.conn.ping(reconnect=False)
