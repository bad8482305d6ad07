"""Transactions: isolation_level legacy modes, autocommit, in_transaction, commit/rollback, `with conn`,
explicit BEGIN / COMMIT / ROLLBACK / SAVEPOINT / RELEASE / ROLLBACK TO and their errors."""

from __future__ import annotations

import sqlite3 as _std

import pytest

from .harness import apply, attempt

HAS_AUTOCOMMIT = hasattr(_std, "LEGACY_TRANSACTION_CONTROL")
needs_autocommit = pytest.mark.skipif(not HAS_AUTOCOMMIT, reason="Connection.autocommit is new in Python 3.12")

CREATE = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)"
INSERT_A = "INSERT INTO t(name) VALUES ('a')"
INSERT_B = "INSERT INTO t(name) VALUES ('b')"
COUNT = "SELECT count(*) FROM t"
PEEK = ("peek", "SELECT name FROM t ORDER BY id")

# --------------------------------------------------------------------------- legacy isolation_level modes

LEVELS = {"default": "", "none": None}
IMPLICIT = {
    "ddl_does_not_begin": [CREATE, "CREATE TABLE u(a)"],
    "select_does_not_begin": [CREATE, ("commit",), "SELECT * FROM t"],
    "insert_begins": [CREATE, INSERT_A, "SELECT name FROM t", ("commit",), "SELECT name FROM t"],
    "update_begins": [CREATE, INSERT_A, ("commit",), "UPDATE t SET name = 'z'", ("rollback",), "SELECT name FROM t"],
    "delete_begins": [CREATE, INSERT_A, ("commit",), "DELETE FROM t", ("rollback",), COUNT],
    "ddl_inside_transaction": [CREATE, ("commit",), INSERT_A, "CREATE TABLE u(a)", COUNT],
    "rollback_discards": [CREATE, ("commit",), INSERT_A, INSERT_B, ("rollback",), COUNT],
    "commit_persists": [CREATE, INSERT_A, ("commit",), ("rollback",), COUNT],
    "commit_twice": [CREATE, INSERT_A, ("commit",), ("commit",), ("rollback",), ("rollback",)],
    "lowercase_dml": [CREATE, "insert into t(name) values ('x')", "  update t set name = 'y'"],
    "dml_after_comment": [CREATE, "-- note\nINSERT INTO t(name) VALUES ('c')", "/* x */ DELETE FROM t"],
    "with_cte_insert": [CREATE, "WITH v(x) AS (SELECT 'w') INSERT INTO t(name) SELECT x FROM v", COUNT],
    "failed_dml_still_begins": [CREATE, INSERT_A, ("commit",), "INSERT INTO t(id, name) VALUES (1, 'dup')", COUNT],
    "set_none_commits": [CREATE, INSERT_A, ("set", "isolation_level", None), ("get", "isolation_level"), ("rollback",), COUNT],
    "set_level_keeps_transaction": [CREATE, INSERT_A, ("set", "isolation_level", "IMMEDIATE"), ("rollback",), COUNT],
}

# a second connection reads: not under EXCLUSIVE, which SQLite locks readers out of
PEEKING = {
    "peer_sees_committed_only": [CREATE, ("commit",), INSERT_A, PEEK, ("commit",), PEEK],
    "peer_after_rollback": [CREATE, ("commit",), INSERT_A, ("rollback",), PEEK],
}


def _level_cases(scenarios, levels):
    return [
        pytest.param(level, steps, id=f"{name}-{level_id}")
        for name, steps in scenarios.items()
        for level_id, level in levels.items()
    ]


@pytest.mark.parametrize(
    "level,steps",
    _level_cases(IMPLICIT, LEVELS)
    + _level_cases(PEEKING, {**LEVELS, "immediate": "IMMEDIATE"})
    + _level_cases(
        {name: IMPLICIT[name] for name in ("insert_begins", "rollback_discards", "ddl_inside_transaction")},
        {"deferred": "DEFERRED", "immediate": "IMMEDIATE", "exclusive": "EXCLUSIVE"},
    ),
)
def test_implicit_transactions(diff, level, steps):
    """sqlite3's legacy transaction control: which statements open a transaction in each isolation_level."""
    diff.steps(steps, isolation_level=level)


