"""The backend matrix of the hermes_dbapi test suite.

Every test that takes the ``backend`` fixture (directly or through ``pair``) runs
once per backend: ``test_x[sqlite]``, ``test_x[postgres]``, ``test_x[mysql]``.
Each case carries the marker of its backend, so ``-m "not mysql"`` works.

Environment variables read here:

``HERMES_TEST_BACKENDS``
    comma list of backends to run (default ``sqlite,postgres,mysql``).
``HERMES_TEST_PG_URL`` / ``HERMES_TEST_MYSQL_URL``
    the servers (default ``postgresql://postgres@127.0.0.1:5432/test`` and
    ``mysql://root@127.0.0.1:3306/test``).
``HERMES_DB_CACHE``
    the file of translations kept across processes; unset, the run uses a fresh
    one of its own (translations made by one test are served to later ones, under
    their own schemas: the cache's checks run all through the suite), removed at the end.
``CI``
    when non-empty, an unreachable server fails the whole run (exit code 1);
    otherwise that backend's cases are skipped and a loud line says so.

Isolation: a run picks a random namespace prefix (``hdbt`` + 8 hex + ``_``) and
hands it to hermes_dbapi with ``?prefix=`` in the URL, so every schema/database
the run creates starts with it; each test gets its own ``tmp_path`` and hence its
own namespaces.  At session end every namespace with the run prefix is dropped
with the raw driver.  ``HERMES_DB_URL`` inherited from the shell is removed for
the whole session so that tests without ``backend`` always see plain SQLite.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import secrets
import shutil
import sqlite3 as _std_sqlite3  # the real module, resolved before anything can replace it
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import pytest

pytest_plugins = ["pytester"]

_T = TypeVar("_T")

ENV_URL = "HERMES_DB_URL"
ENV_TRANSLATIONS = "HERMES_DB_CACHE"  # translate/disk_cache.py
ENV_BACKENDS = "HERMES_TEST_BACKENDS"
ALL_BACKENDS = ("sqlite", "postgres", "mysql")
SERVER_BACKENDS = ("postgres", "mysql")
SERVER_URL_ENV = {"postgres": "HERMES_TEST_PG_URL", "mysql": "HERMES_TEST_MYSQL_URL"}
DEFAULT_SERVER_URLS = {
    "postgres": "postgresql://postgres@127.0.0.1:5432/test",
    "mysql": "mysql://root@127.0.0.1:3306/test",
}
_ALIASES = {"pg": "postgres", "postgresql": "postgres", "mariadb": "mysql", "sqlite3": "sqlite"}
# URL options that hermes_dbapi reads itself; everything else goes to the driver.
_HERMES_URL_OPTIONS = {"namespace", "prefix", "memory", "lock"}
PREFIX_RE = re.compile(r"[a-z][a-z0-9_]{0,19}")
CONNECT_TIMEOUT = 5  # seconds, for the raw-driver reachability check and cleanup
DROP_LOCK_TIMEOUT = 15  # seconds a DROP may wait for a lock held by a leaked connection
DEFAULT_DB_NAME = "test.db"


# --------------------------------------------------------------------------- helpers


def parse_backends(raw: str | None) -> tuple[tuple[str, ...], list[str]]:
    """``HERMES_TEST_BACKENDS`` -> (selected backends in canonical order, unknown names)."""
    if raw is None or not raw.strip():
        return ALL_BACKENDS, []
    wanted: set[str] = set()
    unknown: list[str] = []
    for item in raw.split(","):
        name = item.strip().lower()
        if not name:
            continue
        name = _ALIASES.get(name, name)
        if name in ALL_BACKENDS:
            wanted.add(name)
        else:
            unknown.append(item.strip())
    return tuple(b for b in ALL_BACKENDS if b in wanted), unknown


def new_run_prefix() -> str:
    """A fresh namespace prefix for one test run, e.g. ``hdbt1a2b3c4d_``."""
    prefix = f"hdbt{secrets.token_hex(4)}_"
    assert PREFIX_RE.fullmatch(prefix), prefix
    return prefix


def server_url(name: str) -> str:
    """The configured server URL of a server backend, without hermes options."""
    return os.environ.get(SERVER_URL_ENV[name]) or DEFAULT_SERVER_URLS[name]


def url_with_prefix(url: str, prefix: str) -> str:
    """``url`` with ``?prefix=<prefix>`` set (replacing any prefix/namespace option)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in ("prefix", "namespace")]
    query.append(("prefix", prefix))
    return urlunsplit(parts._replace(query=urlencode(query)))


