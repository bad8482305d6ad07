"""set_trace_callback: the statements run, as sqlite3 reports them (parameters written in)."""

from __future__ import annotations

import sqlite3 as _std

import pytest

from .harness import attempt

HAS_AUTOCOMMIT = hasattr(_std, "LEGACY_TRANSACTION_CONTROL")


def _traced(side, steps, **connect):
    """Run ``steps(conn)`` with a callback set; what the callback saw, and errors inline."""
    conn = side.connect(**connect)
    seen: list = []
    conn.set_trace_callback(seen.append)
    for step in steps:
        result = attempt(step, conn)
        if isinstance(result, Exception):
            seen.append(result)
    return seen


def _executes(*statements):
    """Steps that execute each SQL text (or (text, parameters) pair) in turn."""
    return [lambda c, s=s: c.execute(*((s,) if isinstance(s, str) else s)) for s in statements]


def test_parameters_are_written_in_as_literals(diff):
    values = (1, -7, 2**62, 2.5, 1e20, 1 / 3, -0.0, float("nan"), "it's", "é\n", "a\x00b",
              b"\x01\xff", b"", None, True)
    sql = "SELECT " + ", ".join("?" for _ in values)
    diff.check(lambda side: _traced(side, [lambda c: c.execute(sql, values)]))


def test_named_and_numbered_parameters(diff):
    diff.check(lambda side: _traced(side, [
        lambda c: c.execute("SELECT :a, :b, :a, '?' -- ?\n", {"a": 1, "b": "x"}),
        lambda c: c.execute("SELECT ?2, ?1, ?2", (1, 2)),
        lambda c: c.execute("SELECT @x, $y", {"x": 3, "y": 4}),
    ]))


def test_implicit_begin_commit_and_rollback(diff):
    diff.check(lambda side: _traced(side, [
        lambda c: c.execute("CREATE TABLE t(a)"),
        lambda c: c.execute("INSERT INTO t VALUES (?)", (1,)),
        lambda c: c.commit(),
        lambda c: c.commit(),  # no transaction: nothing to report
        lambda c: c.execute("UPDATE t SET a = 2"),
        lambda c: c.rollback(),
        lambda c: c.rollback(),
    ]))


@pytest.mark.parametrize("level", ["DEFERRED", "IMMEDIATE", "EXCLUSIVE"])
def test_implicit_begin_names_the_isolation_level(diff, level):
    steps = _executes("CREATE TABLE t(a)", "INSERT INTO t VALUES (1)") + [lambda c: c.commit()]
    diff.check(lambda side: _traced(side, steps, isolation_level=level))


def test_explicit_transaction_statements_are_reported_as_written(diff):
    steps = _executes("CREATE TABLE t(a)", "BEGIN IMMEDIATE", "SAVEPOINT s", "INSERT INTO t VALUES (1)",
                      "ROLLBACK TO s", "RELEASE s", "COMMIT")
    diff.check(lambda side: _traced(side, steps, isolation_level=None))


def test_a_statement_that_fails_to_prepare_or_bind_is_not_reported(diff):
    steps = _executes("CREATE TABLE t(a)", "SELECT nosuch FROM t", "INSERT INTO nosuch VALUES (1)", "SELEC 1",
                      ("SELECT ?", (1, 2)), ("SELECT ?", (object(),)), "INSERT INTO t VALUES (1)")
    diff.check(lambda side: _traced(side, steps))


def test_a_statement_that_fails_while_running_is_reported(diff):
    steps = _executes("CREATE TABLE t(k INTEGER UNIQUE)", ("INSERT INTO t VALUES (?)", (1,)),
                      ("INSERT INTO t VALUES (?)", (1,)))
    diff.check(lambda side: _traced(side, steps))


def test_executemany_reports_each_item_up_to_a_failing_one(diff):
    diff.check(lambda side: _traced(side, [
        lambda c: c.execute("CREATE TABLE t(k INTEGER UNIQUE, v TEXT)"),
        lambda c: c.executemany("INSERT INTO t VALUES (?, ?)", [(1, "a"), (2, None)]),
        lambda c: c.executemany("INSERT INTO t VALUES (:k, :v)", [{"k": 3, "v": "c"}, {"k": 1, "v": "x"}, {"k": 9, "v": "z"}]),
        lambda c: c.executemany("UPDATE t SET v = ? WHERE k = ?", iter([("q", 2), ("r", 3)])),
        lambda c: c.executemany("INSERT INTO t VALUES (?, ?)", []),
        lambda c: c.execute("SELECT count(*), total(k) FROM t").fetchall(),
    ]))


def test_executemany_rowcount_and_lastrowid_stay_as_untraced(diff):
    def run(side):
        conn = side.connect()
        conn.set_trace_callback(lambda s: None)
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER)")
        cur = conn.cursor()
        cur.execute("INSERT INTO t(k) VALUES (0)")
        cur.executemany("INSERT INTO t(k) VALUES (?)", [(1,), (2,), (3,)])
        inserted = (cur.rowcount, cur.lastrowid)
        cur.executemany("UPDATE t SET k = k + 1 WHERE k >= ?", [(2,), (1,)])
        return inserted, cur.rowcount, cur.lastrowid, conn.total_changes
    diff.check(run)


def test_executescript_reports_each_statement_as_split(diff):
    diff.check(lambda side: _traced(side, [
        lambda c: c.execute("CREATE TABLE t(a INTEGER)"),
        lambda c: c.execute("INSERT INTO t VALUES (1)"),  # open: executescript commits it first
        lambda c: c.executescript("INSERT INTO t VALUES (2);\n  UPDATE t SET a = 3 WHERE a = 2 ;SELECT 1"),
        lambda c: c.executescript("INSERT INTO t VALUES (4); INSERT INTO nosuch VALUES (5); SELECT 2;"),
    ]))


def test_a_callback_that_raises_is_ignored_and_none_stops_tracing(diff):
    def run(side):
        conn = side.connect()
        seen = []
        conn.set_trace_callback(lambda s: 1 / 0)
        first = conn.execute("SELECT 1").fetchall()
        conn.set_trace_callback(seen.append)
        conn.execute("SELECT 2")
        conn.set_trace_callback(None)
        conn.execute("SELECT 3")
        return first, seen
    diff.check(run)


@pytest.mark.skipif(not HAS_AUTOCOMMIT, reason="Connection.autocommit is Python 3.12+")
def test_autocommit_false_reports_commit_then_begin(diff):
    diff.check(lambda side: _traced(side, [
        lambda c: c.execute("CREATE TABLE t(a)"),
        lambda c: c.execute("INSERT INTO t VALUES (1)"),
        lambda c: c.commit(),
        lambda c: c.rollback(),
        lambda c: c.close(),
    ], autocommit=False))
