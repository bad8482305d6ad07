"""SQLite's implicit rowid of an ordinary table without an INTEGER PRIMARY KEY.

On a server the rowid lives in a hidden automatic column (``hdb_rowid``): it
must answer to ``rowid``/``oid``/``_rowid_`` everywhere SQLite does, give
``lastrowid``, and never show as a column (``*``, PRAGMAs, ``sqlite_master``,
``description``, column-less INSERTs, ALTER TABLE).
"""

from __future__ import annotations

import pytest

import hermes_dbapi

SETUP = [
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT, n INTEGER)",
    ("sql", "INSERT INTO sessions (id, title, n) VALUES (?, ?, ?)", ("b", "dup", 1)),
    ("sql", "INSERT INTO sessions (id, title, n) VALUES (?, ?, ?)", ("a", "dup", 2)),
    ("sql", "INSERT INTO sessions VALUES (?, ?, ?)", ("c", "solo", 3)),
    ("commit",),
]

SCENARIOS = {
    "select_rowid": ["SELECT rowid, id FROM sessions ORDER BY rowid"],
    "oid_and__rowid_": ["SELECT oid, _rowid_, ROWID FROM sessions ORDER BY oid DESC"],
    "qualified": ["SELECT s.rowid, s.id FROM sessions AS s WHERE s.rowid >= 2 ORDER BY s.rowid"],
    "star_hides_it": ["SELECT * FROM sessions ORDER BY rowid"],
    "rowid_and_star": ["SELECT rowid, * FROM sessions ORDER BY rowid"],
    "qualified_star": ["SELECT s.* FROM sessions s ORDER BY s.rowid"],
    "star_join": [
        "CREATE TABLE notes (sid TEXT, body TEXT)",
        "INSERT INTO notes VALUES ('a', 'x'), ('c', 'y')",
        "SELECT * FROM sessions JOIN notes ON notes.sid = sessions.id ORDER BY sessions.rowid",
        "SELECT notes.*, sessions.id FROM sessions, notes WHERE notes.sid = sessions.id ORDER BY notes.rowid",
    ],
    "star_using": [
        "CREATE TABLE extra (id TEXT, more TEXT)",
        "INSERT INTO extra VALUES ('a', 'm')",
        "SELECT * FROM sessions JOIN extra USING (id)",
        "SELECT * FROM sessions NATURAL JOIN extra",
    ],
    "star_in_subquery_and_cte": [
        "SELECT * FROM (SELECT * FROM sessions) ORDER BY id",
        "WITH s AS (SELECT * FROM sessions) SELECT * FROM s ORDER BY id",
        "SELECT count(*) FROM sessions",
    ],
    "where_and_order": [
        "SELECT id FROM sessions WHERE rowid = 2",
        "SELECT id FROM sessions WHERE rowid IN (SELECT max(rowid) FROM sessions)",
        "SELECT max(rowid), min(oid) FROM sessions",
    ],
    "hermes_title_repair": [
        "UPDATE sessions AS older SET title = NULL WHERE title IS NOT NULL AND EXISTS "
        "(SELECT 1 FROM sessions AS newer WHERE newer.title = older.title AND newer.rowid > older.rowid)",
        "SELECT id, title FROM sessions ORDER BY rowid",
    ],
    "lastrowid": [
        ("sql", "INSERT INTO sessions (id) VALUES (?)", ("d",)),
        ("sql", "INSERT INTO sessions VALUES (?, ?, ?)", ("e", None, 5)),
        ("many", "INSERT INTO sessions (id) VALUES (?)", [("f",), ("g",)]),
        "SELECT last_insert_rowid()",
        "SELECT rowid, id FROM sessions ORDER BY rowid",
    ],
    "explicit_rowid": [
        ("sql", "INSERT INTO sessions (rowid, id) VALUES (?, ?)", (10, "x")),
        ("sql", "INSERT INTO sessions (id) VALUES (?)", ("y",)),
        "SELECT rowid, id FROM sessions ORDER BY rowid",
    ],
    "update_rowid": [
        "UPDATE sessions SET rowid = rowid + 100 WHERE id = 'a'",
        "SELECT rowid, id FROM sessions ORDER BY rowid",
        "DELETE FROM sessions WHERE rowid = 1",
        "SELECT rowid, id FROM sessions ORDER BY rowid",
    ],
    "create_table_as_select": [
        "CREATE TABLE ctas AS SELECT id, n FROM sessions ORDER BY n DESC",
        "SELECT rowid, * FROM ctas ORDER BY rowid",
        ("sql", "INSERT INTO ctas VALUES (?, ?)", ("z", 0)),
        "SELECT rowid, * FROM ctas ORDER BY rowid",
        "PRAGMA table_info(ctas)",
    ],
    "triggers": [
        "CREATE TABLE log (x INTEGER, y TEXT)",
        "CREATE TABLE plain (a TEXT, b INTEGER)",
        "CREATE TRIGGER ti AFTER INSERT ON plain BEGIN INSERT INTO log VALUES (new.rowid, new.a); END",
        "CREATE TRIGGER tu BEFORE UPDATE ON plain BEGIN INSERT INTO log VALUES (old.oid, new.a); END",
        "CREATE TRIGGER td AFTER DELETE ON sessions BEGIN INSERT INTO log VALUES (old._rowid_, old.id); END",
        ("many", "INSERT INTO plain VALUES (?, ?)", [("p", 1), ("q", 2)]),
        "UPDATE plain SET a = a || '!' WHERE rowid = 2",
        "DELETE FROM sessions WHERE id = 'a'",
        "SELECT rowid, * FROM plain ORDER BY rowid",
        "SELECT * FROM log ORDER BY x, y",
    ],
    "insert_select": [
        "CREATE TABLE copy (id TEXT, title TEXT, n INTEGER)",
        "INSERT INTO copy SELECT * FROM sessions ORDER BY rowid DESC",
        "SELECT rowid, * FROM copy ORDER BY rowid",
    ],
    "view": [
        "CREATE VIEW v AS SELECT * FROM sessions",
        "SELECT * FROM v ORDER BY id",
        "PRAGMA table_info(v)",
    ],
    "catalog": [
        "PRAGMA table_info(sessions)",
        "PRAGMA table_xinfo(sessions)",
        "SELECT sql FROM sqlite_master WHERE name = 'sessions'",
    ],
    "alter_table": [
        "ALTER TABLE sessions ADD COLUMN extra TEXT DEFAULT 'z'",
        "SELECT rowid, * FROM sessions ORDER BY rowid",
        ("sql", "INSERT INTO sessions VALUES (?, ?, ?, ?)", ("h", None, 7, "w")),
        ("commit",),  # MariaDB's DDL commits implicitly
        "ALTER TABLE sessions RENAME COLUMN title TO name",
        "ALTER TABLE sessions DROP COLUMN n",
        "SELECT rowid, * FROM sessions ORDER BY rowid",
        "ALTER TABLE sessions RENAME TO s2",
        "SELECT rowid, * FROM s2 ORDER BY rowid",
        "PRAGMA table_info(s2)",
    ],
    "untyped_table": [
        "CREATE TABLE t(a, b)",
        ("many", "INSERT INTO t VALUES (?, ?)", [("1", "x"), ("2", "y")]),
        "SELECT rowid, * FROM t ORDER BY rowid",
        "SELECT * FROM t WHERE rowid = 2",
    ],
    "without_rowid_and_view_have_none": [
        "CREATE TABLE w (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID",
        "SELECT rowid FROM w",
        "CREATE VIEW v2 AS SELECT id FROM sessions",
        "SELECT rowid FROM v2",
    ],
    "temp_table_star_hides_it": [
        ("commit",),  # MariaDB's DDL commits implicitly
        "CREATE TEMP TABLE tt (a TEXT, n INTEGER)",
        "INSERT INTO tt VALUES ('x', 1)",
        "SELECT * FROM tt",
        "SELECT tt.*, s.id FROM tt, sessions AS s ORDER BY s.id",
        "SELECT * FROM temp.tt",
        "DROP TABLE temp.tt",
        "SELECT * FROM tt",
    ],
    "temp_table_shadows_a_main_one": [
        ("commit",),
        "CREATE TEMP TABLE sessions (x TEXT)",
        "INSERT INTO sessions VALUES ('t')",
        "SELECT * FROM sessions",
    ],
    "real_column_named_rowid_wins": [
        "CREATE TABLE r (rowid TEXT, v TEXT)",
        "INSERT INTO r VALUES ('own', 'x')",
        "SELECT rowid, * FROM r",
    ],
}


