"""check_same_thread: objects used from another thread."""

from __future__ import annotations

import re
import threading

import pytest

from .harness import attempt


def _digits(message: str) -> str:
    return re.sub(r"\d+", "N", message)


def _in_thread(fn):
    box = []
    thread = threading.Thread(target=lambda: box.append(attempt(fn)))
    thread.start()
    thread.join(30)
    return box[0]


OPERATIONS = {
    "execute": lambda conn, cur: conn.execute("SELECT 1").fetchall(),
    "cursor": lambda conn, cur: conn.cursor() is not None,
    "commit": lambda conn, cur: conn.commit(),
    "rollback": lambda conn, cur: conn.rollback(),
    "close": lambda conn, cur: conn.close(),
    "in_transaction": lambda conn, cur: conn.in_transaction,
    "total_changes": lambda conn, cur: conn.total_changes,
    "isolation_level": lambda conn, cur: conn.isolation_level,
    "cursor_execute": lambda conn, cur: cur.execute("SELECT 2").fetchall(),
    "cursor_fetchone": lambda conn, cur: cur.fetchone(),
    "cursor_fetchall": lambda conn, cur: cur.fetchall(),
    "cursor_close": lambda conn, cur: cur.close(),
    "cursor_description": lambda conn, cur: cur.description,
}


UNCHECKED = ["execute", "cursor_fetchall", "commit", "close"]


@pytest.mark.parametrize(
    "operation,check_same_thread",
    [pytest.param(op, True, id=name) for name, op in OPERATIONS.items()]
    + [pytest.param(OPERATIONS[name], False, id=f"{name}-unchecked") for name in UNCHECKED],
)
def test_other_thread(diff, operation, check_same_thread):
    def run(side):
        conn = side.connect(check_same_thread=check_same_thread)
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)")
        conn.execute("INSERT INTO t(a) VALUES ('x'), ('y')")
        cur = conn.execute("SELECT a FROM t ORDER BY id")
        seen = _in_thread(lambda: operation(conn, cur))
        return seen, attempt(lambda: conn.execute("SELECT count(*) FROM t").fetchall())

    diff.check(run, normalize=_digits)


def test_connection_opened_in_thread_used_in_main(diff):
    def run(side):
        conn = _in_thread(lambda: side.connect())
        return attempt(lambda: conn.execute("SELECT 1")), attempt(conn.close)

    diff.check(run, normalize=_digits)
