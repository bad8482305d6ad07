"""Lost server connections, with real faults (issue 5, ``backends/faults.py``).

The faults are real: a second raw connection ends the hermes session on the
server (``pg_terminate_backend`` / MariaDB ``KILL``), and one slow test
restarts the servers themselves.

* outside a transaction the next call reconnects (same namespace, settings,
  busy timeout, read-only mode; the shadow catalog stays);
* inside a transaction the call raises SQLITE_IOERR "lost inside a
  transaction", nothing is replayed, and the connection works again;
* a COMMIT that loses its connection raises "outcome is UNKNOWN", never success.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
import time

import pytest

import hermes_dbapi

@pytest.fixture
def server(backend):
    if not backend.is_server:
        pytest.skip("connection faults concern server backends")
    return backend


def _session_id(conn) -> int:
    backend = conn._backend
    if backend.kind == "postgres":
        return backend.conn.info.backend_pid
    return backend.conn.thread_id()


def kill_session(server, conn) -> None:
    """End ``conn``'s server session from a second raw connection, and wait until it is gone."""
    sid = _session_id(conn)
    raw = server.raw_connect()
    try:
        with raw.cursor() as cur:
            if server.name == "postgres":
                cur.execute("SELECT pg_terminate_backend(%s)", (sid,))
                probe = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
            else:
                cur.execute(f"KILL {int(sid)}")
                probe = "SELECT count(*) FROM information_schema.PROCESSLIST WHERE ID = %s"
            for _ in range(200):
                cur.execute(probe, (sid,))
                if cur.fetchone()[0] == 0:
                    break
                time.sleep(0.01)
    finally:
        raw.close()
    time.sleep(0.05)  # let the goodbye reach the client socket


def _count(server, path, table="t") -> int:
    other = server.connect(path)
    try:
        return other.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        other.close()


def _open(server, **kw):
    path = server.path("faults.db")
    conn = server.connect(path, isolation_level=None, **kw)
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    return path, conn


def _assert_lost_in_transaction(exc) -> None:
    assert isinstance(exc, hermes_dbapi.OperationalError)
    assert exc.sqlite_errorname == "SQLITE_IOERR" and exc.sqlite_errorcode == 10
    assert "lost inside a transaction" in str(exc) and str(exc).startswith("disk I/O error")


# -- outside a transaction: the next call reconnects ---------------------------------


@pytest.mark.parametrize("call", ["select", "insert", "begin", "begin_immediate", "executemany", "pragma", "cursor_reused"])
def test_idle_loss_reconnects_on_next_call(server, call):
    path, conn = _open(server)
    reused = conn.cursor()
    reused.execute("SELECT 1")
    before = conn._backend.reconnects
    kill_session(server, conn)
    if call == "select":
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)
    elif call == "insert":
        conn.execute("INSERT INTO t (v) VALUES ('once')")
    elif call == "begin":
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (v) VALUES ('once')")
        conn.commit()
    elif call == "begin_immediate":
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (v) VALUES ('once')")
        conn.commit()
    elif call == "executemany":
        conn.executemany("INSERT INTO t (v) VALUES (?)", [("once",)])
    elif call == "pragma":
        assert [row[1] for row in conn.execute("PRAGMA table_info(t)")] == ["id", "v"]
    else:
        reused.execute("INSERT INTO t (v) VALUES ('once')")
        assert reused.rowcount == 1
    assert conn._backend.reconnects == before + 1
    assert not conn.in_transaction
    expected = 0 if call in ("select", "pragma") else 1
    assert _count(server, path) == expected  # sent exactly once