ISOLATION_VALUES = {
    "empty": "",
    "deferred": "DEFERRED",
    "immediate_lower": "immediate",
    "exclusive_mixed": "Exclusive",
    "none": None,
    "bogus": "BOGUS",
    "int": 1,
    "bytes": b"DEFERRED",
}


@pytest.mark.parametrize("value", ISOLATION_VALUES.values(), ids=ISOLATION_VALUES.keys())
def test_set_isolation_level(diff, value):
    diff.steps([("set", "isolation_level", value), ("get", "isolation_level"), CREATE, INSERT_A])


def test_commit_and_rollback_without_transaction(diff):
    diff.steps([("commit",), ("rollback",), CREATE, ("commit",), ("rollback",), ("commit",)])


# --------------------------------------------------------------------------- with conn:


class Boom(Exception):
    pass


CONTEXT = {
    "commits": "ok",
    "rolls_back_on_exception": "raise",
    "rolls_back_on_sqlite_error": "sqlerror",
}


@pytest.mark.parametrize("level", ["", None], ids=["legacy", "isolation_none"])
@pytest.mark.parametrize("ending", CONTEXT.values(), ids=CONTEXT.keys())
def test_context_manager(diff, ending, level):
    def run(side):
        conn = side.connect(isolation_level=level)
        conn.execute(CREATE)
        conn.commit()
        error = None
        try:
            with conn as entered:
                conn.execute(INSERT_A)
                if ending == "raise":
                    raise Boom("boom")
                if ending == "sqlerror":
                    conn.execute("INSERT INTO t(id, name) VALUES (1, 'dup')")
        except Exception as exc:
            error = exc
        return {
            "entered_is_conn": entered is conn,
            "error": error,
            "in_transaction": conn.in_transaction,
            "peer": side.peer().execute("SELECT name FROM t").fetchall(),
        }

    diff.check(run)


def test_context_manager_nested_and_reused(diff):
    def run(side):
        conn = side.connect()
        conn.execute(CREATE)
        with conn:
            with conn:
                conn.execute(INSERT_A)
            inner = conn.in_transaction
            conn.execute(INSERT_B)
        with conn:
            pass
        return inner, conn.in_transaction, side.peer().execute(COUNT).fetchall()

    diff.check(run)


def test_context_manager_after_explicit_begin(diff):
    def run(side):
        conn = side.connect(isolation_level=None)
        conn.execute(CREATE)
        with conn:
            conn.execute("BEGIN")
            conn.execute(INSERT_A)
        return conn.in_transaction, side.peer().execute(COUNT).fetchall()

    diff.check(run)


def test_context_manager_on_closed_connection(diff):
    def run(side):
        conn = side.connect()
        conn.close()
        with conn:
            pass

    diff.check(run)


# --------------------------------------------------------------------------- explicit transaction control

