"""The fast driver paths give sqlite3's answers (issue 8).

PostgreSQL statements run straight through libpq, prepared from their second
run outside a transaction and pipelined with their savepoint inside one; MariaDB
results reuse column definitions by their packets' bytes, and the shim's own
statements that go together travel as one multi-statement query.  These scenarios aim
at what such caches could get wrong: a plan or a description gone stale under
DDL, parameter types changing between runs of one statement, more statements
than the caches hold, errors in the middle of a pipeline.
"""

from __future__ import annotations

import pytest

REPEAT = 4  # past the second run: prepared on PostgreSQL, remembered on MariaDB


def _repeat(step, times: int = REPEAT) -> list:
    return [step] * times


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_select_star_after_add_column(diff, isolation):
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
        ("sql", "INSERT INTO t (a) VALUES (?)", ("x",)),
        ("commit",),
        *_repeat("SELECT * FROM t"),
        "ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 7",
        ("commit",),
        *_repeat("SELECT * FROM t"),
        ("sql", "SELECT * FROM t WHERE id = ?", (1,)),
    ]
    diff.steps(steps, isolation_level=isolation)


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_column_changes_type_under_the_same_statement(diff, isolation):
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)",
        "INSERT INTO t (a) VALUES (1)",
        ("commit",),
        *_repeat("SELECT a, id FROM t"),
        "DROP TABLE t",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, c REAL)",
        "INSERT INTO t (a, c) VALUES ('text now', 2.5)",
        ("commit",),
        *_repeat("SELECT a, id FROM t"),
    ]
    diff.steps(steps, isolation_level=isolation)


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_parameter_types_change_between_runs(diff, isolation):
    values = [1, 2, "3", None, 2.5, b"\x00\x01", -(2**63), 2**63 - 1, "text", 4]
    steps = ["CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT)", ("commit",)]
    column = {int: "n", float: "r", str: "s"}
    for v in values:
        steps.append(("sql", "SELECT ?, ? IS NULL", (v, v)))
        if type(v) in column:  # one INSERT text, its parameter's type changing
            steps.append(("sql", "INSERT INTO t (n, r, s) VALUES (?, ?, ?)",
                          tuple(v if column[type(v)] == c else None for c in "nrs")))
    steps.append(("commit",))
    steps.append("SELECT id, n, r, s FROM t ORDER BY id")
    diff.steps(steps, isolation_level=isolation)


def test_more_distinct_statements_than_the_caches_hold(diff):
    steps = ["CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)", ("commit",)]
    for round_ in range(2):
        for i in range(300):
            steps.append(("sql", f"SELECT {i} + a, {round_} FROM t WHERE id = ? OR ? IS NULL", (i, None)))
        steps.append(("sql", "INSERT INTO t (a) VALUES (?)", (round_,)))
    diff.steps(steps, isolation_level=None)


def test_failed_statement_inside_a_transaction_is_undone_alone(diff):
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT UNIQUE)",
        ("commit",),
        "BEGIN",
        *[("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (i, f"v{i}")) for i in range(3)],
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (7, "v1")),  # UNIQUE violation mid-transaction
        ("sql", "UPDATE t SET a = a || ? WHERE id = ?", ("!", 2)),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (8, "v2!")),  # violates the row just updated
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (9, "v9")),
        ("get", "in_transaction"),
        ("commit",),
        "SELECT * FROM t ORDER BY id",
    ]
    diff.steps(steps, isolation_level=None)


def test_error_in_a_prepared_statement_outside_a_transaction(diff):
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL)",
        *[("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (i, 1)) for i in range(REPEAT)],
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (10, None)),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (11, 2)),
        "SELECT * FROM t ORDER BY id",
    ]
    diff.steps(steps, isolation_level=None)


def test_percent_signs_in_statement_text(diff):
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
        ("sql", "INSERT INTO t (a) VALUES (?)", ("100%",)),
        *_repeat(("sql", "SELECT a, a LIKE '%\\%' ESCAPE '\\', 7 % 3, '%s' FROM t WHERE a LIKE ?", ("1%",))),
    ]
    diff.steps(steps, isolation_level=None)


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_fts_query_plan_reused_and_replanned(diff, isolation):
    """An FTS5 query's rewrite is planned once per text: other MATCH values reuse it,
    a table recreated with other columns gets a new plan."""
    query = ("sql", "SELECT rowid, snippet(f, -1, '[', ']', '...', 4), round(rank, 6) FROM f "
             "WHERE f MATCH ? ORDER BY rank, rowid", None)
    steps = [
        "CREATE VIRTUAL TABLE f USING fts5(a, b)",
        ("sql", "INSERT INTO f (a, b) VALUES (?, ?)", ("red fish", "blue fish")),
        ("sql", "INSERT INTO f (a, b) VALUES (?, ?)", ("one fish", "two red")),
        ("commit",),
        *[(query[0], query[1], (word,)) for word in ("fish", "red", "two", "fish", "nothing", "b:fish")],
        "DROP TABLE f",
        "CREATE VIRTUAL TABLE f USING fts5(b, a, c)",
        ("sql", "INSERT INTO f (a, b, c) VALUES (?, ?, ?)", ("green", "fish fish", "red")),
        ("commit",),
        *[(query[0], query[1], (word,)) for word in ("fish", "red", "c:red", "a:fish")],
    ]
    diff.steps(steps, isolation_level=isolation)


