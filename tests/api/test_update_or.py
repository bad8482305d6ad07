"""UPDATE OR IGNORE / REPLACE / FAIL / ABORT / ROLLBACK: SQLite's conflict clause on
an UPDATE, which sqlglot does not read (translate/conflict_clause.py).

IGNORE, REPLACE and FAIL run row by row in rowid (or primary key) order, as
SQLite's scan does, each row's UNIQUE, NOT NULL or CHECK failure resolved as
the algorithm says (triggers/engine.py).  A SET subquery that reads nothing of
the row is evaluated once, before the first row changes, as in SQLite."""

import pytest

import hermes_dbapi

TABLES = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER UNIQUE, v TEXT NOT NULL DEFAULT 'dflt', "
    "c INTEGER CHECK (c < 100))",
    "INSERT INTO t VALUES (1, 10, 'a', 1), (2, 20, 'b', 2), (3, 30, 'c', 3), (4, 40, 'd', 4)",
    ("commit",),
    "CREATE TABLE u(a INTEGER, b TEXT, UNIQUE(a, b))",
    "INSERT INTO u VALUES (1, 'x'), (2, 'x'), (3, 'y')",
    ("commit",),
]
T = "SELECT * FROM t ORDER BY id"
U = "SELECT rowid, a, b FROM u ORDER BY rowid"

CASES = {
    "ignore_skips_the_rows_that_meet_a_unique_key": ["UPDATE OR IGNORE t SET k = 10", T],
    "ignore_keeps_rows_that_meet_nothing": ["UPDATE OR IGNORE t SET k = k + 10", T],
    "ignore_not_null": ["UPDATE OR IGNORE t SET v = NULL WHERE id >= 3", T],
    "ignore_check": ["UPDATE OR IGNORE t SET c = c * 40", T],
    "ignore_two_column_key": ["UPDATE OR IGNORE u SET a = 1", U],
    "ignore_bound_values_named_and_an_alias": [
        ("sql", "UPDATE OR IGNORE t AS x SET k = x.k + :step WHERE x.id >= :lo", {"step": 10, "lo": 2}),
        T,
    ],
    "ignore_under_a_with_clause": ["WITH m AS (SELECT 20 AS z) UPDATE OR IGNORE t SET k = (SELECT z FROM m)", T],
    "ignore_lowercase_and_no_row": ["update or ignore t set k = 20 where id = 99", T],
    "replace_deletes_the_row_in_the_way": ["UPDATE OR REPLACE t SET k = 10 WHERE id = 3", T],
    "replace_every_row_onto_one_key_keeps_the_last": ["UPDATE OR REPLACE t SET k = 50", T],
    "replace_on_the_rowid": ["UPDATE OR REPLACE t SET id = 1 WHERE id = 4", T],
    "replace_moving_rowids_over_each_other": ["UPDATE OR REPLACE t SET id = id + 1", T],
    "replace_not_null_takes_the_default": ["UPDATE OR REPLACE t SET v = NULL WHERE id = 2", T],
    "replace_check_fails_as_abort": ["UPDATE OR REPLACE t SET c = c * 40", T],
    "replace_two_column_key": ["UPDATE OR REPLACE u SET b = 'x'", U],
    "fail_keeps_the_rows_before": ["UPDATE OR FAIL t SET k = CASE id WHEN 1 THEN 100 ELSE 30 END", T],
    "fail_on_check": ["UPDATE OR FAIL t SET c = c * 40 WHERE id >= 2", T],
    "abort_undoes_the_whole_statement": ["UPDATE OR ABORT t SET k = CASE id WHEN 1 THEN 100 ELSE 30 END", T],
    "rollback_ends_the_transaction": [
        "UPDATE t SET v = 'changed' WHERE id = 1",
        "UPDATE OR ROLLBACK t SET k = 30 WHERE id < 4",
        T,
    ],
    "changes_counts_the_rows_changed": ["UPDATE OR IGNORE t SET k = 10", "SELECT changes()",
                                        "UPDATE OR REPLACE t SET k = 10 WHERE id = 4", "SELECT changes()"],
    "changes_after_no_row_changed": ["INSERT INTO t VALUES (5, 50, 'e', 5)", "UPDATE OR IGNORE t SET k = 10 WHERE id = 5",
                                     "SELECT changes()"],
    "uncorrelated_subquery_is_evaluated_once": ["UPDATE OR IGNORE t SET k = (SELECT max(k) FROM t) + 1", T],
    "replace_with_an_uncorrelated_subquery": ["UPDATE OR REPLACE t SET k = (SELECT min(k) FROM t)", T],
    "correlated_subquery_sees_the_rows_before": [
        "UPDATE OR IGNORE t SET c = (SELECT max(c) FROM t AS o WHERE o.id < t.id)", T],
}


