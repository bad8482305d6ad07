"""Migration benchmark: ``python -m bench.migrate [--messages N] [--servers …] [--kill-at 0.5]``.

Generates a Hermes-shaped state.db: sessions + messages (~480 bytes of text
per message from a Zipf-distributed vocabulary) with Hermes' FTS5
external-content table ``messages_fts(content, content=messages,
content_rowid=id)`` and its three sync triggers; 2M messages ≈ 1.3 GB.
Then per server, all in the same run (the machine is shared, so only
same-run figures compare):

* **migrate**: ``hermes-dbapi migrate`` in a child process, end to end
  (schema, copy, FTS index, ids, read-back verification), with its peak RSS;
* **baseline (tables)**: a plain import of the tables' rows with the raw
  driver's fast path (PostgreSQL ``COPY``, MariaDB multi-row ``INSERT``) into
  tables the shim created, then their indexes: no checksums, no progress;
* **baseline (tables + FTS)**: the same plus loading the FTS server rows,
  precomputed into files beforehand (untimed), with ``COPY`` / ``LOAD DATA``
  (PostgreSQL: into the postings table without its indexes, built after);
* with ``--kill-at F``: a second migration SIGKILLed when its progress rows
  say a fraction F of all rows (table rows + indexed rows) is done, then
  resumed; its result (row counts, per-table checksums of every table, the
  FTS server tables included (those hashed by the server: ~50 rows a
  message), and MATCH/rank/snippet results of sample queries) must equal the
  uninterrupted run's.

Use a namespace prefix of your own (HDBBENCH_PREFIX): the cleanup drops every
namespace with the prefix, so concurrent runs sharing one drop each other's.
Prints rows/s, both ratios against the bar (≥ 0.5) and each child's peak RSS
(bar < 300 MB).  Namespaces use the bench prefix (HDBBENCH_PREFIX) and are dropped.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from typing import Any

from . import common

FTS_DDL = """
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
"""

_SYLLABLES = "ka lo mi ne ru sa te vo zu pi da fe gu hi jo ba ce".split()
_COMMON = "the session tool call result user assistant search memory file read write error ok 中文 ünï".split()
#: rare-ish words (ranks 1500..1520): each in ~0.5% of the messages, so ranking them is cheap everywhere
QUERY_RANKS = (1500, 1501, 1507, 1519)


def vocabulary(size: int = 3000) -> list[str]:
    words = list(_COMMON)
    for n in itertools.count(2):
        for combo in itertools.product(_SYLLABLES, repeat=n):
            if len(words) >= size:
                return words
            words.append("".join(combo))
    return words


def queries() -> list[str]:
    words = vocabulary()
    a, b, c, d = (words[r] for r in QUERY_RANKS)
    return [a, f"{b} OR {c}", f'"{a} {b}"', f"{d}*", f"{c} NOT {d}", f"{words[1510]} AND {words[1511]}"]


def generate(path: str, messages: int, seed: int = 1) -> float:
    """Write a state.db with ``messages`` messages and its FTS index; return its size in MB."""
    rnd = random.Random(seed)
    words = vocabulary()
    cum = list(itertools.accumulate(1 / (r + 1) for r in range(len(words))))  # Zipf weights
    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
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
            size = int(rnd.expovariate(1 / 70))  # words; mean ≈ 480 bytes
            yield (f"sess-{i % sessions:08d}", rnd.choice(("user", "assistant", "tool")),
                   " ".join(rnd.choices(words, cum_weights=cum, k=size)), rnd.choice((None, "search", "read_file")),
                   rnd.randrange(2000), 1.7e9 + i / 3)

    db.executemany(
        "INSERT INTO messages (session_id, role, content, tool_name, token_count, timestamp) VALUES (?,?,?,?,?,?)",
        rows(),
    )
    db.executescript(FTS_DDL)  # the triggers only apply from here on: index what is there, as Hermes' rebuild does
    db.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
    db.commit()
    db.close()
    return os.path.getsize(path) / 1e6


# -- baselines ---------------------------------------------------------------------------------------


def _hermes(server: str, namespace: str) -> Any:
    import hermes_dbapi

    return hermes_dbapi.connect(common.hermes_url(server) + f"&namespace={namespace}", isolation_level=None)


def _fresh(server: str, namespace: str) -> Any:
    conn = _hermes(server, namespace)
    conn._backend.drop_namespace()
    conn.close()
    return _hermes(server, namespace)


def _pg_field(value: Any) -> bytes:
    if value is None:
        return b"\\N"
    if isinstance(value, bytes):
        return b"\\\\x" + value.hex().encode()
    text = str(value).encode("utf-8", "surrogatepass")
    return text.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def _my_field(value: Any) -> bytes:
    if value is None:
        return b"\\N"
    raw = value if isinstance(value, bytes) else str(value).encode("utf-8", "surrogatepass")
    return (raw.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n")
            .replace(b"\0", b"\\0"))


def precompute_fts(server: str, path: str, workdir: str) -> dict[str, tuple[str, int]]:
    """The FTS server rows of the source, as load files (untimed): {table: (file, rows)}."""
    from hermes_dbapi.fts.server.spec import parse
    from hermes_dbapi.fts.server.storage import Storage

    src = sqlite3.connect(path)
    sql = src.execute("SELECT sql FROM sqlite_master WHERE name = 'messages_fts'").fetchone()[0]

    class _NoServer:
        kind = "postgres" if server == "postgres" else "mysql"

    storage = Storage(_NoServer(), parse("messages_fts", sql))  # type: ignore[arg-type]
    field = _pg_field if server == "postgres" else _my_field
    files = {t: os.path.join(workdir, f"{server}-{t}.tsv") for t in ("messages_fts_idx", "messages_fts_docsize")}
    counts = dict.fromkeys(files, 0)
    with open(files["messages_fts_idx"], "wb") as idx, open(files["messages_fts_docsize"], "wb") as size:
        cursor = src.execute("SELECT id, content FROM messages ORDER BY id")
        while chunk := cursor.fetchmany(5000):
            postings, docs, _ = storage.encode_rows([(r[0], [r[1]]) for r in chunk])
            for out, rows, name in ((idx, postings, "messages_fts_idx"), (size, docs, "messages_fts_docsize")):
                out.write(b"".join(b"\t".join(map(field, row)) + b"\n" for row in rows))
                counts[name] += len(rows)
    src.close()
    return {t: (files[t], counts[t]) for t in files}


def baseline(server: str, path: str, fts_files: dict[str, tuple[str, int]]) -> tuple[int, float, int, float]:
    """Plain fast-path import into a fresh namespace:
    (table rows, seconds, FTS rows, seconds to load them from the precomputed files)."""
    namespace = common.PREFIX + "baseline"
    conn = _fresh(server, namespace)
    src = sqlite3.connect(path)
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                              "AND name NOT LIKE 'messages_fts%'"):
        conn.execute(sql)
    conn.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)")
    raw = conn._backend.conn
    if server == "postgres":  # the fastest plain import loads first and indexes after (InnoDB: no gain)
        conn._backend.query("ALTER TABLE messages_fts_idx DROP CONSTRAINT messages_fts_idx_pkey")
        conn._backend.query("DROP INDEX messages_fts_idx_id")
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
    fts_rows, started = 0, time.perf_counter()
    for table, (file, rows) in fts_files.items():
        cols = "(term, id, full_term, pos)" if table.endswith("_idx") else "(id, sz, total)"
        if server == "postgres":
            with raw.cursor() as cur, cur.copy(f"COPY {table} {cols} FROM STDIN") as copy, open(file, "rb") as f:
                while block := f.read(1 << 20):
                    copy.write(block)
        else:
            import pymysql

            params = common._my_params(common.SERVERS[server])
            loader = pymysql.connect(database=namespace, local_infile=True, charset="utf8mb4", **params)
            with loader.cursor() as cur:
                cur.execute(f"LOAD DATA LOCAL INFILE %s INTO TABLE {table} CHARACTER SET binary {cols}", (file,))
            loader.commit()
            loader.close()
        fts_rows += rows
    if server == "postgres":
        conn._backend.query("ALTER TABLE messages_fts_idx ADD PRIMARY KEY (term, id)")
        conn._backend.query("CREATE INDEX messages_fts_idx_id ON messages_fts_idx (id)")
    fts_seconds = time.perf_counter() - started
    conn._backend.drop_namespace()
    conn.close()
    src.close()
    return total, seconds, fts_rows, fts_seconds


# -- migrate in a child ------------------------------------------------------------------------------


#: runs ``python -m hermes_dbapi ARGS`` and reports the process's own peak RSS (VmHWM) on stderr.
#: (ru_maxrss of a child is useless here: Linux carries the forking parent's peak across exec.)
_WRAP = """
import runpy, sys
sys.argv = ["hermes_dbapi", *sys.argv[1:]]
try:
    runpy.run_module("hermes_dbapi", run_name="__main__", alter_sys=True)
