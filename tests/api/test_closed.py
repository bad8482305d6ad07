"""Closed connections and closed cursors: what still works and what raises."""

from __future__ import annotations

import pytest

CONNECTION_OPERATIONS = {
    "execute": lambda c: c.execute("SELECT 1"),
    "executemany": lambda c: c.executemany("INSERT INTO t VALUES (?)", [(1,)]),
    "executescript": lambda c: c.executescript("SELECT 1;"),
    "cursor": lambda c: c.cursor(),
    "commit": lambda c: c.commit(),
    "rollback": lambda c: c.rollback(),
    "close_again": lambda c: c.close(),
    "in_transaction": lambda c: c.in_transaction,
    "total_changes": lambda c: c.total_changes,
    "isolation_level_get": lambda c: c.isolation_level,
    "isolation_level_set": lambda c: setattr(c, "isolation_level", None),
    "row_factory_get": lambda c: c.row_factory,
    "row_factory_set": lambda c: setattr(c, "row_factory", None),
    "text_factory_get": lambda c: c.text_factory is str,
    "interrupt": lambda c: c.interrupt(),
    "set_trace_callback": lambda c: c.set_trace_callback(None),
    "set_progress_handler": lambda c: c.set_progress_handler(None, 1),
    "create_function": lambda c: c.create_function("f", 0, lambda: 1),
    "enter": lambda c: c.__enter__() is c,
}


@pytest.mark.parametrize("operation", CONNECTION_OPERATIONS.values(), ids=CONNECTION_OPERATIONS.keys())
def test_closed_connection(diff, operation):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE t(a INTEGER)")
        conn.close()
        result = operation(conn)
        return result if not hasattr(result, "fetchall") else "a cursor"

    diff.check(run)


CURSOR_OPERATIONS = {
    "execute": lambda cur: cur.execute("SELECT 1"),
    "executemany": lambda cur: cur.executemany("INSERT INTO t VALUES (?)", [(1,)]),
    "executescript": lambda cur: cur.executescript("SELECT 1;"),
    "fetchone": lambda cur: cur.fetchone(),
    "fetchmany": lambda cur: cur.fetchmany(1),
    "fetchall": lambda cur: cur.fetchall(),
    "iterate": lambda cur: list(cur),
    "next": lambda cur: next(cur),
    "close_again": lambda cur: cur.close(),
    "attributes": lambda cur: (cur.description, cur.rowcount, cur.lastrowid, cur.arraysize, cur.row_factory),
    "setinputsizes": lambda cur: cur.setinputsizes([]),
    "setoutputsize": lambda cur: cur.setoutputsize(1),
}


@pytest.mark.parametrize("closing", ["cursor", "connection"])
@pytest.mark.parametrize("operation", CURSOR_OPERATIONS.values(), ids=CURSOR_OPERATIONS.keys())
def test_closed_cursor(diff, operation, closing):
    """A cursor whose result is half read, after closing the cursor itself or its connection."""

    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE t(a INTEGER)")
        conn.executemany("INSERT INTO t VALUES (?)", [(1,), (2,), (3,)])
        cur = conn.execute("SELECT a FROM t ORDER BY a")
        cur.fetchone()
        (cur if closing == "cursor" else conn).close()
        result = operation(cur)
        return result if result is not cur else "the cursor"

    diff.check(run)


def test_cursor_usable_after_other_cursor_closed(diff):
    def run(side):
        conn = side.connect()
        one = conn.execute("SELECT 1")
        two = conn.execute("SELECT 2")
        one.close()
        return two.fetchall(), conn.execute("SELECT 3").fetchall()

    diff.check(run)
