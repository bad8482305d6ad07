"""connect() and the module surface: attributes, arguments, :memory:, the sys.modules harness, URL errors."""

from __future__ import annotations

import importlib
import pathlib
import sqlite3 as _std
import subprocess
import sys
import textwrap

import pytest

import hermes_dbapi

from .harness import attempt, typed

# --------------------------------------------------------------------------- module surface

MODULE_VALUES = [
    "apilevel",
    "threadsafety",
    "paramstyle",
    "sqlite_version",
    "sqlite_version_info",
    "PARSE_DECLTYPES",
    "PARSE_COLNAMES",
    "SQLITE_OK",
    "SQLITE_DENY",
    "SQLITE_IGNORE",
]

# names whose object must be the standard module's very object
SAME_OBJECTS = [
    "Warning",
    "Error",
    "InterfaceError",
    "DatabaseError",
    "DataError",
    "OperationalError",
    "IntegrityError",
    "InternalError",
    "ProgrammingError",
    "NotSupportedError",
    "Row",
    "PrepareProtocol",
    "complete_statement",
    "register_adapter",
    "register_converter",
    "adapters",
    "converters",
    "Binary",
]

EXCEPTIONS = SAME_OBJECTS[:10]


@pytest.mark.parametrize("name", MODULE_VALUES)
def test_module_value(diff, name):
    diff.check(lambda side: getattr(side.api, name))


@pytest.mark.parametrize("name", SAME_OBJECTS)
def test_module_object_is_sqlite3s(diff, name):
    diff.check(lambda side: getattr(side.api, name) is getattr(_std, name))


@pytest.mark.parametrize("name", EXCEPTIONS)
def test_connection_exception_attribute(diff, name):
    """PEP 249 optional extension: the exception classes as connection attributes."""
    diff.check(lambda side: getattr(side.connect(), name) is getattr(_std, name))


def test_exception_hierarchy(diff):
    def run(side):
        api = side.api
        return {name: [base.__name__ for base in getattr(api, name).__mro__] for name in EXCEPTIONS}

    diff.check(run)


def test_connection_and_cursor_isinstance(diff):
    """``isinstance(conn, sqlite3.Connection)`` for code written as ``import hermes_dbapi as sqlite3``."""

    def run(side):
        conn = side.connect()
        cur = conn.cursor()
        return (
            isinstance(conn, side.api.Connection),
            isinstance(cur, side.api.Cursor),
            isinstance(conn.execute("SELECT 1"), side.api.Cursor),
            cur.connection is conn,
        )

    assert diff.check(run) == typed((True, True, True, True))


# --------------------------------------------------------------------------- connect() arguments

CONNECT_KWARGS = {
    "defaults": {},
    "isolation_none": {"isolation_level": None},
    "isolation_immediate": {"isolation_level": "IMMEDIATE"},
    "isolation_exclusive": {"isolation_level": "EXCLUSIVE"},
    "isolation_lowercase": {"isolation_level": "deferred"},
    "isolation_bogus": {"isolation_level": "bogus"},
    "isolation_wrong_type": {"isolation_level": 1},
    "timeout": {"timeout": 1.5},
    "timeout_wrong_type": {"timeout": "x"},
    "detect_types_zero": {"detect_types": 0},
    "check_same_thread_false": {"check_same_thread": False},
    "cached_statements": {"cached_statements": 10},
    "uri_false": {"uri": False},
    "factory_none": {"factory": None},
    "unknown_keyword": {"bogus": 1},
}


def _connection_state(conn):
    return {
        "isolation_level": conn.isolation_level,
        "row_factory": conn.row_factory,
        "text_factory_is_str": conn.text_factory is str,
        "in_transaction": conn.in_transaction,
        "total_changes": conn.total_changes,
        "select": conn.execute("SELECT 1").fetchall(),
    }


@pytest.mark.parametrize("kwargs", CONNECT_KWARGS.values(), ids=CONNECT_KWARGS.keys())
def test_connect_arguments(diff, kwargs):
    diff.check(lambda side: _connection_state(side.connect(**kwargs)))


def test_connect_positional_arguments(diff):
    """connect(database, timeout, detect_types, isolation_level, check_same_thread)."""
    diff.check(lambda side: _connection_state(side.connect("main", 2.0, 0, None, False)))


def test_connect_without_database(diff):
    diff.check(lambda side: side.api.connect())


def test_connect_database_wrong_type(diff):
    diff.check(lambda side: side.api.connect(1))


def test_connect_pathlike(diff):
    """A ``pathlib.Path`` database works like the equivalent str."""

    def run(side):
        first = side.track(side.api.connect(pathlib.Path(side.path())))
        first.execute("CREATE TABLE t(a INTEGER)")
        first.execute("INSERT INTO t VALUES (1)")
        first.commit()
        second = side.connect()
        return second.execute("SELECT a FROM t").fetchall()

    diff.check(run)