@pytest.mark.parametrize("steps", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_implicit_rowid(diff, steps):
    diff.steps(SETUP + steps)


def test_iterdump(diff):
    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE t(a TEXT, b INTEGER)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", [("x", 1), ("y", 2)])
        conn.commit()
        return list(conn.iterdump())

    diff.check(run)


def test_lastrowid_across_connections(diff):
    def run(side):
        one = side.connect()
        one.execute("CREATE TABLE t(a TEXT)")
        one.commit()
        two = side.connect()
        ids = [two.execute("INSERT INTO t VALUES ('x')").lastrowid]
        two.commit()
        ids.append(one.execute("INSERT INTO t VALUES ('y')").lastrowid)
        one.commit()
        return ids, one.execute("SELECT rowid, a FROM t ORDER BY rowid").fetchall()

    diff.check(run)


def test_returning(diff, backend):
    """Rows and names only: rowcount/lastrowid of RETURNING statements are another matter."""
    updates = backend.name != "mysql"  # MariaDB has no UPDATE … RETURNING

    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE t(a TEXT, b INTEGER)")
        out = []
        for sql in (
            "INSERT INTO t VALUES ('x', 1) RETURNING *",
            "INSERT INTO t VALUES ('y', 2) RETURNING rowid, *",
            *(["UPDATE t SET b = b + 1 WHERE a = 'y' RETURNING *, rowid"] if updates else []),
            "DELETE FROM t WHERE a = 'x' RETURNING oid, *",
        ):
            cur = conn.execute(sql)
            out.append((cur.fetchall(), [d[0] for d in cur.description]))
        return out

    diff.check(run)


def test_replace_gives_a_new_rowid(diff):
    """OR REPLACE deletes and inserts (a new rowid); an upsert's update keeps the row's.
    Rows only: MariaDB's REPLACE/ON DUPLICATE KEY counts differ from SQLite's anyway."""

    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE s (id TEXT PRIMARY KEY, n INTEGER)")
        conn.executemany("INSERT INTO s VALUES (?, ?)", [("a", 1), ("b", 2), ("c", 3)])
        seen = []
        for sql in (
            "INSERT OR REPLACE INTO s VALUES ('b', 20)",
            "INSERT OR IGNORE INTO s VALUES ('a', 10)",
            "INSERT INTO s VALUES ('c', 30) ON CONFLICT (id) DO UPDATE SET n = 0",
        ):  # (a new row after these would show the ids the servers spent: a known difference)
            conn.execute(sql)
            seen.append(conn.execute("SELECT rowid, * FROM s ORDER BY rowid").fetchall())
        return seen

    diff.check(run)


def test_upsert_update_keeps_lastrowid(diff, backend):
    if backend.name == "mysql":
        pytest.skip("MariaDB's ON DUPLICATE KEY UPDATE reports the updated row's id")

    def run(side):
        conn = side.connect()
        conn.execute("CREATE TABLE s (id TEXT PRIMARY KEY, n INTEGER)")
        ids = [conn.execute("INSERT INTO s VALUES (?, 1)", (k,)).lastrowid for k in "abc"]
        for sql in (
            "INSERT OR REPLACE INTO s VALUES ('b', 20)",
            "INSERT OR IGNORE INTO s VALUES ('a', 10)",
            "INSERT INTO s VALUES ('a', 30) ON CONFLICT (id) DO UPDATE SET n = 0",
        ):  # (a new row after these would show the ids PostgreSQL's sequence spent: a known difference)
            ids.append(conn.execute(sql).lastrowid)
        return ids

    diff.check(run)


def test_table_without_the_hidden_column(backend):
    """A server table made without the shim (or by an older one) has no hidden rowid:
    it keeps working, and only a statement naming its rowid is refused."""
    if not backend.is_server:
        pytest.skip("only a server has tables made without the shim")
    from hermes_dbapi import namespace

    conn = backend.connect(isolation_level=None)
    conn.execute("CREATE TABLE mine(a INTEGER)")  # creates the namespace and its stored schema
    raw = backend.raw_connect()
    try:
        ns = namespace.for_path(backend.path(), backend.prefix)
        with raw.cursor() as cur:
            cur.execute(f'SET search_path TO "{ns}"' if backend.name == "postgres" else f"USE `{ns}`")
            cur.execute("CREATE TABLE old (k TEXT, v TEXT)")
    finally:
        raw.close()
    late = backend.connect(isolation_level=None)
    assert late.execute("INSERT INTO old VALUES ('a', 'b')").rowcount == 1
    assert late.execute("SELECT * FROM old").fetchall() == [("a", "b")]
    with pytest.raises(hermes_dbapi.NotSupportedError, match="implicit rowid of table old"):
        late.execute("SELECT rowid FROM old")
    late.execute("INSERT INTO mine VALUES (1)")
    assert late.execute("SELECT rowid, a FROM mine").fetchall() == [(1, 1)]
