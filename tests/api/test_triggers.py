"""Ordinary (non-FTS) triggers: the same SQL on sqlite3 and through hermes_dbapi on each backend.

Each scenario is a setup (tables and triggers, made on a connection of its own)
and recorded steps: rows, rowcount, lastrowid, errors, ``total_changes`` and
``in_transaction`` must match SQLite's exactly.
"""

from __future__ import annotations

import pytest

T = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT DEFAULT 'dflt')"
LOG = "CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT)"
BASE = [T, LOG]
ROWS = "SELECT * FROM t ORDER BY id"
LOGS = "SELECT msg FROM log ORDER BY id"
TC = ("get", "total_changes")


def trig(sql: str) -> list:
    return [*BASE, sql]


SCENARIOS: dict[str, tuple[list, list]] = {
    "after_insert": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('ins ' || new.a); END"),
        ["INSERT INTO t(a) VALUES (1)", "INSERT INTO t(a) VALUES (2)", TC, ROWS, LOGS, ("commit",)],
    ),
    "before_insert_sees_defaults_and_minus_one_rowid": (
        trig("CREATE TRIGGER bi BEFORE INSERT ON t BEGIN "
             "INSERT INTO log(msg) VALUES (new.id || ',' || new.a || ',' || new.b || ',' || new.rowid); END"),
        ["INSERT INTO t(a) VALUES (7)", "INSERT INTO t(id, a, b) VALUES (10, 8, 'x')", LOGS, ROWS, TC],
    ),
    "multi_row_values_interleave": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN "
             "INSERT INTO log(msg) VALUES (new.a || ':' || (SELECT count(*) FROM t)); END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", TC, LOGS, ROWS],
    ),
    "insert_select": (
        [*BASE, "CREATE TABLE src(x)", "INSERT INTO src VALUES (5), (6)",
         "CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES (new.id || '=' || new.a); END"],
        ["INSERT INTO t(a) SELECT x FROM src ORDER BY x", TC, LOGS, ROWS],
    ),
    "update_of_columns": (
        trig("CREATE TRIGGER au AFTER UPDATE OF a ON t BEGIN "
             "INSERT INTO log(msg) VALUES (old.a || '->' || new.a); END"),
        ["INSERT INTO t(a) VALUES (1), (2)", "UPDATE t SET b = 'no fire'", "UPDATE t SET a = a * 10",
         "UPDATE t SET a = 5, b = 'y' WHERE id = 1", TC, LOGS, ROWS],
    ),
    "before_update_when": (
        trig("CREATE TRIGGER bu BEFORE UPDATE ON t WHEN new.a <> old.a BEGIN "
             "INSERT INTO log(msg) VALUES ('changed ' || old.id); END"),
        ["INSERT INTO t(a) VALUES (1), (2)", "UPDATE t SET a = 2", "UPDATE t SET a = 2", TC, LOGS],
    ),
    "replace_into_fires_insert_triggers": (  # REPLACE INTO is INSERT OR REPLACE: its deletes fire none
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('ins ' || new.a); END"),
        ["INSERT INTO t(id, a) VALUES (1, 1)", "REPLACE INTO t(id, a) VALUES (1, 2)",
         "INSERT OR REPLACE INTO t(id, a) VALUES (1, 3)", "REPLACE INTO t(a) VALUES (4)", TC, LOGS, ROWS],
    ),
    "body_naming_a_dropped_table_fails_the_statement": (  # SQLite compiles the body: "no such table: main.log"
        [*BASE, "CREATE TABLE gone(x INTEGER)",
         "CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO gone VALUES (new.a); END",
         "CREATE TRIGGER au AFTER UPDATE ON t WHEN (SELECT count(*) FROM gone) >= 0 BEGIN SELECT 1; END",
         "CREATE TRIGGER ad AFTER DELETE ON t BEGIN SELECT * FROM gone; END", "DROP TABLE gone"],
        ["INSERT INTO t(a) VALUES (1)", ROWS, "UPDATE t SET a = 2 WHERE 0", "DELETE FROM t WHERE 0", TC,
         "CREATE TABLE gone(x INTEGER)", "INSERT INTO t(a) VALUES (3)", "SELECT * FROM gone", ROWS],
    ),
    "after_delete": (
        trig("CREATE TRIGGER ad AFTER DELETE ON t BEGIN INSERT INTO log(msg) VALUES ('del ' || old.a); END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", "DELETE FROM t WHERE a >= 2", TC, LOGS, ROWS],
    ),
    "before_delete_counts_rows_left": (
        trig("CREATE TRIGGER bd BEFORE DELETE ON t BEGIN "
             "INSERT INTO log(msg) VALUES (old.a || ' of ' || (SELECT count(*) FROM t)); END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", "DELETE FROM t", TC, LOGS],
    ),
    "multi_statement_body": (
        [*BASE, "CREATE TABLE stats(n INTEGER)", "INSERT INTO stats VALUES (0)",
         "CREATE TRIGGER ai AFTER INSERT ON t BEGIN "
         "INSERT INTO log(msg) VALUES ('one; ' || new.a); UPDATE stats SET n = n + new.a; "
         "INSERT INTO log(msg) VALUES ('two END'); END"],
        ["INSERT INTO t(a) VALUES (4)", "INSERT INTO t(a) VALUES (5)", TC, LOGS, "SELECT n FROM stats"],
    ),
    "body_updates_own_table": (
        ["CREATE TABLE m(id INTEGER PRIMARY KEY, body TEXT, ord INTEGER)",
         "CREATE TRIGGER m_ord AFTER INSERT ON m WHEN new.ord IS NULL BEGIN "
         "UPDATE m SET ord = COALESCE((SELECT max(ord) FROM m WHERE id < new.id), 0) + 10 WHERE id = new.id; END"],
        ["INSERT INTO m(body) VALUES ('a')", "INSERT INTO m(body, ord) VALUES ('b', 3)",
         "INSERT INTO m(body) VALUES ('c')", TC, "SELECT * FROM m ORDER BY id"],
    ),
    "no_self_recursion": (
        trig("CREATE TRIGGER au AFTER UPDATE ON t BEGIN UPDATE t SET a = a + 100 WHERE id = new.id; END"),
        ["INSERT INTO t(a) VALUES (1), (2)", "UPDATE t SET a = a + 1", TC, ROWS],
    ),
    "chained_triggers": (
        [*BASE, "CREATE TABLE u(id INTEGER PRIMARY KEY, v INTEGER)",
         "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO u(v) VALUES (new.a * 2); END",
         "CREATE TRIGGER u_ai AFTER INSERT ON u BEGIN INSERT INTO log(msg) VALUES ('u got ' || new.v); END"],
        ["INSERT INTO t(a) VALUES (21)", TC, LOGS, "SELECT * FROM u"],
    ),
    "mutual_recursion_stops": (
        [*BASE, "CREATE TABLE u(id INTEGER PRIMARY KEY, v INTEGER)",
         "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO u(v) VALUES (new.a); END",
         "CREATE TRIGGER u_ai AFTER INSERT ON u BEGIN INSERT INTO t(a) VALUES (new.v + 1); END"],
        ["INSERT INTO t(a) VALUES (1)", TC, ROWS, "SELECT * FROM u"],
    ),
    "raise_abort_before_insert": (
        trig("CREATE TRIGGER bi BEFORE INSERT ON t BEGIN "
             "SELECT RAISE(ABORT, 'a must be positive') WHERE new.a <= 0; END"),
        ["INSERT INTO t(a) VALUES (1)", "INSERT INTO t(a) VALUES (2), (-1), (3)", ("get", "in_transaction"),
         TC, ROWS, ("commit",), ROWS],
    ),
    "raise_abort_after_update_undoes_statement": (
        trig("CREATE TRIGGER au AFTER UPDATE ON t BEGIN INSERT INTO log(msg) VALUES (new.a); "
             "SELECT RAISE(ABORT, 'too big') WHERE new.a > 20; END"),
        ["INSERT INTO t(a) VALUES (1), (15)", ("commit",), "UPDATE t SET a = a + 10", TC, ROWS, LOGS,
         ("rollback",), ROWS],
    ),
    "raise_fail_keeps_earlier_rows": (
        trig("CREATE TRIGGER bi BEFORE INSERT ON t BEGIN SELECT RAISE(FAIL, 'no threes') WHERE new.a = 3; END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3), (4)", ROWS, ("commit",), ROWS, TC],
    ),
    "raise_rollback_ends_transaction": (
        trig("CREATE TRIGGER bi BEFORE INSERT ON t BEGIN SELECT RAISE(ROLLBACK, 'stop all') WHERE new.a = 9; END"),
        ["INSERT INTO t(a) VALUES (1)", "INSERT INTO t(a) VALUES (9)", ("get", "in_transaction"), ROWS],
    ),
    "raise_ignore_before_insert": (
        trig("CREATE TRIGGER bi BEFORE INSERT ON t BEGIN SELECT RAISE(IGNORE) WHERE new.a = 5; END"),
        ["INSERT INTO t(a) VALUES (4)", "INSERT INTO t(a) VALUES (5)", "INSERT INTO t(a) VALUES (5), (6)",
         ROWS, TC],
    ),
    "raise_ignore_before_delete": (
        trig("CREATE TRIGGER bd BEFORE DELETE ON t BEGIN SELECT RAISE(IGNORE) WHERE old.a = 2; END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", "DELETE FROM t", ROWS, TC],
    ),
    "raise_in_case": (
        trig("CREATE TRIGGER bu BEFORE UPDATE ON t BEGIN "
             "SELECT CASE WHEN new.b = 'bad' THEN RAISE(ABORT, 'bad b') END; END"),
        ["INSERT INTO t(a) VALUES (1)", "UPDATE t SET b = 'good'", "UPDATE t SET b = 'bad'", ROWS],
    ),
    "raise_abort_error_class": (
        trig("CREATE TRIGGER bd BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'read only'); END"),
        ["INSERT INTO t(a) VALUES (1)", "DELETE FROM t", ROWS],
    ),
    "lastrowid_is_the_statements_row": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('x'); "
             "INSERT INTO log(msg) VALUES ('y'); END"),
        ["INSERT INTO log(msg) VALUES ('first')", "INSERT INTO t(a) VALUES (1)", LOGS],
    ),
    "error_in_body_undoes_statement": (
        [*BASE, "CREATE UNIQUE INDEX log_msg ON log(msg)",
         "CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES (new.b); END"],
        ["INSERT INTO t(a, b) VALUES (1, 'x')", "INSERT INTO t(a, b) VALUES (2, 'y'), (3, 'x')",
         ROWS, LOGS],
    ),
    "when_with_subquery": (
        [*BASE, "CREATE TABLE gate(v INTEGER)", "INSERT INTO gate VALUES (2)",
         "CREATE TRIGGER ai AFTER INSERT ON t WHEN new.a > (SELECT v FROM gate) BEGIN "
         "INSERT INTO log(msg) VALUES ('over ' || new.a); END"],
        ["INSERT INTO t(a) VALUES (1), (2), (3)", TC, LOGS],
    ),
    "composite_primary_key_table": (
        ["CREATE TABLE kv(k TEXT, n INTEGER, v TEXT, PRIMARY KEY (k, n)) WITHOUT ROWID", LOG,
         "CREATE TRIGGER kv_au AFTER UPDATE ON kv BEGIN "
         "INSERT INTO log(msg) VALUES (old.k || old.n || ':' || old.v || '->' || new.v); END",
         "CREATE TRIGGER kv_ai AFTER INSERT ON kv BEGIN INSERT INTO log(msg) VALUES ('+' || new.k || new.n); END"],
        ["INSERT INTO kv VALUES ('a', 1, 'x'), ('b', 2, 'y')", "UPDATE kv SET v = v || '!'", TC, LOGS],
    ),
    "insert_or_ignore_skipped_row_fires_nothing": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('ins ' || new.id); END"),
        ["INSERT INTO t(id, a) VALUES (1, 1)", "INSERT OR IGNORE INTO t(id, a) VALUES (1, 2), (2, 3)", TC, LOGS],
    ),
    "update_changes_primary_key": (
        trig("CREATE TRIGGER au AFTER UPDATE ON t BEGIN INSERT INTO log(msg) VALUES (old.id || '->' || new.id); END"),
        ["INSERT INTO t(a) VALUES (1), (2)", "UPDATE t SET id = id + 10", TC, LOGS, ROWS],
    ),
    "two_triggers_same_event_order": (
        [*BASE,
         "CREATE TRIGGER first_made AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('first'); END",
         "CREATE TRIGGER second_made AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('second'); END"],
        ["INSERT INTO t(a) VALUES (1)", LOGS],
    ),
    "before_delete_removes_later_row": (
        trig("CREATE TRIGGER bd BEFORE DELETE ON t WHEN old.id = 1 BEGIN DELETE FROM t WHERE id = 3; END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", "DELETE FROM t", TC, ROWS],
    ),
    "cte_update": (
        trig("CREATE TRIGGER au AFTER UPDATE ON t BEGIN INSERT INTO log(msg) VALUES (old.a || '->' || new.a); END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)",
         "WITH big(i) AS (SELECT id FROM t WHERE a > 1) UPDATE t SET a = a * 10 WHERE id IN (SELECT i FROM big)",
         TC, LOGS],
    ),
    "rollback_undoes_trigger_work": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('x'); END"),
        ["INSERT INTO t(a) VALUES (1)", ("get", "in_transaction"), ("rollback",), ROWS, LOGS],
    ),
    "executemany_fires_per_item": (
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES (new.a); END"),
        [("many", "INSERT INTO t(a) VALUES (?)", [(1,), (2,), (3,)]), TC, LOGS,
         ("many", "UPDATE t SET b = ? WHERE a = ?", [("p", 1), ("q", 2)]), ROWS],
    ),
    "parameters_in_statement": (
        trig("CREATE TRIGGER au AFTER UPDATE OF b ON t BEGIN INSERT INTO log(msg) VALUES (new.b || old.b); END"),
        [("sql", "INSERT INTO t(a, b) VALUES (?, ?)", (1, "p")),
         ("sql", "UPDATE t SET b = ? WHERE a = ?", ("q", 1)), TC, LOGS],
    ),
    "create_if_not_exists_and_drop": (
        BASE,
        ["CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('one'); END",
         "CREATE TRIGGER IF NOT EXISTS ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('two'); END",
         "CREATE TRIGGER ai AFTER INSERT ON t BEGIN SELECT 1; END",
         "INSERT INTO t(a) VALUES (1)", "DROP TRIGGER ai", "DROP TRIGGER IF EXISTS ai", "DROP TRIGGER ai",
         "INSERT INTO t(a) VALUES (2)", LOGS, "SELECT name FROM sqlite_master WHERE type = 'trigger'"],
    ),
    "sqlite_master_keeps_text_and_drop_table_drops_triggers": (
        BASE,
        ["CREATE TRIGGER  ai   AFTER INSERT ON t\n  WHEN new.a > 1\nBEGIN\n  INSERT INTO log(msg) VALUES (new.a);\nEND",
         "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'",
         "DROP TABLE t", "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"],
    ),
    "instead_of_triggers_on_a_view": (
        [*BASE, "INSERT INTO t(a, b) VALUES (1, 'x'), (2, 'y')",
         "CREATE VIEW v(k, a2) AS SELECT id, a * 2 FROM t",
         "CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN INSERT INTO t(a) VALUES (new.a2 / 2); "
         "INSERT INTO log(msg) VALUES ('vi ' || new.k || ',' || new.a2); END",
         "CREATE TRIGGER vu INSTEAD OF UPDATE OF a2 ON v BEGIN UPDATE t SET a = new.a2 WHERE id = old.k; "
         "INSERT INTO log(msg) VALUES ('vu ' || old.a2 || '->' || new.a2); END",
         "CREATE TRIGGER vd INSTEAD OF DELETE ON v WHEN old.k > 1 BEGIN DELETE FROM t WHERE id = old.k; "
         "INSERT INTO log(msg) VALUES ('vd ' || old.k); END"],
        ["INSERT INTO v(k, a2) VALUES (9, 10), (8, 12)", "INSERT INTO v SELECT 7, 20",
         "UPDATE v SET a2 = a2 + 1 WHERE k <= 2", "UPDATE v SET k = 5",
         "DELETE FROM v WHERE k IN (1, 2)", TC, ROWS, LOGS, "SELECT * FROM v ORDER BY k"],
    ),
    "table_renamed_and_a_view_made_in_its_name": (  # what a name is (table or view) follows DDL
        trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('ai ' || new.a); END"),
        ["INSERT INTO t(a) VALUES (1)", ("commit",), "ALTER TABLE t RENAME TO t_old",
         "CREATE VIEW t AS SELECT id, a FROM t_old",
         "CREATE TRIGGER ti INSTEAD OF INSERT ON t BEGIN INSERT INTO t_old(a) VALUES (new.a * 10); END",
         "INSERT INTO t(a) VALUES (2)", TC, "SELECT id, a FROM t_old ORDER BY id", LOGS, ("commit",),
         "DROP VIEW t", "ALTER TABLE t_old RENAME TO t", "INSERT INTO t(a) VALUES (3)", TC, LOGS],
    ),
    "instead_of_triggers_with_a_with_clause": (  # the CTE chooses the view's rows
        [*BASE, "INSERT INTO t(a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')", "CREATE VIEW v AS SELECT id, a FROM t",
         "CREATE TRIGGER vu INSTEAD OF UPDATE ON v BEGIN INSERT INTO log(msg) VALUES ('vu ' || old.id || '->' || new.a); END",
         "CREATE TRIGGER vd INSTEAD OF DELETE ON v BEGIN INSERT INTO log(msg) VALUES ('vd ' || old.id); END"],
        ["WITH x(k) AS (SELECT 1) UPDATE v SET a = (SELECT k FROM x) + 6 WHERE id IN (SELECT k FROM x)",
         "WITH x(k) AS (SELECT 2 UNION ALL SELECT 3) DELETE FROM v WHERE id IN x", TC, LOGS],
    ),
    "temp_trigger_dropped_by_schema_name": (
        [*BASE, "CREATE TEMP TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES (new.a); END"],
        ["INSERT INTO t(a) VALUES (1)", "DROP TRIGGER temp.ai", "INSERT INTO t(a) VALUES (2)", LOGS,
         "SELECT count(*) FROM sqlite_temp_master"],
    ),
    "view_without_instead_of_trigger_refuses_changes": (
        [*BASE, "CREATE VIEW v AS SELECT id, a FROM t",
         "CREATE TRIGGER vd INSTEAD OF DELETE ON v BEGIN INSERT INTO log(msg) VALUES ('vd'); END"],
        ["INSERT INTO v VALUES (1, 2)", "UPDATE v SET a = 1", "DELETE FROM v", LOGS],
    ),
    "changes_counts_the_statement_not_its_triggers": (
        trig("CREATE TRIGGER au AFTER UPDATE ON t BEGIN INSERT INTO log(msg) VALUES ('a'), ('b'), ('c'); END"),
        ["INSERT INTO t(a) VALUES (1), (2), (3)", "UPDATE t SET a = a + 1 WHERE id < 3", "SELECT changes()",
         "DELETE FROM t WHERE id = 3", "SELECT changes()", "UPDATE t SET a = 0 WHERE id = 99", "SELECT changes()"],
    ),
    "changes_after_a_statement_its_trigger_fails": (
        [*BASE, "INSERT INTO t(a) VALUES (1), (2), (3)",
         "CREATE TRIGGER au AFTER UPDATE ON t WHEN new.a > 5 BEGIN SELECT RAISE(ABORT, 'too big'); END"],
        ["UPDATE t SET b = 'x'", "UPDATE t SET a = a * 3", "SELECT changes()",
         "UPDATE t SET b = 'y'", "UPDATE OR FAIL t SET a = a + 4", "SELECT changes()", ROWS],
    ),
    "create_trigger_errors": (
        BASE,
        ["CREATE TRIGGER x AFTER INSERT ON nosuch BEGIN SELECT 1; END",
         "CREATE TRIGGER x AFTER INSERT ON t BEGIN INSERT INTO log(nosuch) VALUES (1); END",
         "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"],
    ),
}


