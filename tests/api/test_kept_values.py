"""Values a server column would not keep as SQLite does: refused, not changed.

A blob in a column that is not BLOB, a REAL that is no 64-bit integer in an
INTEGER column: SQLite keeps the value as it is; a server column would keep
something else (the ``\\x..`` escape text, 3 for 2.5), so the shim refuses it
with NotSupportedError naming the column (SQLite's own error in a STRICT table or
for the rowid), before anything is written, and leaves the transaction as it was.
"""

from __future__ import annotations

import sqlite3

import pytest

import hermes_dbapi

SCHEMA = "CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, u, i INTEGER, r REAL, b BLOB)"
NOT_BINARY = {"k": "TEXT", "u": None, "i": "INTEGER", "r": "REAL"}


@pytest.fixture
def conn(backend):
    c = backend.connect(isolation_level=None)
    c.execute(SCHEMA)
    return c


def _refused(backend, column):
    """The error a blob into ``column`` gets on this backend (None: stored, as in SQLite)."""
    if not backend.is_server:
        return None
    declared = NOT_BINARY[column]
    where = f"{declared or 'untyped'} column t.{column}"
    return f"a BLOB value in {where} is not supported on"


@pytest.mark.parametrize("column", list(NOT_BINARY))
@pytest.mark.parametrize("value", [b"x", bytearray(b"\xff\x00"), memoryview(b"ab")], ids=["bytes", "bytearray", "memoryview"])
def test_bound_blob_into_column_without_blobs(backend, conn, column, value):
    expected = _refused(backend, column)
    if expected is None:
        conn.execute(f"INSERT INTO t ({column}) VALUES (?)", (value,))
        assert conn.execute(f"SELECT {column}, typeof({column}) FROM t").fetchall() == [(bytes(value), "blob")]
        return
    conn.execute("BEGIN")
    conn.execute("INSERT INTO t (k) VALUES ('kept')")
    with pytest.raises(hermes_dbapi.NotSupportedError) as caught:
        conn.execute(f"INSERT INTO t ({column}) VALUES (?)", (value,))
    assert str(caught.value).startswith(expected)
    assert conn.in_transaction  # the statement failed alone, as a failed statement does in SQLite
    conn.execute("COMMIT")
    assert conn.execute("SELECT k FROM t").fetchall() == [("kept",)]


def test_blob_into_blob_column_is_kept(conn):
    conn.execute("INSERT INTO t (b) VALUES (?)", (b"\x00\xff",))
    conn.execute("UPDATE t SET b = ? WHERE id = 1", (bytearray(b"\x01"),))
    assert conn.execute("SELECT b, typeof(b) FROM t").fetchall() == [(b"\x01", "blob")]


def test_text_and_numbers_still_bound_to_those_columns(conn):
    conn.execute("INSERT INTO t (k, u, i, r) VALUES (?, ?, ?, ?)", ("a", "b", 3, 2.5))
    assert conn.execute("SELECT k, u, i, r FROM t").fetchall() == [("a", "b", 3, 2.5)]


def test_update_set_and_upsert_are_refused_too(backend, conn):
    conn.execute("INSERT INTO t (id, k) VALUES (1, 'a')")
    statements = [
        "UPDATE t SET k = ? WHERE id = 1",
        "INSERT INTO t (id, k) VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET k = ?",
        "INSERT INTO t VALUES (2, ?, NULL, NULL, NULL, NULL)",  # no column list: the table's order
    ]
    for sql in statements:
        if backend.is_server:
            with pytest.raises(hermes_dbapi.NotSupportedError, match=r"BLOB value in TEXT column t\.k"):
                conn.execute(sql, (b"x",))
        else:
            conn.execute(sql, (b"x",))
    expected = [(1, "a")] if backend.is_server else [(1, b"x"), (2, b"x")]
    assert conn.execute("SELECT id, k FROM t ORDER BY id").fetchall() == expected


_BLOB_IN_TEXT = ("k", "blob", r"BLOB value in TEXT column t\.k")
_REAL_IN_INTEGER = ("i", "real", r"REAL value other than a 64-bit integer in INTEGER column t\.i")


@pytest.mark.parametrize(("spelled", "target"), [
    *[(blob, _BLOB_IN_TEXT) for blob in ("X'78'", "zeroblob(2)", "CAST('a' AS BLOB)", "(X'00')")],
    *[(real, _REAL_IN_INTEGER) for real in ("2.5", "-0.5", "1e20", "99999999999999999999")],
])
def test_value_spelled_in_the_statement(backend, conn, spelled, target):
    column, sqlite_type, message = target
    sql = f"INSERT INTO t ({column}) VALUES ({spelled})"
    if backend.is_server:
        with pytest.raises(hermes_dbapi.NotSupportedError, match=message):
            conn.execute(sql)
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)
    else:
        conn.execute(sql)
        assert conn.execute(f"SELECT typeof({column}) FROM t").fetchone() == (sqlite_type,)


def test_rowid_alias_keeps_sqlite_mismatch(conn):
    with pytest.raises(sqlite3.IntegrityError, match="datatype mismatch"):
        conn.execute("INSERT INTO t (id) VALUES (?)", (b"x",))