# --------------------------------------------------------------------------- :memory: stays SQLite

MEMORY_TARGETS = {
    "memory": (":memory:", {}),
    "empty_path": ("", {}),
    "uri_memory": ("file::memory:", {"uri": True}),
    "uri_mode_memory": ("file:hdbmem?mode=memory", {"uri": True}),
}


@pytest.mark.parametrize("database,kwargs", MEMORY_TARGETS.values(), ids=MEMORY_TARGETS.keys())
def test_memory_database_is_real_sqlite(diff, database, kwargs):
    """Even with a server URL set, a private in-memory database is the real sqlite3's."""

    def run(side):
        conn = side.track(side.api.connect(database, **kwargs))
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a)")
        cur = conn.execute("INSERT INTO t(a) VALUES (?)", ("x",))
        return type(conn) is _std.Connection, cur.lastrowid, conn.execute("SELECT * FROM t").fetchall()

    assert diff.check(run)[0].value is True


def test_memory_databases_are_private(diff):
    def run(side):
        first = side.track(side.api.connect(":memory:"))
        second = side.track(side.api.connect(":memory:"))
        first.execute("CREATE TABLE t(a)")
        return attempt(lambda: second.execute("SELECT * FROM t").fetchall())

    diff.check(run)


# --------------------------------------------------------------------------- sys.modules["sqlite3"] = hermes_dbapi


def test_sys_modules_harness(diff, monkeypatch):
    """A test harness installs the shim as ``sqlite3``; code doing ``import sqlite3`` then uses it."""
    monkeypatch.setitem(sys.modules, "sqlite3", hermes_dbapi)

    def run(side):
        api = side.api if side.is_reference else importlib.import_module("sqlite3")
        if not side.is_reference:
            assert api is hermes_dbapi
        conn = side.connect()
        conn.row_factory = api.Row
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        conn.execute("INSERT INTO t(name) VALUES (?)", ("a",))
        try:
            conn.execute("INSERT INTO t(name) VALUES (?)", ("a",))
        except api.IntegrityError as exc:
            caught = exc
        row = conn.execute("SELECT id, name FROM t").fetchone()
        conn.commit()
        return caught, isinstance(row, api.Row), dict(row), api.complete_statement("SELECT 1;")

    diff.check(run)


def test_sys_modules_harness_fresh_interpreter(backend):
    """The same in a new interpreter where ``sqlite3`` was replaced before hermes_dbapi was imported."""
    script = textwrap.dedent(
        """
        import sys, types
        sys.modules["sqlite3"] = types.ModuleType("sqlite3")  # whatever a harness left there
        import hermes_dbapi
        sys.modules["sqlite3"] = hermes_dbapi
        import sqlite3
        conn = sqlite3.connect(sys.argv[1])
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)")
        cur = conn.execute("INSERT INTO t(a) VALUES (?)", ("x",))
        conn.commit()
        print(type(conn).__module__, cur.lastrowid, conn.execute("SELECT * FROM t").fetchall())
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script, backend.path("fresh.db")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    module = "sqlite3" if backend.name == "sqlite" else "hermes_dbapi.connection"
    assert out.stdout.split() == [module, "1", "[(1,", "'x')]"]


# --------------------------------------------------------------------------- HERMES_DB_URL problems (server-only)

SECRET = "s3cr3t-Pw"
BAD_URLS = {
    "unknown_scheme": f"oracle://scott:{SECRET}@127.0.0.1/orcl",
    "malformed_port": f"postgresql://postgres:{SECRET}@127.0.0.1:notaport/test",
    "malformed_ipv6": f"mysql://root:{SECRET}@[::1/test",
    "mysql_without_host": f"mysql://root:{SECRET}@/test",
    "postgres_unreachable": f"postgresql://postgres:{SECRET}@127.0.0.1:1/test",
    "mysql_unreachable": f"mysql://root:{SECRET}@127.0.0.1:1/test",
    "bad_prefix_option": f"postgresql://postgres:{SECRET}@127.0.0.1:5432/test?prefix=Bad-Prefix",
}


def _chain(exc):
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


@pytest.mark.parametrize("url", BAD_URLS.values(), ids=BAD_URLS.keys())
def test_bad_database_url(url, monkeypatch, tmp_path):
    """A wrong HERMES_DB_URL is a clear OperationalError that never shows the password."""
    monkeypatch.setenv("HERMES_DB_URL", url)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        hermes_dbapi.connect(str(tmp_path / "x.db"), timeout=2)
    assert type(info.value) is _std.OperationalError
    assert str(info.value).strip()
    for exc in _chain(info.value):
        assert SECRET not in str(exc) and SECRET not in repr(exc), exc
    assert SECRET not in repr(info.value.args)
