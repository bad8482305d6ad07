"""Test infrastructure: backend matrix, namespace prefix, cleanup

Checks tests/conftest.py itself, so that a green run means what it says.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import textwrap
from pathlib import Path

import pytest
from conftest import (
    ALL_BACKENDS,
    ENV_URL,
    PREFIX_RE,
    BackendInfo,
    drop_namespaces,
    list_namespaces,
    new_run_prefix,
    parse_backends,
    url_with_prefix,
)

CONFTEST = Path(__file__).with_name("conftest.py")


def test_run_prefix_is_valid(run_prefix: str) -> None:
    assert PREFIX_RE.fullmatch(run_prefix)
    assert run_prefix.startswith("hdbt") and run_prefix.endswith("_")
    assert len(run_prefix) == len("hdbt") + 8 + 1


def test_new_prefixes_differ() -> None:
    prefixes = {new_run_prefix() for _ in range(50)}
    assert len(prefixes) == 50
    assert all(PREFIX_RE.fullmatch(p) for p in prefixes)


def test_parse_backends() -> None:
    assert parse_backends(None) == (ALL_BACKENDS, [])
    assert parse_backends(" ") == (ALL_BACKENDS, [])
    assert parse_backends("mysql, sqlite") == (("sqlite", "mysql"), [])
    assert parse_backends("pg,mariadb") == (("postgres", "mysql"), [])
    assert parse_backends("sqlite,oracle") == (("sqlite",), ["oracle"])


def test_url_with_prefix() -> None:
    assert (
        url_with_prefix("postgresql://postgres@127.0.0.1:5432/test", "hdbt00000000_")
        == "postgresql://postgres@127.0.0.1:5432/test?prefix=hdbt00000000_"
    )
    # an existing prefix/namespace option is replaced, driver options are kept
    assert (
        url_with_prefix("mysql://root@h/test?prefix=x_&namespace=n&charset=utf8mb4", "hdbt00000000_")
        == "mysql://root@h/test?charset=utf8mb4&prefix=hdbt00000000_"
    )


def test_no_inherited_hermes_db_url() -> None:
    """A test without ``backend`` always runs on plain SQLite."""
    assert ENV_URL not in os.environ


def test_backend_sets_env(backend: BackendInfo, run_prefix: str, tmp_path: Path) -> None:
    if backend.name == "sqlite":
        assert backend.url is None
        assert ENV_URL not in os.environ
        assert not backend.is_server
    else:
        assert backend.is_server
        assert os.environ[ENV_URL] == backend.url
        assert backend.url == f"{backend.server_url}?prefix={run_prefix}"
        assert backend.prefix == run_prefix
        assert backend.url.startswith(("postgresql://", "postgres://", "mysql://", "mariadb://"))
    assert backend.path("a.db") != backend.path("b.db")
    assert Path(backend.path("a.db")).parent == tmp_path
    assert Path(backend.path()).parent == tmp_path


def test_backend_has_its_marker(backend: BackendInfo, request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker(backend.name) is not None
    others = [name for name in ALL_BACKENDS if name != backend.name]
    assert all(request.node.get_closest_marker(name) is None for name in others)


def test_connect_passes_path_kwargs_and_env(backend: BackendInfo, monkeypatch: pytest.MonkeyPatch) -> None:
    hermes_dbapi = pytest.importorskip("hermes_dbapi")
    calls = []

    class FakeConnection:
        closed = False

        def close(self) -> None:
            self.closed = True

    def fake_connect(database, **kw):
        calls.append((database, kw, os.environ.get(ENV_URL)))
        return FakeConnection()

    monkeypatch.setattr(hermes_dbapi, "connect", fake_connect)
    first = backend.connect()
    second = backend.connect(backend.path("other.db"), timeout=2.5, isolation_level=None)
    assert calls == [
        (backend.path(), {}, backend.url),
        (backend.path("other.db"), {"timeout": 2.5, "isolation_level": None}, backend.url),
    ]
    backend.close_all()
    assert first.closed and second.closed


def test_std_is_the_standard_module(std) -> None:
    assert std.__name__ == "sqlite3"
    assert not hasattr(std, "__hermes_dbapi__")
    assert hasattr(std, "complete_statement") and hasattr(std, "sqlite_version")


def test_pair_round_trip(pair) -> None:
    """Both sides of ``pair`` accept the same SQLite SQL and give the same rows."""
    results = []
    for conn in pair:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
        conn.executemany("INSERT INTO t (name) VALUES (?)", [("a",), ("b",)])
        conn.commit()
        results.append(conn.execute("SELECT id, name FROM t ORDER BY id").fetchall())
    assert results[0] == results[1] == [(1, "a"), (2, "b")]


def test_data_lands_under_run_prefix(backend: BackendInfo) -> None:
    """What a test writes on a server lives in a namespace starting with the run prefix."""
    before = set(backend.namespaces())
    conn = backend.connect(backend.path("prefixed.db"))
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()
    if not backend.is_server:
        assert Path(backend.path("prefixed.db")).stat().st_size > 0
        return
    created = set(backend.namespaces()) - before
    assert created, "connect() created no namespace with the run prefix"
    assert all(ns.startswith(backend.prefix) for ns in created)


def _server_url(server: str, pytestconfig: pytest.Config) -> str:
    """The run's URL of ``server``; the test is skipped if it is not selected or not reachable."""
    from conftest import _state

    state = _state(pytestconfig)
    if server not in state.urls:
        pytest.skip(f"{server} not selected")
    if not state.check(server):
        pytest.skip(f"BACKEND {server} UNREACHABLE: {state.errors[server]}")
    return state.urls[server]