def mask_url(url: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def raw_connect(name: str, url: str, timeout: int = CONNECT_TIMEOUT) -> Any:
    """An autocommit connection of the raw driver (psycopg / pymysql) to a server URL."""
    parts = urlsplit(url)
    driver_query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in _HERMES_URL_OPTIONS]
    if name == "postgres":
        import psycopg

        conninfo = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(driver_query)))
        return psycopg.connect(conninfo, connect_timeout=timeout, autocommit=True)
    if name == "mysql":
        import pymysql

        extra = dict(driver_query)
        return pymysql.connect(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 3306,
            user=unquote(parts.username) if parts.username else "root",
            password=unquote(parts.password) if parts.password else "",
            unix_socket=extra.get("unix_socket"),
            connect_timeout=timeout,
            autocommit=True,
            charset="utf8mb4",
        )
    raise ValueError(f"not a server backend: {name!r}")


def server_version(name: str, conn: Any) -> str:
    with conn.cursor() as cur:
        cur.execute("SHOW server_version" if name == "postgres" else "SELECT VERSION()")
        return str(cur.fetchone()[0])


def list_namespaces(name: str, conn: Any, prefix: str) -> list[str]:
    """Schemas (PostgreSQL) or databases (MySQL) whose name starts with ``prefix``."""
    with conn.cursor() as cur:
        if name == "postgres":
            # left() rather than LIKE: "_" in the prefix is a LIKE wildcard.
            cur.execute("SELECT nspname FROM pg_namespace WHERE left(nspname, %s) = %s", (len(prefix), prefix))
        else:
            cur.execute("SHOW DATABASES")
        names = [row[0] for row in cur.fetchall()]
    return sorted(n for n in names if n.startswith(prefix))


def kill_holders(name: str, conn: Any, prefix: str, keep: frozenset[str] = frozenset()) -> int:
    """End other server sessions that hold locks in (PG) or sit in (MySQL) the prefix's
    namespaces, those in ``keep`` aside.

    Those namespaces belong to this run alone, so such a session is a connection a
    test leaked (e.g. idle in a transaction); it would make DROP wait.
    """
    with conn.cursor() as cur:
        if name == "postgres":
            cur.execute(
                "SELECT DISTINCT l.pid, n.nspname FROM pg_locks l"
                " JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE left(n.nspname, %s) = %s AND l.pid <> pg_backend_pid()",
                (len(prefix), prefix),
            )
            pids = sorted({row[0] for row in cur.fetchall() if row[1] not in keep})
            for pid in pids:
                cur.execute("SELECT pg_terminate_backend(%s)", (pid,))
        else:
            cur.execute("SELECT ID, DB FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID()")
            pids = [row[0] for row in cur.fetchall() if row[1] and row[1].startswith(prefix) and row[1] not in keep]
            for pid in pids:
                with contextlib.suppress(Exception):
                    cur.execute(f"KILL {int(pid)}")
    return len(pids)


def dropping_connection(name: str, url: str) -> Any:
    """A raw connection whose DROPs give up after DROP_LOCK_TIMEOUT seconds of waiting for a lock."""
    conn = raw_connect(name, url)
    with conn.cursor() as cur:
        if name == "postgres":
            cur.execute(f"SET lock_timeout = '{DROP_LOCK_TIMEOUT}s'")
        else:
            cur.execute(f"SET SESSION lock_wait_timeout = {DROP_LOCK_TIMEOUT}")
    return conn