finally:
    sys.stderr.write("\\n" + next(x for x in open("/proc/self/status") if x.startswith("VmHWM")))
"""


def _hwm_mb(text: str) -> float:
    """The VmHWM line's value in MB (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
    return 0.0


def _child(server: str, path: str, namespace: str) -> subprocess.Popen:
    argv = [sys.executable, "-c", _WRAP, "migrate", path, "--to", common.hermes_url(server),
            "--namespace", namespace, "--quiet"]
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")  # no pipe to drain while waiting
    child = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
    child.outputs = (out, err)  # type: ignore[attr-defined]
    return child


def _outputs(child: subprocess.Popen) -> tuple[str, str]:
    texts = []
    for f in child.outputs:  # type: ignore[attr-defined]
        f.seek(0)
        texts.append(f.read())
        f.close()
    return texts[0], texts[1]


def _reap(child: subprocess.Popen) -> int:
    return child.wait()


def _sample_hwm(pid: int) -> float:
    """The child's VmHWM now (MB), read from /proc while it runs."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return _hwm_mb(f.read())
    except OSError:
        return 0.0


def migrate(server: str, path: str, namespace: str) -> tuple[float, float, str]:
    """``hermes-dbapi migrate`` in a child; (seconds, peak RSS MB, its summary)."""
    started = time.perf_counter()
    child = _child(server, path, namespace)
    code = _reap(child)
    out, err = _outputs(child)
    rss = _hwm_mb(err)
    seconds = time.perf_counter() - started
    if code != 0:
        raise RuntimeError(f"migrate failed ({code}): {err.strip()}\n{out}")
    return seconds, rss, out


def _done_rows(server: str, namespace: str) -> int:
    try:
        conn = common.raw_connect(server, namespace)
    except Exception:  # noqa: BLE001 - the namespace does not exist yet
        return 0
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT COALESCE(SUM(copied), 0) FROM hermes_migrate_progress WHERE tbl <> ''")
            return int(cur.fetchone()[0])
    except Exception:  # noqa: BLE001 - not created yet
        return 0
    finally:
        conn.close()


def killed_and_resumed(server: str, path: str, namespace: str, total: int, fraction: float) -> dict[str, Any]:
    """SIGKILL a migration when its progress rows reach ``fraction`` of ``total``, then resume it."""
    started = time.perf_counter()
    child = _child(server, path, namespace)
    done, rss1 = 0, 0.0
    while child.poll() is None:
        rss1 = max(rss1, _sample_hwm(child.pid))  # a killed child cannot report: sampled (every 0.2 s)
        done = _done_rows(server, namespace)
        if done >= fraction * total:
            child.send_signal(signal.SIGKILL)
            break
        time.sleep(0.2)
    code = _reap(child)
    _outputs(child)
    killed_after = time.perf_counter() - started
    if code != -signal.SIGKILL:
        raise RuntimeError(f"the migration ended ({code}) before it could be killed at {fraction:.0%}")
    at = _done_rows(server, namespace)
    seconds, rss2, out = migrate(server, path, namespace)
    if not out.startswith("resumed"):
        raise RuntimeError(f"the second run did not resume:\n{out}")
    return {"killed_at_rows": at, "seen_rows": done, "killed_after_s": killed_after, "resume_s": seconds,
            "rss_killed": rss1, "rss_resume": rss2}


# -- comparing two migrated namespaces ---------------------------------------------------------------


def fingerprint(server: str, namespace: str) -> dict[str, Any]:
    """Row counts and checksums of every table (FTS server tables included), and sample searches."""
    from hermes_dbapi import url as urls
    from hermes_dbapi.cli.migration.checksum import Checksum
    from hermes_dbapi.cli.migration.target import TargetNamespace
    from hermes_dbapi.cli.migration.writer import Writer

    target = TargetNamespace(urls.parse(common.hermes_url(server)), namespace)
    writer = Writer(target)
    out: dict[str, Any] = {}
    tables = {"sessions": ["id", "source", "title", "started_at", "message_count"],
              "messages": ["id", "session_id", "role", "content", "tool_name", "token_count", "timestamp"],
              "messages_fts_idx": ["term", "id", "full_term", "pos"],
              "messages_fts_docsize": ["id", "sz", "total"]}
    for table, cols in tables.items():
        if table.startswith("messages_fts"):  # ~50 rows per message: hashed by the server, not in Python
            out[table] = server_digest(target, table)
            continue
        total = Checksum()
        total.add_all(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
                      for row in writer.stream(table, cols))
        out[table] = (total.rows, total.hex)
    out["searches"] = [search(target.conn, q) for q in queries()]
    target.close()
    return out


#: each FTS server row as text, every column (bytes as hex, NULL marked): hashed by the server
_ROW_TEXT = {
    ("postgres", "messages_fts_idx"): "concat_ws('|', encode(term, 'hex'), id, coalesce(encode(full_term, 'hex'), 'N'), pos)",
    ("postgres", "messages_fts_docsize"): "concat_ws('|', id, encode(sz, 'hex'), total)",
    ("mysql", "messages_fts_idx"): "CONCAT_WS('|', HEX(term), id, IFNULL(HEX(full_term), 'N'), pos)",
    ("mysql", "messages_fts_docsize"): "CONCAT_WS('|', id, HEX(sz), total)",
}


def server_digest(target: Any, table: str) -> tuple[int, str]:
    """(rows, order-independent digest) of a table computed by the server: the sums of the
    two 64-bit halves of each row's MD5 (as exact numerics).  Not yet timed at 97M rows:
    on MariaDB (128 MB buffer pool) it ran over 6.5 min and was interrupted; PostgreSQL's
    Python stream of the same rows took ~9 min."""
    kind = "postgres" if target.kind == "postgres" else "mysql"
    text = _ROW_TEXT[(kind, table)]
    if kind == "postgres":
        halves = [f"('x' || substr(md5({text}), {i}, 16))::bit(64)::bigint::numeric" for i in (1, 17)]
    else:
        halves = [f"CAST(CONV(SUBSTR(MD5({text}), {i}, 16), 16, 10) AS DECIMAL(30))" for i in (1, 17)]
    row = target.backend.query(f"SELECT count(*), sum({halves[0]}), sum({halves[1]}) FROM {target.quote(table)}")[0]
    return int(row[0]), f"{row[1]}:{row[2]}"


def search(conn: Any, query: str) -> list[tuple]:
    rows = conn.execute(
        "SELECT rowid, rank, snippet(messages_fts, 0, '[', ']', '…', 10) FROM messages_fts "
        "WHERE messages_fts MATCH ? ORDER BY rank, rowid LIMIT 20", (query,)).fetchall()
    return [(r, round(k, 9), s) for r, k, s in rows]


def sqlite_searches(path: str) -> list[list[tuple]]:
    src = sqlite3.connect(path)
    try:
        return [search(src, q) for q in queries()]
    finally:
        src.close()


def integrity(server: str, namespace: str) -> str:
    conn = _hermes(server, namespace)
    try:
        conn.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)")
        return "ok"
    except Exception as exc:  # noqa: BLE001 - report it
        return f"FAILED: {exc}"
    finally:
        conn.close()


# -- main ----------------------------------------------------------------------------------------------


def _mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def run_server(server: str, path: str, workdir: str, args: argparse.Namespace, counts: dict[str, int]) -> None:
    rows = counts["sessions"] + counts["messages"]
    whole = common.PREFIX + "whole"
    seconds, rss, summary = migrate(server, path, whole)
    print(f"{server}: migrate {rows:,} table rows + FTS index in {seconds:.1f} s end to end, verified "
          f"({rows / seconds:,.0f} table rows/s); peak RSS {rss:,.0f} MB (bar < 300: {_mark(rss < 300)})", flush=True)
    fts_files = precompute_fts(server, path, workdir)
    base_rows, base_s, fts_rows, fts_s = baseline(server, path, fts_files)
    for file, _n in fts_files.values():
        os.remove(file)
    base_rate = base_rows / base_s
    base_all_rate = (base_rows + fts_rows) / (base_s + fts_s)
    rate_all = (rows + fts_rows) / seconds
    print(f"{server}: baseline tables only: {base_rows:,} rows in {base_s:.1f} s ({base_rate:,.0f} rows/s); "
          f"ratio migrate/baseline {base_s / seconds:.2f} (bar ≥ 0.5: {_mark(base_s / seconds >= 0.5)})")
    print(f"{server}: baseline tables + precomputed FTS rows: {base_rows:,} + {fts_rows:,} rows in "
          f"{base_s:.1f} + {fts_s:.1f} s ({base_all_rate:,.0f} rows/s; migrate {rate_all:,.0f} rows/s of the same rows); "
          f"ratio {(base_s + fts_s) / seconds:.2f} (bar ≥ 0.5: {_mark((base_s + fts_s) / seconds >= 0.5)})")
    for line in summary.splitlines():
        if "index" in line or "copied" in line:
            print(f"{server}:   {line.strip()}")
    if counts["messages"] <= args.integrity_max:
        print(f"{server}: integrity-check (with content) on the migrated index: {integrity(server, whole)}")
    want = fingerprint(server, whole)
    same = want["searches"] == sqlite_searches(path)
    print(f"{server}: MATCH/rank/snippet of {len(queries())} sample queries equal sqlite3's on the source: {_mark(same)}")
    if args.kill_at:
        killed = common.PREFIX + "killed"
        info = killed_and_resumed(server, path, killed, rows + counts["messages"], args.kill_at)
        got = fingerprint(server, killed)
        diff = [k for k in want if want[k] != got[k]]
        print(f"{server}: killed (SIGKILL) at {info['killed_at_rows']:,} of {rows + counts['messages']:,} rows "
              f"({info['killed_at_rows'] / (rows + counts['messages']):.0%}, after {info['killed_after_s']:.1f} s; "
              f"peak RSS {info['rss_killed']:,.0f} MB), resumed in {info['resume_s']:.1f} s "
              f"(peak RSS {info['rss_resume']:,.0f} MB): result equals the uninterrupted run "
              f"(rows, checksums of {', '.join(k for k in want if k != 'searches')}, searches): "
              f"{_mark(not diff)}{' differs: ' + ', '.join(diff) if diff else ''}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.migrate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=20_000, help="messages to generate (bar: 2,000,000)")
    parser.add_argument("--servers", nargs="+", choices=list(common.SERVERS), default=list(common.SERVERS))
    parser.add_argument("--keep", help="reuse/keep the generated database at this path")
    parser.add_argument("--kill-at", type=float, default=0.0, metavar="F",
                        help="also SIGKILL a migration at this fraction of rows done, resume it and compare")
    parser.add_argument("--integrity-max", type=int, default=200_000, metavar="N",
                        help="run FTS5's integrity-check (it reads the whole index into memory) up to N messages")
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="hdbbench-migrate-")
    path = args.keep or os.path.join(workdir, "state.db")
    if not os.path.exists(path):
        started = time.perf_counter()
        size = generate(path, args.messages)
        print(f"generated {path}: {args.messages:,} messages with FTS5 index, {size:,.0f} MB "
              f"in {time.perf_counter() - started:.0f} s")
    else:
        print(f"using {path}: {os.path.getsize(path) / 1e6:,.0f} MB")
    src = sqlite3.connect(path)
    counts = {t: src.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("sessions", "messages")}
    src.close()
    for server in args.servers:
        reason = common.reachable(server)
        if reason:
            print(f"{server}: skipped ({reason})")
            continue
        try:
            run_server(server, path, workdir, args, counts)
        finally:
            common.drop_namespaces(server)
        sys.stdout.flush()
    if not args.keep:
        os.remove(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