@pytest.mark.parametrize("setup, steps", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_trigger_scenario(diff, setup, steps):
    diff.steps(steps, setup=setup)


@pytest.mark.parametrize("isolation_level", [None, "DEFERRED"])
def test_trigger_autocommit_and_legacy(diff, isolation_level):
    steps = ["INSERT INTO t(a) VALUES (1)", ("get", "in_transaction"), ("peek", LOGS), ("commit",), ("peek", LOGS)]
    setup = trig("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('seen'); END")
    diff.steps(steps, setup=setup, isolation_level=isolation_level)


def test_trigger_made_by_another_connection(diff):
    """A connection opened before another one created a trigger fires it."""

    def run(side):
        conn = side.connect(isolation_level=None)
        for sql in BASE:
            conn.execute(sql)
        conn.execute("INSERT INTO t(a) VALUES (1)")
        other = side.connect(isolation_level=None)
        other.execute("CREATE TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES (new.a); END")
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t(a) VALUES (2)")
        conn.execute("COMMIT")
        return conn.execute(LOGS).fetchall()

    diff.check(run)


def test_executescript_with_trigger_and_changes(diff):
    script = """
        CREATE TRIGGER ai AFTER INSERT ON t BEGIN
            INSERT INTO log(msg) VALUES (CASE WHEN new.a > 1 THEN 'big' ELSE 'small' END);
            UPDATE t SET b = 'seen; ' || new.a WHERE id = new.id;
        END;
        INSERT INTO t(a) VALUES (1);
        INSERT INTO t(a) VALUES (2);
    """
    diff.steps([("script", script), TC, ROWS, LOGS], setup=BASE)


def test_temp_trigger_fires_on_its_connection_only(diff):
    """CREATE TEMP TRIGGER: this connection's, gone with it, unseen by another one."""

    def run(side):
        conn = side.connect(isolation_level=None)
        for sql in BASE:
            conn.execute(sql)
        conn.execute("CREATE TEMP TRIGGER ai AFTER INSERT ON t BEGIN INSERT INTO log(msg) VALUES ('temp ' || new.a); END")
        conn.execute("INSERT INTO t(a) VALUES (1)")
        other = side.connect(isolation_level=None)
        other.execute("INSERT INTO t(a) VALUES (2)")
        seen = conn.execute(LOGS).fetchall()
        names = other.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
        conn.close()
        again = side.connect(isolation_level=None)
        again.execute("INSERT INTO t(a) VALUES (3)")
        return seen, names, again.execute(LOGS).fetchall()

    diff.check(run)
