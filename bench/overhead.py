"""Per-statement overhead: hermes_dbapi vs the raw driver on the same tables."""

from __future__ import annotations

import itertools
import os
from typing import Any, Callable

from .common import RAW_NAME, hermes_connect, interleaved, namespace_of, raw_connect

ROWS = 10_000
BATCH = 1_000
SCHEMA = (
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL)",
    "CREATE TABLE ins (id INTEGER PRIMARY KEY, a TEXT, b INTEGER)",
    "CREATE TABLE bulk (id INTEGER PRIMARY KEY, a TEXT, b INTEGER)",
)
OPS = ("point SELECT", "INSERT", "UPDATE", "fetch 100 rows", "executemany 1000")


def _setup(server: str, workdir: str) -> Any:
    conn = hermes_connect(server, os.path.join(workdir, "overhead.db"), isolation_level=None)
    for ddl in SCHEMA:
        conn.execute(ddl)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO t (id, a, b, c) VALUES (?, ?, ?, ?)", [(i, f"row {i}", i, i / 3) for i in range(1, ROWS + 1)]
    )
    conn.commit()
    return conn


def _hermes_ops(conn: Any, keys: Any, batch: list[tuple]) -> dict[str, Callable[[], None]]:
    def select() -> None:
        conn.execute("SELECT id, a, b, c FROM t WHERE id = ?", (next(keys),)).fetchone()

    def insert() -> None:
        conn.execute("INSERT INTO ins (a, b) VALUES (?, ?)", ("x", 1)).lastrowid

    def update() -> None:
        conn.execute("UPDATE t SET b = ? WHERE id = ?", (7, next(keys)))

    def fetch100() -> None:
        k = next(keys) % (ROWS - 100)
        conn.execute("SELECT id, a, b, c FROM t WHERE id BETWEEN ? AND ?", (k, k + 99)).fetchall()

    def many() -> None:
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO bulk (a, b) VALUES (?, ?)", batch)
        conn.commit()

    return dict(zip(OPS, (select, insert, update, fetch100, many)))


def _pg_ops(conn: Any, keys: Any, batch: list[tuple]) -> dict[str, Callable[[], None]]:
    def select() -> None:
        conn.execute("SELECT id, a, b, c FROM t WHERE id = %s", (next(keys),)).fetchone()

    def insert() -> None:  # RETURNING: what the application gets from lastrowid
        conn.execute("INSERT INTO ins (a, b) VALUES (%s, %s) RETURNING id", ("x", 1)).fetchone()

    def update() -> None:
        conn.execute("UPDATE t SET b = %s WHERE id = %s", (7, next(keys)))

    def fetch100() -> None:
        k = next(keys) % (ROWS - 100)
        conn.execute("SELECT id, a, b, c FROM t WHERE id BETWEEN %s AND %s", (k, k + 99)).fetchall()

    def many() -> None:
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany("INSERT INTO bulk (a, b) VALUES (%s, %s)", batch)

    def copy() -> None:
        with conn.transaction(), conn.cursor() as cur:
            with cur.copy("COPY bulk (a, b) FROM STDIN") as cp:
                for row in batch:
                    cp.write_row(row)

    return dict(zip(OPS, (select, insert, update, fetch100, many))) | {"executemany 1000 (COPY)": copy}


def _my_ops(conn: Any, keys: Any, batch: list[tuple]) -> dict[str, Callable[[], None]]:
    cur = conn.cursor()

    def select() -> None:
        cur.execute("SELECT id, a, b, c FROM t WHERE id = %s", (next(keys),))
        cur.fetchone()

    def insert() -> None:
        cur.execute("INSERT INTO ins (a, b) VALUES (%s, %s)", ("x", 1))
        cur.lastrowid

    def update() -> None:
        cur.execute("UPDATE t SET b = %s WHERE id = %s", (7, next(keys)))

    def fetch100() -> None:
        k = next(keys) % (ROWS - 100)
        cur.execute("SELECT id, a, b, c FROM t WHERE id BETWEEN %s AND %s", (k, k + 99))
        cur.fetchall()

    def many() -> None:  # PyMySQL rewrites INSERT ... VALUES into multi-row statements
        conn.begin()
        cur.executemany("INSERT INTO bulk (a, b) VALUES (%s, %s)", batch)
        conn.commit()

    return dict(zip(OPS, (select, insert, update, fetch100, many)))


def run(server: str, workdir: str, quick: bool) -> list[dict]:
    """Median µs/op for hermes and raw per operation, and their ratio."""
    hermes = _setup(server, workdir)
    raw = raw_connect(server, namespace_of(hermes))
    batch = [(f"bulk {i}", i) for i in range(BATCH)]
    keys = itertools.cycle(range(1, ROWS + 1, 7))
    h_ops = _hermes_ops(hermes, keys, batch)
    r_ops = (_pg_ops if server == "postgres" else _my_ops)(raw, keys, batch)
    rounds, per_round = (7, 40) if quick else (31, 150)
    many_rounds = 5 if quick else 21
    results = []
    for op in OPS:
        many = op.startswith("executemany")
        fns = {"hermes": h_ops[op], "raw": r_ops[op]}
        fns |= {k: v for k, v in r_ops.items() if k.startswith(op) and k != op}
        for fn in fns.values():  # warm up: translation cache, psycopg prepared statements
            for _ in range(2 if many else 10):
                fn()
        med = interleaved(fns, many_rounds if many else rounds, 1 if many else per_round)
        raw_variants = {k: v for k, v in med.items() if k != "hermes"}
        best = min(raw_variants, key=raw_variants.get)
        results.append(
            {
                "server": server,
                "op": op,
                "hermes_us": med["hermes"] * 1e6,
                "raw_us": med["raw"] * 1e6,
                "raw_best_us": med[best] * 1e6,
                "raw_best_method": RAW_NAME[server] + ("" if best == "raw" else best[len(op):]),
                "ratio": med["hermes"] / med["raw"],
                "ratio_best": med["hermes"] / med[best],
            }
        )
        if many:
            hermes.execute("DELETE FROM bulk")
    raw.close()
    hermes.close()
    return results
