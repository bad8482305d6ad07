"""Cursor results: description, rowcount, lastrowid, total_changes, the fetch methods."""

from __future__ import annotations

import pytest

from .harness import apply, attempt

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, n INTEGER)",
    ("sql", "INSERT INTO t(name, n) VALUES (?, ?)", ("a", 1)),
    ("sql", "INSERT INTO t(name, n) VALUES (?, ?)", ("b", 2)),
    ("sql", "INSERT INTO t(name, n) VALUES (?, ?)", ("c", 3)),
    ("commit",),
]

# --------------------------------------------------------------------------- description

DESCRIPTION_QUERIES = [
    "SELECT * FROM t ORDER BY id",
    "SELECT id, name FROM t ORDER BY id",
    "SELECT name AS label FROM t ORDER BY id",
    'SELECT name AS "Mixed Case" FROM t ORDER BY id',
    "SELECT t.name FROM t ORDER BY id",
    "SELECT NAME, Id FROM t ORDER BY id",
    "select name from t order by id",
    "SELECT 1",
    "SELECT 1 AS one",
    "SELECT 'lit'",
    "SELECT NULL",
    "SELECT n + 1 FROM t ORDER BY id",
    "SELECT  n   +   1 FROM t ORDER BY id",
    "SELECT count(*) FROM t",
    "SELECT COUNT(*) AS total FROM t",
    "SELECT max(n), min(n) FROM t",
    "SELECT id FROM t WHERE 1 = 0",
    "SELECT x.* FROM t AS x ORDER BY x.id",
    "SELECT id, id FROM t ORDER BY id",
    "SELECT a.id, b.name FROM t a JOIN t b ON a.id = b.id ORDER BY a.id",
    "SELECT (SELECT max(id) FROM t) AS top",
    "SELECT id FROM t UNION ALL SELECT n FROM t ORDER BY 1",
    "SELECT DISTINCT n FROM t ORDER BY n",
    "SELECT name FROM t WHERE id IN (SELECT id FROM t WHERE n > 1) ORDER BY id",
    "SELECT * FROM (SELECT id AS k, name FROM t) ORDER BY k",
    "SELECT name, count(*) FROM t GROUP BY name ORDER BY name",
    "SELECT id FROM t ORDER BY id LIMIT 2 OFFSET 1",
    "SELECT CASE WHEN n > 1 THEN 'big' ELSE 'small' END FROM t ORDER BY id",
    "WITH c AS (SELECT id FROM t) SELECT id FROM c ORDER BY id",
    "VALUES (1, 'x')",
]


@pytest.mark.parametrize("sql", DESCRIPTION_QUERIES)
def test_select_description_and_rows(diff, sql):
    diff.steps(SETUP + [sql])


# --------------------------------------------------------------------------- rowcount

ROWCOUNT = {
    "insert_one": ["INSERT INTO t(name, n) VALUES ('d', 4)"],
    "insert_multi_values": ["INSERT INTO t(name, n) VALUES ('d', 4), ('e', 5), ('f', 6)"],
    "insert_select": ["INSERT INTO t(name, n) SELECT name, n FROM t"],
    "insert_select_none": ["INSERT INTO t(name, n) SELECT name, n FROM t WHERE 1 = 0"],
    "update_some": ["UPDATE t SET n = n + 10 WHERE n >= 2"],
    "update_none": ["UPDATE t SET n = 0 WHERE id > 100"],
    "update_same_value": ["UPDATE t SET n = n"],
    "update_all": ["UPDATE t SET name = 'z'"],
    "delete_some": ["DELETE FROM t WHERE n < 3"],
    "delete_all": ["DELETE FROM t"],
    "delete_none": ["DELETE FROM t WHERE id = 99"],
    "select": ["SELECT * FROM t ORDER BY id"],
    "create_table": ["CREATE TABLE u(a)"],
    "drop_table": ["DROP TABLE t"],
    "create_index": ["CREATE INDEX t_n ON t(n)"],
    "dml_then_select": ["UPDATE t SET n = 0", "SELECT n FROM t ORDER BY id"],
    "executemany_insert": [("many", "INSERT INTO t(name, n) VALUES (?, ?)", [("d", 4), ("e", 5)])],
    "executemany_update": [("many", "UPDATE t SET n = ? WHERE id = ?", [(10, 1), (20, 2), (30, 99)])],
    "executemany_empty": [("many", "INSERT INTO t(name, n) VALUES (?, ?)", [])],
    "executescript": [("script", "INSERT INTO t(name) VALUES ('x'); UPDATE t SET n = 1;")],
    "failed_insert": ["INSERT INTO t(id, name) VALUES (1, 'dup')", "SELECT count(*) FROM t"],
    "begin_commit": ["BEGIN", "COMMIT"],
}


