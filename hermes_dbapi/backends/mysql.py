"""MySQL and MariaDB through PyMySQL.

The session is set up to behave like SQLite where a setting can do it: utf8mb4
with a NO PAD binary collation (byte-wise, case-sensitive comparisons, see
my_collation.py), strict mode (no
silent truncation), ``NO_AUTO_VALUE_ON_ZERO`` (an explicit 0 id is stored, not
replaced), UTC, and ``CLIENT.FOUND_ROWS`` so ``rowcount`` counts matched rows.
MySQL already undoes only the failed statement, so no savepoints are needed.
``CLIENT.MULTI_STATEMENTS`` lets the shim's own statements that go together
(the write lock and ``START TRANSACTION``, ``COMMIT`` and the lock's release,
an FTS5 row's index writes) travel in one round trip (issue 8); what the
application runs is one translated statement per call, as before.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Iterable, Sequence

import pymysql
from pymysql.constants import CLIENT, FIELD_TYPE, SERVER_STATUS
from pymysql.converters import conversions, escape_string
from pymysql.cursors import RE_INSERT_VALUES

from ..errors import mysql as my_errors
from ..url import Target
from .base import Backend, RawCursor, unreachable
from . import faults, locks  # issue 5: lost connections, lock=table (backends/faults.py, locks.py)
from . import my_result, packet  # issue 8: remembered column descriptions; issue 9: max_allowed_packet
from .my_collation import LEGACY, for_namespace, text_collation
from .._stdlib import sqlite3


def _numeric(text: str) -> int | float:
    if "." in text or "e" in text or "E" in text:
        return float(text)
    return int(text)


def _as_text(value: Any) -> str:
    return value.decode() if isinstance(value, (bytes, bytearray)) else str(value)


def _bit(value: bytes) -> int:
    return int.from_bytes(value, "big")


_CONVERSIONS = dict(conversions)
_CONVERSIONS.update(
    {
        FIELD_TYPE.DECIMAL: _numeric,
        FIELD_TYPE.NEWDECIMAL: _numeric,
        FIELD_TYPE.DATE: _as_text,
        FIELD_TYPE.DATETIME: _as_text,
        FIELD_TYPE.TIMESTAMP: _as_text,
        FIELD_TYPE.TIME: _as_text,
        FIELD_TYPE.YEAR: int,
        FIELD_TYPE.JSON: _as_text,
        FIELD_TYPE.BIT: _bit,
    }
)

_SQL_MODE = "STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION,ERROR_FOR_DIVISION_BY_ZERO"


_IN_TRANS = SERVER_STATUS.SERVER_STATUS_IN_TRANS
_ONLY_INT = frozenset({int})
_ONLY_STR = frozenset({str})


def _unencodable(rows: Iterable[Sequence[Any] | dict], exc: UnicodeEncodeError) -> UnicodeEncodeError:
    """sqlite3's error for a str UTF-8 cannot encode: the first such value's own,
    its position inside the value (PyMySQL's, raised before anything is sent,
    counts in the whole statement's text)."""
    for params in rows:
        for value in params.values() if isinstance(params, dict) else params:
            if type(value) is str:
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError as own:
                    return own
    return exc


def _signed(insert_id: int) -> int:
    """The OK packet carries ids unsigned; SQLite's rowids are signed 64-bit."""
    return insert_id - 2**64 if insert_id >= 2**63 else insert_id



# REPLACE and INSERT … ON DUPLICATE KEY UPDATE count a replaced/updated row twice
# (delete + insert, or CLIENT_FOUND_ROWS' "2 = updated"); SQLite counts each row once.
_REPLACING = re.compile(r"^\s*(?:WITH\b.*?\)\s*)?REPLACE\b|\bON DUPLICATE KEY UPDATE\b", re.IGNORECASE | re.DOTALL)
_RECORDS = re.compile(rb"Records: (\d+)")


# translate/passes/conflicts.py: a no-op ON DUPLICATE KEY UPDATE (OR IGNORE, DO NOTHING,
# an upsert's false WHERE) counts its rows here; CLIENT_FOUND_ROWS counted them as affected
_SKIPPED = "@hermes_skipped"


def _rows_written(raw: pymysql.cursors.Cursor) -> int:
    """Rows the statement inserted or updated, each once: the OK packet's "Records: n"
    of a multi-row statement, else (one row) 1."""
    result = getattr(raw, "_result", None)
    match = _RECORDS.search(getattr(result, "message", b"") or b"")
    return int(match.group(1)) if match else min(raw.rowcount, 1)

_DUPLICATES = re.compile(rb"Records: (\d+)\s+Duplicates: (\d+)")


def _rows_inserted(raw: pymysql.cursors.Cursor) -> int | None:
    """Rows a multi-row ``VALUES … ON DUPLICATE KEY UPDATE`` inserted (records less
    duplicates), 1 for a one-row statement that made an id; None when unknown."""
    result = getattr(raw, "_result", None)
    match = _DUPLICATES.search(getattr(result, "message", b"") or b"")
    if match is None:
        return 1 if raw.rowcount <= 2 else None
    records, duplicates = int(match.group(1)), int(match.group(2))
    return records - duplicates if duplicates else None  # INSERT … SELECT reports no duplicates


_UPSERT = re.compile(r"\bON DUPLICATE KEY UPDATE\b", re.IGNORECASE)


def _updated_only(raw: pymysql.cursors.Cursor, sql: str) -> bool:
    """An upsert that updated rows and inserted none: the OK packet names an updated
    row's id, where SQLite's lastrowid stays (an update is no insert)."""
    if not _UPSERT.search(sql):
        return False
    result = getattr(raw, "_result", None)
    match = _DUPLICATES.search(getattr(result, "message", b"") or b"")
    if match is not None:
        return int(match.group(2)) == int(match.group(1)) > 0
    return raw.rowcount == 2  # one row: 2 is "updated" (CLIENT_FOUND_ROWS), 1 "inserted" or "unchanged"


class MyCursor(RawCursor):
    def __init__(self, raw: pymysql.cursors.Cursor) -> None:
        super().__init__()
        self.raw = raw

    def _fetchone(self) -> tuple | None:
        return self.raw.fetchone()

    def _fetchmany(self, size: int) -> list[tuple]:
        return list(self.raw.fetchmany(size))

    def _fetchall(self) -> list[tuple]:
        return list(self.raw.fetchall())

    def close(self) -> None:
        self.raw.close()


class MySQLBackend(faults.MyFaults, Backend):
    kind = "mysql"

    def __init__(self, conn: pymysql.connections.Connection, namespace: str, read_only: bool) -> None:
        self.conn = conn
        self.namespace = namespace
        self.read_only = read_only
        info = conn.get_server_info()
        self.is_mariadb = "mariadb" in info.lower()
        self.dialect = "mariadb" if self.is_mariadb else "mysql"
        # MariaDB may announce itself as "5.5.5-10.11.6-MariaDB" for old clients
        numbers = re.match(r"(?:5\.5\.5-)?(\d+)\.(\d+)\.(\d+)", info)
        self.server_version = tuple(int(n) for n in numbers.groups()) if numbers else (0,)
        self._insert_returning = self.is_mariadb and self.server_version >= (10, 5)  # INSERT … RETURNING
        self._meta = conn.cursor()
        self._lock_name = "hermes:" + hashlib.sha1(namespace.encode()).hexdigest()  # the write lock
        self._holding_lock = False
        self.busy_timeout = 5.0
        self._max_packet = 0  # the server's max_allowed_packet, read when first needed
        self._pending: list[str] = []  # lazy savepoints and deferred writes, sent with the next statement (issue 8)
        self.collation = text_collation(self.is_mariadb, self.server_version)  # see my_collation.py

    @classmethod
    def open(cls, target: Target, namespace: str, *, timeout: float) -> "MySQLBackend":
        url = target.url
        options = url.driver_options
        ssl = {key[4:]: value for key, value in options.items() if key.startswith("ssl_")}
        kwargs: dict[str, Any] = {
            "host": url.host or "localhost",
            "port": url.port or 3306,
            "user": url.user or "root",
            "password": url.password or "",
            "charset": "utf8mb4",
            "autocommit": True,
            "client_flag": CLIENT.FOUND_ROWS | CLIENT.MULTI_STATEMENTS,
            "conv": _CONVERSIONS,
            "connect_timeout": 10,
            "sql_mode": _SQL_MODE,
            # MariaDB only (an executable comment MySQL skips): UPDATE's SET list reads the row
            # as it was, as SQLite's does, not each earlier assignment's new value
            "init_command": "SET time_zone = '+00:00', NAMES utf8mb4, @hermes_skipped = 0, "
            f"innodb_lock_wait_timeout = {max(1, round(timeout))}"
            "/*M!100305 , sql_mode = CONCAT(@@sql_mode, ',SIMULTANEOUS_ASSIGNMENT') */",
        }
        if "read_default_file" in options:
            kwargs["read_default_file"] = options["read_default_file"]
        if ssl:
            kwargs["ssl"] = ssl
        else:
            kwargs["ssl_disabled"] = True  # no TLS asked for: skip the per-connect TLS context (~23 ms)
        try:
            conn = my_result.Connection(**kwargs)  # issue 8: PyMySQL remembering column descriptions
        except (pymysql.Error, OSError, ValueError) as exc:  # OSError/ValueError: TLS files and options (ssl_*)
            if isinstance(exc, pymysql.Error):
                reason = str(exc.args[1]) if len(exc.args) > 1 else str(exc)
            else:
                reason = f"TLS options {sorted(ssl)}: {type(exc).__name__}: {exc}"
            if url.password:
                reason = reason.replace(url.password, "***")
            raise unreachable(target, reason) from None
        backend = cls(conn, namespace, target.read_only)
        backend._ensure_namespace(target.read_only)
        backend._faults_init(target)  # issue 5: reconnect settings + idle-socket probe
        return backend

    def _ensure_namespace(self, read_only: bool) -> None:
        quoted = "`" + self.namespace + "`"
        if not read_only:
            self._meta.execute(f"CREATE DATABASE IF NOT EXISTS {quoted} CHARACTER SET utf8mb4 COLLATE {self.collation}")
        try:
            self._meta.execute(f"USE {quoted}")
        except pymysql.Error as exc:
            raise self._translate(exc, "") from None
        if read_only:
            self._meta.execute("SET SESSION TRANSACTION READ ONLY")
        self._follow_namespace_collation()

    def _follow_namespace_collation(self) -> None:
        """Use the namespace's collation: one created before the NO PAD change keeps
        utf8mb4_bin (PAD SPACE) for everything, since a NO PAD literal, helper result or
        new table next to its utf8mb4_bin tables would be an "Illegal mix of collations"."""
        self._meta.execute("SELECT @@collation_database")
        row = self._meta.fetchone()
        if row and row[0] == LEGACY:
            self.collation = LEGACY
        self._meta.execute(f"SET collation_connection = {self.collation}")

    def _ddl(self, sql: str) -> str:
        """A CREATE TABLE we generate (for MariaDB's collation) gets this namespace's collation."""
        return for_namespace(sql, self.collation)

    # -- running statements -------------------------------------------------

    def cursor(self) -> MyCursor:
        return MyCursor(self.conn.cursor())

    def _translate(self, exc: BaseException, table: str, in_transaction: bool | None = None, verb: str = "") -> Exception:
        if self._driver_is_lost(exc):  # issue 5: the connection died under this call (backends/faults.py)
            # server_status still holds the last OK packet's state: the one before this call
            return self._lost(exc, self.in_transaction if in_transaction is None else in_transaction, verb)
        return my_errors.translate(exc, self._lookup, table)

    def _lookup(self, sql: str, params: tuple) -> list:
        try:
            return [row[0] for row in self.query(sql, params)]
        except Exception:
            return []

    def execute(
        self, cursor: MyCursor, sql: str, params: Sequence[Any], *, returning_rowid: bool = False, table: str = ""
    ) -> None:
        cursor.reset()
        raw = cursor.raw
        if not self.conn.server_status & _IN_TRANS and self._probe.poll(0):
            self._revive()  # issue 5: the server hung up while we were idle: reconnect first
        counted = _SKIPPED in sql
        try:
            self._check_packet(raw, sql, params)
            self._carrying_pending(raw, self._ddl(sql), params)
        except pymysql.Error as exc:
            if counted:
                self._take_skipped()
            raise self._translate(exc, table) from None
        except UnicodeEncodeError as exc:
            raise _unencodable([params], exc) from None
        cursor.rowcount = raw.rowcount
        if raw.description is None and raw.rowcount > 0 and _REPLACING.search(sql):
            cursor.rowcount = _rows_written(raw)
        skipped = self._take_skipped() if counted and raw.rowcount > 0 else 0
        cursor.rowcount -= skipped
        if raw.description is not None and skipped and cursor.rowcount <= 0:
            # every row RETURNING gave back was one the conflict clause skipped (DO NOTHING, OR
            # IGNORE: MariaDB returns the existing row of its no-op update), which SQLite leaves out
            cursor.load(tuple(col[0] for col in raw.description), [])
            cursor.rowcount = 0
        elif raw.description is not None:
            cursor.names = tuple(col[0] for col in raw.description)  # rowcount: rows of a DML … RETURNING
        elif raw.lastrowid and not (not counted and _updated_only(raw, sql)):
            # the OK packet names the first id of a multi-row insert; SQLite the last
            inserted = _rows_inserted(raw) if counted else None
            written = inserted if inserted is not None else cursor.rowcount  # REPLACE: its deletes are not counted
            cursor.lastrowid = _signed(raw.lastrowid) + max(written, 1) - 1

    def executemany(
        self,
        cursor: MyCursor,
        sql: str,
        seq: Iterable[Sequence[Any]],
        *,
        table: str = "",
        returning_rowid: bool = False,
        profile: Any = None,
    ) -> None:
        cursor.reset()
        self.flush()
        rows = list(seq)
        if profile is not None:
            statement = self._multi_row(cursor.raw, sql, rows, profile.kinds)
            if statement is not None:
                self._run_multi_row(cursor, statement, table)
                return
        for params in rows:
            try:
                self._check_packet(cursor.raw, sql, params)
            except UnicodeEncodeError as exc:
                raise _unencodable([params], exc) from None
        # all or nothing, so the caller can redo it item by item after a failure
        guarded = self.in_transaction
        if not guarded:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        try:
            self._meta.execute("SAVEPOINT hermes_many" if guarded else "START TRANSACTION")
            if RE_INSERT_VALUES.match(sql):
                cursor.raw.executemany(sql, rows)  # PyMySQL sends one multi-row INSERT
                last = _signed(cursor.raw.lastrowid) + cursor.raw.rowcount - 1 if cursor.raw.lastrowid else None
            else:
                total, last = 0, None
                for params in rows:
                    cursor.raw.execute(sql, params)
                    total += max(cursor.raw.rowcount, 0)
                    if cursor.raw.lastrowid:
                        last = _signed(cursor.raw.lastrowid) + max(cursor.raw.rowcount, 1) - 1
                cursor.raw.rowcount = total
            self._meta.execute("RELEASE SAVEPOINT hermes_many" if guarded else "COMMIT")
        except (pymysql.Error, UnicodeEncodeError) as exc:  # PyMySQL encodes an item's text before sending it
            try:
                self._meta.execute("ROLLBACK TO SAVEPOINT hermes_many" if guarded else "ROLLBACK")
            except pymysql.Error:
                pass
            if _SKIPPED in sql:
                self._take_skipped()
            if isinstance(exc, UnicodeEncodeError):
                raise _unencodable(rows, exc) from None
            raise self._translate(exc, table, guarded) from None
        cursor.rowcount = cursor.raw.rowcount
        if _SKIPPED in sql and cursor.rowcount > 0:
            cursor.rowcount -= self._take_skipped()
        cursor.lastrowid = last

    def _multi_row(self, raw: pymysql.cursors.Cursor, sql: str, rows: list, kinds: tuple) -> bytes | None:
        """issue 8: the batch of a plain INSERT/REPLACE as the one multi-row statement
        PyMySQL's executemany would send, or None if it would take several (then
        the batch needs a savepoint) or the values do not encode."""
        match = RE_INSERT_VALUES.match(sql)
        if match is None or self.conn.server_status & SERVER_STATUS.SERVER_STATUS_NO_BACKSLASH_ESCAPES:
            return None
        values = match.group(2).rstrip()
        encoding = self.conn.encoding
        try:
            parts = [(match.group(1) % ()).encode(encoding)]
            parts.append(",".join(self._literal_rows(values, rows, kinds)).encode(encoding))
            parts.append(((match.group(3) or "") % ()).encode(encoding))
        except (UnicodeError, TypeError, ValueError, pymysql.Error):
            return None  # the general path raises what it raises
        statement = b"".join(parts)
        return statement if len(statement) <= raw.max_stmt_length else None

    def _literal_rows(self, values: str, rows: list, kinds: tuple) -> list[str]:
        """``values % row`` with each value as PyMySQL's ``Connection.escape`` writes
        it, escaped a column at a time (the same text as its ``_mogrify`` per row)."""
        escape = self.conn.escape
        columns: list[Any] = []
        for column, found in zip(zip(*rows), kinds):
            if found == _ONLY_INT:
                columns.append(map(str, column))  # converters.escape_int
            elif found == _ONLY_STR:
                columns.append(["'" + text + "'" for text in map(escape_string, column)])
            else:
                columns.append(map(escape, column))
        if not columns:
            return [values % ()] * len(rows)
        return [values % row for row in zip(*columns)]

    def _run_multi_row(self, cursor: MyCursor, statement: bytes, table: str) -> None:
        """One statement is atomic by itself (InnoDB undoes a failed statement only):
        no transaction or savepoint round trips around it."""
        raw = cursor.raw
        guarded = self.in_transaction
        if not guarded:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        counted = _SKIPPED.encode() in statement
        try:
            raw.execute(statement)
        except pymysql.Error as exc:
            if counted:
                self._take_skipped()
            raise self._translate(exc, table, guarded) from None
        replacing = b" ON DUPLICATE KEY UPDATE " in statement or statement[:20].lstrip().upper().startswith(b"REPLACE")
        written = _rows_written(raw) if raw.rowcount > 0 and replacing else raw.rowcount
        cursor.rowcount = written - (self._take_skipped() if counted and raw.rowcount > 0 else 0)
        cursor.lastrowid = _signed(raw.lastrowid) + cursor.rowcount - 1 if raw.lastrowid else None

    def _take_skipped(self) -> int:
        """The rows a counted no-op ON DUPLICATE KEY UPDATE skipped, reset for the next statement."""
        try:
            self._meta.execute(f"SELECT {_SKIPPED}, {_SKIPPED} := 0")
            row = self._meta.fetchone()
        except pymysql.Error:
            return 0  # the connection is in trouble: the caller's own error or result says more
        return int(row[0] or 0) if row else 0

    def _check_packet(self, raw: pymysql.cursors.Cursor, sql: str, params: Sequence[Any]) -> None:
        """A clear error for a statement the server would refuse by hanging up (issue 9)."""
        packet.check(sql, params, self._packet_limit, lambda: raw.mogrify(sql, params).encode("utf-8", "surrogateescape"))

    def _packet_limit(self) -> int:
        if not self._max_packet:
            self._max_packet = int(self.query("SELECT @@max_allowed_packet")[0][0])
        return self._max_packet

    # -- transactions -------------------------------------------------------

    def begin(self, mode: str) -> None:
        """IMMEDIATE and EXCLUSIVE take the namespace's write lock with GET_LOCK,
        which outlives COMMIT: we release it ourselves when the transaction ends."""
        self.begin_and_query(mode, "")

    def begin_and_query(self, mode: str, sql: str) -> list[tuple]:
        """issue 8: the lock, ``START TRANSACTION`` and ``sql`` in one round trip."""
        self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        try:
            return self._begin(mode, sql)
        except sqlite3.OperationalError as exc:
            if not faults.is_lost(exc) or exc.sqlite_errorname == "SQLITE_CANTOPEN":
                raise
            self._ensure_live()  # issue 5: nothing had started: begin once more on a new connection
            return self._begin(mode, sql)

    def _begin(self, mode: str, sql: str) -> list[tuple]:
        probe = [sql] if sql else []
        locking = mode in ("IMMEDIATE", "EXCLUSIVE")
        if locking and self.lock_strategy == "table":
            locks.my_begin_locked(self)  # issue 5: lock row (backends/locks.py)
            return self.query(sql) if sql else []
        lock = [self._meta.mogrify("SELECT GET_LOCK(%s, %s)", (self._lock_name, self.busy_timeout))] if locking else []
        try:
            results = self._script([*lock, "START TRANSACTION", *probe], verb="START TRANSACTION")
        except BaseException:  # no half-begun transaction, no lock left behind
            if self.in_transaction:
                self._quietly("ROLLBACK")
            if locking:
                self._quietly(self._release_sql())
            raise
        if locking:
            if results[0][0][0] != 1:  # 0: timed out, NULL: refused; the transaction began regardless
                self._quietly("ROLLBACK")
                raise my_errors.translate(pymysql.err.OperationalError(1205, "lock wait"), self._lookup, "")
            self._holding_lock = True
        return results[-1] if sql else []

    def _release_sql(self) -> str:
        """DO, not SELECT: nothing in its answer is read, so no result set to parse (issue 8)."""
        return self._meta.mogrify("DO RELEASE_LOCK(%s)", (self._lock_name,))

    def _quietly(self, statement: str) -> None:
        """A clean-up statement whose failure the caller's own error outranks."""
        try:
            self._meta.execute(statement)
        except pymysql.Error:
            pass

    def commit(self) -> None:
        self._end("COMMIT")

    def rollback(self) -> None:
        try:
            self._end("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if not faults.is_lost(exc):  # issue 5: a lost connection's transaction is rolled back
                raise

    def _end(self, statement: str) -> None:
        """COMMIT or ROLLBACK, and the write lock's release with it (issue 8: one round trip)."""
        if statement == "ROLLBACK":
            self._pending.clear()  # the rollback undoes them anyway
        if not self._holding_lock:
            self._run_control(statement)
            return
        self._holding_lock = False
        try:
            self._script([statement, self._release_sql()], verb=statement)
        except BaseException:
            self._quietly(self._release_sql())  # the batch stopped before the release
            raise

    def _script(self, statements: Sequence[str], verb: str = "") -> list[list[tuple]]:
        """Literal statements in one round trip (a multi-statement query); the rows of
        each.  The server stops at the first failure, which raises in sqlite3's classes."""
        pending, self._pending = self._pending, []
        cur = self._meta
        in_transaction = self.in_transaction
        try:
            cur.execute("; ".join([*pending, *statements]))
            out = [list(cur.fetchall()) if cur.description else []]
            while cur.nextset():
                out.append(list(cur.fetchall()) if cur.description else [])
        except pymysql.Error as exc:
            raise self._translate(exc, "", in_transaction, verb) from None
        return out[len(pending):]

    def savepoint(self, verb: str, name: str, *, lazy: bool = False) -> None:
        """``lazy``: inside a transaction, sent with the next statement (issue 8: the
        trigger engine's savepoint and its release cost no round trip of their own).
        A lazy command's own failure is reported by that next statement."""
        if lazy and self.in_transaction:
            self._pending.append(f"{verb} {name}")
            return
        self._run_control(f"{verb} {name}")

    def flush(self) -> None:
        if self._pending:
            self._script([])

    def _carrying_pending(self, raw: pymysql.cursors.Cursor, sql: str, params: Any) -> None:
        """``raw.execute(sql, params)`` with the lazy commands ahead of it in the same
        query; ``raw`` is left on the statement's own result."""
        pending, self._pending = self._pending, []
        if not pending:
            raw.execute(sql, params)
            return
        head = "; ".join(pending) + "; "
        try:
            if params:  # PyMySQL formats the whole text: a '%' of a carried write stays itself
                raw.execute(head.replace("%", "%%") + sql, params)
            else:
                raw.execute(head + sql)
        except UnicodeEncodeError:
            self._pending[:0] = pending  # nothing was sent: they go with the next statement
            raise
        for _ in pending:
            raw.nextset()

    def _run_control(self, statement: str) -> None:
        if self._pending:
            self._script([statement], verb=statement)
            return
        try:
            self._meta.execute(statement)
        except pymysql.Error as exc:
            raise self._translate(exc, "", None, statement) from None

    @property
    def in_transaction(self) -> bool:
        return bool(self.conn.server_status & SERVER_STATUS.SERVER_STATUS_IN_TRANS)

    def set_busy_timeout(self, seconds: float) -> None:
        self.busy_timeout = max(0.0, float(seconds))
        if not self.in_transaction:
            self._ensure_live()  # issue 5
        self._run_control(f"SET SESSION innodb_lock_wait_timeout = {max(1, round(self.busy_timeout))}")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        in_transaction = self.in_transaction
        if not in_transaction:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        try:
            with self.conn.cursor() as cur:
                self._carrying_pending(cur, self._ddl(sql), params)
                return list(cur.fetchall())
        except pymysql.Error as exc:  # never a driver exception to the application
            raise self._translate(exc, "", in_transaction) from None

    def write_all(self, statements: Sequence[tuple[str, Sequence[Any]]], prepare: bool = False,
                  defer: bool = False) -> None:
        """issue 8: the writes in one round trip (a multi-statement query of their
        literal texts), or in groups when together they would near the server's
        max_allowed_packet; the first failure stops the rest.  ``defer``: inside a
        transaction, sent with the next statement instead (the trigger engine sends
        one before its statement's savepoint is released: triggers/engine.py)."""
        if not statements:
            return
        in_transaction = self.in_transaction
        try:
            texts = [self._ddl(self._meta.mogrify(sql, params)) for sql, params in statements]
        except (pymysql.Error, TypeError, ValueError):
            super().write_all(statements)  # each one reports its own trouble; query() carries what is pending
            return
        budget = self._packet_limit() // 8  # characters: up to 4 bytes each
        if defer and in_transaction and sum(map(len, texts)) + sum(map(len, self._pending)) < budget:
            self._pending.extend(texts)
            return
        if not in_transaction:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        group: list[str] = []
        size = 0
        for text in texts:
            if group and size + len(text) > budget:
                self._script(group)
                group, size = [], 0
            group.append(text)
            size += len(text) + 2
        self._script(group)

    def temp_ddl(self, statements: Sequence[str]) -> None:
        """Read-only connection: each statement lifts the session's read-only rule for
        itself alone (MariaDB's SET STATEMENT; MySQL: the session's rule is lifted and
        put back around them); refused all the same inside a transaction."""
        if not self.read_only or self.in_transaction:
            super().temp_ddl(statements)
        elif self.is_mariadb:
            super().temp_ddl(["SET STATEMENT tx_read_only = 0 FOR " + sql for sql in statements])
        else:
            self.query("SET SESSION TRANSACTION READ WRITE")
            try:
                super().temp_ddl(statements)
            finally:
                self.query("SET SESSION TRANSACTION READ ONLY")

    def query_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple]]:
        """issue 8: the reads of one FTS evaluation step in one round trip."""
        if len(statements) < 2:
            return super().query_all(statements)
        if not self.in_transaction:
            self._ensure_live()  # issue 5: replace a connection the server dropped while idle
        return self._script([self._meta.mogrify(sql, params) for sql, params in statements])

    def returns_inserted(self, driver_sql: str) -> bool:
        """MariaDB 10.5+; not with the skip counter, whose rows RETURNING would not count."""
        return self._insert_returning and _SKIPPED not in driver_sql

    def statement_done(self, lastrowid: int | None) -> None:
        """The deferred index writes go now (with LAST_INSERT_ID when there is one)."""
        if lastrowid is not None:
            self.query("SELECT LAST_INSERT_ID(%s)", (lastrowid,))
        else:
            self.flush()

    def has_table(self, name: str) -> bool:
        sql = "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = %s"
        return bool(self.query(sql, (name,)))

    def drop_namespace(self) -> None:
        self._meta.execute(f"DROP DATABASE IF EXISTS `{self.namespace}`")

    def close(self) -> None:
        try:
            self.conn.close()
        except pymysql.Error:
            pass
