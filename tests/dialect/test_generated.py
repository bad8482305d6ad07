"""Differential property test: random SQLite queries, sqlite3 vs hermes_dbapi (issue 3, Method 3).

``tests/dialect/expr_gen.py`` builds seeded random SELECTs over the supported
functions and operators on one fixed table with mixed values (NULLs, negatives,
empty and non-ASCII text).  Each runs on the real ``sqlite3`` and through
hermes_dbapi on the backend; rows with Python types (floats to 1e-9), column
names and error classes must be identical.

``HERMES_GENERATED_CASES`` sets the cases per backend (default 2000, the issue's
CI bar); ``HERMES_GENERATED_SEED`` the first seed (default 0), so a failure
report names a seed that reproduces it: ``expr_gen.query(seed, dialect)``.
One connection and namespace serve all the cases of a backend.
"""

from __future__ import annotations

import os
import sqlite3 as std_sqlite3
from typing import Any

import pytest
from dialect_corpus import BACKEND_DIALECT, _approx
from expr_gen import query, setup

CASES = int(os.environ.get("HERMES_GENERATED_CASES", "2000"))
FIRST_SEED = int(os.environ.get("HERMES_GENERATED_SEED", "0"))
SHOWN = 15  # mismatches printed in a failure report


def _outcome(conn: Any, sql: str) -> tuple[Any, ...]:
    try:
        cur = conn.execute(sql)
        names = tuple(d[0] for d in cur.description)
        rows = [tuple((type(v).__name__, v) for v in row) for row in cur.fetchall()]
        return ("rows", names, rows)
    except Exception as exc:  # the class is compared, not the message
        return ("error", type(exc).__name__, str(exc))


def _same(ref: tuple[Any, ...], got: tuple[Any, ...]) -> bool:
    if ref[0] != got[0]:
        return False
    if ref[0] == "error":
        return ref[1] == got[1]
    return ref[1] == got[1] and _approx(ref[2], got[2])


@pytest.mark.timeout(1800)
def test_generated_queries(backend) -> None:
    if backend.name == "sqlite":
        pytest.skip("the reference itself")
    dialect = BACKEND_DIALECT[backend.name]
    reference = std_sqlite3.connect(":memory:")
    shim = backend.connect(backend.path("generated.db"))
    for statement in setup(dialect):
        reference.execute(statement)
        shim.execute(statement)
    reference.commit()
    shim.commit()
    mismatches: list[str] = []
    errors = 0
    for seed in range(FIRST_SEED, FIRST_SEED + CASES):
        sql = query(seed, dialect)
        ref, got = _outcome(reference, sql), _outcome(shim, sql)
        errors += ref[0] == "error"
        if not _same(ref, got):
            mismatches.append(f"seed {seed}: {sql}\n    sqlite3: {ref!r}\n    {backend.name}: {got!r}")
    reference.close()
    assert errors < CASES // 10, f"{errors} of {CASES} generated queries fail on sqlite3 itself: fix the grammar"
    assert not mismatches, f"{len(mismatches)} of {CASES} generated queries differ on {backend.name}:\n" + "\n".join(
        mismatches[:SHOWN]
    )