@pytest.mark.parametrize("steps", ROWCOUNT.values(), ids=ROWCOUNT.keys())
def test_rowcount(diff, steps):
    diff.steps(SETUP + steps)


# --------------------------------------------------------------------------- lastrowid

LASTROWID = {
    "insert": ["INSERT INTO t(name) VALUES ('d')"],
    "insert_explicit_id": ["INSERT INTO t(id, name) VALUES (42, 'd')"],
    "insert_after_explicit_id": ["INSERT INTO t(id, name) VALUES (42, 'd')", "INSERT INTO t(name) VALUES ('e')"],
    "insert_big_id": ["INSERT INTO t(id, name) VALUES (4611686018427387904, 'd')"],
    "insert_negative_id": ["INSERT INTO t(id, name) VALUES (-5, 'd')"],
    "insert_multi_values": ["INSERT INTO t(name) VALUES ('d'), ('e'), ('f')"],
    "insert_select": ["INSERT INTO t(name, n) SELECT name, n FROM t"],
    # MariaDB's OK packet names the last explicit id only when no id was generated: the last row's, always
    "insert_multi_explicit_ids": ["INSERT INTO t(id, name) VALUES (42, 'd'), (41, 'e')", "SELECT last_insert_rowid()"],
    "insert_select_explicit_ids": ["INSERT INTO t SELECT id + 10, name, n FROM t ORDER BY id DESC",
                                   "SELECT last_insert_rowid()"],
    "insert_select_no_rows": ["INSERT INTO t(name) VALUES ('d')", "INSERT INTO t SELECT id + 10, name, n FROM t WHERE 0"],
    "replace_multi_explicit_ids": ["REPLACE INTO t(id, name) VALUES (1, 'r'), (9, 's')", "SELECT last_insert_rowid(), changes()",
                                   "SELECT id, name FROM t ORDER BY id"],
    "insert_multi_hidden_rowids": [
        "CREATE TABLE u(v TEXT)",
        "INSERT INTO u(rowid, v) VALUES (7, 'a'), (5, 'b')",
        "INSERT INTO u(v) VALUES ('c'), ('d')",
        "SELECT rowid, v FROM u ORDER BY rowid",
    ],
    "update_keeps_last": ["INSERT INTO t(name) VALUES ('d')", "UPDATE t SET n = 7"],
    "delete_keeps_last": ["INSERT INTO t(name) VALUES ('d')", "DELETE FROM t WHERE id = 1"],
    "select_keeps_last": ["INSERT INTO t(name) VALUES ('d')", "SELECT count(*) FROM t"],
    "ddl_keeps_last": ["INSERT INTO t(name) VALUES ('d')", ("commit",), "CREATE TABLE u(a)"],
    "other_table": [
        "CREATE TABLE u(uid INTEGER PRIMARY KEY, v TEXT)",
        "INSERT INTO u(uid, v) VALUES (100, 'x')",
        "INSERT INTO t(name) VALUES ('d')",
        "INSERT INTO u(v) VALUES ('y')",
    ],
    "failed_insert_keeps_last": [
        "INSERT INTO t(name) VALUES ('d')",
        "INSERT INTO t(id, name) VALUES (1, 'dup')",
        "SELECT 1",
    ],
    "failed_insert_does_not_use_up_an_id": [
        "CREATE TABLE u(uid INTEGER PRIMARY KEY, v TEXT UNIQUE)",
        "INSERT INTO u(v) VALUES ('x')",
        "INSERT INTO u(v) VALUES ('x')",
        "INSERT INTO u(v) VALUES ('y')",
        "SELECT uid, v FROM u ORDER BY uid",
    ],
    "bound_null_id": [  # a NULL bound to the INTEGER PRIMARY KEY: the next rowid, as a literal NULL
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (None, "d")),
        ("sql", "INSERT INTO t(name, id) VALUES (?, ?)", ("e", float("nan"))),  # NaN binds as NULL
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?), (?, ?)", (None, "f", None, "g")),
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (None, "h")),
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (7, "i")),
        ("sql", "INSERT INTO t VALUES (?, ?, ?)", (None, "j", 1)),
        "SELECT id, name FROM t ORDER BY id",
    ],
    "bound_null_id_or_ignore": [
        ("sql", "INSERT OR IGNORE INTO t(id, name) VALUES (?, ?)", (None, "d")),
        ("sql", "INSERT OR IGNORE INTO t(name, id) VALUES (?, ?)", ("e", None)),
        ("sql", "INSERT OR IGNORE INTO t(id, name) VALUES (?, ?)", (1, "taken")),
        ("sql", "INSERT OR IGNORE INTO t VALUES (NULL, ?, ?), (?, ?, ?)", ("f", 1, None, "g", 2)),
        "SELECT id, name, n FROM t ORDER BY id",
    ],
    "insert_returning": [  # lastrowid as after any INSERT; an explicit id moves the next automatic one on
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?) RETURNING name", (30, "r")),
        "INSERT INTO t(name) VALUES ('after')",
        ("sql", "INSERT INTO t(name) VALUES (?) RETURNING id, name", ("s",)),
        "INSERT INTO t(name) VALUES ('x'), ('y') RETURNING id",
        "SELECT last_insert_rowid(), changes()",
        "INSERT INTO t(name) VALUES ('last')",
        "SELECT id, name FROM t ORDER BY id",
    ],
    "changes_after_a_failed_statement": [  # a statement that fails on a constraint changed nothing: 0
        "INSERT INTO t(name) VALUES ('a'), ('b')",
        "INSERT INTO t(id, name) VALUES (1, 'again')",
        "SELECT last_insert_rowid(), changes()",
        "UPDATE t SET name = 'c'",
        "UPDATE t SET id = 1 WHERE id = 2",
        "SELECT changes()",
    ],
    "upsert_returning": [  # an insert moves lastrowid, an update does not
        "INSERT INTO t(id, name) VALUES (50, 'z') ON CONFLICT (id) DO UPDATE SET name = 'upd' RETURNING name",
        "INSERT INTO t(id, name) VALUES (50, 'z') ON CONFLICT (id) DO UPDATE SET name = 'upd' RETURNING name",
        "SELECT last_insert_rowid(), changes()",
        "INSERT INTO t(name) VALUES ('last')",
        "SELECT id, name FROM t ORDER BY id",
    ],
    "upsert_update_keeps_lastrowid": [  # MariaDB's OK packet named the updated row's id
        "INSERT INTO t(name) VALUES ('d')",
        "INSERT INTO t(id, name) VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET name = 'upd'",
        "INSERT INTO t(id, name) VALUES (1, 'z'), (2, 'w') ON CONFLICT (id) DO UPDATE SET name = excluded.name || '!'",
        "SELECT last_insert_rowid(), changes()",
        "INSERT INTO t(id, name) VALUES (2, 'v'), (60, 'new') ON CONFLICT (id) DO UPDATE SET name = 'again'",
        "SELECT last_insert_rowid(), changes()",
        "SELECT id, name FROM t ORDER BY id",
    ],
    "update_moves_rowids": [  # the next automatic id is max + 1 after an UPDATE set ids past it
        "INSERT INTO t(name) VALUES ('d')",
        "UPDATE t SET id = 30 WHERE name = 'd'",
        "INSERT INTO t(name) VALUES ('e')",
        "UPDATE t SET id = id + 100, n = 1",
        "INSERT INTO t(name) VALUES ('f')",
        "SELECT id, name FROM t ORDER BY id",
    ],
    "update_moves_rowids_through_triggers": [  # a table with triggers: its UPDATE runs in the trigger engine
        "CREATE TABLE log(x INTEGER)",
        "CREATE TRIGGER t_moved AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.id); END",
        "UPDATE t SET id = 40 WHERE id = 1",
        "INSERT INTO t(name) VALUES ('g')",
        "SELECT id, name FROM t ORDER BY id",
        "SELECT x FROM log",
    ],
    "update_moves_hidden_rowids": [
        "CREATE TABLE u(v TEXT)",
        "INSERT INTO u(v) VALUES ('x')",
        "UPDATE u SET rowid = 9",
        "INSERT INTO u(v) VALUES ('y')",
        "SELECT rowid, v FROM u ORDER BY rowid",
    ],
    "bound_null_id_then_explicit_in_one_insert": [
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?), (?, ?)", (None, "f", 40, "g")),
        ("sql", "INSERT INTO t(id, name) VALUES (?, ?)", (None, "h")),
        "SELECT id, name FROM t ORDER BY id",
    ],
    "bound_null_id_failed_insert_does_not_use_up_an_id": [
        "CREATE TABLE u(uid INTEGER PRIMARY KEY, v TEXT UNIQUE)",
        ("sql", "INSERT INTO u(uid, v) VALUES (?, ?)", (None, "x")),
        ("sql", "INSERT INTO u(uid, v) VALUES (?, ?)", (None, "x")),
        ("sql", "INSERT INTO u(uid, v) VALUES (?, ?)", (None, "y")),
        ("many", "INSERT INTO u(uid, v) VALUES (?, ?)", [(None, "z"), (None, "x"), (None, "w")]),
        ("many", "INSERT INTO u(uid, v) VALUES (?, ?)", [(None, "v"), (None, "u")]),
        "SELECT uid, v FROM u ORDER BY uid",
    ],
    "failed_multi_row_insert": [  # SQLite's last_insert_rowid keeps the id of a row the failure undid
        "INSERT INTO t(id, name) VALUES (10, 'x'), (1, 'dup')",
        "SELECT 1",
    ],
    "after_rollback": ["INSERT INTO t(name) VALUES ('d')", ("rollback",), "SELECT 1"],
    "after_commit": ["INSERT INTO t(name) VALUES ('d')", ("commit",), "SELECT 1"],
    "insert_with_params": [("sql", "INSERT INTO t(name, n) VALUES (?, ?)", ("d", 4))],
    "insert_named_params": [("sql", "INSERT INTO t(name, n) VALUES (:name, :n)", {"name": "d", "n": 4})],
    "rowid_alias_named_rowid": [
        "CREATE TABLE w(rowid INTEGER PRIMARY KEY, v TEXT)",
        "INSERT INTO w(v) VALUES ('x')",
        "INSERT INTO w(v) VALUES ('y')",
    ],
    "executemany_then_select": [("many", "INSERT INTO t(name) VALUES (?)", [("d",), ("e",)]), "SELECT 1"],
}


