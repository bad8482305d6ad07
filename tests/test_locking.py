"""BEGIN IMMEDIATE/EXCLUSIVE hold the namespace's write lock, as SQLite's do."""

from __future__ import annotations

import time

import pytest

import hermes_dbapi

TIMEOUT = 0.6


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
def test_second_writer_waits_the_timeout_then_busy(backend, mode):
    first, second = _pair(backend)
    first.execute(f"BEGIN {mode}")
    started = time.monotonic()
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        second.execute(f"BEGIN {mode}")
    assert str(info.value) == "database is locked"
    assert info.value.sqlite_errorcode == 5 and info.value.sqlite_errorname == "SQLITE_BUSY"
    _assert_busy(second, started)
    first.rollback()


@pytest.mark.parametrize("release", ["commit", "rollback", "close", "error-then-rollback"])
def test_lock_is_released(backend, release):
    first, second = _pair(backend)
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


def test_deferred_transactions_take_no_global_lock(backend):
    if backend.name == "sqlite":
        pytest.skip("SQLite's deferred transaction is the reference here: it locks on first write")
    first, second = _pair(backend)
    first.execute("BEGIN")
    second.execute("BEGIN")
    assert first.in_transaction and second.in_transaction
    first.rollback()
    second.rollback()
