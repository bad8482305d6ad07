"""The translator never crashes (issue 9, item 4; item 6 for size and nesting).

Hypothesis feeds mutated corpus statements and random token soups to
``hermes_dbapi.translate.translate`` for PostgreSQL and MariaDB (no server
needed): the only exceptions allowed are ``sqlite3.Error`` subclasses and no
input may take over a second (tests/hostile/fuzz.py holds the generator and the
check).  ``HERMES_FUZZ_EXAMPLES`` sets the examples per test (default 2000,
about 10 s; the issue's CI bar of 20,000 takes about 90 s here).  The
1,000,000-input run outside CI: ``python -m tests.hostile.fuzz --count 1000000``.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time

import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from . import fuzz  # noqa: E402

EXAMPLES = int(os.environ.get("HERMES_FUZZ_EXAMPLES", "2000"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    database=None if os.environ.get("CI") else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def translator() -> fuzz.Translator:
    return fuzz.Translator()


def _assert_clean(translator: fuzz.Translator, sql: str) -> None:
    for dialect in fuzz.DIALECTS:
        finding = translator.check(sql, dialect)
        assert finding is None, str(finding)


@pytest.mark.timeout(900)
def test_mutated_corpus_statements(translator):
    @SETTINGS
    @given(st.sampled_from(fuzz.corpus()), st.integers(0, 2**32 - 1), st.integers(1, 5))
    def check(sql: str, seed: int, edits: int) -> None:
        _assert_clean(translator, fuzz.mutate(sql, random.Random(seed), edits))

    check()


@pytest.mark.timeout(900)
def test_token_soups(translator):
    @SETTINGS
    @given(st.lists(st.sampled_from(fuzz.VOCABULARY), min_size=1, max_size=40))
    def check(words: list[str]) -> None:
        _assert_clean(translator, " ".join(words))

    check()


@pytest.mark.timeout(900)
def test_arbitrary_text(translator):
    @SETTINGS
    @given(st.text(max_size=80))
    def check(text: str) -> None:
        _assert_clean(translator, text)

    check()


def test_corpus_statements_unmutated(translator):
    for sql in fuzz.corpus():
        _assert_clean(translator, sql)


PATHOLOGICAL = {
    "nested_parens_10000": "SELECT " + "(" * 10_000 + "1" + ")" * 10_000,
    "nested_parens_150": "SELECT " + "(" * 150 + "1" + ")" * 150,
    "binary_chain_10mb": "SELECT " + "1+" * (5 * 2**20) + "1",
    "nested_subqueries_2000": "SELECT " + "(SELECT " * 2000 + "1" + ")" * 2000,
    "nested_case_2000": "SELECT " + "CASE WHEN 1 THEN " * 2000 + "1" + " END" * 2000,
    "nested_functions_5000": "SELECT " + "abs(" * 5000 + "1" + ")" * 5000,
    "compound_select_1000": " UNION ALL ".join(["SELECT 1"] * 1000),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_statement_gets_sqlite_error(translator, name):
    """Beyond SQLite's limits (parser stack, depth 1000, 500 compound terms):
    SQLite's own OperationalError, quickly; never RecursionError or MemoryError."""
    sql = PATHOLOGICAL[name]
    with pytest.raises(sqlite3.OperationalError) as expected:
        sqlite3.connect(":memory:").execute(sql)
    for dialect in fuzz.DIALECTS:
        start = time.perf_counter()
        with pytest.raises(sqlite3.OperationalError) as got:
            translator.check_raising(sql, dialect)
        assert time.perf_counter() - start < 10
        assert type(got.value) is type(expected.value)


@pytest.mark.timeout(120)
def test_ten_megabyte_literal_translates(translator):
    # (a literal full of doubled quotes is valid too but takes ~14 s per dialect in the
    # parameter scan: slow, not a crash; left as a performance note)
    sql = "SELECT '" + "xyz " * (10 * 2**20 // 4) + "'"
    for dialect in fuzz.DIALECTS:
        start = time.perf_counter()
        translator.check_raising(sql, dialect)
        assert time.perf_counter() - start < 10


def test_pathological_statement_through_connection(backend):
    conn = backend.connect()
    for sql in (PATHOLOGICAL["nested_parens_10000"], PATHOLOGICAL["binary_chain_10mb"]):
        with pytest.raises(sqlite3.OperationalError, match="parser stack overflow|Expression tree is too large"):
            conn.execute(sql)
    assert conn.execute("SELECT 1").fetchone() == (1,)
