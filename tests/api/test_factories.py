"""row_factory, text_factory, and Connection/Cursor subclasses (the ``factory`` arguments)."""

from __future__ import annotations

import pytest

from .harness import apply, attempt

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, data BLOB, n INTEGER)",
    ("many", "INSERT INTO t(name, data, n) VALUES (?, ?, ?)", [("ab", b"\x00\x01", 1), ("é😀", b"xy", None)]),
]
QUERY = "SELECT id, name, data, n FROM t ORDER BY id"


def dict_factory(cursor, row):
    return {column[0]: value for column, value in zip(cursor.description, row)}


def first_column(cursor, row):
    return row[0]


def with_description(cursor, row):
    return (tuple(column[0] for column in cursor.description), row)


def failing_factory(cursor, row):
    raise ValueError("factory says no")


ROW_FACTORIES = {
    "dict": dict_factory,
    "scalar": first_column,
    "sees_description": with_description,
    "raises": failing_factory,
    "tuple_class": tuple,  # not a (cursor, row) callable: sqlite3 calls it with two arguments
    "list_of_row": lambda cursor, row: list(row),
}


@pytest.mark.parametrize("where", ["connection", "cursor"])
@pytest.mark.parametrize("factory", ROW_FACTORIES.values(), ids=ROW_FACTORIES.keys())
def test_row_factory(diff, factory, where):
    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        if where == "connection":
            conn.row_factory = factory
            cur = conn.cursor()
        else:
            cur = conn.cursor()
            cur.row_factory = factory
        cur.execute(QUERY)
        return attempt(cur.fetchone), attempt(cur.fetchall), attempt(cur.fetchmany)

    diff.check(run)


def test_row_factory_on_fetch_variants(diff):
    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        conn.row_factory = dict_factory
        return (
            conn.execute(QUERY).fetchmany(1),
            list(conn.execute(QUERY)),
            next(conn.execute(QUERY)),
        )

    diff.check(run)


def test_row_factory_changed_after_cursor_creation(diff):
    """A cursor takes the connection's row_factory when it is created, not when it fetches."""

    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        cur = conn.cursor()
        conn.row_factory = dict_factory
        before = cur.execute(QUERY).fetchone()
        after = conn.cursor().execute(QUERY).fetchone()
        return before, after, cur.row_factory is None, conn.cursor().row_factory is dict_factory

    diff.check(run)


def test_row_factory_reset_to_none(diff):
    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        conn.row_factory = dict_factory
        conn.row_factory = None
        return conn.execute(QUERY).fetchall(), conn.row_factory

    diff.check(run)


def test_row_factory_not_called_for_dml(diff):
    calls = []

    def counting(cursor, row):
        calls.append(row)
        return row

    def run(side):
        calls.clear()
        conn = side.connect()
        conn.row_factory = counting
        apply(conn, SETUP)
        conn.execute("UPDATE t SET n = 5").fetchall()
        return len(calls)

    diff.check(run)


TEXT_FACTORIES = {
    "str": str,
    "bytes": bytes,
    "bytearray": bytearray,
    "upper": lambda b: b.decode("utf-8").upper(),
    "ascii_strict": lambda b: b.decode("ascii"),
    "ascii_replace": lambda b: b.decode("ascii", "replace"),
    "length": len,
}


@pytest.mark.parametrize("factory", TEXT_FACTORIES.values(), ids=TEXT_FACTORIES.keys())
def test_text_factory(diff, factory):
    """text_factory converts TEXT values only: not BLOBs, not NULL, not numbers, not column names."""

    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        conn.text_factory = factory
        cur = conn.execute(QUERY)
        return attempt(cur.fetchall), cur.description, conn.text_factory is factory

    diff.check(run)


def test_text_factory_with_row(diff):
    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        conn.text_factory = bytes
        conn.row_factory = side.api.Row
        row = conn.execute(QUERY).fetchone()
        return dict(row), row["NAME"]

    diff.check(run)


def test_text_factory_on_literals_and_parameters(diff):
    def run(side):
        conn = side.connect()
        conn.text_factory = bytes
        return conn.execute("SELECT 'lit', ?, ?, 1, 1.5, NULL", ("param", b"blob")).fetchall()

    diff.check(run)


def test_connection_factory_subclass(diff):
    """connect(..., factory=Sub) where Sub subclasses the module's Connection."""

    def run(side):
        class Sub(side.api.Connection):
            marker = "sub"

        conn = side.track(side.api.connect(side.path(), factory=Sub))
        return type(conn) is Sub, conn.marker, isinstance(conn, side.api.Connection), conn.execute("SELECT 1").fetchall()

    diff.check(run)


def test_cursor_factory_subclass(diff):
    """conn.cursor(factory=Sub) where Sub subclasses the module's Cursor."""

    def run(side):
        class Sub(side.api.Cursor):
            marker = "sub"

        conn = side.connect()
        cur = conn.cursor(factory=Sub)
        return type(cur) is Sub, cur.marker, cur.execute("SELECT 1").fetchall(), cur.connection is conn

    diff.check(run)


def test_cursor_factory_not_a_cursor(diff):
    def run(side):
        return side.connect().cursor(factory=lambda conn: object())

    diff.check(run)