@pytest.mark.parametrize("steps", CASES.values(), ids=CASES.keys())
def test_update_or(diff, steps):
    diff.steps(TABLES + steps)


def test_without_rowid_table(diff):
    diff.steps(TABLES + [
        "CREATE TABLE w(a TEXT PRIMARY KEY, n INTEGER UNIQUE) WITHOUT ROWID",
        "INSERT INTO w VALUES ('p', 1), ('q', 2), ('r', 3)",
        "UPDATE OR IGNORE w SET n = 2",
        "UPDATE OR REPLACE w SET a = 'p' WHERE a = 'q'",
        "SELECT * FROM w ORDER BY a",
    ])


def test_implicit_rowid_table(diff):
    diff.steps(TABLES + [
        "CREATE TABLE r(k INTEGER UNIQUE, v TEXT)",
        "INSERT INTO r VALUES (1, 'r1'), (2, 'r2'), (3, 'r3')",
        "UPDATE OR IGNORE r SET k = k + 1",
        "UPDATE OR REPLACE r SET k = k - 1 WHERE rowid > 1",
        "SELECT rowid, k, v FROM r ORDER BY rowid",
    ])


def test_executemany(diff):
    diff.steps(TABLES + [
        ("many", "UPDATE OR IGNORE t SET k = ? WHERE id = ?", [(50, 1), (50, 2), (60, 3)]),
        ("many", "UPDATE OR REPLACE t SET k = ? WHERE id = ?", [(60, 4), (70, 2)]),
        T,
    ])


def test_table_with_triggers(diff):
    diff.steps(TABLES + [
        "CREATE TABLE log(x TEXT)",
        "CREATE TRIGGER tu AFTER UPDATE ON u BEGIN INSERT INTO log VALUES (old.a || '->' || new.a); END",
        "UPDATE OR IGNORE u SET a = a + 1",
        "UPDATE OR REPLACE u SET a = 9, b = 'x' WHERE a = 2",
        U,
        "SELECT * FROM log ORDER BY rowid",
    ])


def test_in_a_trigger_body(diff):
    diff.steps(TABLES + [
        "CREATE TABLE s(x INTEGER)",
        "CREATE TRIGGER ts AFTER INSERT ON s BEGIN UPDATE OR IGNORE t SET k = new.x; "
        "UPDATE OR REPLACE t SET k = new.x + 10 WHERE id = 3; END",
        "INSERT INTO s VALUES (20)",
        "INSERT INTO s VALUES (50)",
        T,
    ])


def test_trigger_table_update_reads_an_uncorrelated_subquery_once(diff):
    """Not only under OR: any UPDATE on a table with triggers runs row by row."""
    diff.steps(TABLES + [
        "CREATE TABLE log(x TEXT)",
        "CREATE TRIGGER tt AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.c); END",
        "UPDATE t SET c = (SELECT max(c) FROM t) + id",
        T,
        "SELECT * FROM log ORDER BY rowid",
    ])


def test_no_such_table(diff):
    diff.steps(TABLES + ["UPDATE OR IGNORE nosuch SET v = 1"])


def test_returning_is_not_supported_on_a_server(backend):
    """SQLite returns the rows changed; the row-by-row run does not collect them."""
    if not backend.is_server:
        pytest.skip("the reference itself")
    conn = backend.connect()
    conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER UNIQUE)")
    conn.execute("INSERT INTO t VALUES (1, 10)")
    with pytest.raises(hermes_dbapi.NotSupportedError, match="RETURNING"):
        conn.execute("UPDATE OR IGNORE t SET k = 20 RETURNING id")
    assert conn.execute("SELECT k FROM t").fetchall() == [(10,)]


@pytest.mark.parametrize("isolation_level", [None, "DEFERRED"])
def test_in_executescript(diff, isolation_level):
    diff.steps(TABLES + [
        ("script", "UPDATE OR REPLACE t SET k = 99 WHERE id > 1; UPDATE OR IGNORE t SET k = 99;"),
        T,
    ], isolation_level=isolation_level)
