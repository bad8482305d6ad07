"""The small interface every server backend implements.

A backend owns one driver connection inside one namespace and knows how to run
already-translated SQL on it: statement atomicity, transaction verbs, the
transaction state, and how its native errors become sqlite3 exceptions.  It
knows nothing about SQLite syntax; that is :mod:`hermes_dbapi.translate`'s job.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, Iterable, Sequence

from .._stdlib import sqlite3
from ..url import Target

# a class-tagged value's letter → its Python type (translate/passes/mixed_types.py)
_UNTAG = {"i": int, "r": float, "t": str}


class RawCursor(ABC):
    """What a backend hands the API layer: rows in sqlite3's Python types.

    Rows come from the driver cursor, or from a local buffer when the shim
    computed the result itself (PRAGMAs, catalog queries)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.rowcount = -1
        self.names: tuple[str, ...] | None = None  # result column names; None: no result set
        self.lastrowid: int | None = None  # rowid of the last row inserted by the statement
        self.max_rowid: int | None = None  # highest rowid it inserted (PostgreSQL identity upkeep)
        self.min_rowid: int | None = None  # lowest (the sequence's value before it, on a rollback)
        self.inserted: int | None = None  # rows it inserted, when known (PostgreSQL RETURNING)
        self._buffered: list[tuple] | None = None
        self._check: Any = None  # buffered rows: raises, before the row is consumed, as sqlite3 would
        self.json_typed: tuple[int, ...] = ()  # columns to decode (translate/passes/json.py), set by the caller
        self.tagged: tuple[int, ...] = ()  # columns of class-tagged values (translate/passes/mixed_types.py)

    def _typed(self, row: tuple | None) -> tuple | None:
        """Result columns carrying a JSON1 SQL value as JSON text, or a value tagged
        with its storage class: back to int/float/str."""
        if row is None:
            return row
        values = list(row)
        for index in self.json_typed:
            if index < len(values) and type(values[index]) is str:
                values[index] = json.loads(values[index])
        for index in self.tagged:
            value = values[index] if index < len(values) else None
            if type(value) is str and value:
                values[index] = _UNTAG[value[0]](value[1:])
        return tuple(values)

    def load(self, names: tuple[str, ...] | None, rows: list[tuple], check: Any = None) -> None:
        """Serve ``rows`` as this cursor's result.

        ``check(row)``, when given, runs as each row is fetched and may raise;
        the row then stays unfetched (sqlite3 raises again on the next fetch)."""
        self.reset()
        self.names = names
        self._buffered = list(rows)
        self._buffered.reverse()
        self._check = check

    def _take(self, count: int) -> list[tuple]:
        buffered = self._buffered
        assert buffered is not None
        count = min(count, len(buffered))
        if self._check is None:
            out = [buffered.pop() for _ in range(count)]
        else:
            out = []
            for _ in range(count):
                self._check(buffered[-1])
                out.append(buffered.pop())
        return [self._typed(row) for row in out] if self.json_typed or self.tagged else out  # type: ignore[misc]

    def fetchone(self) -> tuple | None:
        if self.names is None:
            return None
        if self._buffered is not None:
            got = self._take(1)
            return got[0] if got else None
        return self._typed(self._fetchone()) if self.json_typed or self.tagged else self._fetchone()

    def fetchmany(self, size: int) -> list[tuple]:
        if self.names is None:
            return []
        if self._buffered is not None:
            return self._take(size)
        if self.json_typed or self.tagged:
            return [self._typed(row) for row in self._fetchmany(size)]  # type: ignore[misc]
        return self._fetchmany(size)

    def fetchall(self) -> list[tuple]:
        if self.names is None:
            return []
        if self._buffered is not None:
            if self._check is not None or self.json_typed or self.tagged:
                return self._take(len(self._buffered))
            rows, self._buffered = self._buffered[::-1], []
            return rows
        if self.json_typed or self.tagged:
            return [self._typed(row) for row in self._fetchall()]  # type: ignore[misc]
        return self._fetchall()

    @abstractmethod
    def _fetchone(self) -> tuple | None: ...

    @abstractmethod
    def _fetchmany(self, size: int) -> list[tuple]: ...

    @abstractmethod
    def _fetchall(self) -> list[tuple]: ...

    @abstractmethod
    def close(self) -> None: ...


