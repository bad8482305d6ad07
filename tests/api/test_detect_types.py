"""detect_types: converters by declared type (PARSE_DECLTYPES) and by ``[type]`` in a column name (PARSE_COLNAMES)."""

from __future__ import annotations

import sqlite3 as _std

import pytest

PARSE_BOTH = _std.PARSE_DECLTYPES | _std.PARSE_COLNAMES

CONVERTERS = {
    "VEC2": lambda b: tuple(float(x) for x in b.split(b";")),
    "SHOUT": lambda b: b.decode().upper(),
    "INTEGER": lambda b: ("int", b),  # what sqlite3 hands over: the bytes of the value's text
    "REAL": lambda b: ("real", b),
    "BLOB": lambda b: ("blob", b),
}

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, v vec2, r REAL, b BLOB, note shout, plain TEXT)",
    ("sql", "INSERT INTO t(v, r, b, note, plain) VALUES (?, ?, ?, ?, ?)", ("1;2", 1.0, b"\x00\x01", "hi", "x")),
    ("sql", "INSERT INTO t(v, r, b, note, plain) VALUES (?, ?, ?, ?, ?)", ("3;4.5", 1e20, b"", "yo", "y")),
    ("sql", "INSERT INTO t(v, r, b, note, plain) VALUES (?, ?, ?, ?, ?)", (None, 0.1, None, None, None)),
    "CREATE VIEW w AS SELECT id, v AS vv, note FROM t",
]


@pytest.fixture(autouse=True)
def converters():
    saved = dict(_std.converters)
    for name, convert in CONVERTERS.items():
        _std.register_converter(name, convert)
    yield
    _std.converters.clear()
    _std.converters.update(saved)


@pytest.mark.parametrize("detect", [_std.PARSE_DECLTYPES, _std.PARSE_COLNAMES, PARSE_BOTH], ids=["decltypes", "colnames", "both"])
@pytest.mark.parametrize("query", [
    "SELECT * FROM t ORDER BY id",
    "SELECT v, r, note AS \"n [vec2]\", plain AS \"p [shout]\", r * 2, upper(note) FROM t ORDER BY id",
    "SELECT * FROM w ORDER BY id",
    "SELECT x.vv, x.note FROM (SELECT v AS vv, note FROM t) AS x ORDER BY 1",
    "SELECT v, note FROM t WHERE id > ? UNION ALL SELECT plain, plain FROM t ORDER BY 1",
    "WITH c AS (SELECT id, r FROM t) SELECT r FROM c ORDER BY id",
    "SELECT count(*) AS \"n [shout]\" FROM t",
], ids=["star", "colnames_and_expressions", "view", "subquery", "union_with_parameter", "cte", "aggregate_named"])
def test_converted_rows(diff, detect, query):
    params = (1,) if "?" in query else ()
    diff.steps([("sql", query, params)], setup=SETUP, detect_types=detect)


def test_row_keys_and_description_lose_the_bracketed_type(diff):
    def run(side):
        conn = side.connect(detect_types=_std.PARSE_COLNAMES)
        conn.row_factory = side.api.Row
        conn.execute("CREATE TABLE t(a shout)")
        conn.execute("INSERT INTO t VALUES ('q')")
        cur = conn.execute('SELECT a AS "a [shout]", a AS "b[shout]", a AS "c [nosuch]" FROM t')
        row = cur.fetchone()
        return [d[0] for d in cur.description], row.keys(), tuple(row)
    diff.check(run)


def _check_declared(diff, ddl: str, insert: str, query: str, text_factory: type | None = None) -> None:
    """One table, one row, one query under PARSE_DECLTYPES: the same rows on every side."""
    def run(side):
        conn = side.connect(detect_types=_std.PARSE_DECLTYPES)
        if text_factory is not None:
            conn.text_factory = text_factory
        conn.execute(ddl)
        conn.execute(insert)
        return conn.execute(query).fetchall()
    diff.check(run)


def test_text_factory_leaves_converted_columns_alone(diff):
    _check_declared(diff, "CREATE TABLE t(a shout, b TEXT)", "INSERT INTO t VALUES ('q', 'r')",
                    "SELECT a, b FROM t", text_factory=bytes)


def test_fetch_paths_convert_alike(diff):
    def run(side):
        conn = side.connect(detect_types=_std.PARSE_DECLTYPES)
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a shout)")
        conn.executemany("INSERT INTO t(a) VALUES (?)", [("a",), ("b",), (None,), ("d",)])
        cur = conn.execute("SELECT a FROM t ORDER BY id")
        return cur.fetchone(), cur.fetchmany(2), list(cur), conn.execute("SELECT a FROM t").fetchall()
    diff.check(run)


def test_a_converter_that_raises(diff):
    _check_declared(diff, "CREATE TABLE t(a vec2)", "INSERT INTO t VALUES ('not numbers')", "SELECT a FROM t")


def test_without_detect_types_no_converter_runs(diff):
    diff.steps(["SELECT * FROM t ORDER BY id", 'SELECT v AS "v [vec2]" FROM t ORDER BY id'], setup=SETUP)


def test_empty_values_reach_no_converter(diff):
    _check_declared(diff, "CREATE TABLE t(a shout, b BLOB)", "INSERT INTO t VALUES ('', x'')", "SELECT a, b FROM t")


def test_returning_columns_convert_by_their_declared_types(diff):
    def run(side):
        conn = side.connect(detect_types=_std.PARSE_DECLTYPES)
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a shout, b TEXT)")
        inserted = conn.execute("INSERT INTO t(a, b) VALUES ('x', 'y') RETURNING a, b, upper(b), id").fetchall()
        updated = conn.execute("UPDATE t SET a = 'z' RETURNING a").fetchall()
        deleted = conn.execute("DELETE FROM t RETURNING *").fetchall()
        return inserted, updated, deleted
    diff.check(run)