def test_reconnect_keeps_namespace_settings_and_shadow(server):
    path, conn = _open(server, timeout=0.7)
    conn.execute("INSERT INTO t (v) VALUES ('kept')")
    conn.execute("PRAGMA busy_timeout = 700")
    if server.name == "mysql":
        conn.execute("PRAGMA foreign_keys = ON")
    shadow = conn._shadow
    namespace = conn._backend.namespace
    kill_session(server, conn)
    assert conn.execute("SELECT v FROM t").fetchall() == [("kept",)]
    assert conn._backend.reconnects == 1
    assert conn._shadow is shadow and conn._backend.namespace == namespace
    assert conn.execute("PRAGMA busy_timeout").fetchone() == (700,)
    backend = conn._backend
    if server.name == "postgres":
        assert backend.query("SHOW lock_timeout")[0][0] in ("700ms", "700")
        assert backend.query("SHOW search_path")[0][0].strip('"') == namespace
        assert backend.query("SHOW TimeZone")[0][0] == "UTC"
    else:
        assert backend.query("SELECT @@innodb_lock_wait_timeout, DATABASE(), @@time_zone")[0] == (1, namespace, "+00:00")
        assert backend.query("SELECT @@foreign_key_checks")[0][0] == 1
    # the busy timeout still holds: a second writer waits 0.7 s, then "database is locked"
    other = server.connect(path, isolation_level=None, timeout=0.7)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(hermes_dbapi.OperationalError, match="^database is locked$"):
        conn.execute("BEGIN IMMEDIATE")
    assert 0.55 <= time.monotonic() - started <= 1.0
    other.rollback()


def test_reconnect_keeps_read_only_mode(server):
    path, writer = _open(server)
    writer.execute("INSERT INTO t (v) VALUES ('a')")
    reader = hermes_dbapi.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        kill_session(server, reader)
        assert reader.execute("SELECT count(*) FROM t").fetchone() == (1,)
        assert reader._backend.reconnects == 1
        with pytest.raises(hermes_dbapi.OperationalError, match="readonly"):
            reader.execute("INSERT INTO t (v) VALUES ('b')")
    finally:
        reader.close()


# -- inside a transaction: raise, never replay ------------------------------------------


@pytest.mark.parametrize("mode", ["DEFERRED", "IMMEDIATE", "legacy_implicit", "autocommit_false"])
def test_loss_inside_transaction_raises_and_replays_nothing(server, mode):
    path = server.path("faults.db")
    if mode == "legacy_implicit":
        conn = server.connect(path)  # sqlite3's implicit BEGIN before DML
    elif mode == "autocommit_false":
        if not hasattr(hermes_dbapi, "LEGACY_TRANSACTION_CONTROL"):
            pytest.skip("autocommit attribute needs Python 3.12")
        conn = server.connect(path, autocommit=False)
    else:
        conn = server.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    conn.commit()
    if mode in ("DEFERRED", "IMMEDIATE"):
        conn.execute(f"BEGIN {mode}")
    conn.execute("INSERT INTO t (v) VALUES ('before the fault')")
    assert conn.in_transaction
    kill_session(server, conn)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        conn.execute("INSERT INTO t (v) VALUES ('after the fault')")
    _assert_lost_in_transaction(info.value)
    assert conn.in_transaction is False
    conn.rollback()  # what a write funnel does next: fine, nothing to roll back
    assert _count(server, path) == 0  # the server rolled back; nothing was replayed
    # usable again: a new transaction commits
    if mode in ("DEFERRED", "IMMEDIATE"):
        conn.execute(f"BEGIN {mode}")
    conn.execute("INSERT INTO t (v) VALUES ('next transaction')")
    conn.commit()
    assert _count(server, path) == 1
    conn.close()


def test_loss_inside_transaction_at_savepoint_and_reads(server):
    path, conn = _open(server)
    conn.execute("BEGIN")
    conn.execute("SAVEPOINT a")
    conn.execute("INSERT INTO t (v) VALUES ('x')")
    kill_session(server, conn)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        conn.execute("RELEASE a")
    _assert_lost_in_transaction(info.value)
    assert not conn.in_transaction
    with pytest.raises(hermes_dbapi.OperationalError, match="no transaction is active"):
        conn.execute("COMMIT")  # as SQLite: the transaction is gone
    conn.execute("BEGIN")
    conn.execute("SELECT count(*) FROM t")
    kill_session(server, conn)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        conn.execute("SELECT count(*) FROM t").fetchall()
    _assert_lost_in_transaction(info.value)
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)