@pytest.mark.parametrize("steps", LASTROWID.values(), ids=LASTROWID.keys())
def test_lastrowid(diff, steps):
    diff.steps(SETUP + steps)


def test_lastrowid_on_fresh_connection(diff):
    diff.steps(["SELECT 1", "CREATE TABLE t(id INTEGER PRIMARY KEY)", "SELECT 1"])


def test_fresh_cursor_attributes(diff):
    def run(side):
        cur = side.connect().cursor()
        return {
            "description": cur.description,
            "rowcount": cur.rowcount,
            "lastrowid": cur.lastrowid,
            "arraysize": cur.arraysize,
            "row_factory": cur.row_factory,
            "fetchone": cur.fetchone(),
            "fetchall": cur.fetchall(),
            "fetchmany": cur.fetchmany(),
        }

    diff.check(run)


CURSOR_REUSE = {
    "insert_then_executemany": [
        ("execute", "INSERT INTO t(name) VALUES ('d')"),
        ("executemany", "INSERT INTO t(name) VALUES (?)", [("e",), ("f",)]),
    ],
    "insert_then_select": [
        ("execute", "INSERT INTO t(name) VALUES ('d')"),
        ("execute", "SELECT name FROM t ORDER BY id"),
    ],
    "select_then_insert": [
        ("execute", "SELECT name FROM t ORDER BY id"),
        ("execute", "INSERT INTO t(name) VALUES ('d')"),
    ],
    "insert_then_failure": [
        ("execute", "INSERT INTO t(name) VALUES ('d')"),
        ("execute", "INSERT INTO t(id) VALUES (1)"),
    ],
    "select_then_failure": [
        ("execute", "SELECT name FROM t ORDER BY id"),
        ("execute", "SELECT nope FROM t"),
    ],
    "insert_then_script": [
        ("execute", "INSERT INTO t(name) VALUES ('d')"),
        ("executescript", "INSERT INTO t(name) VALUES ('e');"),
    ],
    "executemany_then_update": [
        ("executemany", "INSERT INTO t(name) VALUES (?)", [("e",), ("f",)]),
        ("execute", "UPDATE t SET n = 0 WHERE id = 1"),
    ],
}


