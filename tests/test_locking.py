"""BEGIN IMMEDIATE/EXCLUSIVE hold the namespace's write lock, as SQLite's do.

Every test runs with both lock strategies (URL option ``lock=advisory``, the
default, and ``lock=table``, the lock row for PgBouncer/CockroachDB); SQLite
has one lock, so it runs the advisory case only.
"""

from __future__ import annotations

import time

import pytest

import hermes_dbapi

TIMEOUT = 0.6


@pytest.fixture(params=["advisory", "table"])
def locking(request, backend, monkeypatch):
    """The backend with ``HERMES_DB_URL`` carrying ``lock=<strategy>``."""
    strategy = request.param
    if not backend.is_server:
        if strategy != "advisory":
            pytest.skip("SQLite has a single locking strategy")
        return backend
    url = f"{backend.url}&lock={strategy}"
    monkeypatch.setenv("HERMES_DB_URL", url)
    backend.url = url
    return backend


def _pair(backend):
    path = backend.path("lock.db")
    first = backend.connect(path, timeout=TIMEOUT, isolation_level=None)
    second = backend.connect(path, timeout=TIMEOUT, isolation_level=None)
    first.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    return first, second


def _assert_busy(conn, started: float) -> None:
    waited = time.monotonic() - started
    assert TIMEOUT * 0.8 <= waited <= TIMEOUT * 1.2 + 0.15, waited
    assert conn.in_transaction is False


@pytest.mark.parametrize("mode", ["IMMEDIATE", "EXCLUSIVE"])
def test_second_writer_waits_the_timeout_then_busy(locking, mode):
    first, second = _pair(locking)
    first.execute(f"BEGIN {mode}")
    started = time.monotonic()
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        second.execute(f"BEGIN {mode}")
    assert str(info.value) == "database is locked"
    assert info.value.sqlite_errorcode == 5 and info.value.sqlite_errorname == "SQLITE_BUSY"
    _assert_busy(second, started)
    first.rollback()


@pytest.mark.parametrize("release", ["commit", "rollback", "close", "error-then-rollback"])
def test_lock_is_released(locking, release):
    first, second = _pair(locking)
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO t (v) VALUES ('a')")
    if release == "commit":
        first.commit()
    elif release == "rollback":
        first.rollback()
    elif release == "close":
        first.close()
    else:
        with pytest.raises(hermes_dbapi.IntegrityError):
            first.execute("INSERT INTO t (id, v) VALUES (1, 'dup')")
        first.rollback()
    second.execute("BEGIN IMMEDIATE")
    assert second.in_transaction
    second.rollback()


def test_deferred_transactions_take_no_global_lock(locking):
    if locking.name == "sqlite":
        pytest.skip("SQLite's deferred transaction is the reference here: it locks on first write")
    first, second = _pair(locking)
    first.execute("BEGIN")
    second.execute("BEGIN")
    assert first.in_transaction and second.in_transaction
    first.rollback()
    second.rollback()


@pytest.mark.parametrize("timeout", [0.0, 1.4])
def test_timeout_is_the_busy_timeout(locking, timeout):
    """Other busy timeouts than TIMEOUT: 0 fails at once, 1.4 s waits 1.4 s ± 20%."""
    path = locking.path("lock.db")
    first = locking.connect(path, timeout=timeout, isolation_level=None)
    second = locking.connect(path, timeout=timeout, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(hermes_dbapi.OperationalError, match="^database is locked$"):
        second.execute("BEGIN IMMEDIATE")
    waited = time.monotonic() - started
    assert timeout * 0.8 <= waited <= timeout * 1.2 + 0.15, waited
    assert not second.in_transaction
    first.commit()
    second.execute("BEGIN IMMEDIATE")
    second.rollback()


def test_lock_held_until_commit_serializes_writers(locking):
    """The waiting writer gets the lock as soon as the holder commits, and sees its row."""
    import threading

    first, second = _pair(locking)
    second.close()
    second = locking.connect(locking.path("lock.db"), timeout=5.0, isolation_level=None, check_same_thread=False)
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO t (v) VALUES ('first')")
    got: list = []

    def wait_for_lock():
        started = time.monotonic()
        second.execute("BEGIN IMMEDIATE")
        got.append(time.monotonic() - started)
        got.append(second.execute("SELECT v FROM t").fetchall())
        second.rollback()

    thread = threading.Thread(target=wait_for_lock)
    thread.start()
    time.sleep(0.4)
    first.commit()
    thread.join(10)
    assert got and 0.3 <= got[0] <= 2.0, got
    assert got[1] == [("first",)]


def test_close_with_open_immediate_transaction_releases_lock_and_rolls_back(locking):
    first, second = _pair(locking)
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO t (v) VALUES ('never committed')")
    first.close()
    second.execute("BEGIN IMMEDIATE")  # would wait TIMEOUT and fail if the lock leaked
    assert second.execute("SELECT count(*) FROM t").fetchone() == (0,)
    second.rollback()


def test_dropped_connection_leaks_no_lock(locking):
    """A connection the application forgets (no close) frees the lock once collected."""
    import gc

    first, second = _pair(locking)
    first.execute("BEGIN IMMEDIATE")
    locking._connections.remove(first)
    del first
    gc.collect()
    second.execute("BEGIN IMMEDIATE")
    second.rollback()


def test_shared_connection_eight_threads_write_funnel(backend):
    """``check_same_thread=False``: 8 threads share one connection through Hermes'
    write funnel (an application lock + BEGIN IMMEDIATE + retry), while a second
    connection competes for the write lock and readers read on the shared one."""
    import sys
    import threading
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    from sessiondb import SessionDB

    path = backend.path("shared.db")
    db = SessionDB(path)
    rival = SessionDB(path)
    backend._connections.extend([db.conn, rival.conn])
    for sid in ("s0", "s1", "rival"):
        db.create_session(sid, "cli")
    per_thread, errors = 25, []

    def writer(n: int) -> None:
        try:
            for i in range(per_thread):
                db.append_message(f"s{n % 2}", "user", f"t{n} m{i}")
                if i % 5 == 0:
                    db.get_messages(f"s{n % 2}")  # a read on the shared connection, between writes
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    def competitor() -> None:
        try:
            for i in range(40):
                rival.append_message("rival", "user", f"r{i}")
        except Exception as exc:  # pragma: no cover
            errors.append(repr(exc))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)] + [threading.Thread(target=competitor)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors[:3]
    assert not db.conn.in_transaction and not rival.conn.in_transaction
    rows = db.conn.execute("SELECT session_id, COUNT(*), COUNT(DISTINCT content) FROM messages GROUP BY session_id")
    counts = {sid: (n, distinct) for sid, n, distinct in rows.fetchall()}
    assert counts == {"s0": (100, 100), "s1": (100, 100), "rival": (40, 40)}
    counters = dict(db.conn.execute("SELECT id, message_count FROM sessions").fetchall())
    assert counters == {"s0": 100, "s1": 100, "rival": 40}
    # nothing leaked: another connection takes the write lock at once
    check = backend.connect(path, timeout=0, isolation_level=None)
    check.execute("BEGIN IMMEDIATE")
    check.rollback()
    db.close()
    rival.close()