def test_loss_inside_transaction_with_ddl_restores_the_shadow(server):
    if server.name != "postgres":
        pytest.skip("MySQL/MariaDB commit DDL at once")
    path, conn = _open(server)
    conn.execute("BEGIN")
    conn.execute("CREATE TABLE u (a INTEGER)")
    kill_session(server, conn)
    with pytest.raises(hermes_dbapi.OperationalError):
        conn.execute("INSERT INTO u VALUES (1)")
    conn.execute("BEGIN")  # the next transaction reloads the shadow: u was rolled back
    with pytest.raises(hermes_dbapi.OperationalError, match="no such table: u"):
        conn.execute("INSERT INTO u VALUES (1)")
    conn.rollback()
    conn.execute("CREATE TABLE u (a INTEGER)")  # and it can be created again


# -- COMMIT: outcome unknown, never success -------------------------------------------------


def _assert_commit_unknown(exc) -> None:
    assert isinstance(exc, hermes_dbapi.OperationalError)
    assert exc.sqlite_errorname == "SQLITE_IOERR"
    assert "during COMMIT" in str(exc) and "outcome is UNKNOWN" in str(exc)
    assert exc.hermes_outcome_unknown is True


@pytest.mark.parametrize("how", ["commit_method", "commit_statement", "context_manager"])
def test_loss_at_commit_reports_unknown_outcome(server, how):
    path = server.path("faults.db")
    conn = server.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    conn.commit()
    conn.execute("INSERT INTO t (v) VALUES ('maybe')")
    kill_session(server, conn)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        if how == "commit_method":
            conn.commit()
        elif how == "commit_statement":
            conn.execute("COMMIT")
        else:
            with conn:
                pass
    _assert_commit_unknown(info.value)
    assert not conn.in_transaction
    assert _count(server, path) == 0  # here it died before COMMIT reached the server
    conn.execute("INSERT INTO t (v) VALUES ('next')")
    conn.commit()
    assert _count(server, path) == 1


def test_loss_in_the_middle_of_commit(server):
    """PostgreSQL: a deferred constraint trigger makes COMMIT itself take a while;
    the session is terminated while COMMIT runs."""
    if server.name != "postgres":
        pytest.skip("needs deferred triggers to hold COMMIT open")
    path, conn = _open(server)
    namespace = conn._backend.namespace
    raw = server.raw_connect()
    try:
        with raw.cursor() as cur:
            cur.execute(f'SET search_path = "{namespace}"')
            cur.execute("CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
                        "$$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$")
            cur.execute("CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED "
                        "FOR EACH ROW EXECUTE FUNCTION slow_commit()")
    finally:
        raw.close()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t (v) VALUES ('in flight')")
    killer = threading.Timer(0.7, kill_session, (server, conn))
    killer.start()
    started = time.monotonic()
    try:
        with pytest.raises(hermes_dbapi.OperationalError) as info:
            conn.commit()
    finally:
        killer.join()
    assert time.monotonic() - started < 2.5  # it was really in the middle of COMMIT
    _assert_commit_unknown(info.value)
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)  # works again


def test_loss_at_rollback_is_a_rollback(server):
    path, conn = _open(server)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t (v) VALUES ('x')")
    kill_session(server, conn)
    conn.rollback()  # the server rolled back already: no error
    assert not conn.in_transaction
    assert _count(server, path) == 0
    conn.execute("BEGIN IMMEDIATE")  # and the write lock is free (it died with the session)
    conn.rollback()


def test_close_after_loss(server):
    path, conn = _open(server)
    conn.execute("BEGIN IMMEDIATE")
    kill_session(server, conn)
    conn.close()
    other = server.connect(path, isolation_level=None, timeout=0.3)
    other.execute("BEGIN IMMEDIATE")
    other.rollback()


