"""executemany(): parameter sequences, rowcount, failures part-way, what it refuses."""

from __future__ import annotations

import logging

import pytest

from .harness import attempt

CREATE = "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER)"
ROWS = "SELECT id, name, n FROM t ORDER BY id"
INSERT = "INSERT INTO t(name, n) VALUES (?, ?)"

MANY = {
    "list_of_tuples": (INSERT, [("a", 1), ("b", 2), ("c", 3)]),
    "list_of_lists": (INSERT, [["a", 1], ["b", 2]]),
    "tuple_of_tuples": (INSERT, (("a", 1), ("b", 2))),
    "named_dicts": ("INSERT INTO t(name, n) VALUES (:name, :n)", [{"name": "a", "n": 1}, {"name": "b", "n": 2}]),
    "one_row": (INSERT, [("a", 1)]),
    "empty": (INSERT, []),
    "empty_tuple": (INSERT, ()),
    "many_rows": (INSERT, [(f"r{i}", i) for i in range(300)]),
    "str_is_a_sequence_of_rows": ("INSERT INTO t(name) VALUES (?)", "abc"),
    "update": ("UPDATE t SET n = ? WHERE name = ?", [(10, "x"), (20, "y"), (30, "nobody")]),
    "delete": ("DELETE FROM t WHERE name = ?", [("x",), ("nobody",)]),
    "no_parameters": ("INSERT INTO t(name) VALUES (NULL)", [(), ()]),
    "unique_violation_second": (INSERT, [("a", 1), ("x", 2), ("c", 3)]),
    "wrong_count_second": (INSERT, [("a", 1), ("b",), ("c", 3)]),
    "unsupported_type_second": (INSERT, [("a", 1), ("b", object()), ("c", 3)]),
    "mixed_containers": (INSERT, [("a", 1), ["b", 2]]),
    "not_iterable": (INSERT, 5),
    "none": (INSERT, None),
    "row_not_a_sequence": (INSERT, [("a", 1), 5]),
    "select_refused": ("SELECT ?", [(1,), (2,)]),
    "select_refused_empty": ("SELECT 1", []),
    "ddl": ("CREATE TABLE u(id INTEGER PRIMARY KEY)", [()]),
    "two_statements": ("INSERT INTO t(name) VALUES (?); INSERT INTO t(name) VALUES (?)", [("a", "b")]),
    "with_values_list": ("INSERT INTO t(name, n) VALUES (?, 1), (?, 2)", [("a", "b"), ("c", "d")]),
}

SEED = [CREATE, "INSERT INTO t(name, n) VALUES ('x', 0), ('y', 0)", ("commit",)]


# also run with isolation_level None
MANY_AUTOCOMMIT = ["list_of_tuples", "update", "unique_violation_second", "wrong_count_second"]


@pytest.mark.parametrize(
    "sql,seq,level",
    [pytest.param(*MANY[name], "", id=name) for name in MANY]
    + [pytest.param(*MANY[name], None, id=f"{name}-isolation_none") for name in MANY_AUTOCOMMIT],
)
def test_executemany(diff, sql, seq, level):
    diff.steps(SEED + [("many", sql, seq), ROWS, ("rollback",), ROWS], isolation_level=level)


def test_executemany_generator(diff):
    diff.check(lambda side: _many(side, ((f"g{i}", i) for i in range(3))))


def test_executemany_iterator(diff):
    diff.check(lambda side: _many(side, iter([("i1", 1), ("i2", 2)])))


def test_executemany_generator_raising(diff):
    def rows():
        yield ("a", 1)
        raise KeyError("from the generator")

    diff.check(lambda side: _many(side, rows()))


def _many(side, seq):
    conn = side.connect()
    conn.execute(CREATE)
    cur = conn.cursor()
    result = attempt(cur.executemany, INSERT, seq)
    return {
        "result_is_cursor": result is cur,
        "error": result if isinstance(result, Exception) else None,
        "rowcount": cur.rowcount,
        "lastrowid": cur.lastrowid,
        "description": cur.description,
        "in_transaction": conn.in_transaction,
        "rows": conn.execute(ROWS).fetchall(),
    }


def test_executemany_lastrowid_after_execute(diff):
    """lastrowid of a cursor that ran an INSERT and then an executemany, and of the connection after it."""

    def run(side):
        conn = side.connect()
        conn.execute(CREATE)
        cur = conn.cursor()
        cur.execute(INSERT, ("a", 1))
        first = cur.lastrowid
        cur.executemany(INSERT, [("b", 2), ("c", 3)])
        return first, cur.lastrowid, conn.execute("SELECT 1").lastrowid

    diff.check(run)


def test_a_failed_executemany_logs_nothing(diff, caplog):
    """sqlite3 prints nothing when an executemany fails part-way; the driver's own
    warning about the batch it had to abandon (psycopg's pipeline) stays quiet too."""

    def run(side):
        conn = side.connect()
        conn.execute(CREATE)
        conn.executemany(INSERT, [("a", 1), ("b", 2), ("c", 3)])
        error = attempt(conn.executemany, "UPDATE t SET name = ? WHERE n = ?", [("z", 1), ("z", 2), ("y", 3)])
        return error, conn.execute(ROWS).fetchall()

    with caplog.at_level(logging.DEBUG):
        diff.check(run)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
