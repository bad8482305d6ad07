"""SQLite value conversions used for auxiliary-function arguments."""

from __future__ import annotations

import sqlite3

import pytest

from hermes_dbapi.fts.sqlvalues import real_to_text, value_double, value_int, value_int64, value_text

REALS = [1.0, 0.1, 1e20, 1.5e-7, -2.5, 123456789012345678.0, 1 / 3, 100.0, 1e15, 1e16, -0.0, 2.5e-300, float("inf")]
TEXTS = ["3", " 7", "3.9", "-2", "x", "", "12abc", "1e3", "+4", " -5.5e1x", "0x10", "9999999999999999999", ".5"]


@pytest.fixture(scope="module")
def conn() -> sqlite3.Connection:
    return sqlite3.connect(":memory:")


@pytest.mark.parametrize("value", REALS)
def test_real_to_text(conn: sqlite3.Connection, value: float) -> None:
    assert real_to_text(value) == conn.execute("SELECT CAST(? AS TEXT)", (value,)).fetchone()[0]


@pytest.mark.parametrize("text", TEXTS)
def test_text_to_numbers(conn: sqlite3.Connection, text: str) -> None:
    as_int, as_real = conn.execute("SELECT CAST(? AS INTEGER), CAST(? AS REAL)", (text, text)).fetchone()
    assert value_int64(text) == as_int
    assert value_double(text) == as_real


def test_value_int_wraps_to_32_bits() -> None:
    assert value_int(2**32 + 5) == 5
    assert value_int(2**31) == -(2**31)
    assert value_int(None) == 0


def test_value_text_stops_at_nul() -> None:
    assert value_text("a\x00b") == "a"
    assert value_text(None) is None
    assert value_text(1.0) == "1.0"
    assert value_text(b"<b>") == "<b>"
