"""Shared plumbing: server URLs, connections (hermes and raw), timing, cleanup."""

from __future__ import annotations

import os
import statistics
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

PREFIX = os.environ.get("HDBBENCH_PREFIX", "hdbbench_")  # a run's namespaces; cleanup drops them all
SERVERS = {
    "postgres": os.environ.get("HDBBENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    "mariadb": os.environ.get("HDBBENCH_MYSQL_URL", "mysql://root@127.0.0.1:3306/test"),
}
RAW_NAME = {"postgres": "psycopg", "mariadb": "PyMySQL"}


def hermes_url(server: str) -> str:
    return f"{SERVERS[server]}?prefix={PREFIX}"


@contextmanager
def backend_env(server: str | None) -> Iterator[None]:
    """Point HERMES_DB_URL at ``server`` (None: SQLite) for the duration."""
    old = os.environ.get("HERMES_DB_URL")
    if server is None:
        os.environ.pop("HERMES_DB_URL", None)
    else:
        os.environ["HERMES_DB_URL"] = hermes_url(server)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HERMES_DB_URL", None)
        else:
            os.environ["HERMES_DB_URL"] = old


def hermes_connect(server: str | None, path: str, **kwargs: Any) -> Any:
    """``hermes_dbapi.connect(path)`` with HERMES_DB_URL set for ``server``."""
    import hermes_dbapi

    with backend_env(server):
        return hermes_dbapi.connect(path, **kwargs)


def namespace_of(conn: Any) -> str:
    return conn._backend.namespace


def _pg_params(url: str) -> dict[str, Any]:
    from urllib.parse import urlsplit

    u = urlsplit(url)
    return {"host": u.hostname, "port": u.port or 5432, "user": u.username, "dbname": u.path.lstrip("/")}


def _my_params(url: str) -> dict[str, Any]:
    from urllib.parse import urlsplit

    u = urlsplit(url)
    return {"host": u.hostname, "port": u.port or 3306, "user": u.username, "password": u.password or ""}


def raw_connect(server: str, namespace: str, *, dict_rows: bool = False) -> Any:
    """A plain driver connection (autocommit) inside ``namespace``."""
    if server == "postgres":
        import psycopg
        from psycopg.rows import dict_row

        extra = {"row_factory": dict_row} if dict_rows else {}
        return psycopg.connect(
            autocommit=True, options=f"-c search_path={namespace}", **_pg_params(SERVERS[server]), **extra
        )
    import pymysql

    cursorclass = pymysql.cursors.DictCursor if dict_rows else pymysql.cursors.Cursor
    return pymysql.connect(
        database=namespace, autocommit=True, charset="utf8mb4", cursorclass=cursorclass, **_my_params(SERVERS[server])
    )


def reachable(server: str) -> str | None:
    """None if the server answers, else the reason."""
    try:
        if server == "postgres":
            import psycopg

            psycopg.connect(connect_timeout=3, **_pg_params(SERVERS[server])).close()
        else:
            import pymysql

            pymysql.connect(connect_timeout=3, **_my_params(SERVERS[server])).close()
    except Exception as exc:  # noqa: BLE001 - any failure means "skip this server"
        return str(exc).strip().splitlines()[0]
    return None


def drop_namespaces(server: str) -> list[str]:
    """Drop every schema/database whose name starts with the bench prefix."""
    pattern = PREFIX.replace("_", "\\_") + "%"
    if server == "postgres":
        import psycopg
        from psycopg import sql

        with psycopg.connect(autocommit=True, **_pg_params(SERVERS[server])) as conn:
            names = [r[0] for r in conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", (pattern,))]
            for name in names:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))
        return names
    import pymysql

    conn = pymysql.connect(autocommit=True, **_my_params(SERVERS[server]))
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE %s", (pattern,))
            names = [r[0] for r in cur.fetchall()]
            for name in names:
                cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
    finally:
        conn.close()
    return names


def interleaved(fns: dict[str, Callable[[], None]], rounds: int, per_round: int) -> dict[str, float]:
    """Median seconds per call of each function, alternating their order each round."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    clock = time.perf_counter
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            fn = fns[name]
            start = clock()
            for _ in range(per_round):
                fn()
            samples[name].append((clock() - start) / per_round)
    return {name: statistics.median(values) for name, values in samples.items()}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]