class Backend(ABC):
    """One server connection, bound to one namespace."""

    kind: str  # "postgres" | "mysql"
    busy_timeout: float  # seconds a write lock is waited for
    dialect: str  # translation table key: "postgres" | "mysql" | "mariadb"
    server_version: tuple[int, ...]
    namespace: str
    helpers_current: bool = False  # this version's server-side helpers are in the namespace (translate.helpers)

    @classmethod
    @abstractmethod
    def open(cls, target: Target, namespace: str, *, timeout: float) -> "Backend": ...

    @abstractmethod
    def cursor(self) -> RawCursor: ...

    @abstractmethod
    def execute(
        self, cursor: RawCursor, sql: str, params: Sequence[Any], *, returning_rowid: bool = False, table: str = ""
    ) -> None:
        """Run one statement atomically: on failure nothing it did remains and an
        open transaction stays usable, as in SQLite.  Raises sqlite3 errors."""

    @abstractmethod
    def executemany(
        self,
        cursor: RawCursor,
        sql: str,
        seq: Iterable[Sequence[Any]],
        *,
        table: str = "",
        returning_rowid: bool = False,
        profile: Any = None,
    ) -> None:
        """Run every item or none.  ``profile`` (a :class:`hermes_dbapi.batch.Profile`),
        when given, says ``seq`` is a list of plain tuples with those value kinds."""

    def schema_changed(self) -> None:
        """The catalog epoch moved: forget what was cached about tables."""

    @abstractmethod
    def begin(self, mode: str) -> None:
        """Start a transaction; ``mode`` is DEFERRED, IMMEDIATE or EXCLUSIVE."""

    def begin_and_query(self, mode: str, sql: str) -> list[tuple]:
        """:meth:`begin`, then :meth:`query` of ``sql`` inside the new transaction
        (a backend may send both in one round trip)."""
        self.begin(mode)
        return self.query(sql)

    @abstractmethod
    def commit(self) -> None: ...

    @abstractmethod
    def rollback(self) -> None: ...

    @abstractmethod
    def savepoint(self, verb: str, name: str, *, lazy: bool = False) -> None:
        """``verb`` is SAVEPOINT, RELEASE or ROLLBACK TO; ``name`` is already quoted.
        ``lazy``: may travel with the next statement instead (a backend that pipelines)."""

    def flush(self) -> None:
        """Send what :meth:`savepoint` deferred (before using the driver connection directly)."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool: ...

    @abstractmethod
    def set_busy_timeout(self, seconds: float) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Run shim-internal SQL (driver syntax) and return all rows."""

    def write_all(self, statements: Sequence[tuple[str, Sequence[Any]]], prepare: bool = False,
                  defer: bool = False) -> None:
        """Run shim-internal writes in order, stopping at the first error (PostgreSQL:
        one round trip for all of them; ``prepare``: fixed statement texts, prepared
        from their second run; ``defer``: writes that no data can make fail (upserts
        keyed by a rowid), which may go with the next statement)."""
        for sql, params in statements:
            self.query(sql, params)

    def temp_ddl(self, statements: Sequence[str]) -> None:
        """DDL of the shim's own temporary tables (a search's hits).  A read-only
        connection runs it outside its read-only rule where the server allows that
        (outside a transaction): both servers refuse a temporary table's DDL in a
        read-only transaction though not its rows, and a temporary table is no part
        of the database (SQLite searches FTS5 tables on a read-only connection)."""
        self.write_all([(sql, ()) for sql in statements])

    def query_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple]]:
        """Run shim-internal reads in order; each one's rows (PostgreSQL: one round trip)."""
        return [self.query(sql, params) for sql, params in statements]

    def advance_identity(self, table: str, column: str, value: int | None = None) -> None:
        """Make the next automatic id of ``table`` larger than ``value`` (None: than
        the column's highest value), if needed."""

    def vacuum(self) -> None:
        """SQLite's ``VACUUM`` outside a transaction: have the server tidy the
        namespace's tables now rather than when it gets round to it; nothing here."""

    def returns_inserted(self, driver_sql: str) -> bool:
        """Whether ``driver_sql`` (a one-row INSERT) may take ``RETURNING`` to give its row
        back in the same round trip (issue 8: the trigger engine's INSERT)."""
        return False

    def statement_done(self, lastrowid: int | None) -> None:
        """A statement and its triggers ran, their savepoint still open: settle what
        this backend deferred, so a failure is still undone with that statement, and
        make ``lastrowid`` the connection's last insert id (triggers' inserts moved it)."""

    @abstractmethod
    def has_table(self, name: str) -> bool:
        """Whether the namespace has a table of that name (never fails a transaction)."""

    @abstractmethod
    def drop_namespace(self) -> None: ...


def unreachable(target: Target, reason: str) -> sqlite3.OperationalError:
    err = sqlite3.OperationalError(f"unable to open database {target.url.masked()}: {reason}")
    err.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN
    err.sqlite_errorname = "SQLITE_CANTOPEN"
    return err
