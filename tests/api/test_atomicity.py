"""Statement atomicity: a failing statement inside a transaction does not poison it, its own
effects are undone, earlier statements stay, and COMMIT still works."""

from __future__ import annotations

import pytest

# Explicit ids throughout: how a server assigns automatic ids after a failure is test_cursor's business.
CREATE = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"
ROWS = "SELECT id, name FROM t ORDER BY id"
A = "INSERT INTO t(id, name) VALUES (1, 'a')"
B = "INSERT INTO t(id, name) VALUES (2, 'b')"
C = "INSERT INTO t(id, name) VALUES (3, 'c')"

FAILURES = {
    "unique": "INSERT INTO t(id, name) VALUES (9, 'a')",
    "primary_key": "INSERT INTO t(id, name) VALUES (1, 'z')",
    "not_null": "INSERT INTO t(id, name) VALUES (9, NULL)",
    "multi_row_second_fails": "INSERT INTO t(id, name) VALUES (5, 'x'), (6, 'a')",
    "insert_select_fails_late": (
        "INSERT INTO t(id, name) SELECT id + 10, CASE WHEN id = 1 THEN 'new' ELSE name END FROM t ORDER BY id"
    ),
    "update_some_rows_fail": "UPDATE t SET name = 'a' WHERE name <> 'a'",
    "update_key_collision": "UPDATE t SET id = 2 WHERE id = 1",
    "delete_then_nothing": "DELETE FROM t WHERE id = 1 AND nope = 1",
    "no_such_table": "INSERT INTO nope VALUES (1)",
    "no_such_column": "SELECT nope FROM t",
    "syntax_error": "SELEC name FROM t",
    "datatype_mismatch": "INSERT INTO t(id, name) VALUES ('abc', 'z')",
    "wrong_binding_count": ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (9,)),
    # a str UTF-8 cannot encode: refused before anything is sent (the error names its place in the value)
    "unencodable_text": ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (9, "bad \ud800")),
    "executemany_second_unencodable": ("many", "INSERT INTO t(id, name) VALUES (?, ?)", [(7, "g"), (8, "bad \ud800")]),
}


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
def test_failure_inside_implicit_transaction(diff, failure):
    diff.steps([CREATE, ("commit",), A, B, failure, C, ROWS, ("commit",), ("peek", ROWS)])


# the explicit-transaction and autocommit variants run a representative subset
SUBSET = {name: FAILURES[name] for name in (
    "unique", "not_null", "multi_row_second_fails", "update_some_rows_fail", "no_such_table", "syntax_error",
    "wrong_binding_count", "unencodable_text", "executemany_second_unencodable",
)}


@pytest.mark.parametrize("failure", SUBSET.values(), ids=SUBSET.keys())
def test_failure_inside_explicit_transaction(diff, failure):
    diff.steps([CREATE, "BEGIN", A, B, failure, C, "COMMIT", ("peek", ROWS)], isolation_level=None)


@pytest.mark.parametrize("failure", SUBSET.values(), ids=SUBSET.keys())
def test_failure_in_autocommit_mode(diff, failure):
    diff.steps([CREATE, A, B, failure, C, ("peek", ROWS)], isolation_level=None)


SEQUENCES = {
    "failure_then_rollback": [CREATE, ("commit",), A, FAILURES["unique"], ("rollback",), ROWS],
    "several_failures_then_commit": [
        CREATE, ("commit",), A, FAILURES["unique"], FAILURES["syntax_error"], FAILURES["not_null"], B, ("commit",),
        ("peek", ROWS),
    ],
    "failure_inside_savepoint": [
        CREATE, "BEGIN", A, "SAVEPOINT s", B, FAILURES["unique"], "ROLLBACK TO s", C, "RELEASE s", "COMMIT", ROWS,
    ],
    "failure_then_savepoint": [CREATE, "BEGIN", A, FAILURES["not_null"], "SAVEPOINT s", B, "RELEASE s", "COMMIT", ROWS],
    "failure_first_statement_of_transaction": [CREATE, ("commit",), FAILURES["unique"], A, ("commit",), ROWS],
    "delete_then_failure": [CREATE, A, B, ("commit",), "DELETE FROM t WHERE name = 'b'", FAILURES["primary_key"], ROWS],
    "executemany_failure_keeps_earlier_rows": [
        CREATE, ("commit",), ("many", "INSERT INTO t(id, name) VALUES (?, ?)", [(1, "p"), (2, "q"), (3, "p")]), ROWS,
        ("commit",), ("peek", ROWS),
    ],
    "executemany_update_failure": [
        CREATE, A, B, C, ("commit",), ("many", "UPDATE t SET name = ? WHERE name = ?", [("z", "a"), ("z", "b")]),
        ROWS, ("commit",), ROWS,
    ],
    # the failing statement fires a trigger: the trigger's savepoint, waiting to go with
    # the statement, must survive a statement the driver refuses before sending it
    "trigger_statement_unencodable": [
        CREATE, "CREATE TABLE log(x INTEGER)",
        "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.id); END",
        "BEGIN", A, FAILURES["unencodable_text"], C, "COMMIT", ROWS, ("peek", "SELECT x FROM log ORDER BY x"),
    ],
    "script_failure_keeps_earlier_statements": [
        CREATE, ("commit",), ("script", f"{A}; {FAILURES['unique']}; {B};"), ("rollback",), ROWS,
    ],
}


@pytest.mark.parametrize("steps", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_failure_sequences(diff, steps):
    level = None if "BEGIN" in steps else ""
    diff.steps(steps, isolation_level=level)
