"""A result column whose values differ in type from row to row (COALESCE, CASE,
IIF, compound SELECTs): each value keeps its own type, as in SQLite, whichever
way the rows are fetched (translate/passes/mixed_types.py)."""

from __future__ import annotations

import pytest

SETUP = [
    "CREATE TABLE m (id INTEGER PRIMARY KEY, n INTEGER, name TEXT, r REAL)",
    "INSERT INTO m (n, name, r) VALUES (1, 'a', 1.5), (NULL, NULL, NULL), (7, 't', -2.0), (NULL, 'r9', 1e-300)",
]
QUERY = "SELECT id, coalesce(n, name, r, 'none') AS v, iif(n > 1, r, name) FROM m ORDER BY id"


def _rows(cursor):
    return [tuple((type(v).__name__, v) for v in row) for row in cursor]


@pytest.mark.parametrize("how", ["iterate", "fetchone", "fetchmany", "row_factory"])
def test_each_value_keeps_its_type(diff, how):
    def run(side):
        conn = side.connect()
        for sql in SETUP:
            conn.execute(sql)
        if how == "row_factory":
            conn.row_factory = side.api.Row
            return [[(k, type(row[k]).__name__, row[k]) for k in row.keys()] for row in conn.execute(QUERY)]
        cur = conn.execute(QUERY)
        if how == "fetchone":
            return [_rows([cur.fetchone()]) for _ in range(5)]
        if how == "fetchmany":
            return _rows(cur.fetchmany(3)), _rows(cur.fetchmany(3))
        return _rows(cur)

    diff.check(run)


def test_parameters_and_other_columns_untouched(diff):
    """A branch of unknown type (a parameter) leaves the column as it was; the
    statement's other columns are not affected by a tagged one."""

    def run(side):
        conn = side.connect()
        for sql in SETUP:
            conn.execute(sql)
        tagged = conn.execute("SELECT coalesce(n, 'x'), n, name FROM m ORDER BY id").fetchall()
        same = conn.execute("SELECT coalesce(n, ?) FROM m ORDER BY id", (0,)).fetchall()
        return _rows(tagged), _rows(same)

    diff.check(run)
