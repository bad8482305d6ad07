"""sqlite3.Row: index, case-insensitive names, keys, len, iteration, unpacking, equality, hash, dict(row), isinstance."""

from __future__ import annotations

import sqlite3 as _std

import pytest

import hermes_dbapi

from .harness import attempt

QUERY = (
    "SELECT id, Name, score, data, NULL AS \"Nothing\" FROM"
    " (SELECT 1 AS id, 'a' AS Name, 1.5 AS score, x'01' AS data UNION ALL SELECT 2, 'b', 2.5, x'02') AS v ORDER BY id"
)


def _unpack(row):
    a, b, c, d, e = row
    return (a, b, c, d, e)


# What a test does with the first row ``r`` (and ``s``, the second row, ``again``, the first row fetched anew).
ROW_OPERATIONS = {
    "index_0": lambda r, s, again: r[0],
    "index_1": lambda r, s, again: r[1],
    "index_negative": lambda r, s, again: r[-1],
    "index_out_of_range": lambda r, s, again: r[5],
    "index_negative_out_of_range": lambda r, s, again: r[-6],
    "name_exact": lambda r, s, again: r["Name"],
    "name_lower": lambda r, s, again: r["name"],
    "name_upper": lambda r, s, again: r["NAME"],
    "name_of_null_column": lambda r, s, again: r["nothing"],
    "name_missing": lambda r, s, again: r["missing"],
    "name_wrong_type": lambda r, s, again: r[1.5],
    "slice": lambda r, s, again: r[1:3],
    "slice_step": lambda r, s, again: r[::-2],
    "keys": lambda r, s, again: r.keys(),
    "len": lambda r, s, again: len(r),
    "iteration": lambda r, s, again: list(r),
    "tuple": lambda r, s, again: tuple(r),
    "unpacking": lambda r, s, again: _unpack(r),
    "membership": lambda r, s, again: ("a" in r, "Name" in r, 1 in r),
    "dict": lambda r, s, again: dict(r),
    "dict_zip": lambda r, s, again: dict(zip(r.keys(), r)),
    "equal_same_values": lambda r, s, again: (r == again, r != again),
    "equal_other_values": lambda r, s, again: (r == s, r != s),
    "equal_tuple": lambda r, s, again: r == tuple(r),
    "ordering": lambda r, s, again: r < s,
    "hash_stable": lambda r, s, again: hash(r) == hash(again),
    "hash_in_set": lambda r, s, again: len({r, again, s}),
    "bool": lambda r, s, again: bool(r),
    "isinstance_sqlite3_row": lambda r, s, again: isinstance(r, _std.Row),
    "isinstance_hermes_row": lambda r, s, again: isinstance(r, hermes_dbapi.Row),
    "type_is_row": lambda r, s, again: type(r) is _std.Row,
    "not_a_tuple": lambda r, s, again: isinstance(r, tuple),
    "readonly": lambda r, s, again: r.__setitem__(0, 1),
}


@pytest.mark.parametrize("operation", ROW_OPERATIONS.values(), ids=ROW_OPERATIONS.keys())
def test_row_behaviour(diff, operation):
    def run(side):
        conn = side.connect()
        conn.row_factory = side.api.Row
        first, second = conn.execute(QUERY).fetchall()
        again = conn.execute(QUERY).fetchone()
        return operation(first, second, again)

    diff.check(run)


ROW_QUERIES = {
    "duplicate_names": "SELECT 1 AS a, 2 AS a",
    "expression_names": "SELECT 1 + 1, 'x'",
    "non_ascii_name": 'SELECT 1 AS "é", 2 AS "Ä"',
    "empty_result": "SELECT 1 AS a WHERE 1 = 0",
}


@pytest.mark.parametrize("sql", ROW_QUERIES.values(), ids=ROW_QUERIES.keys())
def test_row_names(diff, sql):
    def run(side):
        conn = side.connect()
        conn.row_factory = side.api.Row
        rows = conn.execute(sql).fetchall()
        lookups = {}
        for row in rows:
            for key in ("a", "A", "1 + 1", "'x'", "é", "É", "Ä", "ä"):
                lookups[key] = attempt(lambda: row[key])
        return rows, lookups

    diff.check(run)


def test_row_from_cursor_row_factory(diff):
    """Row set on the cursor rather than the connection."""

    def run(side):
        conn = side.connect()
        cur = conn.cursor()
        cur.row_factory = side.api.Row
        row = cur.execute("SELECT 1 AS one, 'two' AS two").fetchone()
        plain = conn.execute("SELECT 1 AS one").fetchone()
        return row, dict(row), plain

    diff.check(run)


def test_row_equal_across_drivers(pair, std):
    """A Row from the shim equals, and hashes like, the standard module's Row for the same result."""
    reference, shim = pair
    for conn in pair:
        conn.row_factory = std.Row
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO t(name) VALUES ('a')")
    ref_row = reference.execute("SELECT id, name FROM t").fetchone()
    shim_row = shim.execute("SELECT id, name FROM t").fetchone()
    assert shim_row == ref_row
    assert hash(shim_row) == hash(ref_row)
    assert shim_row.keys() == ref_row.keys()
