"""Errors: SQLite's class, message, sqlite_errorcode and sqlite_errorname for many situations."""

from __future__ import annotations

import pytest

from .conftest import error_cases

SETUP, CASES = error_cases()


@pytest.mark.parametrize("steps", CASES.values(), ids=CASES.keys())
def test_error_situation(diff, steps):
    record = diff.steps(["PRAGMA foreign_keys = ON", *steps], setup=SETUP)
    assert "raised" in record[-1], "the case must make SQLite raise"
