"""Translation cache: cost of a hit, of a statement kept on file by an earlier
process (translate/disk_cache.py), and of a miss (full translate())."""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from .common import hermes_connect

STATEMENTS = (
    "SELECT id, a, b, c FROM t WHERE id = ?",
    "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
    "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?",
    "SELECT m.id, m.session_id, m.content FROM messages m WHERE instr(m.content, ?) > 0 ORDER BY m.id LIMIT ?",
    "SELECT id, source, title, message_count FROM sessions ORDER BY started_at DESC, id LIMIT ? OFFSET ?",
)


def _median_per_call(fn: Any, calls: int, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def run(server: str, workdir: str, quick: bool) -> dict:
    """µs per cache hit (connection path and bare LRU get) and per miss (translate())."""
    from hermes_dbapi.connection import _SHARED_CACHE
    from hermes_dbapi.translate import translate
    from hermes_dbapi.translate.context import Context

    conn = hermes_connect(server, os.path.join(workdir, "cache.db"), isolation_level=None)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL)")
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, title TEXT, started_at REAL, message_count INTEGER)")
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL)")
    backend = conn._backend
    dialect = backend.dialect
    calls, rounds = (2_000, 5) if quick else (20_000, 9)
    hit_path, hit_get, from_file, miss = [], [], [], []
    for sql in STATEMENTS:
        conn._translation(sql)  # now cached, and kept on file
        hit_path.append(_median_per_call(lambda s=sql: conn._translation(s), calls, rounds))
        hit_get.append(_median_per_call(lambda s=sql: _SHARED_CACHE.get(dialect, s), calls, rounds))

        def as_a_new_process(s: str = sql) -> None:
            _SHARED_CACHE.clear()
            conn._local_cache.clear()
            conn._translation(s)

        from_file.append(_median_per_call(as_a_new_process, 20 if quick else 200, 3 if quick else 5))

        def fresh(s: str = sql) -> None:
            translate(s, Context(dialect=dialect, version=backend.server_version, schema=conn._shadow))

        miss.append(_median_per_call(fresh, 20 if quick else 100, 3 if quick else 5))
    conn.close()
    return {
        "server": server,
        "hit_us": statistics.median(hit_path) * 1e6,
        "hit_get_us": statistics.median(hit_get) * 1e6,
        "file_us": statistics.median(from_file) * 1e6,
        "miss_us": statistics.median(miss) * 1e6,
        "miss_max_us": max(miss) * 1e6,
    }
