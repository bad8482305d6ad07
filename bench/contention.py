"""Concurrent writer processes: BEGIN IMMEDIATE + retry loop, SQLite vs hermes_dbapi servers."""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import time
from typing import Any

from .common import hermes_connect, percentile

PATIENCE = 20.0
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, message_count INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, content TEXT, ts REAL)",
)


def _connect(server: str | None, path: str) -> Any:
    if server is None:
        import sqlite3

        return sqlite3.connect(path, timeout=1.0, isolation_level=None)
    return hermes_connect(server, path, timeout=1.0, isolation_level=None)


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _worker(server: str | None, path: str, n: int, sid: str, barrier: Any, out: Any) -> None:
    import sqlite3

    conn = _connect(server, path)
    latencies: list[float] = []
    retried = gave_up = 0
    unrecognized: list[str] = []
    barrier.wait()
    began = time.monotonic()
    for i in range(n):
        first = time.monotonic()
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(
                    "INSERT INTO messages (session_id, content, ts) VALUES (?, ?, ?)", (sid, f"msg {i}", time.time())
                )
                conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (sid,))
                conn.execute("COMMIT")
                latencies.append(time.monotonic() - first)
                break
            except sqlite3.Error as exc:
                try:
                    conn.rollback()
                except sqlite3.Error:
                    pass
                if isinstance(exc, sqlite3.OperationalError) and _is_lock_error(exc):
                    if time.monotonic() - first > PATIENCE:
                        gave_up += 1
                        break
                    retried += 1
                    time.sleep(random.uniform(0.02, 0.15))
                    continue
                unrecognized.append(f"{type(exc).__name__}: {exc}")
                break
    ended = time.monotonic()
    # every writer ends its measured loop before any closes: a writer's exit (interpreter
    # teardown, ~20-40 ms CPU) would otherwise be timed as the last writers' lock wait
    barrier.wait()
    conn.close()
    out.put({"latencies": latencies, "retried": retried, "gave_up": gave_up,
             "unrecognized": unrecognized, "began": began, "ended": ended})


def _prepare(server: str | None, path: str, tag: str, writers: int) -> None:
    conn = _connect(server, path)
    if server is None:
        conn.execute("PRAGMA journal_mode=WAL")
    for ddl in SCHEMA:
        conn.execute(ddl)
    conn.executemany("INSERT INTO sessions (id) VALUES (?)", [(f"{tag}-{w}",) for w in range(writers)])
    conn.close()


def _verify(server: str | None, path: str, tag: str) -> tuple[int, int, int]:
    """(committed messages, sessions checked, sessions whose counter != message count)."""
    conn = _connect(server, path)
    counters = dict(conn.execute("SELECT id, message_count FROM sessions WHERE id LIKE ?", (f"{tag}-%",)).fetchall())
    counts = dict(
        conn.execute(
            "SELECT session_id, COUNT(*) FROM messages WHERE session_id LIKE ? GROUP BY session_id", (f"{tag}-%",)
        ).fetchall()
    )
    conn.close()
    bad = sum(1 for sid, value in counters.items() if value != counts.get(sid, 0))
    return sum(counts.values()), len(counters), bad


def run_one(server: str | None, workdir: str, writers: int, n: int) -> dict:
    ctx = mp.get_context("spawn")
    path = os.path.join(workdir, "contention.db")
    tag = f"w{writers}"
    _prepare(server, path, tag, writers)
    barrier = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(server, path, n, f"{tag}-{w}", barrier, out)) for w in range(writers)
    ]
    for p in procs:
        p.start()
    reports = [out.get(timeout=PATIENCE * n + 120) for _ in procs]
    for p in procs:
        p.join()
    latencies = [x for r in reports for x in r["latencies"]]
    span = max(r["ended"] for r in reports) - min(r["began"] for r in reports)
    committed, checked, bad = _verify(server, path, tag)
    unrecognized = [m for r in reports for m in r["unrecognized"]]
    gave_up = sum(r["gave_up"] for r in reports)
    return {
        "backend": "sqlite" if server is None else f"hermes/{server}",
        "writers": writers,
        "attempted": writers * n,
        "committed": len(latencies),
        "tx_per_s": len(latencies) / span if span > 0 else float("nan"),
        "p50_ms": percentile(latencies, 50) * 1e3,
        "p99_ms": percentile(latencies, 99) * 1e3,
        "lock_retried": sum(r["retried"] for r in reports),
        "lock_escaped": gave_up + len(unrecognized),
        "unrecognized": unrecognized[:3],
        "rows_in_db": committed,
        "counters_ok": bad == 0 and checked == writers and committed == len(latencies),
    }


def run(servers: list[str], workdir: str, quick: bool) -> list[dict]:
    n = 10 if quick else 60
    results = []
    for writers in (1, 4, 16):
        for server in [None, *servers]:
            results.append(run_one(server, workdir, writers, n))
    return results