@pytest.mark.parametrize("server", [pytest.param(n, marks=getattr(pytest.mark, n)) for n in ("postgres", "mysql")])
def test_drop_namespaces(server: str, pytestconfig: pytest.Config) -> None:
    """The session-end cleanup drops every namespace with a prefix, and nothing else."""
    from conftest import raw_connect

    url = _server_url(server, pytestconfig)
    prefix = f"hdbx{secrets.token_hex(4)}_"
    bystander = f"hdbx{secrets.token_hex(4)}_keep"
    conn = raw_connect(server, url)
    try:
        with conn.cursor() as cur:
            for name in (f"{prefix}one", f"{prefix}two", bystander):
                cur.execute(f'CREATE SCHEMA "{name}"' if server == "postgres" else f"CREATE DATABASE `{name}`")
            table = f'"{prefix}one".t' if server == "postgres" else f"`{prefix}one`.t"
            cur.execute(f"CREATE TABLE {table} (x INTEGER)")
        assert list_namespaces(server, conn, prefix) == [f"{prefix}one", f"{prefix}two"]
        dropped, errors = drop_namespaces(server, url, prefix)
        assert errors == []
        assert sorted(dropped) == [f"{prefix}one", f"{prefix}two"]
        assert list_namespaces(server, conn, prefix) == []
        assert list_namespaces(server, conn, bystander) == [bystander]
    finally:
        drop_namespaces(server, url, prefix)
        drop_namespaces(server, url, bystander)
        conn.close()


@pytest.mark.parametrize("server", [pytest.param(n, marks=getattr(pytest.mark, n)) for n in ("postgres", "mysql")])
def test_drop_spares_kept_namespaces_and_their_sessions(server: str, pytestconfig: pytest.Config) -> None:
    """A test's teardown drops what it made: a namespace made before it (``keep``) stays,
    and so does a session in it (the sessions ended are those in the dropped ones)."""
    from conftest import dropping_connection, raw_connect

    url = _server_url(server, pytestconfig)
    prefix = f"hdbx{secrets.token_hex(4)}_"
    kept, made = f"{prefix}kept", f"{prefix}made"
    admin, holder = dropping_connection(server, url), raw_connect(server, url)
    try:
        with admin.cursor() as cur:
            for name in (kept, made):
                cur.execute(f'CREATE SCHEMA "{name}"' if server == "postgres" else f"CREATE DATABASE `{name}`")
        with holder.cursor() as cur:  # a session sitting in (MySQL) / holding a lock in (PG) the kept one
            if server == "postgres":
                cur.execute(f'CREATE TABLE "{kept}".t (x INTEGER)')
                holder.autocommit = False
                cur.execute(f'SELECT * FROM "{kept}".t')
            else:
                cur.execute(f"USE `{kept}`")
        dropped, errors = drop_namespaces(server, url, prefix, keep=frozenset({kept}), conn=admin)
        assert (dropped, errors) == ([made], [])
        assert list_namespaces(server, admin, prefix) == [kept]
        with holder.cursor() as cur:
            cur.execute("SELECT 1")  # not ended
            assert list(cur.fetchall()) == [(1,)]
    finally:
        with contextlib.suppress(Exception):
            holder.close()
        drop_namespaces(server, url, prefix, conn=admin)
        admin.close()


def test_drop_refuses_unsafe_prefix() -> None:
    with pytest.raises(ValueError):
        drop_namespaces("postgres", "postgresql://nowhere/x", "")
    with pytest.raises(ValueError):
        drop_namespaces("postgres", "postgresql://nowhere/x", "h_")


_INNER_TEST = """
def test_uses_backend(backend):
    assert backend.name == "postgres"
"""


def _inner_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str | None, *args: str):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_inner=textwrap.dedent(_INNER_TEST))
    monkeypatch.setenv("HERMES_TEST_BACKENDS", "postgres")
    monkeypatch.setenv("HERMES_TEST_PG_URL", "postgresql://postgres@127.0.0.1:1/test")
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def test_unreachable_server_skips_outside_ci(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _inner_run(pytester, monkeypatch, ci=None)
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*BACKEND postgres UNREACHABLE: *1 tests skipped*"])


def test_unreachable_server_fails_in_ci(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _inner_run(pytester, monkeypatch, ci="true")
    assert result.ret == 1
    assert "BACKEND postgres UNREACHABLE" in result.stdout.str() + result.stderr.str()


def test_unreachable_server_ignored_when_deselected(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile(test_other="def test_plain():\n    pass\n")
    result = _inner_run(pytester, monkeypatch, "true", "-m", "not postgres")  # CI, but nothing uses postgres
    result.assert_outcomes(passed=1, deselected=1)