EXPLICIT = {
    "begin_commit": ["BEGIN", INSERT_A, "COMMIT", PEEK],
    "begin_rollback": ["BEGIN", INSERT_A, "ROLLBACK", COUNT],
    "begin_end": ["BEGIN", INSERT_A, "END", PEEK],
    "begin_transaction_end_transaction": ["BEGIN TRANSACTION", INSERT_A, "END TRANSACTION", COUNT],
    "begin_deferred": ["BEGIN DEFERRED", "SELECT 1", "COMMIT"],
    "begin_immediate": ["BEGIN IMMEDIATE", INSERT_A, "COMMIT TRANSACTION"],
    "begin_exclusive": ["BEGIN EXCLUSIVE TRANSACTION", INSERT_A, "ROLLBACK TRANSACTION"],
    "lowercase_with_semicolons": ["begin;", INSERT_A, "commit;"],
    "comment_before_begin": ["-- start\nBEGIN", "/* done */ COMMIT"],
    "python_commit_after_begin": ["BEGIN", INSERT_A, ("commit",), PEEK],
    "python_rollback_after_begin": ["BEGIN", INSERT_A, ("rollback",), COUNT],
    "begin_twice": ["BEGIN", "BEGIN", "COMMIT"],
    "commit_without_transaction": ["COMMIT"],
    "end_without_transaction": ["END"],
    "rollback_without_transaction": ["ROLLBACK"],
    "begin_garbage": ["BEGIN NONSENSE"],
    "commit_garbage": ["BEGIN", "COMMIT NOW"],
    "savepoint_starts_transaction": ["SAVEPOINT a", INSERT_A, "RELEASE a", PEEK],
    "release_savepoint_keyword": ["SAVEPOINT a", INSERT_A, "RELEASE SAVEPOINT a", COUNT],
    "rollback_to_keeps_transaction": ["SAVEPOINT a", INSERT_A, "ROLLBACK TO a", COUNT, "RELEASE a", COUNT],
    "rollback_to_savepoint_keyword": ["BEGIN", "SAVEPOINT a", INSERT_A, "ROLLBACK TO SAVEPOINT a", "COMMIT", COUNT],
    "rollback_transaction_to": ["BEGIN", "SAVEPOINT a", INSERT_A, "ROLLBACK TRANSACTION TO SAVEPOINT a", COUNT],
    "savepoint_inside_begin": ["BEGIN", INSERT_A, "SAVEPOINT a", INSERT_B, "ROLLBACK TO a", "COMMIT", COUNT],
    "nested_savepoints": [
        "BEGIN", "SAVEPOINT a", INSERT_A, "SAVEPOINT b", INSERT_B, "ROLLBACK TO b", "RELEASE a", "COMMIT", COUNT
    ],
    "release_outer_releases_inner": ["SAVEPOINT a", "SAVEPOINT b", INSERT_A, "RELEASE a", "RELEASE b"],
    "rollback_to_outer_then_inner_gone": ["SAVEPOINT a", "SAVEPOINT b", "ROLLBACK TO a", "RELEASE b", "ROLLBACK"],
    "same_name_twice": ["SAVEPOINT a", INSERT_A, "SAVEPOINT a", INSERT_B, "ROLLBACK TO a", "RELEASE a", COUNT],
    "savepoint_case_insensitive": ["SAVEPOINT Mixed", INSERT_A, "RELEASE mixed"],
    "savepoint_quoted_name": ['SAVEPOINT "two words"', INSERT_A, 'ROLLBACK TO "two words"', 'RELEASE "two words"'],
    "rollback_ends_savepoints": ["SAVEPOINT a", INSERT_A, "ROLLBACK", "RELEASE a"],
    "commit_ends_savepoints": ["SAVEPOINT a", INSERT_A, "COMMIT", "ROLLBACK TO a", PEEK],
    "release_unknown": ["RELEASE nope"],
    "rollback_to_unknown": ["ROLLBACK TO nope"],
    "rollback_to_unknown_in_transaction": ["BEGIN", "ROLLBACK TO SAVEPOINT nope", "COMMIT"],
    "savepoint_without_name": ["SAVEPOINT"],
    "begin_then_savepoint_release_keeps_transaction": ["BEGIN", "SAVEPOINT a", "RELEASE a", "COMMIT"],
}


# also run in the legacy mode (isolation_level ""), where they mix with implicit BEGINs
EXPLICIT_LEGACY = ["begin_commit", "begin_twice", "python_commit_after_begin", "savepoint_starts_transaction",
                   "rollback_to_keeps_transaction", "commit_without_transaction"]