@pytest.mark.parametrize("calls", CURSOR_REUSE.values(), ids=CURSOR_REUSE.keys())
def test_cursor_state_across_statements(diff, calls):
    """One cursor, several statements: what each leaves in description/rowcount/lastrowid."""

    def run(side):
        conn = side.connect()
        apply(conn, SETUP)
        cur = conn.cursor()
        seen = []
        for method, *args in calls:
            result = attempt(getattr(cur, method), *args)
            seen.append(
                {
                    "returned_self": result is cur,
                    "error": result if isinstance(result, Exception) else None,
                    "description": cur.description,
                    "rowcount": cur.rowcount,
                    "lastrowid": cur.lastrowid,
                    "rows": attempt(cur.fetchall),
                }
            )
        return seen

    diff.check(run)


# --------------------------------------------------------------------------- total_changes

TOTAL_CHANGES = {
    "fresh": [],
    "insert": ["INSERT INTO t(name) VALUES ('d')"],
    "multi_insert": ["INSERT INTO t(name) VALUES ('d'), ('e')"],
    "update": ["UPDATE t SET n = 0"],
    "update_none": ["UPDATE t SET n = 0 WHERE 1 = 0"],
    "delete": ["DELETE FROM t WHERE id < 3"],
    "ddl": ["CREATE TABLE u(a)", "DROP TABLE u"],
    "select": ["SELECT * FROM t"],
    "executemany": [("many", "INSERT INTO t(name) VALUES (?)", [("d",), ("e",), ("f",)])],
    "executescript": [("script", "INSERT INTO t(name) VALUES ('d'); DELETE FROM t WHERE id = 1;")],
    "rollback_does_not_subtract": ["INSERT INTO t(name) VALUES ('d')", ("rollback",)],
    "failed_statement": ["INSERT INTO t(id) VALUES (1)"],
    "failed_multi_insert": ["INSERT INTO t(id) VALUES (10), (1)"],
}


