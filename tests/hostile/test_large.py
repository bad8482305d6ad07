"""Large values and large statements (issue 9, item 2).

50 MB TEXT and BLOB values insert and read back on SQLite and PostgreSQL.  On
MySQL/MariaDB a statement cannot exceed the server's ``max_allowed_packet``
(16 MB here; a server setting we do not change): a value over it raises an
``OperationalError`` naming ``max_allowed_packet`` and leaves the connection and
the table as they were; when the server allows it, the value round-trips.
Also a 100,000-row ``executemany`` and an ``IN`` list of 1000 parameters.
"""

from __future__ import annotations

import pytest

import hermes_dbapi

from ._diff import same

MB = 1 << 20
BIG = 50 * MB

big = pytest.mark.slow  # the 50 MB cases: a few seconds each, deselect with -m "not slow"


def _server_limit(conn) -> int | None:
    """max_allowed_packet of a MySQL backend, or None when the backend has no such limit."""
    backend = getattr(conn, "_backend", None)
    if getattr(backend, "kind", "") != "mysql":
        return None
    return backend._packet_limit()


@big
@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", ["text", "blob"])
def test_50mb_value(backend, kind):
    conn = backend.connect()
    conn.execute(f"CREATE TABLE big(id INTEGER PRIMARY KEY, v {kind.upper()})")
    conn.commit()
    value: str | bytes = ("0123456789\x00abcdé" * (BIG // 16))[:BIG] if kind == "text" else bytes(range(256)) * (BIG // 256)
    limit = _server_limit(conn)
    if limit is not None and limit < 2 * len(value):
        with pytest.raises(hermes_dbapi.OperationalError, match="max_allowed_packet") as info:
            conn.execute("INSERT INTO big(v) VALUES (?)", (value,))
        assert info.value.sqlite_errorname == "SQLITE_TOOBIG"
        assert conn.execute("SELECT count(*) FROM big").fetchone() == (0,)  # still usable, nothing stored
        conn.execute("INSERT INTO big(v) VALUES (?)", (value[: MB],))
        assert conn.execute("SELECT v FROM big").fetchone()[0] == value[:MB]
        return
    conn.execute("INSERT INTO big(v) VALUES (?)", (value,))
    conn.commit()
    back = conn.execute("SELECT v FROM big").fetchone()[0]
    assert type(back) is type(value) and len(back) == len(value) and back == value
    if kind == "blob":  # length() of text stops at the first NUL in SQLite: test_roundtrip.py has that gap
        assert conn.execute("SELECT length(v) FROM big").fetchone()[0] == len(value)


@pytest.mark.timeout(120)
def test_executemany_100k(pair):
    rows = [(i, f"row {i} '\"%s?", i * 0.5, bytes([i % 256])) for i in range(100_000)]

    def run(conn):
        conn.execute("CREATE TABLE many(id INTEGER PRIMARY KEY, t TEXT, r REAL, b BLOB)")
        cur = conn.executemany("INSERT INTO many VALUES (?, ?, ?, ?)", rows)
        count = cur.rowcount
        conn.commit()
        return [
            count,
            conn.execute("SELECT count(*), sum(id), sum(r), max(t), sum(length(b)) FROM many").fetchone(),
            conn.execute("SELECT * FROM many WHERE id IN (0, 99999, 54321) ORDER BY id").fetchall(),
        ]

    same(pair, run)


@pytest.mark.parametrize("size", [999, 1000, 5000])
def test_in_list_of_parameters(pair, size):
    def run(conn):
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, str(i)) for i in range(0, 3 * size, 2)])
        marks = ",".join("?" * size)
        ids = list(range(size))
        texts = [str(i) for i in range(size)]
        return [
            conn.execute(f"SELECT count(*), sum(id) FROM t WHERE id IN ({marks})", ids).fetchone(),
            conn.execute(f"SELECT count(*) FROM t WHERE v IN ({marks})", texts).fetchone(),
            conn.execute(f"SELECT count(*) FROM t WHERE id NOT IN ({marks})", ids).fetchone(),
        ]

    same(pair, run)


def test_long_statement_text(pair):
    """A 1 MB string literal in the SQL text itself, not a parameter."""
    literal = "x'y" * 350_000

    def run(conn):
        conn.execute("CREATE TABLE t(v TEXT)")
        conn.execute("INSERT INTO t VALUES ('" + literal.replace("'", "''") + "')")
        return [conn.execute("SELECT length(v), v = ? FROM t", (literal,)).fetchone()]

    same(pair, run)
