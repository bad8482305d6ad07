"""The workload that breaks SQLite today: many writer processes, SIGKILLs and hot updates.

N writer processes (CLI-, gateway- and cron-like) append messages and bump
session counters through ``hermes_dbapi`` exactly as Hermes' write funnel does:
``BEGIN IMMEDIATE`` + statements + ``COMMIT`` with a 1 s busy timeout and an
application retry loop with 20-150 ms jitter and 20 s patience.  Meanwhile the
driver SIGKILLs writers in the middle of a transaction and starts a new process
in their place at once (the "hot update": a new process connects while the
others are mid-write), optionally restarting the database server mid-run.

Each writer logs an acknowledgement line to its own file *after* COMMIT
returned.  At the end the store is checked:

* every acknowledged commit is present exactly once (``lost_acked``, ``duplicates``);
* no partial transaction is visible (each transaction writes a message, a log
  row and a counter: ``partial``, ``bad_counters``);
* no "database is locked" escaped the retry loop within its patience (``lock_escaped``).

Run ``python -m bench.hot_update`` (defaults: 16 writers x 500 transactions,
SQLite, PostgreSQL and MariaDB side by side); ``--restart`` restarts the
server once mid-run; ``--lock table`` uses the lock-row strategy.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

PATIENCE = 20.0  # seconds a write may keep retrying on "locked" (Hermes: 20 s)
RESTART_PATIENCE = 90.0  # ... on a lost server (only while it restarts)
BUSY_TIMEOUT = 1.0  # Hermes' sqlite3 timeout
ROLES = ("cli", "gateway", "cron")
GATEWAY_SESSIONS = 3

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, "
    "started_at REAL NOT NULL, message_count INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "session_id TEXT NOT NULL REFERENCES sessions(id), key TEXT NOT NULL UNIQUE, role TEXT NOT NULL, "
    "content TEXT, timestamp REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)",
    "CREATE TABLE IF NOT EXISTS tx_log (key TEXT PRIMARY KEY, writer TEXT NOT NULL)",
)


# -- the writer process ------------------------------------------------------------------


def _connect(url: str | None, path: str) -> Any:
    if url is None:
        os.environ.pop("HERMES_DB_URL", None)
    else:
        os.environ["HERMES_DB_URL"] = url
    import hermes_dbapi as sqlite3

    return sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)


def _connect_patiently(url: str | None, path: str, note: Any) -> Any:
    """A process that starts while the server restarts finds it refusing
    connections; like a supervised service it tries again (RESTART_PATIENCE)."""
    import sqlite3 as std

    first = time.monotonic()
    while True:
        try:
            return _connect(url, path)
        except std.OperationalError as exc:
            if url is None or time.monotonic() - first > RESTART_PATIENCE:
                note(f"ERROR connect {type(exc).__name__}: {exc}")
                raise
            time.sleep(0.2)


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _acked_so_far(ackdir: str, slot: int) -> int:
    total = 0
    for name in os.listdir(ackdir):
        if name.startswith(f"slot{slot}."):
            with open(os.path.join(ackdir, name), "rb") as fh:
                total += sum(1 for line in fh if line.startswith(b"ACK "))
    return total


def writer(url: str | None, path: str, slot: int, incarnation: int, target: int, ackdir: str, state: Any) -> None:
    """One writer process: ``target`` acknowledged transactions for its slot, in all."""
    import sqlite3 as std

    role = ROLES[slot % len(ROLES)]
    name = f"{role}{slot}.{incarnation}"
    rng = random.Random(f"{slot}.{incarnation}.{os.getpid()}")
    log = os.open(os.path.join(ackdir, f"slot{slot}.{incarnation}.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def note(line: str) -> None:
        os.write(log, (line + "\n").encode())  # one write(2), O_APPEND: whole lines even under SIGKILL

    conn = _connect_patiently(url, path, note)
    done = _acked_so_far(ackdir, slot)
    seq = 0
    cron_session = None
    while done < target:
        seq += 1
        key = f"{name}.{seq}"
        if role == "cli":
            session, new_session = f"cli-{slot}", None
        elif role == "gateway":
            session, new_session = f"gw-{rng.randrange(GATEWAY_SESSIONS)}", None
        else:  # cron: a new session every 10 jobs, its results appended to it
            new_session = f"cron-{key}" if cron_session is None or seq % 10 == 1 else None
            cron_session = new_session or cron_session
            session = cron_session
        first = time.monotonic()
        lock_retries = other_retries = 0
        while True:
            try:
                state[slot] = 1  # in a transaction (or waiting for its lock): a SIGKILL target
                conn.execute("BEGIN IMMEDIATE")
                if new_session:
                    conn.execute(
                        "INSERT OR IGNORE INTO sessions (id, source, started_at) VALUES (?, ?, ?)",
                        (new_session, role, time.time()),
                    )
                conn.execute(
                    "INSERT INTO messages (session_id, key, role, content, timestamp) VALUES (?, ?, ?, ?, ?)",
                    (session, key, "assistant", f"{name} message {seq} " + "x" * rng.randrange(20, 400), time.time()),
                )
                conn.execute("INSERT INTO tx_log (key, writer) VALUES (?, ?)", (key, name))
                conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (session,))
                conn.commit()
                committed = True
            except std.OperationalError as exc:
                committed = False
                try:
                    conn.rollback()
                except std.Error:
                    pass
                elapsed = time.monotonic() - first
                if getattr(exc, "hermes_outcome_unknown", False) or getattr(exc, "hermes_connection_lost", False):
                    # the server went away: a lost transaction was rolled back; a COMMIT
                    # with unknown outcome is looked up by its key before trying again
                    if elapsed > RESTART_PATIENCE:
                        note(f"ESCAPED {key} {exc}")
                        break
                    other_retries += 1
                    if getattr(exc, "hermes_outcome_unknown", False) and _committed(conn, key):
                        committed = True
                    else:
                        time.sleep(rng.uniform(0.05, 0.3))
                        continue
                elif _is_lock_error(exc):
                    if elapsed > PATIENCE:
                        note(f"ESCAPED {key} {exc}")
                        break
                    lock_retries += 1
                    time.sleep(rng.uniform(0.02, 0.15))
                    continue
                else:
                    note(f"ERROR {key} {type(exc).__name__}: {exc}")
                    break
            except std.Error as exc:
                try:
                    conn.rollback()
                except std.Error:
                    pass
                note(f"ERROR {key} {type(exc).__name__}: {exc}")
                committed = False
                break
            if committed:
                break
        if committed:
            note(f"ACK {key} {session} {(time.monotonic() - first) * 1e3:.3f} {lock_retries} {other_retries}")
            done += 1
        else:
            done = _acked_so_far(ackdir, slot)  # gave up on this one: count it as not done
            if done < target and os.path.getsize(os.path.join(ackdir, f"slot{slot}.{incarnation}.log")) > 10**6:
                break
        state[slot] = 0
    state[slot] = 0
    conn.close()
    os.close(log)


def _committed(conn: Any, key: str) -> bool:
    for _ in range(int(RESTART_PATIENCE * 4)):
        try:
            return conn.execute("SELECT count(*) FROM tx_log WHERE key = ?", (key,)).fetchone()[0] == 1
        except Exception:
            time.sleep(0.25)
    return False


# -- servers -------------------------------------------------------------------------------


def _pg_up() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], check=False).returncode == 0


def _mysql_up() -> bool:
    cmd = ["mysqladmin", "--connect-timeout=2", "-uroot", "-h127.0.0.1", "-P3306", "ping"]
    return subprocess.run(cmd, check=False, capture_output=True).returncode == 0


def _wait(check: Any, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def _pg_version() -> str:
    return sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(x) for x in v.split(".") if x.isdigit()])[-1]


def start_server(kind: str) -> None:
    """Start the local PostgreSQL / MariaDB if it is down (as .ci/run does); wait until it answers."""
    if kind == "postgres":
        if not _pg_up():
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _pg_version(), "main", "start"], check=False)
        if not _wait(_pg_up):
            raise RuntimeError("PostgreSQL did not come back")
        return
    if not _mysql_up():
        try:
            os.makedirs("/run/mysqld", exist_ok=True)
            import shutil

            shutil.chown("/run/mysqld", "mysql", "mysql")
        except Exception:
            pass
        subprocess.run(["start-stop-daemon", "--start", "--oknodo", "--background", "--exec", "/usr/sbin/mariadbd"],
                       check=False)
    if not _wait(_mysql_up):
        raise RuntimeError("MariaDB did not come back")


def restart_server(kind: str) -> None:
    """Restart the local server for real; it answers again when this returns."""
    try:
        if kind == "postgres":
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", _pg_version(), "main", "restart"], check=False)
        else:
            subprocess.run(["mysqladmin", "-uroot", "-h127.0.0.1", "-P3306", "shutdown"], check=False)
            _wait(lambda: not _mysql_up(), 30)
            _wait(lambda: subprocess.run(["pgrep", "-x", "mariadbd"], capture_output=True).returncode != 0, 30)
    finally:
        start_server(kind)


# -- the driver ------------------------------------------------------------------------------


def _prepare(url: str | None, path: str, writers: int) -> None:
    conn = _connect(url, path)
    if url is None:
        conn.execute("PRAGMA journal_mode=WAL")
    for ddl in SCHEMA:
        conn.execute(ddl)
    now = time.time()
    ids = [(f"cli-{s}", "cli") for s in range(writers)] + [(f"gw-{g}", "gateway") for g in range(GATEWAY_SESSIONS)]
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany("INSERT OR IGNORE INTO sessions (id, source, started_at) VALUES (?, ?, ?)",
                     [(i, src, now) for i, src in ids])
    conn.commit()
    conn.close()


def _read_acks(ackdir: str) -> tuple[list[str], list[float], int, int, list[str], list[str]]:
    keys: list[str] = []
    latencies: list[float] = []
    lock_retries = other_retries = 0
    escaped: list[str] = []
    errors: list[str] = []
    for name in sorted(os.listdir(ackdir)):
        with open(os.path.join(ackdir, name), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                if not parts:
                    continue
                if parts[0] == "ACK" and len(parts) == 6:
                    keys.append(parts[1])
                    latencies.append(float(parts[3]) / 1e3)
                    lock_retries += int(parts[4])
                    other_retries += int(parts[5])
                elif parts[0] == "ESCAPED":
                    escaped.append(line.strip())
                elif parts[0] == "ERROR":
                    errors.append(line.strip())
    return keys, latencies, lock_retries, other_retries, escaped, errors


def _verify(url: str | None, path: str, acked: list[str]) -> dict[str, Any]:
    conn = _connect(url, path)
    try:
        message_keys = [k for (k,) in conn.execute("SELECT key FROM messages")]
        log_keys = {k for (k,) in conn.execute("SELECT key FROM tx_log")}
        counters = dict(conn.execute("SELECT id, message_count FROM sessions").fetchall())
        counts = dict(conn.execute("SELECT session_id, COUNT(*) FROM messages GROUP BY session_id").fetchall())
    finally:
        conn.close()
    in_db = set(message_keys)
    acked_set = set(acked)
    return {
        "acked": len(acked),
        "acked_twice": len(acked) - len(acked_set),
        "rows": len(message_keys),
        "lost_acked": len(acked_set - in_db),
        "duplicates": len(message_keys) - len(in_db),
        "partial": len(in_db ^ log_keys),
        "bad_counters": sum(1 for sid, value in counters.items() if value != counts.get(sid, 0)),
        "orphans": sum(1 for sid in counts if sid not in counters),
        "unacked_commits": len(in_db - acked_set),  # killed between COMMIT and its ack: allowed
    }


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def run(
    url: str | None,
    workdir: str,
    *,
    label: str = "",
    writers: int = 16,
    transactions: int = 500,
    kills: int = 48,
    restart: str | None = None,
    deadline: float = 900.0,
    seed: int | None = None,
) -> dict[str, Any]:
    """One run; ``url`` None is real SQLite.  ``restart`` names the server kind
    (``postgres`` / ``mysql``) to restart once, mid-run."""
    rng = random.Random(seed)
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "state.db")
    ackdir = os.path.join(workdir, "acks")
    os.makedirs(ackdir, exist_ok=True)
    _prepare(url, path, writers)
    ctx = mp.get_context("spawn")
    state = ctx.Array("i", writers, lock=False)
    incarnations = [0] * writers
    procs: dict[int, Any] = {}

    def launch(slot: int) -> None:
        incarnations[slot] += 1
        state[slot] = 0
        proc = ctx.Process(
            target=writer, args=(url, path, slot, incarnations[slot], transactions, ackdir, state), daemon=True
        )
        proc.start()
        procs[slot] = proc

    began = time.monotonic()
    for slot in range(writers):
        launch(slot)
    killed = kills_mid_tx = restarts = 0
    total = writers * transactions
    # SIGKILLs spread over the run by progress (not by time: a slow machine gets as many)
    schedule = sorted(rng.randint(int(total * 0.05), int(total * 0.95)) for _ in range(kills))
    restarted = False
    try:
        while any(p.is_alive() for p in procs.values()):
            if time.monotonic() - began > deadline:
                raise TimeoutError(f"workload did not finish within {deadline:.0f} s")
            time.sleep(0.02)
            progress = _progress(ackdir) if (schedule or (restart and not restarted)) else 0
            if restart and not restarted and progress >= total * 0.4:
                restarted = True
                restart_server(restart)
                restarts += 1
            if not schedule or progress < schedule[0]:
                continue
            busy = [s for s, p in procs.items() if p.is_alive() and state[s] == 1]
            if not busy:
                continue
            schedule.pop(0)
            slot = rng.choice(busy)
            mid = state[slot] == 1
            os.kill(procs[slot].pid, signal.SIGKILL)
            procs[slot].join()
            killed += 1
            kills_mid_tx += mid
            launch(slot)  # the hot update: a new process takes over at once
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.kill()
                proc.join()
    wall = time.monotonic() - began
    keys, latencies, lock_retries, other_retries, escaped, errors = _read_acks(ackdir)
    result: dict[str, Any] = {
        "backend": label or ("sqlite" if url is None else url.split(":", 1)[0]),
        "writers": writers,
        "transactions": transactions,
        "wall_s": round(wall, 2),
        "tx_per_s": round(len(keys) / wall, 1) if wall > 0 else None,
        "p50_ms": round(_percentile(latencies, 50) * 1e3, 2),
        "p99_ms": round(_percentile(latencies, 99) * 1e3, 2),
        "lock_retries": lock_retries,
        "lock_escaped": sum(1 for e in escaped if "locked" in e.lower() or "busy" in e.lower()),
        "escaped": len(escaped),
        "errors": len(errors),
        "first_errors": (escaped + errors)[:3],
        "reconnect_retries": other_retries,
        "kills": killed,
        "kills_mid_tx": kills_mid_tx,
        "processes": sum(incarnations),
        "restarts": restarts,
    }
    result.update(_verify(url, path, keys))
    result["ok"] = (
        result["lost_acked"] == 0
        and result["duplicates"] == 0
        and result["acked_twice"] == 0
        and result["partial"] == 0
        and result["bad_counters"] == 0
        and result["orphans"] == 0
        and result["lock_escaped"] == 0
        and result["errors"] == 0
        and result["acked"] == total
    )
    return result


def _progress(ackdir: str) -> int:
    total = 0
    for name in os.listdir(ackdir):
        try:
            with open(os.path.join(ackdir, name), "rb") as fh:
                total += fh.read().count(b"ACK ")
        except OSError:
            pass
    return total


# -- command line ------------------------------------------------------------------------------

_COLUMNS = ("backend", "tx_per_s", "p50_ms", "p99_ms", "lock_retries", "lock_escaped", "kills_mid_tx", "processes",
            "restarts", "acked", "lost_acked", "duplicates", "partial", "bad_counters", "unacked_commits", "ok")


def _table(results: list[dict[str, Any]]) -> str:
    rows = [[str(r.get(c, "")) for c in _COLUMNS] for r in results]
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(_COLUMNS)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(_COLUMNS, widths))]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from .common import SERVERS

    parser = argparse.ArgumentParser(prog="python -m bench.hot_update", description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres,mariadb", help="comma list (default: all three)")
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--transactions", type=int, default=500, help="acknowledged transactions per writer slot")
    parser.add_argument("--kills", type=int, default=48, help="SIGKILLs mid-transaction, spread over the run")
    parser.add_argument("--restart", action="store_true", help="restart the server once mid-run (servers only)")
    parser.add_argument("--lock", choices=("advisory", "table"), default="advisory")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    results = []
    for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
        if name == "sqlite":
            url, kind = None, None
        else:
            base = SERVERS["mariadb" if name in ("mysql", "mariadb") else "postgres"]
            stamp = f"{os.getpid()}_{int(time.time())}"
            url = f"{base}?prefix=hdbhot_&namespace=hdbhot_{name[:2]}_{stamp}&lock={args.lock}"
            kind = "postgres" if name.startswith("postgres") else "mysql"
        with tempfile.TemporaryDirectory(prefix=f"hot_update_{name}_") as workdir:
            result = run(
                url, workdir, label=name if url is None else f"hermes/{name}", writers=args.writers,
                transactions=args.transactions, kills=args.kills,
                restart=kind if (args.restart and kind) else None, seed=args.seed,
            )
            if url is not None:
                _drop(url)
        results.append(result)
        print(json.dumps(result), file=sys.stderr, flush=True)
    print(_table(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 0 if all(r["ok"] or r["backend"] == "sqlite" for r in results) else 1


def _drop(url: str) -> None:
    from urllib.parse import parse_qs, urlsplit

    namespace = parse_qs(urlsplit(url).query)["namespace"][0]
    from .common import SERVERS, _my_params, _pg_params

    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(autocommit=True, **_pg_params(SERVERS["postgres"])) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{namespace}" CASCADE')
    else:
        import pymysql

        conn = pymysql.connect(autocommit=True, **_my_params(SERVERS["mariadb"]))
        conn.cursor().execute(f"DROP DATABASE IF EXISTS `{namespace}`")
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