@pytest.mark.parametrize("steps", TOTAL_CHANGES.values(), ids=TOTAL_CHANGES.keys())
def test_total_changes(diff, steps):
    """``total_changes`` counts rows changed through this connection (SETUP's three included)."""
    interleaved = [("get", "total_changes")]
    for step in steps:
        interleaved += [step, ("get", "total_changes")]
    diff.steps(SETUP + interleaved)


def test_total_changes_is_per_connection(diff):
    def run(side):
        first = side.connect()
        first.execute("CREATE TABLE t(a)")
        first.execute("INSERT INTO t VALUES (1)")
        first.commit()
        second = side.connect()
        second.execute("INSERT INTO t VALUES (2)")
        second.commit()
        return first.total_changes, second.total_changes

    diff.check(run)


# --------------------------------------------------------------------------- fetching

FETCHES = {
    "fetchone_each": ["fetchone", "fetchone", "fetchone", "fetchone", "fetchone", "fetchone", "fetchone"],
    "fetchall": ["fetchall", "fetchall", "fetchone"],
    "fetchone_then_fetchall": ["fetchone", "fetchall"],
    "fetchmany_default": ["fetchmany", "fetchmany"],
    "fetchmany_sizes": ["fetchmany:2", "fetchmany:2", "fetchmany:2", "fetchmany:2"],
    "fetchmany_zero": ["fetchmany:0", "fetchone"],
    "fetchmany_negative": ["fetchmany:-1", "fetchone"],
    "fetchmany_too_many": ["fetchmany:100", "fetchmany:1"],
    "arraysize": ["arraysize=3", "fetchmany", "fetchmany", "arraysize?"],
    "iteration": ["iter"],
    "next_then_iteration": ["next", "next", "iter", "next"],
    "fetchmany_keyword": ["fetchmany_kw:2"],
}