@pytest.mark.parametrize(
    "steps,level",
    [pytest.param(steps, None, id=name) for name, steps in EXPLICIT.items()]
    + [pytest.param(EXPLICIT[name], "", id=f"{name}-legacy") for name in EXPLICIT_LEGACY],
)
def test_explicit_transaction_control(diff, steps, level):
    diff.steps([CREATE, ("commit",)] + steps, isolation_level=level)


def test_transaction_control_through_executemany(diff):
    diff.steps([CREATE, ("many", "BEGIN", []), ("many", "COMMIT", [()])])


def test_close_rolls_back(diff):
    def run(side):
        conn = side.connect()
        conn.execute(CREATE)
        conn.commit()
        conn.execute(INSERT_A)
        conn.close()
        return side.connect().execute(COUNT).fetchall()

    diff.check(run)


def test_uncommitted_ddl_rolled_back(diff):
    """sqlite3 DDL is transactional: CREATE TABLE inside a transaction disappears on rollback."""
    diff.steps([CREATE, ("commit",), "BEGIN", "CREATE TABLE u(id INTEGER PRIMARY KEY)", "ROLLBACK", "SELECT * FROM u"])


def test_uncommitted_drop_rolled_back(diff):
    diff.steps([CREATE, INSERT_A, ("commit",), "BEGIN", "DROP TABLE t", "ROLLBACK", "SELECT name FROM t"])


# --------------------------------------------------------------------------- ids after a rollback

IDS = "SELECT id, name FROM t ORDER BY id"
ROLLED_BACK_IDS = {  # SQLite hands the ids of rolled-back rows out again (max + 1)
    "rollback": ["BEGIN", INSERT_A, INSERT_B, "ROLLBACK", INSERT_A, IDS],
    "python_rollback": ["BEGIN", INSERT_A, ("rollback",), INSERT_B, IDS],
    "rollback_to": ["BEGIN", INSERT_A, "SAVEPOINT s", INSERT_B, INSERT_B, "ROLLBACK TO s", INSERT_B, "COMMIT", IDS],
    "rollback_to_outer": ["SAVEPOINT a", INSERT_A, "SAVEPOINT b", INSERT_B, "ROLLBACK TO a", INSERT_B, "RELEASE a", IDS],
    "released_then_rolled_back": ["BEGIN", "SAVEPOINT a", INSERT_A, "RELEASE a", "ROLLBACK", INSERT_B, IDS],
    "drop_rolled_back": ["BEGIN", INSERT_B, "DROP TABLE t", "ROLLBACK", INSERT_B, IDS],
    "executemany": ["BEGIN", ("many", "INSERT INTO t(name) VALUES (?)", [("x",), ("y",)]), "ROLLBACK", INSERT_A, IDS],
    "explicit_id": ["BEGIN", "INSERT INTO t(id, name) VALUES (50, 'x')", "ROLLBACK", INSERT_A, IDS],
    "updated_id": ["BEGIN", "UPDATE t SET id = 50 WHERE name = 'a'", "ROLLBACK", INSERT_A, IDS],
    "trigger_insert": [
        "CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT)",
        "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log(what) VALUES (new.name); END",
        "BEGIN", INSERT_A, "ROLLBACK", INSERT_B, "SELECT id, what FROM log", IDS,
    ],
    "autoincrement": [
        "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)",
        "BEGIN", "INSERT INTO a(name) VALUES ('x')", "ROLLBACK", "INSERT INTO a(name) VALUES ('y')",
        "SELECT id, name FROM a",
    ],
    "autoincrement_rollback_to": [
        "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)",
        "BEGIN", "INSERT INTO a(name) VALUES ('x')", "SAVEPOINT s", "INSERT INTO a(name) VALUES ('y'), ('z')",
        "ROLLBACK TO s", "INSERT INTO a(name) VALUES ('w')", "COMMIT", "SELECT id, name FROM a",
    ],
    "autoincrement_explicit_id_first": [  # the sequence's value before the undone rows is not known
        "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)",
        "BEGIN", "INSERT INTO a(id, name) VALUES (10, 'x')", "INSERT INTO a(name) VALUES ('y')", "ROLLBACK",
        "INSERT INTO a(name) VALUES ('z')", "SELECT id, name FROM a",
    ],
}


