"""``Connection`` and ``Cursor`` as classes: subclassing, factories, isinstance, the full method set."""

from __future__ import annotations

import sqlite3 as _std
import sys

import pytest

import hermes_dbapi

from .harness import apply, attempt, typed

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, data BLOB, r REAL, n INTEGER)",
    ("many", "INSERT INTO t(name, data, r, n) VALUES (?, ?, ?, ?)", [("it's", b"\x00\xff", 2.25, None), (None, None, -1e300, 7)]),
]


def test_real_subclasses_of_the_standard_classes():
    assert issubclass(hermes_dbapi.Connection, _std.Connection)
    assert issubclass(hermes_dbapi.Cursor, _std.Cursor)


def test_standard_objects_are_instances_of_the_module_classes():
    """An embedded connection is sqlite3's own object; it still passes ``isinstance`` against ours,
    but not against an application's subclass of ours."""

    class Sub(hermes_dbapi.Connection):
        pass

    conn = _std.connect(":memory:")
    try:
        assert isinstance(conn, hermes_dbapi.Connection) and isinstance(conn.cursor(), hermes_dbapi.Cursor)
        assert issubclass(_std.Connection, hermes_dbapi.Connection) and issubclass(_std.Cursor, hermes_dbapi.Cursor)
        assert not isinstance(conn, Sub) and not issubclass(_std.Connection, Sub)
    finally:
        conn.close()


def test_isinstance_of_the_standard_classes(diff):
    """Code that imported the real sqlite3 elsewhere recognises the shim's objects."""

    def run(side):
        conn = side.connect()
        cur = conn.cursor()
        return isinstance(conn, _std.Connection), isinstance(cur, _std.Cursor), isinstance(conn.execute("SELECT 1"), _std.Cursor)

    assert diff.check(run) == typed((True, True, True))


def test_embedded_default_returns_the_standard_objects(tmp_path, monkeypatch):
    """Without HERMES_DB_URL, connect() is sqlite3.connect, factories included."""
    monkeypatch.delenv("HERMES_DB_URL", raising=False)

    class Sub(hermes_dbapi.Connection):
        pass

    plain = hermes_dbapi.connect(str(tmp_path / "b.db"))
    sub = hermes_dbapi.connect(str(tmp_path / "a.db"), factory=Sub)
    try:
        assert type(plain) is _std.Connection and type(plain.cursor()) is _std.Cursor
        assert type(sub) is Sub and type(sub.execute("SELECT 1")) is _std.Cursor
        assert sub.execute("SELECT 1").fetchall() == [(1,)] and sub.backup(plain) is None
    finally:
        plain.close()
        sub.close()


def test_connection_constructor(diff):
    """``Connection(database, ...)`` with sqlite3's signature, as sqlite3 allows."""

    def run(side):
        conn = side.track(side.api.Connection(side.path(), timeout=1.0, isolation_level=None))
        apply(conn, SETUP)
        return conn.isolation_level, conn.in_transaction, conn.execute("SELECT name FROM t ORDER BY id").fetchall()

    diff.check(run)


CONSTRUCTOR_ERRORS = {
    "timeout_str": {"timeout": "x"},
    "isolation_bogus": {"isolation_level": "bogus"},
    "check_same_thread_str": {"check_same_thread": "x"},
    "cached_statements_str": {"cached_statements": "x"},
    "unknown_keyword": {"bogus": 1},
}