def test_server_unreachable_while_reconnecting(server, monkeypatch):
    """The server stays away: after waiting up to the busy timeout the call
    raises SQLite's 'unable to open database file' (SQLITE_CANTOPEN); once the
    server is back, the next call works."""
    path, conn = _open(server, timeout=0.5)
    backend = conn._backend
    real_reopen = backend._driver_reopen

    def refused():
        raise ConnectionRefusedError("connection refused (simulated: server restarting)")

    monkeypatch.setattr(backend, "_driver_reopen", refused)
    kill_session(server, conn)
    started = time.monotonic()
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        conn.execute("SELECT count(*) FROM t")
    assert 0.4 <= time.monotonic() - started <= 1.5
    assert info.value.sqlite_errorname == "SQLITE_CANTOPEN"
    assert str(info.value).startswith("unable to open database file")
    assert not conn.in_transaction
    monkeypatch.setattr(backend, "_driver_reopen", real_reopen)
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)


# -- a real server restart ------------------------------------------------------------------


def _pg_up() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], check=False).returncode == 0


def _mysql_up() -> bool:
    cmd = ["mysqladmin", "--connect-timeout=2", "-uroot", "-h127.0.0.1", "-P3306", "ping"]
    return subprocess.run(cmd, check=False, capture_output=True).returncode == 0


def _wait(check, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.25)
    return False


def _pg_version() -> str:
    return sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(x) for x in v.split(".") if x.isdigit()])[-1]


def start_server(name: str) -> None:
    """Start the local server if it is down (what .ci/run does)."""
    if name == "postgres":
        if not _pg_up():
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _pg_version(), "main", "start"], check=False)
        assert _wait(_pg_up), "PostgreSQL did not come back"
    else:
        if not _mysql_up():
            with contextlib.suppress(Exception):
                os.makedirs("/run/mysqld", exist_ok=True)
                shutil.chown("/run/mysqld", "mysql", "mysql")
            subprocess.run(
                ["start-stop-daemon", "--start", "--oknodo", "--background", "--exec", "/usr/sbin/mariadbd"], check=False
            )
        assert _wait(_mysql_up), "MariaDB did not come back"


def restart_server(name: str) -> None:
    if name == "postgres":
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _pg_version(), "main", "restart"], check=True)
    else:
        subprocess.run(["mysqladmin", "-uroot", "-h127.0.0.1", "-P3306", "shutdown"], check=True)
        # mysqladmin returns when the server has begun shutting down: wait until it is gone
        assert _wait(lambda: not _mysql_up(), 30), "MariaDB did not stop"
        assert _wait(lambda: not _mariadbd_running(), 30), "mariadbd did not exit"
    start_server(name)


def _mariadbd_running() -> bool:
    return subprocess.run(["pgrep", "-x", "mariadbd"], check=False, capture_output=True).returncode == 0


@pytest.fixture
def restartable(server):
    """The server backend, local and restartable; up again afterwards whatever happens."""
    if server.name == "postgres" and (not os.path.isdir("/etc/postgresql") or not shutil.which("pg_ctlcluster")):
        pytest.skip("no local PostgreSQL cluster to restart")
    if server.name == "mysql" and (not os.path.exists("/usr/sbin/mariadbd") or not shutil.which("mysqladmin")):
        pytest.skip("no local MariaDB to restart")
    if "127.0.0.1" not in (server.server_url or "") and "localhost" not in (server.server_url or ""):
        pytest.skip("the test server is not local")
    try:
        yield server
    finally:
        start_server(server.name)


@pytest.mark.slow
@pytest.mark.restart
def test_server_restart_next_transaction_works(restartable):
    server = restartable
    path, conn = _open(server, timeout=5.0)
    conn.execute("INSERT INTO t (v) VALUES ('before restart')")
    in_tx = server.connect(path, isolation_level=None, timeout=5.0)
    in_tx.execute("BEGIN")
    in_tx.execute("INSERT INTO t (v) VALUES ('lost with the restart')")
    restart_server(server.name)
    # idle connection: the application's next transaction just works
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t (v) VALUES ('after restart')")
    conn.commit()
    assert conn._backend.reconnects >= 1
    # the connection that was inside a transaction: an error, then usable again
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        in_tx.execute("INSERT INTO t (v) VALUES ('x')")
    _assert_lost_in_transaction(info.value)
    assert not in_tx.in_transaction
    assert sorted(v for (v,) in in_tx.execute("SELECT v FROM t")) == ["after restart", "before restart"]
