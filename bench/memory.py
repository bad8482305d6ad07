"""Peak RSS (VmHWM) of fetching 100,000 rows, hermes_dbapi vs raw driver, each in a fresh subprocess."""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys

from .common import hermes_connect, namespace_of, raw_connect

ROWS = 100_000
QUERY = "SELECT id, a, b, c FROM big WHERE id > {p}"


def _setup(server: str, path: str) -> str:
    conn = hermes_connect(server, path, isolation_level=None)
    conn.execute("CREATE TABLE IF NOT EXISTS big (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL)")
    namespace = namespace_of(conn)
    filled = conn.execute("SELECT COUNT(*) FROM big").fetchone()[0]
    conn.close()
    if filled == ROWS:
        return namespace
    raw = raw_connect(server, namespace)
    if server == "postgres":
        raw.execute(
            "INSERT INTO big (id, a, b, c) SELECT g, 'row number ' || g || ' with some padding text', g, g / 3.0 "
            "FROM generate_series(1, %s) g",
            (ROWS,),
        )
    else:
        with raw.cursor() as cur:
            rows = [(i, f"row number {i} with some padding text", i, i / 3) for i in range(1, ROWS + 1)]
            for k in range(0, ROWS, 10_000):
                cur.executemany("INSERT INTO big (id, a, b, c) VALUES (%s, %s, %s, %s)", rows[k:k + 10_000])
    raw.close()
    return namespace


def _peak_kb() -> int:
    """This process's RSS high-water mark (VmHWM; ru_maxrss would carry the parent's over exec)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _child(server: str, impl: str, path: str, namespace: str, mode: str) -> dict:
    """Runs in the fresh process: warm up with the same SQL, then fetch and measure."""
    if impl == "hermes":
        conn = hermes_connect(server, path, isolation_level=None)

        def run(p: int):
            return conn.execute(QUERY.format(p="?"), (p,))
    else:
        conn = raw_connect(server, namespace)
        if server == "postgres":
            def run(p: int):
                return conn.execute(QUERY.format(p="%s"), (p,))
        else:
            cur = conn.cursor()

            def run(p: int):
                cur.execute(QUERY.format(p="%s"), (p,))
                return cur
    run(10**9).fetchall()
    gc.collect()
    before = _peak_kb()
    cur = run(0)
    if mode == "fetchall":
        rows = cur.fetchall()
        count = len(rows)
    else:
        count = sum(1 for _ in cur)
    after = _peak_kb()
    return {"rows": count, "delta_kb": after - before, "base_kb": before}


def run(servers: list[str], workdir: str, quick: bool) -> list[dict]:
    path = os.path.join(workdir, "memory.db")
    modes = ("fetchall",) if quick else ("fetchall", "iterate")
    results = []
    for server in servers:
        namespace = _setup(server, path)
        for mode in modes:
            entry = {"server": server, "mode": mode}
            for impl in ("hermes", "raw"):
                cmd = [sys.executable, "-m", "bench.memory", server, impl, path, namespace, mode]
                done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=_root())
                entry[impl] = json.loads(done.stdout.strip().splitlines()[-1])
            entry["ratio"] = entry["hermes"]["delta_kb"] / max(entry["raw"]["delta_kb"], 1)
            results.append(entry)
    return results


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


if __name__ == "__main__":
    print(json.dumps(_child(*sys.argv[1:6])))
