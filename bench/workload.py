"""SessionDB workload: examples/sessiondb.py on SQLite and via hermes_dbapi, vs hand-written drivers."""

from __future__ import annotations

import importlib.util
import os
import statistics
import time
from pathlib import Path
from typing import Any

from .common import backend_env, namespace_of, raw_connect

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sessiondb.py"


def _sessiondb_module() -> Any:
    spec = importlib.util.spec_from_file_location("hdbbench_sessiondb", _EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RawPG:
    """SessionDB's operations hand-written for psycopg 3 (no global write lock: row locks suffice)."""

    def __init__(self, namespace: str) -> None:
        self.conn = raw_connect("postgres", namespace, dict_rows=True)

    def create_session(self, session_id: str, source: str, title: str | None = None) -> None:
        with self.conn.transaction():
            self.conn.execute(
                "INSERT INTO sessions (id, source, title, started_at) VALUES (%s, %s, %s, %s)",
                (session_id, source, title, time.time()),
            )

    def append_message(self, session_id: str, role: str, content: str) -> int:
        with self.conn.transaction():
            row = self.conn.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (%s, %s, %s, %s) RETURNING id",
                (session_id, role, content, time.time()),
            ).fetchone()
            self.conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = %s", (session_id,))
        return row["id"]

    def get_messages(self, session_id: str) -> list[dict]:
        return self.conn.execute(
            "SELECT id, role, content FROM messages WHERE session_id = %s ORDER BY timestamp, id", (session_id,)
        ).fetchall()

    def search(self, needle: str, limit: int = 10) -> list[dict]:
        return self.conn.execute(
            "SELECT m.id, m.session_id, m.content FROM messages m WHERE strpos(m.content, %s) > 0 "
            "ORDER BY m.id LIMIT %s",
            (needle, limit),
        ).fetchall()

    def list_sessions(self, limit: int = 20, offset: int = 0) -> list[dict]:
        return self.conn.execute(
            "SELECT id, source, title, message_count FROM sessions ORDER BY started_at DESC, id LIMIT %s OFFSET %s",
            (limit, offset),
        ).fetchall()

    def close(self) -> None:
        self.conn.close()


class RawMy:
    """SessionDB's operations hand-written for PyMySQL."""

    def __init__(self, namespace: str) -> None:
        self.conn = raw_connect("mariadb", namespace, dict_rows=True)
        self.cur = self.conn.cursor()

    def create_session(self, session_id: str, source: str, title: str | None = None) -> None:
        self.conn.begin()
        self.cur.execute(
            "INSERT INTO sessions (id, source, title, started_at) VALUES (%s, %s, %s, %s)",
            (session_id, source, title, time.time()),
        )
        self.conn.commit()

    def append_message(self, session_id: str, role: str, content: str) -> int:
        self.conn.begin()
        self.cur.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (%s, %s, %s, %s)",
            (session_id, role, content, time.time()),
        )
        rowid = self.cur.lastrowid
        self.cur.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = %s", (session_id,))
        self.conn.commit()
        return rowid

    def _rows(self, sql: str, params: tuple) -> list[dict]:
        self.cur.execute(sql, params)
        return list(self.cur.fetchall())

    def get_messages(self, session_id: str) -> list[dict]:
        return self._rows(
            "SELECT id, role, content FROM messages WHERE session_id = %s ORDER BY timestamp, id", (session_id,)
        )

    def search(self, needle: str, limit: int = 10) -> list[dict]:
        return self._rows(
            "SELECT m.id, m.session_id, m.content FROM messages m WHERE INSTR(m.content, %s) > 0 "
            "ORDER BY m.id LIMIT %s",
            (needle, limit),
        )

    def list_sessions(self, limit: int = 20, offset: int = 0) -> list[dict]:
        return self._rows(
            "SELECT id, source, title, message_count FROM sessions ORDER BY started_at DESC, id LIMIT %s OFFSET %s",
            (limit, offset),
        )

    def close(self) -> None:
        self.conn.close()


def drive(db: Any, tag: str, sessions: int, messages: int) -> int:
    """One pass of the workload; returns the number of operations."""
    ops = 0
    for s in range(sessions):
        sid = f"{tag}-{s}"
        db.create_session(sid, "cli", f"{tag} session {s}")
        ops += 1
        for m in range(messages):
            db.append_message(sid, "user" if m % 2 == 0 else "assistant", f"message {m} of {sid} about topic{m % 7}")
            ops += 1
            if m % 5 == 4:
                db.get_messages(sid)
                ops += 1
        db.search(f"topic{s % 7}")
        db.list_sessions()
        ops += 2
    return ops


def _plan_hits(conns: list) -> int:
    """Statements served by the connection's own plan table (the fast path)."""
    return sum(getattr(c, "_plan_hits", 0) for c in conns)


def run(servers: list[str], workdir: str, quick: bool) -> dict:
    """Ops/s per implementation (median over interleaved rounds) and the cache hit rate."""
    from hermes_dbapi.connection import _SHARED_CACHE

    module = _sessiondb_module()
    impls: dict[str, Any] = {}
    with backend_env(None):
        impls["sqlite"] = module.SessionDB(os.path.join(workdir, "sessiondb.db"))
    local_caches, conns = [], []
    for server in servers:
        with backend_env(server):
            db = module.SessionDB(os.path.join(workdir, "sessiondb.db"))
        impls[f"hermes/{server}"] = db
        local_caches.append(db.conn._local_cache)
        conns.append(db.conn)
        raw_cls = RawPG if server == "postgres" else RawMy
        impls[f"raw/{server}"] = raw_cls(namespace_of(db.conn))
    sessions, messages, rounds = (4, 10, 3) if quick else (10, 20, 7)
    for name, db in impls.items():  # warm up
        drive(db, f"warm-{name}", 1, 5)
    before = (_SHARED_CACHE.hits, _SHARED_CACHE.misses, sum(c.hits for c in local_caches), _plan_hits(conns))
    samples: dict[str, list[float]] = {name: [] for name in impls}
    names = list(impls)
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            start = time.perf_counter()
            ops = drive(impls[name], f"r{r}-{name}", sessions, messages)
            samples[name].append(ops / (time.perf_counter() - start))
    hits = _SHARED_CACHE.hits - before[0]
    misses = _SHARED_CACHE.misses - before[1]
    local_hits = sum(c.hits for c in local_caches) - before[2]  # a subset of the shared misses
    plan_hits = _plan_hits(conns) - before[3]  # served before any cache lookup
    for db in impls.values():
        db.close()
    rates = {name: statistics.median(v) for name, v in samples.items()}
    lookups = hits + misses + plan_hits
    return {
        "ops_per_s": rates,
        "ops_per_round": ops,
        "rounds": rounds,
        "cache": {
            "lookups": lookups,
            "shared_hits": hits,
            "local_hits": local_hits,
            "plan_hits": plan_hits,
            "hit_rate": (hits + local_hits + plan_hits) / lookups if lookups else float("nan"),
        },
    }