@pytest.mark.parametrize("steps", ROLLED_BACK_IDS.values(), ids=ROLLED_BACK_IDS.keys())
def test_rolled_back_ids_are_handed_out_again(diff, steps):
    diff.steps([CREATE, INSERT_A] + steps, isolation_level=None)


# --------------------------------------------------------------------------- Python 3.11-: no autocommit attribute


@pytest.mark.skipif(HAS_AUTOCOMMIT, reason="the attribute exists on Python 3.12+")
def test_no_autocommit_attribute_before_312(diff):
    def run(side):
        conn = side.connect()
        return attempt(lambda: conn.autocommit), attempt(side.connect, "other", autocommit=True)

    diff.check(run)


# --------------------------------------------------------------------------- Python 3.12+: autocommit

AUTOCOMMIT = {  # the table exists already (setup), so no DDL runs inside these transactions
    "false_opens_transaction": (False, [("get", "autocommit"), "SELECT 1"]),
    "false_commit_reopens": (False, [INSERT_A, ("commit",), PEEK, ("rollback",)]),
    "false_rollback_reopens": (False, [INSERT_A, ("rollback",), COUNT]),
    "false_begin_fails": (False, ["BEGIN"]),
    "false_ignores_isolation_level": (False, [("set", "isolation_level", None), "SELECT 1"]),
    "false_script_no_implicit_commit": (False, [("script", "INSERT INTO t(name) VALUES ('s');"), ("rollback",), COUNT]),
    "true_never_implicit": (True, [INSERT_A, PEEK]),
    "true_explicit_begin": (True, ["BEGIN", INSERT_A, "ROLLBACK", COUNT]),
    "true_commit_noop": (True, ["BEGIN", INSERT_A, ("commit",), ("rollback",), COUNT]),
    "legacy_value": ("legacy", [INSERT_A, ("get", "autocommit"), ("rollback",)]),
    "switch_false_to_true_commits": (False, [INSERT_A, ("set", "autocommit", True), ("rollback",), PEEK]),
    "switch_true_to_false_begins": (True, [("set", "autocommit", False), INSERT_A, ("rollback",), COUNT]),
    "switch_to_legacy": (False, [("set", "autocommit", "legacy"), ("get", "autocommit"), INSERT_A]),
    "invalid_value": (True, [("set", "autocommit", "yes"), ("get", "autocommit")]),
    "false_ddl_inside_transaction": (False, ["CREATE TABLE u(id INTEGER PRIMARY KEY)", ("rollback",), "SELECT * FROM u"]),
}


@needs_autocommit
@pytest.mark.parametrize("mode,steps", AUTOCOMMIT.values(), ids=AUTOCOMMIT.keys())
def test_autocommit(diff, mode, steps):
    legacy = getattr(_std, "LEGACY_TRANSACTION_CONTROL", -1)
    resolve = {"legacy": legacy}
    steps = [
        ("set", s[1], resolve.get(s[2], s[2])) if isinstance(s, tuple) and s[0] == "set" else s for s in steps
    ]
    diff.steps(steps, setup=[CREATE], autocommit=resolve.get(mode, mode))


@needs_autocommit
@pytest.mark.parametrize("value", [True, False, "x", 2], ids=["true", "false", "str", "int"])
def test_autocommit_at_connect(diff, value):
    diff.check(lambda side: attempt(lambda: side.connect(autocommit=value).autocommit))


@needs_autocommit
def test_autocommit_false_close_rolls_back(diff):
    def run(side):
        apply(side.connect(), [CREATE, ("commit",)])
        conn = side.connect(autocommit=False)
        apply(conn, [INSERT_A])
        conn.close()
        return side.connect().execute(COUNT).fetchall()

    diff.check(run)
