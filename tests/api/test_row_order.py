"""Rows of a query without ORDER BY come in SQLite's order (translate/passes/implicit_order.py).

SQL leaves it undefined; SQLite's is the order of its scan, which applications
lean on.  Each case first disturbs the servers' own order: an UPDATE moves a
PostgreSQL row to the end of its heap, and MariaDB clusters a table by its
PRIMARY KEY, which here is not the rowid.  Groups of a GROUP BY come in the
order of its terms, as SQLite's sorter leaves them."""

import pytest

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT UNIQUE, v INT)",
    "CREATE INDEX t_v ON t(v DESC)",
    "CREATE TABLE p(name TEXT PRIMARY KEY, n INT)",
    "CREATE TABLE copy(id INTEGER PRIMARY KEY, name TEXT)",
    ("commit",),
    "INSERT INTO t VALUES (1, 'd', 5), (2, 'b', 7), (3, 'c', 5), (4, 'a', NULL)",
    "UPDATE t SET v = v WHERE id = 1",
    "INSERT INTO p VALUES ('z', 1), ('y', 2), ('x', 3)",
    ("commit",),
]

CASES = {
    "table_scan": ["SELECT * FROM t"],
    "limit_keeps_the_first_in_rowid_order": ["SELECT id, k FROM t LIMIT 2", "SELECT k FROM t WHERE v = 5 LIMIT 1"],
    "search_through_a_unique_index": [("sql", "SELECT id, k FROM t WHERE k > ?", ("a",))],
    "search_through_a_descending_index": ["SELECT id, v FROM t WHERE v < 9"],
    "rowid_table_with_a_text_primary_key": ["SELECT rowid, name FROM p", "SELECT name FROM p WHERE n > 1"],
    "insert_select_numbers_rows_in_scan_order": [
        "INSERT INTO copy(name) SELECT name FROM p",
        "INSERT INTO copy(name) SELECT k FROM t WHERE k >= 'b'",
        "SELECT id, name FROM copy ORDER BY id",
    ],
    "rowids_in_a_list": ["SELECT id FROM t WHERE id IN (3, 1, 2)"],
    "nulls_of_a_unique_column": [  # k = ? finds one row, k IS NULL many
        "INSERT INTO t VALUES (6, NULL, 1), (5, NULL, 2)",
        "UPDATE t SET v = 3 WHERE id = 5",
        "SELECT id FROM t WHERE k IS NULL",
        ("sql", "SELECT id FROM t WHERE k = ?", ("c",)),
    ],
    "groups_in_the_order_of_their_terms": [  # SQLite sorts them (NULLs first); a hash aggregate does not
        "SELECT v, count(*) FROM t GROUP BY v",
        "SELECT coalesce(k, 'none') AS key, v % 2 AS odd, count(*) FROM t GROUP BY odd, key",
        "SELECT v % 2, max(k) FROM t GROUP BY 1 HAVING count(*) > 0",
    ],
    "aggregates_keep_one_row": ["SELECT count(*), total(v) FROM t WHERE v IS NOT NULL"],
}


@pytest.mark.parametrize("steps", CASES.values(), ids=CASES.keys())
def test_row_order(diff, steps):
    diff.steps(SETUP + steps)
