"""executemany() batches that take the bulk paths (PostgreSQL COPY, MariaDB one
multi-row INSERT) or are turned away from them: same results as sqlite3."""

from __future__ import annotations

import sqlite3 as _std

import pytest

from .harness import attempt

CREATE = "CREATE TABLE b(id INTEGER PRIMARY KEY, s TEXT, n INTEGER, r REAL, x BLOB, u)"
ROWS = "SELECT id, s, n, r, x, u FROM b ORDER BY id"
COUNTERS = "SELECT last_insert_rowid(), changes(), total_changes()"


def _run(side, batches, *, begin=False):
    conn = side.connect(isolation_level=None)
    conn.execute(CREATE)
    cur = conn.cursor()
    out = []
    if begin:
        conn.execute("BEGIN")
    for sql, seq in batches:
        result = attempt(cur.executemany, sql, seq)
        out.append((result if isinstance(result, Exception) else None, cur.rowcount, cur.lastrowid))
        out.append(conn.execute(COUNTERS).fetchone())
    if begin:
        conn.execute("COMMIT")
    cur.execute("INSERT INTO b(s) VALUES ('after')")
    out.append(cur.lastrowid)
    out.append(conn.execute(ROWS).fetchall())
    return out


AUTO = "INSERT INTO b(s, n) VALUES (?, ?)"
EXPLICIT = "INSERT INTO b(id, s, n) VALUES (?, ?, ?)"
NO_ID = "INSERT INTO b(s, n, r, x, u) VALUES (?, ?, ?, ?, ?)"
TRICKY = ["tab\there", "new\nline", "back\\slash", "quote'\"", "\\N", "", "é€😀", "\r\n", "%s %% %(x)s"]


def test_bulk_automatic_ids(diff):
    diff.check(lambda side: _run(side, [(AUTO, [(f"r{i}", i) for i in range(50)])]))


def test_bulk_automatic_ids_in_transaction(diff):
    diff.check(lambda side: _run(side, [(AUTO, [(f"r{i}", i) for i in range(50)])] * 2, begin=True))


def test_bulk_explicit_ids_then_automatic(diff):
    """MariaDB: last_insert_rowid() after a multi-row INSERT of explicit ids is off (the OK
    packet names the last explicit id, not the first): a known gap, as before issue 8."""
    batches = [(EXPLICIT, [(100 + i, f"e{i}", i) for i in range(5)]), (AUTO, [("a", 1), ("b", 2)])]
    diff.check(lambda side: _run(side, batches))


def test_bulk_every_column_and_tricky_text(diff):
    rows = [(text, i, i / 4, bytes([i, 0, 255]), text) for i, text in enumerate(TRICKY)]
    rows.append((None, None, None, None, None))
    diff.check(lambda side: _run(side, [(NO_ID, rows)]))


def test_bulk_nul_and_escape_characters(diff):
    diff.check(lambda side: _run(side, [(AUTO, [("a\x00b", 1), ("\uffff", 2), ("x\uffff0", 3)])]))


def test_bulk_duplicate_in_the_middle(diff):
    batches = [(EXPLICIT, [(1, "a", 1), (2, "b", 2), (1, "dup", 3), (3, "c", 4)])]
    diff.check(lambda side: _run(side, batches))
    diff.check(lambda side: _run(side, batches, begin=True))


def test_bulk_mixed_kinds_in_a_column(diff):
    diff.check(lambda side: _run(side, [(AUTO, [("a", 1), (2, "3"), (None, 4.0), ("d", None)])]))


def test_bulk_iterator_raising_keeps_earlier_items(diff):
    def rows():
        yield ("a", 1)
        yield ("b", 2)
        raise KeyError("from the generator")

    diff.check(lambda side: _run(side, [(AUTO, rows())]))


def test_bulk_larger_than_one_statement(diff):
    """Over PyMySQL's 1 MB statement size: several statements, so the guarded path."""
    diff.check(lambda side: _run(side, [(AUTO, [("x" * 1000 + str(i), i) for i in range(1200)])])[-2:-1])


def test_bulk_floats_and_nan(diff):
    """Floats through the bulk path; NaN binds as NULL, as SQLite stores it."""
    values = [float("nan"), 1e300, 5e-324, 0.1, 2.0 ** 53 + 1, -1.5]
    rows = [(f"f{i}", value) for i, value in enumerate(values)]
    diff.check(lambda side: _run(side, [("INSERT INTO b(s, r) VALUES (?, ?)", rows)]))
    diff.check(lambda side: _run(side, [("INSERT INTO b(s, r) VALUES (?, ?)", rows)], begin=True))


def test_bulk_infinities_and_negative_zero(diff):
    """SQLite keeps ±inf and reads -0.0 back from a REAL column as 0.0."""
    rows = [("a", float("inf")), ("b", float("-inf")), ("c", -0.0)]
    diff.check(lambda side: _run(side, [("INSERT INTO b(s, r) VALUES (?, ?)", rows)]))


def test_bulk_unencodable_text_keeps_earlier_items(diff):
    """sqlite3 binds item by item: the items before a lone surrogate are stored."""
    diff.check(lambda side: _run(side, [(AUTO, [("ok", 1), ("bad \ud800", 2)])]))


def test_bulk_explicit_ids_go_through_copy(backend):
    """PostgreSQL: an id column bound in VALUES is COALESCE(%s, nextval(...)) (a NULL takes
    the next id); such a batch still goes through COPY when every id is given."""
    if backend.name != "postgres":
        pytest.skip("PostgreSQL's COPY path")
    conn = backend.connect(backend.path("copy.db"), isolation_level=None)
    conn.execute(CREATE)
    conn.executemany(EXPLICIT, [(i, f"e{i}", i) for i in range(1, 51)])
    plans = [plan for (sql, _count), plan in conn._backend._copy_plans.items() if "NEXTVAL" in sql]
    assert plans and plans[0] is not None and plans[0].rowid == 0
    conn.executemany(EXPLICIT, [(None, "auto", 0)])
    assert conn.execute("SELECT max(id) FROM b").fetchone() == (51,)


def _std_refuses_executemany_returning() -> bool:
    """Python 3.12+'s sqlite3 fails executemany() of a statement with RETURNING on its
    second item ('bad parameter or other API misuse'): the servers keep 3.11's behaviour."""
    conn = _std.connect(":memory:")
    try:
        conn.execute("CREATE TABLE b(id INTEGER PRIMARY KEY)")
        conn.executemany("INSERT INTO b(id) VALUES (?) RETURNING id", [(1,), (2,)])
    except _std.InterfaceError:
        return True
    finally:
        conn.close()
    return False


@pytest.mark.skipif(_std_refuses_executemany_returning(), reason="this Python's sqlite3 refuses executemany … RETURNING")
def test_bulk_returning_explicit_ids_then_automatic(diff):
    """An executemany INSERT … RETURNING of explicit ids moves the next automatic id on
    (PostgreSQL: the identity sequence; it collided before).  The rowcount is left out:
    sqlite3 reports its own for RETURNING statements."""
    def run(side):
        conn = side.connect(isolation_level=None)
        conn.execute(CREATE)
        conn.executemany("INSERT INTO b(id, s) VALUES (?, ?) RETURNING s", [(20, "x"), (30, "y")])
        conn.execute("INSERT INTO b(s) VALUES ('after')")
        return conn.execute(COUNTERS).fetchone()[0], conn.execute(ROWS).fetchall()
    diff.check(run)