def drop_namespaces(name: str, url: str, prefix: str, keep: frozenset[str] = frozenset(),
                    conn: Any = None) -> tuple[list[str], list[str]]:
    """Drop every namespace starting with ``prefix`` but those in ``keep``; return (dropped, errors).
    ``conn``: an open connection of :func:`dropping_connection` to use (left open), else
    one is made for the call."""
    if not PREFIX_RE.fullmatch(prefix) or len(prefix) < 4:
        raise ValueError(f"refusing to drop namespaces for unsafe prefix {prefix!r}")
    dropped: list[str] = []
    errors: list[str] = []
    own = conn is None
    if own:
        conn = dropping_connection(name, url)
    try:
        with contextlib.suppress(Exception):
            kill_holders(name, conn, prefix, keep)
        for ns in list_namespaces(name, conn, prefix):
            if ns in keep:
                continue
            try:
                with conn.cursor() as cur:
                    if name == "postgres":
                        cur.execute('DROP SCHEMA IF EXISTS "{}" CASCADE'.format(ns.replace('"', '""')))
                    else:
                        cur.execute("DROP DATABASE IF EXISTS `{}`".format(ns.replace("`", "``")))
                dropped.append(ns)
            except Exception as exc:  # keep going: drop as much as possible
                errors.append(f"{ns}: {type(exc).__name__}: {exc}".strip())
    finally:
        if own:
            conn.close()
    return dropped, errors


# Catalogs a run churns through (every test creates and drops schemas).  With
# autovacuum off (as on this machine) their dead rows pile up and the shim's
# catalog queries slow down tenfold within a few runs.
_PG_CATALOGS = ("pg_namespace", "pg_class", "pg_attribute", "pg_index", "pg_type", "pg_depend",
                "pg_constraint", "pg_attrdef", "pg_trigger", "pg_proc", "pg_sequence")


def vacuum_catalogs(url: str) -> None:
    """VACUUM ANALYZE the PostgreSQL catalogs a test run churns (best effort)."""
    conn = raw_connect("postgres", url)
    try:
        for table in _PG_CATALOGS:
            with contextlib.suppress(Exception), conn.cursor() as cur:
                cur.execute(f"VACUUM ANALYZE pg_catalog.{table}")
    finally:
        conn.close()


def _in_ci() -> bool:
    return bool(os.environ.get("CI", "").strip())


# --------------------------------------------------------------------------- run state


@dataclass
class RunState:
    prefix: str
    backends: tuple[str, ...]
    urls: dict[str, str]
    saved_env_url: str | None = None
    translations_dir: str | None = None  # the run's kept translations (HERMES_DB_CACHE), removed at the end
    reachable: dict[str, bool] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    skipped: Counter = field(default_factory=Counter)
    dropped: dict[str, list[str]] = field(default_factory=dict)
    drop_errors: dict[str, list[str]] = field(default_factory=dict)
    dropped_since_vacuum: int = 0
    janitors: dict[str, Any] = field(default_factory=dict)  # one raw connection per server, for namespace upkeep

    def check(self, name: str) -> bool:
        """Connect once with the raw driver; remember the outcome."""
        if name not in self.reachable:
            try:
                conn = raw_connect(name, self.urls[name])
                try:
                    self.versions[name] = server_version(name, conn)
                finally:
                    conn.close()
                self.reachable[name] = True
                if name == "postgres":  # leftovers of earlier runs: start from lean catalogs
                    with contextlib.suppress(Exception):
                        vacuum_catalogs(self.urls[name])
            except Exception as exc:
                self.reachable[name] = False
                message = " ".join(str(exc).split()) or repr(exc)  # one line: it goes into skip reasons
                self.errors[name] = f"{type(exc).__name__}: {message}"
        return self.reachable[name]

    def with_janitor(self, name: str, work: Callable[[Any], _T]) -> _T:
        """``work`` on the run's one connection to server ``name`` for its namespace upkeep
        (two new ones per test otherwise); once more on a new one if that fails (a test
        may have ended it)."""
        try:
            return work(self._janitor(name))
        except Exception:  # noqa: BLE001 - terminated or broken: replace it
            self.close_janitor(name)
        return work(self._janitor(name))

    def _janitor(self, name: str) -> Any:
        conn = self.janitors.get(name)
        if conn is None:
            conn = self.janitors[name] = dropping_connection(name, self.urls[name])
        return conn

    def close_janitor(self, name: str) -> None:
        conn = self.janitors.pop(name, None)
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def namespaces(self, name: str) -> frozenset[str]:
        """The run's namespaces on server ``name`` now."""
        return frozenset(self.with_janitor(name, lambda conn: list_namespaces(name, conn, self.prefix)))

    def drop_made_by_test(self, name: str, before: frozenset[str]) -> None:
        """Drop the namespaces a test made (paths are per test, so they are its own):
        the servers' catalogs then hold one test's schemas, not the whole run's
        thousands, whose size slowed every catalog query of later tests.  What
        fails to drop is left to the run's final cleanup, which reports it."""
        try:
            dropped, _errors = self.with_janitor(
                name, lambda conn: drop_namespaces(name, self.urls[name], self.prefix, keep=before, conn=conn))
        except Exception:  # noqa: BLE001 - the final cleanup retries and reports
            return
        self.dropped.setdefault(name, []).extend(dropped)
        self.dropped_since_vacuum += len(dropped)
        if name == "postgres" and self.dropped_since_vacuum >= 300:
            self.dropped_since_vacuum = 0
            with contextlib.suppress(Exception):
                vacuum_catalogs(self.urls[name])


