"""Migration benchmark: ``python -m bench.migrate [--messages N] [--servers …]``.

Generates a Hermes-shaped state.db (sessions + messages, ~500 bytes of content
per message on average, so 2M messages ≈ 1 GB), then per server:

* **baseline**: a plain import of the same database, reading SQLite and writing
  with the raw driver's fast path (PostgreSQL ``COPY``, MariaDB multi-row
  ``INSERT``) into tables created by the shim, then its indexes: no checksums,
  no progress, no verification;
* **migrate**: ``hermes-dbapi migrate`` in a child process, end to end (schema,
  copy, ids, full read-back verification), with its peak RSS.

Prints rows/s of both, their ratio and the peak RSS against the bars
(ratio ≥ 0.5, RSS < 300 MB).  Namespaces use the ``hdbbench_`` prefix and are dropped.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time

from . import common

_WORDS = "the session tool call result user assistant search memory file read write error ok 中文 ünï".split()


def generate(path: str, messages: int, seed: int = 1) -> float:
    """Write a state.db with ``messages`` messages; return its size in MB."""
    rnd = random.Random(seed)
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, title TEXT, started_at REAL NOT NULL,
                               message_count INTEGER DEFAULT 0);
        CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
                               role TEXT NOT NULL, content TEXT, tool_name TEXT, token_count INTEGER,
                               timestamp REAL NOT NULL);
        CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
        """
    )
    sessions = max(1, messages // 40)
    db.executemany(
        "INSERT INTO sessions VALUES (?, ?, ?, ?, 40)",
        ((f"sess-{i:08d}", "cli", f"session {i}", 1.7e9 + i) for i in range(sessions)),
    )

    def rows():
        for i in range(messages):
            size = int(rnd.expovariate(1 / 80))  # words; mean ≈ 480 bytes
            yield (f"sess-{i % sessions:08d}", rnd.choice(("user", "assistant", "tool")),
                   " ".join(rnd.choices(_WORDS, k=size)), rnd.choice((None, "search", "read_file")),
                   rnd.randrange(2000), 1.7e9 + i / 3)

    db.executemany(
        "INSERT INTO messages (session_id, role, content, tool_name, token_count, timestamp) VALUES (?,?,?,?,?,?)",
        rows(),
    )
    db.commit()
    db.close()
    return os.path.getsize(path) / 1e6


def baseline(server: str, path: str) -> tuple[int, float]:
    """Plain fast-path import into a fresh namespace; (rows, seconds)."""
    import hermes_dbapi

    url = common.hermes_url(server) + "&namespace=hdbbench_baseline"
    conn = hermes_dbapi.connect(url, isolation_level=None)
    conn._backend.drop_namespace()
    conn.close()
    conn = hermes_dbapi.connect(url, isolation_level=None)
    src = sqlite3.connect(path)
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"):
        conn.execute(sql)
    raw = conn._backend.conn
    total, started = 0, time.perf_counter()
    for table in ("sessions", "messages"):
        cols = [r[1] for r in src.execute(f"PRAGMA table_info({table})")]
        cursor = src.execute(f"SELECT {', '.join(cols)} FROM {table}")
        if server == "postgres":
            with raw.cursor() as cur, cur.copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN") as copy:
                for row in cursor:
                    copy.write_row(row)
                    total += 1
        else:
            sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})"
            with raw.cursor() as cur:
                cur.execute("SET foreign_key_checks = 0")
                while rows := cursor.fetchmany(10_000):
                    cur.executemany(sql, rows)
                    total += len(rows)
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"):
        conn.execute(sql)  # a plain import builds the database's indexes too
    seconds = time.perf_counter() - started
    conn._backend.drop_namespace()
    conn.close()
    src.close()
    return total, seconds


def migrate(server: str, path: str) -> tuple[float, float, str]:
    """``hermes-dbapi migrate`` in a child; (seconds, peak RSS MB, its summary)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "hermes_dbapi", "migrate", path, "--to", common.hermes_url(server), "--quiet"],
        capture_output=True, text=True,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed ({done.returncode}): {done.stderr.strip()}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.migrate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=20_000, help="messages to generate (bar: 2,000,000)")
    parser.add_argument("--servers", nargs="+", choices=list(common.SERVERS), default=list(common.SERVERS))
    parser.add_argument("--keep", help="reuse/keep the generated database at this path")
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="hdbbench-migrate-")
    path = args.keep or os.path.join(workdir, "state.db")
    if not os.path.exists(path):
        started = time.perf_counter()
        size = generate(path, args.messages)
        print(f"generated {path}: {args.messages:,} messages, {size:,.0f} MB in {time.perf_counter() - started:.0f} s")
    else:
        print(f"using {path}: {os.path.getsize(path) / 1e6:,.0f} MB")
    rows = sum(sqlite3.connect(path).execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("sessions", "messages"))
    for server in args.servers:
        reason = common.reachable(server)
        if reason:
            print(f"{server}: skipped ({reason})")
            continue
        try:
            seconds, rss, _summary = migrate(server, path)
            base_rows, base_seconds = baseline(server, path)
        finally:
            common.drop_namespaces(server)
        base_rate, rate = base_rows / base_seconds, rows / seconds
        ratio = rate / base_rate
        print(f"{server}: plain import {base_rate:,.0f} rows/s ({base_seconds:.1f} s); "
              f"migrate {rate:,.0f} rows/s ({seconds:.1f} s end to end, verified); "
              f"ratio {ratio:.2f} (bar ≥ 0.5: {'PASS' if ratio >= 0.5 else 'FAIL'}); "
              f"peak RSS {rss:,.0f} MB (bar < 300: {'PASS' if rss < 300 else 'FAIL'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
