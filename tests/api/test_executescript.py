"""executescript(): implicit COMMIT, statement splitting (strings, comments, trigger bodies), errors."""

from __future__ import annotations

import pytest

CREATE = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)"
NAMES = "SELECT name FROM t ORDER BY id"

SCRIPTS = {
    "several_statements": "INSERT INTO t(name) VALUES ('a'); INSERT INTO t(name) VALUES ('b');",
    "no_trailing_semicolon": "INSERT INTO t(name) VALUES ('a'); INSERT INTO t(name) VALUES ('b')",
    "semicolon_in_string": "INSERT INTO t(name) VALUES ('a;b'); INSERT INTO t(name) VALUES ('c'';d');",
    "semicolon_in_identifier": 'CREATE TABLE "x;y"(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "x;y"(v) VALUES (\'in\');'
    ' INSERT INTO t(name) SELECT v FROM "x;y";',
    "line_comments": "-- a comment; with a semicolon\nINSERT INTO t(name) VALUES ('a'); -- trailing; comment\n",
    "block_comments": "/* leading; comment */ INSERT INTO t(name) VALUES ('a'); /* ; */ INSERT INTO t(name) VALUES ('b');",
    "only_comment_after_last": "INSERT INTO t(name) VALUES ('a'); /* the end */",
    "case_end_inside_statement": "INSERT INTO t(name) SELECT CASE WHEN 1 = 1 THEN 'yes' ELSE 'no' END;"
    " INSERT INTO t(name) VALUES ('end');",
    "empty": "",
    "whitespace": "  \n\t ",
    "only_comments": "-- nothing here\n/* nor here */",
    "only_semicolons": ";;  ;",
    "begin_commit_inside": "BEGIN; INSERT INTO t(name) VALUES ('a'); COMMIT;",
    "begin_left_open": "BEGIN; INSERT INTO t(name) VALUES ('a');",
    "begin_rollback_inside": "BEGIN; INSERT INTO t(name) VALUES ('a'); ROLLBACK;",
    "savepoints_inside": "SAVEPOINT s; INSERT INTO t(name) VALUES ('a'); ROLLBACK TO s; INSERT INTO t(name) VALUES ('b');"
    " RELEASE s;",
    "select_discarded": "SELECT 1; INSERT INTO t(name) VALUES ('a'); SELECT name FROM t;",
    "error_in_middle": "INSERT INTO t(name) VALUES ('a'); INSERT INTO nope VALUES (1); INSERT INTO t(name) VALUES ('c');",
    "syntax_error_in_middle": "INSERT INTO t(name) VALUES ('a'); INSERTT INTO t VALUES (2); INSERT INTO t(name) VALUES ('c');",
    "constraint_error_in_middle": "INSERT INTO t(id, name) VALUES (1, 'a'); INSERT INTO t(id, name) VALUES (1, 'b');"
    " INSERT INTO t(name) VALUES ('c');",
    "error_inside_begin": "BEGIN; INSERT INTO t(name) VALUES ('a'); INSERT INTO nope VALUES (1); COMMIT;",
    "ddl_and_dml": "CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO u(v) VALUES ('x');"
    " INSERT INTO t(name) SELECT v FROM u; DROP TABLE u;",
    "unicode": "INSERT INTO t(name) VALUES ('é😀日本');",
    "incomplete_last_statement": "INSERT INTO t(name) VALUES ('a'); INSERT INTO t(name) VALUES (",
}


# also run with isolation_level None
SCRIPTS_AUTOCOMMIT = ["several_statements", "begin_left_open", "error_in_middle", "error_inside_begin"]


@pytest.mark.parametrize(
    "script,level",
    [pytest.param(script, "", id=name) for name, script in SCRIPTS.items()]
    + [pytest.param(SCRIPTS[name], None, id=f"{name}-isolation_none") for name in SCRIPTS_AUTOCOMMIT],
)
def test_executescript(diff, script, level):
    diff.steps([CREATE, ("commit",), ("script", script), NAMES, ("rollback",), NAMES], isolation_level=level)


def test_executescript_commits_pending_transaction(diff):
    diff.steps(
        [
            CREATE,
            ("commit",),
            "INSERT INTO t(name) VALUES ('pending')",
            ("script", "INSERT INTO t(name) VALUES ('script');"),
            ("rollback",),
            NAMES,
            ("peek", NAMES),
        ]
    )


def test_executescript_empty_commits_pending_transaction(diff):
    diff.steps([CREATE, ("commit",), "INSERT INTO t(name) VALUES ('pending')", ("script", ""), ("rollback",), NAMES])


TRIGGERS = {
    "after_insert": """
        CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);
        CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN
            INSERT INTO log(msg) VALUES (new.name);
        END;
        INSERT INTO t(name) VALUES ('a');
    """,
    "two_statements_in_body": """
        CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);
        CREATE TRIGGER t_ai AFTER INSERT ON t
        BEGIN
            INSERT INTO log(msg) VALUES ('first; with semicolon');
            INSERT INTO log(msg) VALUES ('second END');
        END;
        INSERT INTO t(name) VALUES ('a');
    """,
    "before_update_with_when": """
        CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);
        CREATE TRIGGER t_bu BEFORE UPDATE ON t WHEN new.name <> old.name BEGIN
            INSERT INTO log(msg) VALUES (old.name);
        END;
        INSERT INTO t(name) VALUES ('a');
        UPDATE t SET name = 'b';
        UPDATE t SET name = 'b';
    """,
    "after_delete_case_end": """
        CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);
        CREATE TRIGGER t_ad AFTER DELETE ON t BEGIN
            INSERT INTO log(msg) VALUES (CASE WHEN old.name = 'a' THEN 'was a' ELSE 'other' END);
        END;
        INSERT INTO t(name) VALUES ('a');
        DELETE FROM t;
    """,
}


@pytest.mark.parametrize("script", TRIGGERS.values(), ids=TRIGGERS.keys())
def test_executescript_trigger_bodies(diff, script):
    diff.steps([CREATE, ("commit",), ("script", script), NAMES, "SELECT msg FROM log ORDER BY id"])


BAD_ARGUMENTS = {"null_character": "SELECT 1; SELECT '\x00';", "bytes": b"SELECT 1;", "int": 1, "none": None}


@pytest.mark.parametrize("script", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_executescript_bad_argument(diff, script):
    diff.steps([("script", script)])


def test_executescript_on_cursor_keeps_state(diff):
    """The cursor that ran a script: its description, rowcount, lastrowid, and what it fetches."""

    def run(side):
        conn = side.connect()
        conn.execute(CREATE)
        cur = conn.cursor()
        cur.execute("INSERT INTO t(name) VALUES ('a')")
        returned = cur.executescript("INSERT INTO t(name) VALUES ('b'); SELECT name FROM t;")
        return returned is cur, cur.description, cur.rowcount, cur.lastrowid, cur.fetchall()

    diff.check(run)