_STATE = pytest.StashKey[RunState]()
_SELECTED, _UNKNOWN = parse_backends(os.environ.get(ENV_BACKENDS))


def _state(config: pytest.Config) -> RunState:
    return config.stash[_STATE]


def pytest_configure(config: pytest.Config) -> None:
    if _UNKNOWN:
        raise pytest.UsageError(
            f"{ENV_BACKENDS}={os.environ.get(ENV_BACKENDS)!r}: unknown backend(s) {', '.join(_UNKNOWN)}; "
            f"use a comma list of {', '.join(ALL_BACKENDS)}"
        )
    if not _SELECTED:
        raise pytest.UsageError(f"{ENV_BACKENDS}={os.environ.get(ENV_BACKENDS)!r} selects no backend")
    state = RunState(
        prefix=new_run_prefix(),
        backends=_SELECTED,
        urls={name: server_url(name) for name in SERVER_BACKENDS if name in _SELECTED},
        saved_env_url=os.environ.pop(ENV_URL, None),
    )
    config.stash[_STATE] = state
    if not os.environ.get(ENV_TRANSLATIONS):  # the run's own file of kept translations
        state.translations_dir = tempfile.mkdtemp(prefix=f"{state.prefix}translations_")
        os.environ[ENV_TRANSLATIONS] = os.path.join(state.translations_dir, "translations.sqlite3")


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None and state.saved_env_url is not None:
        os.environ[ENV_URL] = state.saved_env_url
    if state is not None and state.translations_dir:
        os.environ.pop(ENV_TRANSLATIONS, None)
        shutil.rmtree(state.translations_dir, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str:
    state = _state(config)
    urls = ", ".join(f"{n}={mask_url(u)}" for n, u in state.urls.items())
    return f"hermes backends: {', '.join(state.backends)}; run prefix {state.prefix}" + (f"; {urls}" if urls else "")


def _backend_of(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    name = callspec.params.get("backend")
    if name is None and callspec.params.get("server") in SERVER_BACKENDS:  # tests of one server's plumbing
        name = callspec.params["server"]
    return name


def _gate_server_restarts(items: list[pytest.Item]) -> None:
    """Tests that restart the shared servers would break every other run on the
    machine: they run only when asked (``HERMES_TEST_RESTART=1``; ``.ci/run`` asks)."""
    if os.environ.get("HERMES_TEST_RESTART") == "1":
        return
    mark = pytest.mark.skip(reason="restarts the server: set HERMES_TEST_RESTART=1 to run")
    for item in items:
        if item.get_closest_marker("restart") is not None:
            item.add_marker(mark)


@pytest.hookimpl(trylast=True)  # after -m / -k deselection: a deselected backend is not "used"
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("HERMES_TEST_BACKEND_CASES_ONLY") == "1":  # tools/test.sh parallel: run once, in sqlite's run
        mine = set(_state(config).backends)
        unbound = [item for item in items if _backend_of(item) not in mine]
        if unbound:
            config.hook.pytest_deselected(items=unbound)
            items[:] = [item for item in items if _backend_of(item) in mine]
    _mark_known_gaps(items)
    _gate_server_restarts(items)
    state = _state(config)
    used = {_backend_of(item) for item in items}
    for name in SERVER_BACKENDS:
        if name not in used or name not in state.backends or state.check(name):
            continue
        where = mask_url(state.urls[name])
        if _in_ci():
            pytest.exit(
                f"BACKEND {name} UNREACHABLE at {where}: {state.errors[name]} "
                f"(CI is set, so an unreachable server fails the run; start it or set {ENV_BACKENDS})",
                returncode=1,
            )
        mark = pytest.mark.skip(reason=f"BACKEND {name} UNREACHABLE at {where}: {state.errors[name]}")
        for item in items:
            if _backend_of(item) == name:
                item.add_marker(mark)
                state.skipped[name] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None:
        return
    gc.collect()  # close connections that tests leaked, so they hold no locks
    for name, ok in state.reachable.items():
        state.close_janitor(name)
        if not ok:
            continue
        try:
            dropped, errors = drop_namespaces(name, state.urls[name], state.prefix)
        except Exception as exc:
            dropped, errors = [], [f"{type(exc).__name__}: {exc}"]
        state.dropped.setdefault(name, []).extend(dropped)
        if errors:
            state.drop_errors[name] = errors
        if name == "postgres":
            with contextlib.suppress(Exception):
                vacuum_catalogs(state.urls[name])


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    tr = terminalreporter
    for name, count in state.skipped.items():
        tr.write_sep(
            "!",
            f"BACKEND {name} UNREACHABLE: {state.errors.get(name, '?')} -- {count} tests skipped",
            red=True,
            bold=True,
        )
    for name, errors in state.drop_errors.items():
        tr.write_sep("!", f"CLEANUP of {name} namespaces {state.prefix}* FAILED", red=True, bold=True)
        for err in errors:
            tr.write_line(f"  {err}")
    if state.dropped and config.get_verbosity() >= 0:
        done = ", ".join(f"{len(v)} on {k}" for k, v in state.dropped.items())
        tr.write_line(f"hermes test namespaces {state.prefix}*: dropped {done}")


# --------------------------------------------------------------------------- fixtures


@dataclass
class BackendInfo:
    """What a test gets from the ``backend`` fixture."""

    name: str  # "sqlite" | "postgres" | "mysql"
    url: str | None  # HERMES_DB_URL for this test (None for sqlite), with ?prefix=<run prefix>
    tmp_path: Path
    prefix: str | None = None  # the run's namespace prefix (None for sqlite)
    server_url: str | None = None  # the server URL without hermes options
    _connections: list[Any] = field(default_factory=list, repr=False)

    @property
    def is_server(self) -> bool:
        return self.url is not None

    def path(self, name: str = DEFAULT_DB_NAME) -> str:
        """A file path in this test's own tmp_path (so unique to the test, and to the run)."""
        p = self.tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        return str(p)

    def connect(self, path: Any = None, **kw: Any) -> Any:
        """``hermes_dbapi.connect(path or self.path(), **kw)``; closed at teardown if still open.

        Without ``path`` every call opens the same per-test database ``self.path()``.
        """
        import hermes_dbapi

        conn = hermes_dbapi.connect(self.path() if path is None else path, **kw)
        self._connections.append(conn)
        return conn

    @contextlib.contextmanager
    def allow_not_supported(self) -> Iterator[None]:
        """Turn a ``NotSupportedError`` raised inside the block into a skip.

        The skip message starts with ``NotSupportedError`` so the compat matrix
        shows the cell as "NotSupported" rather than a plain skip.
        """
        try:
            yield
        except Exception as exc:
            if any(cls.__name__ == "NotSupportedError" for cls in type(exc).__mro__):
                pytest.skip(f"NotSupportedError: {exc}")
            raise

    def raw_connect(self) -> Any:
        """An autocommit raw-driver connection to the server (psycopg / pymysql); caller closes."""
        if not self.is_server:
            raise ValueError("raw_connect() needs a server backend")
        return raw_connect(self.name, self.server_url)

    def namespaces(self) -> list[str]:
        """The server namespaces (schemas / databases) this run has created so far."""
        if not self.is_server:
            return []
        conn = self.raw_connect()
        try:
            return list_namespaces(self.name, conn, self.prefix)
        finally:
            conn.close()

    def close_all(self) -> None:
        while self._connections:
            conn = self._connections.pop()
            with contextlib.suppress(Exception):
                conn.close()


@pytest.fixture(scope="session")
def run_prefix(pytestconfig: pytest.Config) -> str:
    """This run's namespace prefix, e.g. ``hdbt1a2b3c4d_``."""
    return _state(pytestconfig).prefix


@pytest.fixture(params=[pytest.param(name, id=name, marks=getattr(pytest.mark, name)) for name in _SELECTED])
def backend(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[BackendInfo]:
    """One backend of the matrix, with ``HERMES_DB_URL`` set (or unset) for the test's duration."""
    name: str = request.param
    state = _state(request.config)
    if name == "sqlite":
        monkeypatch.delenv(ENV_URL, raising=False)
        info = BackendInfo(name=name, url=None, tmp_path=tmp_path)
    else:
        if not state.check(name):  # normally decided at collection; this covers odd plugins
            if _in_ci():
                pytest.fail(f"BACKEND {name} UNREACHABLE: {state.errors[name]}", pytrace=False)
            pytest.skip(f"BACKEND {name} UNREACHABLE: {state.errors[name]}")
        url = url_with_prefix(state.urls[name], state.prefix)
        monkeypatch.setenv(ENV_URL, url)
        info = BackendInfo(name=name, url=url, tmp_path=tmp_path, prefix=state.prefix, server_url=state.urls[name])
    before = state.namespaces(name) if info.is_server else frozenset()
    try:
        yield info
    finally:
        info.close_all()
        if info.is_server:
            state.drop_made_by_test(name, before)


@pytest.fixture
def std() -> Any:
    """The real standard-library ``sqlite3`` module, for differential tests."""
    return _std_sqlite3


@pytest.fixture
def pair(backend: BackendInfo, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """(reference, shim): real ``sqlite3`` on one file, ``backend.connect`` on another."""
    reference = _std_sqlite3.connect(str(tmp_path / "reference.db"))
    try:
        shim = backend.connect(backend.path("shim.db"))
    except BaseException:
        reference.close()
        raise
    try:
        yield reference, shim
    finally:
        with contextlib.suppress(Exception):
            shim.close()
        reference.close()


@pytest.fixture(scope="session", autouse=True)
def _record_run_properties(record_testsuite_property: Any, pytestconfig: pytest.Config) -> None:
    """Python / SQLite / server versions into the JUnit XML, for tools/gen_compat_matrix.py."""
    state = _state(pytestconfig)
    record_testsuite_property("python_version", sys.version.split()[0])
    record_testsuite_property("sqlite_version", _std_sqlite3.sqlite_version)
    record_testsuite_property("backends", ",".join(state.backends))
    for name, version in state.versions.items():
        record_testsuite_property(f"{name}_version", version)


try:  # no wall-clock deadlines: server round trips vary too much
    from hypothesis import settings as _hyp_settings

    _hyp_settings.register_profile("hermes", deadline=None, print_blob=True)
    _hyp_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "hermes"))
except ImportError:  # pragma: no cover
    pass


# -- known gaps -----------------------------------------------------------------
# tests/known_gaps.txt lists test ids (one per line, '#' comments) whose expected
# behaviour (that of the standard sqlite3) hermes_dbapi does not reach yet.  They
# still run, as non-strict xfails, so the compat matrix shows them and a fix shows
# up as XPASS.  Regenerate with tools/known_gaps.sh after fixing things.
_KNOWN_GAPS_FILE = Path(__file__).with_name("known_gaps.txt")


def _known_gaps() -> set[str]:
    if not _KNOWN_GAPS_FILE.exists():
        return set()
    lines = _KNOWN_GAPS_FILE.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def _mark_known_gaps(items: list[pytest.Item]) -> None:
    gaps = _known_gaps()
    for item in items:
        if item.nodeid in gaps:
            item.add_marker(pytest.mark.xfail(strict=False, reason="known gap: differs from sqlite3 (tests/known_gaps.txt)"))
