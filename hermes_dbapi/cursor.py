"""``Cursor`` for server connections, shaped like ``sqlite3.Cursor``.

The cursor holds result state only (rows, description, rowcount, lastrowid);
running a statement is the connection's job, so the transaction rules live in
one place.
"""

from __future__ import annotations

from threading import get_ident
from typing import TYPE_CHECKING, Any, Iterator

from . import detect_types, errors, stdclass, tracing
from .backends.base import RawCursor
from ._stdlib import sqlite3
from .row import is_row_class, row_builder

_PROBE_CURSOR = sqlite3.connect(":memory:", check_same_thread=False).cursor()  # for sqlite3's own TypeErrors

if TYPE_CHECKING:
    from .connection import Connection


_AHEAD = 64  # rows __next__ takes from the driver at a time

# description tuples per result column names: immutable, so shared by all cursors
_DESCRIPTIONS: dict[tuple[str, ...], tuple] = {}


def _check_call(probe: Any, method: str, args: tuple, kwargs: dict, least: int, most: int) -> None:
    from .connection import check_call

    check_call(probe, method, args, kwargs, least, most)


def _utf8(text: str) -> bytes:
    """The bytes SQLite would hand a text_factory.  Strings carrying raw bytes as
    surrogate escapes (FTS5 snippets cut inside a character) give those bytes."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


class Cursor(sqlite3.Cursor, metaclass=stdclass.StdAware):
    """A server-backed cursor with the standard ``sqlite3.Cursor`` behaviour.

    A real subclass of it; on a connection to an embedded database an instance
    is a plain ``sqlite3.Cursor`` in behaviour (see :mod:`.stdclass`)."""

    _connection: "Connection | None" = None  # None: embedded, every method is sqlite3's own

    def __init__(self, connection: "Connection") -> None:
        sqlite3.Cursor.__init__(self, connection)  # sqlite3's own argument and thread checks
        if getattr(connection, "_backend", None) is None:
            return  # a sqlite3 connection: this is a sqlite3 cursor
        self._connection = connection
        self._raw: RawCursor | None = None
        self._closed = False
        self._names: tuple[str, ...] | None = None
        self._column_converters: tuple | None = None  # detect_types (see detect_types.py)
        self._convert = None
        self.arraysize = 1
        self._rowcount = -1
        self._lastrowid: int | None = None
        self.row_factory = connection.row_factory  # copied at creation, as sqlite3 does
        self._description: tuple | None = None
        self._ahead: list[tuple] = []  # issue 8: rows iteration read ahead, reversed (see __next__)

    # sqlite3's read-only result attributes (its C slots cannot be written from Python)
    description = property(lambda self: self._description, doc="Column names of the last query, as sqlite3.")
    rowcount = property(lambda self: self._rowcount, doc="Rows the last DML statement changed, as sqlite3.")
    lastrowid = property(lambda self: self._lastrowid, doc="The last inserted rowid, as sqlite3.")

    # -- state shared with the connection --------------------------------------

    @property
    def connection(self) -> "Connection":
        return self._connection

    def _check(self) -> None:
        conn = self._connection
        if conn._check_same_thread and get_ident() != conn._thread or conn._closed:
            conn._check()  # raises the right one
        if self._closed:
            raise errors.programming("Cannot operate on a closed cursor.")

    def _raw_cursor(self) -> RawCursor:
        if self._raw is None:
            self._raw = self._connection._backend.cursor()
        return self._raw

    def _set_result(self, names: tuple[str, ...] | None, rowcount: int, lastrowid: int | None) -> None:
        self._names = names
        self._column_converters = None
        if self._ahead:
            self._ahead = []
        if names is None:
            self._description = None
        else:
            description = _DESCRIPTIONS.get(names)
            if description is None:
                if len(_DESCRIPTIONS) >= 1024:
                    _DESCRIPTIONS.clear()
                description = _DESCRIPTIONS[names] = tuple((n, None, None, None, None, None, None) for n in names)
            self._description = description
        self._rowcount = rowcount
        self._lastrowid = lastrowid
        self._convert = None

    def _converter(self):
        if self._convert is None:
            self._convert = self._make_converter()
        return self._convert

    def _make_converter(self):
        factory = self.row_factory
        text_factory = self._connection.text_factory
        decode = None
        typed = self._column_converters
        if text_factory is not str:
            def decode(values: tuple) -> tuple:
                return tuple(text_factory(_utf8(v)) if type(v) is str and not (typed and typed[i]) else v
                             for i, v in enumerate(values))
        if typed:  # detect_types: the converted columns first (text_factory leaves them alone)
            plain = decode

            def decode(values: tuple) -> tuple:
                values = detect_types.convert(values, typed)
                return plain(values) if plain is not None else values

        if factory is None:
            return decode
        if is_row_class(factory):
            build = row_builder(factory, self._names or ())
        else:
            def build(values: tuple, cursor: Cursor = self, make: Any = factory) -> Any:
                return make(cursor, values)
        if decode is None:
            return build
        return lambda values: build(decode(values))

    # -- executing -----------------------------------------------------------

    def execute(self, *args: Any, **kwargs: Any) -> "Cursor":
        self._check()
        if kwargs or not 1 <= len(args) <= 2 or type(args[0]) is not str:
            _check_call(_PROBE_CURSOR, "execute", args, kwargs, 1, 2)
        conn = self._connection
        if conn._trace is None:
            conn._execute_on(self, args[0], args[1] if len(args) > 1 else ())
        else:
            tracing.execute(conn, self, args[0], args[1] if len(args) > 1 else ())
        if conn._detect_types and self._names:
            self._detect_types(args[0])
        return self

    def _detect_types(self, sql: str) -> None:
        """sqlite3's detect_types: the columns' converters, and PARSE_COLNAMES's names."""
        conn = self._connection
        names = self._names
        assert names is not None
        shown = tuple(detect_types.column_name(n, conn._detect_types) for n in names)
        declared = None
        if conn._detect_types & sqlite3.PARSE_DECLTYPES:
            declared = conn._declared_types(sql, len(names))
        if shown != names:
            self._set_result(shown, self._rowcount, self._lastrowid)  # keeps the rows, renames the columns
        self._column_converters = detect_types.converters(names, declared, conn._detect_types)

    def executemany(self, *args: Any, **kwargs: Any) -> "Cursor":
        self._check()
        _check_call(_PROBE_CURSOR, "executemany", args, kwargs, 2, 2)
        if self._connection._trace is None:
            self._connection._executemany_on(self, args[0], args[1])
        else:
            tracing.executemany(self._connection, self, args[0], args[1])
        return self

    def executescript(self, *args: Any, **kwargs: Any) -> "Cursor":
        self._check()
        _check_call(_PROBE_CURSOR, "executescript", args, kwargs, 1, 1)
        self._connection._executescript_on(self, args[0])
        return self

    # -- fetching -------------------------------------------------------------

    def fetchone(self) -> Any:
        self._check()
        if self._ahead:
            values = self._ahead.pop()
        else:
            if self._names is None or self._raw is None:
                return None
            with self._connection._lock:
                values = self._raw.fetchone()
            if values is None:
                return None
        convert = self._converter()
        return convert(values) if convert is not None else values

    def fetchmany(self, size: int | None = None) -> list:
        self._check()
        if size is None:
            size = self.arraysize
        if size <= 0:
            return self.fetchall()  # sqlite3 reads a non-positive size as "all"
        if self._names is None or self._raw is None:
            return []
        ahead = self._ahead
        if ahead:
            rows = ahead[: -size - 1 : -1]
            del ahead[-size:]
            if len(rows) < size:
                with self._connection._lock:
                    rows += self._raw.fetchmany(size - len(rows))
        else:
            with self._connection._lock:
                rows = self._raw.fetchmany(size)
        convert = self._converter()
        return [convert(r) for r in rows] if convert is not None else list(rows)

    def fetchall(self) -> list:
        self._check()
        if self._names is None or self._raw is None:
            return []
        with self._connection._lock:
            rows = self._raw.fetchall()
        if self._ahead:
            rows = self._ahead[::-1] + rows
            self._ahead = []
        convert = self._converter()
        return [convert(r) for r in rows] if convert is not None else list(rows)

    def __getattr__(self, name: str) -> Any:
        raise stdclass.no_attribute(self, name, Cursor)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        """issue 8: iteration takes the rows the driver already holds client-side a
        chunk at a time (one driver call per chunk, not per row); fetch*() see the
        same sequence, as the chunk is theirs first."""
        self._check()
        ahead = self._ahead
        if not ahead:
            if self._names is None or self._raw is None:
                raise StopIteration
            with self._connection._lock:
                ahead = self._raw.fetchmany(_AHEAD)
            if not ahead:
                raise StopIteration
            ahead.reverse()
            self._ahead = ahead
        values = ahead.pop()
        convert = self._converter()
        return convert(values) if convert is not None else values

    # -- the rest of the interface --------------------------------------------

    def close(self) -> None:
        self._connection._check()
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        self._names = None
        self._ahead = []
        self._closed = True

    def setinputsizes(self, sizes: Any, /) -> None:
        """No-op, as in sqlite3 (which does not even check the cursor)."""

    def setoutputsize(self, size: Any, column: Any = None, /) -> None:
        """No-op, as in sqlite3."""


stdclass.dual(Cursor, sqlite3.Cursor, "_connection")
