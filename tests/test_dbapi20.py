"""PEP 249 compliance: the ``dbapi20`` suite (package dbapi-compliance) against hermes_dbapi.

The standard ``sqlite3`` does not pass every dbapi20 test (it has no
``STRING``/``BINARY``/... type objects, fetch on a non-query returns nothing
rather than raising, ``close()`` twice is allowed, ...).  hermes_dbapi is a
drop-in replacement, so the bar is: on every backend, each dbapi20 test has
the same outcome (pass / fail / error / skip) as it has for ``sqlite3``.
"""

from __future__ import annotations

import sqlite3 as _std
import tempfile
import unittest
from pathlib import Path

import pytest

dbapi20 = pytest.importorskip("dbapi20")

TEST_NAMES = unittest.TestLoader().getTestCaseNames(dbapi20.DatabaseAPI20Test)


def _suite_class(driver, database: str) -> type:
    return type(
        "DBAPI20",
        (dbapi20.DatabaseAPI20Test,),
        {"driver": driver, "connect_args": (database,), "connect_kw_args": {}},
    )


def run_dbapi20(driver, database: str, names=TEST_NAMES) -> dict[str, tuple[str, str]]:
    """Run dbapi20 tests for ``driver``; {test name: (outcome, last line of the traceback)}."""
    cls = _suite_class(driver, database)
    outcomes: dict[str, tuple[str, str]] = {}
    for name in names:
        result = unittest.TestResult()
        cls(name).run(result)
        if result.failures:
            outcomes[name] = ("fail", result.failures[0][1].strip().splitlines()[-1])
        elif result.errors:
            outcomes[name] = ("error", result.errors[0][1].strip().splitlines()[-1])
        elif result.skipped:
            outcomes[name] = ("skip", result.skipped[0][1])
        else:
            outcomes[name] = ("pass", "")
    return outcomes


@pytest.fixture(scope="module")
def sqlite3_outcomes() -> dict[str, tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        return run_dbapi20(_std, str(Path(tmp) / "dbapi20.db"))


def test_sqlite3_baseline(sqlite3_outcomes):
    """The reference run itself: sqlite3 passes most of dbapi20 (a sanity check of the harness)."""
    passed = [name for name, (outcome, _) in sqlite3_outcomes.items() if outcome == "pass"]
    assert len(passed) >= len(TEST_NAMES) // 2, sqlite3_outcomes


def test_dbapi20_same_outcomes_as_sqlite3(backend, sqlite3_outcomes):
    import hermes_dbapi

    got = run_dbapi20(hermes_dbapi, backend.path("dbapi20.db"))
    differing = {
        name: f"sqlite3 {sqlite3_outcomes[name][0]}, hermes_dbapi {outcome} ({detail})"
        for name, (outcome, detail) in got.items()
        if outcome != sqlite3_outcomes[name][0]
    }
    assert not differing, "\n".join(f"{name}: {text}" for name, text in sorted(differing.items()))
    passed = sorted(name for name, (outcome, _) in got.items() if outcome == "pass")
    assert passed == sorted(name for name, (outcome, _) in sqlite3_outcomes.items() if outcome == "pass")