_LOGGED = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
    "CREATE TABLE log (id INTEGER PRIMARY KEY, tid INTEGER, a TEXT UNIQUE)",
    "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log (tid, a) VALUES (new.id, new.a); END",
    ("commit",),
]


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_trigger_savepoints_travel_with_the_next_statement(diff, isolation):
    """The trigger engine's savepoint and its release are sent with the statements
    after them (PostgreSQL, MariaDB): what follows sees the trigger's rows, a failing trigger
    undoes its statement alone, and every kind of next statement carries them."""
    steps = [
        *_LOGGED,
        "BEGIN",
        ("sql", "INSERT INTO t (a) VALUES (?)", ("one",)),
        "SELECT * FROM log ORDER BY id",  # a read right after the lazy RELEASE
        ("sql", "INSERT INTO t (a) VALUES (?)", ("two",)),
        ("many", "INSERT INTO log (tid, a) VALUES (?, ?)", [(100, "x"), (101, "y")]),  # executemany next
        ("sql", "INSERT INTO t (a) VALUES (?)", ("three",)),
        "SAVEPOINT s",  # an explicit savepoint next
        "UPDATE t SET a = 'changed' WHERE id = 1",
        "ROLLBACK TO s",
        # the trigger's INSERT fails (log.a is taken): its statement is undone alone; the
        # ids after it are explicit (a failed insert can leave a gap in a server's ids, README)
        ("sql", "INSERT INTO t (a) VALUES (?)", ("x",)),
        "SELECT * FROM t ORDER BY id",
        "SELECT * FROM log ORDER BY id",
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (10, "five")),
        ("commit",),
        "SELECT * FROM t ORDER BY id",
        "SELECT tid, a FROM log ORDER BY id",
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (11, "six")),
        ("rollback",),
        "SELECT count(*) FROM t",
    ]
    diff.steps(steps, isolation_level=isolation)


_INDEXED = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
    "CREATE VIRTUAL TABLE f USING fts5(a, content='t', content_rowid='id')",
    "CREATE TABLE log (id INTEGER PRIMARY KEY, a TEXT UNIQUE)",
    "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log (id, a) VALUES (new.id, new.a); END",
    # the newest trigger fires first: the index is written before t_log can fail
    "CREATE TRIGGER t_fts AFTER INSERT ON t BEGIN INSERT INTO f (rowid, a) VALUES (new.id, new.a); END",
    ("commit",),
]
_FISH = ("sql", "SELECT rowid, snippet(f, 0, '[', ']', '', 4) FROM f WHERE f MATCH ? ORDER BY rowid", ("fish",))


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_index_writes_undone_with_their_failed_statement(diff, isolation):
    """An FTS5 row's index writes wait for the next statement (PostgreSQL, MariaDB):
    when a later trigger of the same statement fails, they are undone with it, and
    the index still matches its content."""
    steps = [
        *_INDEXED,
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (1, "red fish")),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (2, "red fish")),  # log.a is taken: undone whole
        _FISH,
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (3, "blue fish")),
        _FISH,
        ("sql", "INSERT INTO f (f, rank) VALUES ('integrity-check', 1)", ()),
        ("commit",),
        _FISH,
        "SELECT id, a FROM log ORDER BY id",
    ]
    diff.steps(steps, isolation_level=isolation)


def test_prepared_inside_a_transaction_across_ddl_and_failures(diff):
    """Inside a transaction a statement is prepared in its own pipeline from its
    second run: a run that fails as it is prepared, and DDL in the same
    transaction, change nothing sqlite3 would show."""
    steps = [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT UNIQUE)",
        ("commit",),
        "BEGIN",
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (1, "x")),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (2, "x")),  # prepared by this run, which fails
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (3, "y")),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (4, "z")),
        *_repeat(("sql", "SELECT * FROM t WHERE id = ?", (1,))),
        "ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 7",
        *_repeat(("sql", "SELECT * FROM t WHERE id = ?", (3,))),
        ("sql", "INSERT INTO t (id, a) VALUES (?, ?)", (5, "w")),
        ("get", "in_transaction"),
        ("commit",),
        "SELECT * FROM t ORDER BY id",
    ]
    diff.steps(steps, isolation_level=None)


@pytest.mark.parametrize("isolation", [None, "DEFERRED"])
def test_open_cursors_keep_their_rows_while_others_run(pair, isolation):
    """Small results are loaded at once and their loader state reused by the next
    statement (PostgreSQL): cursors fetched in turn, over the same statement and
    others, small and large, must each keep their own rows."""

    def run(conn):
        conn.isolation_level = isolation
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, r REAL, b BLOB)")
        conn.executemany("INSERT INTO t (a, r, b) VALUES (?, ?, ?)",
                         [(f"row {i}", i / 4, bytes([i % 256])) for i in range(60)])
        point = "SELECT id, a, r, b FROM t WHERE id = ?"
        opened = [conn.execute(point, (k,)) for k in (1, 2, 3)]  # past the prepare threshold
        opened.append(conn.execute("SELECT id, a FROM t WHERE id <= ? ORDER BY id", (16,)))  # the eager limit
        opened.append(conn.execute("SELECT a, id, r FROM t ORDER BY id DESC"))  # lazily loaded
        opened.append(conn.execute("SELECT count(*), sum(r) FROM t"))
        opened.append(conn.execute(point, (59,)))
        out = []
        for _ in range(3):
            out += [cur.fetchone() for cur in opened]
            out.append(conn.execute(point, (7,)).fetchall())
        out += [cur.fetchall() for cur in opened]
        return out

    reference, shim = pair
    assert run(shim) == run(reference)