@pytest.mark.parametrize(("column", "good", "bad", "message"), [
    ("k", "a", b"c", r"BLOB value in TEXT column t\.k"),
    ("i", 1.0, 2.5, r"REAL value other than a 64-bit integer in INTEGER column t\.i"),
])
def test_executemany_runs_the_items_before_the_refused_value(backend, conn, column, good, bad, message):
    items = [(1, good), (2, good), (3, bad), (4, good)]
    sql = f"INSERT INTO t (id, {column}) VALUES (?, ?)"
    conn.execute("BEGIN")
    if backend.is_server:
        with pytest.raises(hermes_dbapi.NotSupportedError, match=message):
            conn.executemany(sql, items)
        expected = [(1,), (2,)]  # sqlite3 stops at the item that fails, the earlier ones done
    else:
        conn.executemany(sql, items)
        expected = [(1,), (2,), (3,), (4,)]
    conn.execute("COMMIT")
    assert conn.execute("SELECT id FROM t ORDER BY id").fetchall() == expected


def test_executemany_of_text_keeps_its_bulk_path(conn):
    conn.executemany("INSERT INTO t (k, b) VALUES (?, ?)", [(str(n), bytes([n])) for n in range(50)])
    assert conn.execute("SELECT count(*), sum(length(b)) FROM t").fetchone() == (50, 50)


@pytest.mark.parametrize("sql", ["INSERT INTO t (id) VALUES (X'31')", "UPDATE t SET id = CAST('1' AS BLOB)"])
def test_rowid_alias_spelled_blob_keeps_sqlite_mismatch(conn, sql):
    conn.execute("INSERT INTO t (id) VALUES (5)")
    with pytest.raises(sqlite3.IntegrityError, match="datatype mismatch"):
        conn.execute(sql)
    assert conn.execute("SELECT id FROM t").fetchall() == [(5,)]


@pytest.mark.parametrize("name", ["rowid", "oid", "_rowid_"])
def test_rowid_by_its_own_name_keeps_sqlite_mismatch(backend, name):
    conn = backend.connect(isolation_level=None)
    conn.execute("CREATE TABLE plain (v TEXT)")
    with pytest.raises(sqlite3.IntegrityError, match="datatype mismatch"):
        conn.execute(f"INSERT INTO plain ({name}, v) VALUES (?, 'a')", (b"1",))
    assert conn.execute("SELECT count(*) FROM plain").fetchone() == (0,)


STRICT = "CREATE TABLE s (id INTEGER PRIMARY KEY, n INT, k TEXT, r REAL, b BLOB, a ANY) STRICT"


@pytest.mark.parametrize("column", ["id", "n", "k", "r"])
def test_strict_table_refuses_as_sqlite(backend, column):
    """A STRICT table refuses a blob in SQLite too: the same class and message everywhere."""
    conn = backend.connect(isolation_level=None)
    conn.execute(STRICT)
    expected = "datatype mismatch" if column == "id" else \
        f"cannot store BLOB value in {'INT' if column == 'n' else 'TEXT' if column == 'k' else 'REAL'} column s.{column}"
    for sql in (f"INSERT INTO s ({column}) VALUES (?)", f"INSERT INTO s ({column}) VALUES (X'31')"):
        with pytest.raises(sqlite3.IntegrityError) as caught:
            conn.execute(sql, (b"1",) if "?" in sql else ())
        assert str(caught.value) == expected
    assert conn.execute("SELECT count(*) FROM s").fetchone() == (0,)


def test_strict_blob_column_keeps_blobs(conn, backend):
    conn.execute(STRICT)
    conn.execute("INSERT INTO s (b) VALUES (?)", (b"\x00",))
    assert conn.execute("SELECT b FROM s").fetchall() == [(b"\x00",)]


@pytest.mark.parametrize("value", [2.5, -0.5, 1e20, float("inf"), 2.0**63])
@pytest.mark.parametrize("column", ["i", "bo"])
def test_real_that_is_no_integer_into_integer_column(backend, value, column):
    conn = backend.connect(isolation_level=None)
    conn.execute("CREATE TABLE n (id INTEGER PRIMARY KEY, i INTEGER, bo BOOLEAN)")
    if not backend.is_server:
        conn.execute(f"INSERT INTO n ({column}) VALUES (?)", (value,))
        assert conn.execute(f"SELECT {column}, typeof({column}) FROM n").fetchone() == (value, "real")
        return
    declared = "INTEGER" if column == "i" else "BOOLEAN"
    message = rf"a REAL value other than a 64-bit integer in {declared} column n\.{column} is not supported"
    with pytest.raises(hermes_dbapi.NotSupportedError, match=message):
        conn.execute(f"INSERT INTO n ({column}) VALUES (?)", (value,))
    with pytest.raises(hermes_dbapi.NotSupportedError, match=message):
        conn.execute(f"UPDATE n SET {column} = ?", (value,))
    assert conn.execute("SELECT count(*) FROM n").fetchone() == (0,)


@pytest.mark.parametrize("value", [3.0, -7.0, 3, True])
def test_whole_numbers_into_integer_column_are_kept(diff, value):
    diff.steps(["CREATE TABLE n (i INTEGER)", ("sql", "INSERT INTO n VALUES (?)", (value,)), "SELECT i, typeof(i) FROM n"])


def test_strict_integer_column_refuses_a_fraction_as_sqlite(backend):
    conn = backend.connect(isolation_level=None)
    conn.execute(STRICT)
    with pytest.raises(sqlite3.IntegrityError) as caught:
        conn.execute("INSERT INTO s (n) VALUES (?)", (2.5,))
    assert str(caught.value) == "cannot store REAL value in INT column s.n"
    conn.execute("INSERT INTO s (n) VALUES (?)", (2.0,))
    assert conn.execute("SELECT n, typeof(n) FROM s").fetchall() == [(2, "integer")]


def test_executemany_of_whole_reals_into_integer_column(backend, conn):
    conn.executemany("INSERT INTO t (i) VALUES (?)", [(float(n),) for n in range(20)])
    assert conn.execute("SELECT sum(i), typeof(max(i)) FROM t").fetchone() == (190, "integer")