@pytest.mark.parametrize("kwargs", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_connection_constructor_errors(diff, kwargs):
    def run(side):
        conn = side.track(side.api.Connection(side.path(), **kwargs))
        return isinstance(conn, _std.Connection)  # opened (Python 3.12+ takes any check_same_thread)
    diff.check(run)


def test_subclass_of_the_module_connection(diff):
    """An application's Connection subclass with its own __init__, cursor() and cursor class."""

    def run(side):
        calls = []

        class MyCursor(side.api.Cursor):
            def first(self):
                return self.fetchone()[0]

        class MyConn(side.api.Connection):
            def __init__(self, *args, **kwargs):
                calls.append(sorted(kwargs))
                super().__init__(*args, **kwargs)

            def cursor(self, factory=MyCursor):
                calls.append("cursor")
                return super().cursor(factory)

        conn = side.track(side.api.connect(side.path(), factory=MyConn, timeout=2))
        apply(conn, SETUP)
        cur = conn.cursor()
        cur.execute("SELECT count(*) FROM t")
        via_execute = conn.execute("SELECT 1")
        return (
            type(conn) is MyConn,
            type(cur) is MyCursor,
            cur.first(),
            cur.connection is conn,
            type(via_execute).__name__,  # 3.11+: execute() does not call an overridden cursor()
            calls,
        )

    diff.check(run)


def test_standard_connection_subclass_as_factory(diff):
    """A subclass of the *standard* sqlite3.Connection works on every backend: its own methods
    run first and ``super()`` reaches the backend's implementation."""

    def run(side):
        class Audited(_std.Connection):
            label = "audited"

            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.seen = []

            def execute(self, sql, *args):
                self.seen.append(sql)
                return super().execute(sql, *args)

        conn = side.track(side.api.connect(side.path(), factory=Audited))
        apply(conn, SETUP)
        rows = conn.execute("SELECT name FROM t ORDER BY id").fetchall()
        conn.commit()
        return isinstance(conn, Audited), conn.label, rows, conn.seen[-1], conn.in_transaction

    diff.check(run)


def test_standard_cursor_subclass_as_factory(diff):
    def run(side):
        class Counting(_std.Cursor):
            def execute(self, sql, *args):
                self.count = getattr(self, "count", 0) + 1
                return super().execute(sql, *args)

        conn = side.connect()
        apply(conn, SETUP)
        cur = conn.cursor(factory=Counting)
        cur.execute("SELECT id FROM t ORDER BY id")
        return isinstance(cur, Counting), cur.count, cur.fetchall(), cur.connection is conn, cur.rowcount

    diff.check(run)


def test_cursor_constructor(diff):
    """``Cursor(conn)`` directly, and with something that is not a connection."""

    def run(side):
        conn = side.connect()
        cur = side.api.Cursor(conn)
        return cur.execute("SELECT 1").fetchall(), cur.connection is conn, attempt(side.api.Cursor, object())

    diff.check(run)


def test_result_attributes_are_read_only(diff):
    def run(side):
        cur = side.connect().execute("SELECT 1")
        return [attempt(setattr, cur, name, 1) for name in ("description", "rowcount", "lastrowid", "connection")]

    diff.check(run)


def test_connection_attributes_are_read_only(diff):
    def run(side):
        conn = side.connect()
        return [attempt(setattr, conn, name, 1) for name in ("in_transaction", "total_changes")]

    diff.check(run)


def test_public_names(diff):
    """The same public attributes as sqlite3's objects (hasattr feature detection sees the same)."""

    def run(side):
        conn = side.connect()
        cur = conn.cursor()
        return [n for n in dir(conn) if not n.startswith("_")], [n for n in dir(cur) if not n.startswith("_")]

    diff.check(run)


def test_iterdump(diff):
    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        conn.executescript(
            'CREATE TABLE "we""ird"(x TEXT, y INTEGER DEFAULT 3); CREATE INDEX ti ON t(name); '
            "CREATE VIEW v AS SELECT name FROM t; INSERT INTO \"we\"\"ird\" VALUES ('é😀', 1), (NULL, -9223372036854775808);"
        )
        conn.commit()
        return list(conn.iterdump()), attempt(conn.iterdump, 1)

    diff.check(run)


# --------------------------------------------------------------------------- server only


def _server(backend):
    if backend.name == "sqlite":
        pytest.skip("server connections only")
    return hermes_dbapi.connect(backend.path())


def test_every_standard_name_is_served_by_the_backend(backend):
    """No public method of sqlite3's classes falls through to the (closed) private SQLite
    database that backs the base class: each is implemented or refused."""
    conn = _server(backend)
    try:
        for obj, std_class in ((conn, _std.Connection), (conn.cursor(), _std.Cursor)):
            served = {n for klass in type(obj).__mro__[: type(obj).__mro__.index(std_class)] for n in vars(klass)}
            left = {n for n in dir(std_class) if not n.startswith("_")} - served
            assert left <= {"row_factory", "text_factory", "arraysize"}, left  # plain storage slots
    finally:
        conn.close()


UNSUPPORTED = {
    "backup": lambda c: c.backup(_std.connect(":memory:")),
    "serialize": lambda c: c.serialize(),
    "deserialize": lambda c: c.deserialize(b""),
    "blobopen": lambda c: c.blobopen("t", "data", 1),
    "create_window_function": lambda c: c.create_window_function("w", 1, None),
    "create_function": lambda c: c.create_function("f", 0, lambda: 1),
}


@pytest.mark.parametrize("method", UNSUPPORTED.keys())
def test_unsupported_methods_say_so(backend, method):
    if not hasattr(_std.Connection, method):
        pytest.skip(f"sqlite3.Connection.{method} is not in Python {sys.version_info[:2]}")
    conn = _server(backend)
    try:
        with pytest.raises(_std.NotSupportedError) as info:
            UNSUPPORTED[method](conn)
        assert method in str(info.value) and conn._backend.dialect in str(info.value)
    finally:
        conn.close()


def test_factory_returning_a_sqlite_connection_is_refused(backend):
    if backend.name == "sqlite":
        pytest.skip("server connections only")
    with pytest.raises(_std.NotSupportedError):
        hermes_dbapi.connect(backend.path(), factory=lambda *args, **kwargs: _std.Connection(":memory:"))


def test_cursor_factory_returning_a_sqlite_cursor_is_refused(backend):
    conn = _server(backend)
    try:
        other = _std.connect(":memory:")
        with pytest.raises(_std.NotSupportedError):
            conn.cursor(factory=lambda c: other.cursor())
        other.close()
    finally:
        conn.close()