def _fetch(cur, action):
    if action == "iter":
        return list(cur)
    if action == "next":
        return attempt(next, cur)
    if action.startswith("arraysize="):
        cur.arraysize = int(action.split("=")[1])
        return None
    if action == "arraysize?":
        return cur.arraysize
    if action.startswith("fetchmany_kw:"):
        return cur.fetchmany(size=int(action.split(":")[1]))
    if action.startswith("fetchmany:"):
        return cur.fetchmany(int(action.split(":")[1]))
    return getattr(cur, action)()


FULL = "SELECT id, name FROM v ORDER BY id"
EMPTY = "SELECT id FROM v WHERE 1 = 0"


@pytest.mark.parametrize(
    "actions,query",
    [pytest.param(actions, FULL, id=name) for name, actions in FETCHES.items()]
    + [pytest.param(FETCHES[name], EMPTY, id=f"{name}-empty") for name in ("fetchone_each", "fetchmany_sizes", "iteration")],
)
def test_fetch_methods(diff, actions, query):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, name TEXT)")
        conn.executemany("INSERT INTO v(name) VALUES (?)", [(c,) for c in "abcde"])
        cur = conn.execute(query)
        return [attempt(_fetch, cur, action) for action in actions]

    diff.check(run)


@pytest.mark.parametrize("statement", ["INSERT INTO v(name) VALUES ('x')", "CREATE TABLE w(a)", "UPDATE v SET name = 'y'"])
def test_fetch_after_non_query(diff, statement):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, name TEXT)")
        cur = conn.execute(statement)
        return cur.fetchone(), cur.fetchmany(2), cur.fetchall(), list(cur), cur.description

    diff.check(run)


def test_reexecute_discards_pending_rows(diff):
    def run(side):
        conn = side.connect()
        cur = conn.cursor()
        cur.execute("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
        first = cur.fetchone()
        cur.execute("SELECT 'x' AS letter")
        return first, cur.description, cur.fetchall()

    diff.check(run)


def test_two_cursors_interleaved(diff):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, name TEXT)")
        conn.executemany("INSERT INTO v(name) VALUES (?)", [(c,) for c in "abc"])
        one = conn.execute("SELECT id FROM v ORDER BY id")
        two = conn.execute("SELECT name FROM v ORDER BY id DESC")
        return [(one.fetchone(), two.fetchone()) for _ in range(4)]

    diff.check(run)


@pytest.mark.parametrize("between", ["commit", "rollback", "insert"])
def test_fetch_continues_after(diff, between):
    """A half-read SELECT cursor after commit(), rollback() or another statement on the connection."""

    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, name TEXT)")
        conn.executemany("INSERT INTO v(name) VALUES (?)", [(c,) for c in "abcd"])
        conn.commit()
        conn.execute("INSERT INTO v(name) VALUES ('e')")
        cur = conn.execute("SELECT name FROM v WHERE id <= 4 ORDER BY id")
        first = cur.fetchone()
        if between == "insert":
            conn.execute("INSERT INTO v(name) VALUES ('f')")
        else:
            getattr(conn, between)()
        return first, attempt(cur.fetchall), conn.in_transaction

    diff.check(run)


def test_execute_returns_cursor(diff):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE v(a)")
        cur = conn.cursor()
        other = conn.execute("SELECT 1")
        return (
            cur.execute("SELECT 1") is cur,
            cur.executemany("INSERT INTO v VALUES (?)", [(1,)]) is cur,
            cur.executescript("SELECT 1;") is cur,
            other is not conn.execute("SELECT 1"),
            other.connection is conn,
        )

    diff.check(run)


def test_setinputsizes_and_setoutputsize(diff):
    def run(side):
        cur = side.connect().cursor()
        return cur.setinputsizes([1, 2]), cur.setoutputsize(10), cur.setoutputsize(10, 0)

    diff.check(run)

