"""Databases by path: the same path is the same database for every connection; different paths are isolated."""

from __future__ import annotations

import pytest

from .harness import attempt


def _write(conn, rows=("a", "b")):
    conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
    conn.executemany("INSERT INTO t(name) VALUES (?)", [(r,) for r in rows])
    conn.commit()


SAME_DATABASE = {"same_name": "main", "dot_segment": "./main", "parent_segment": "sub/../main"}


@pytest.mark.parametrize("db", SAME_DATABASE.values(), ids=SAME_DATABASE.keys())
def test_same_path_shares_data(diff, db):
    def run(side):
        _write(side.connect())
        return side.connect(db).execute("SELECT id, name FROM t ORDER BY id").fetchall()

    diff.check(run)


def test_different_paths_are_isolated(diff):
    def run(side):
        _write(side.connect("one"), rows=("x",))
        other = side.connect("two")
        before = attempt(lambda: other.execute("SELECT name FROM t").fetchall())
        _write(other, rows=("y", "z"))
        return before, side.connect("one").execute("SELECT name FROM t").fetchall(), other.execute(
            "SELECT name FROM t ORDER BY id"
        ).fetchall()

    diff.check(run)


def test_same_file_name_in_different_directories(diff):
    def run(side):
        _write(side.connect("left/data"), rows=("left",))
        right = side.connect("right/data")
        return attempt(lambda: right.execute("SELECT name FROM t").fetchall())

    diff.check(run)


def test_data_survives_reconnect(diff):
    def run(side):
        conn = side.connect()
        _write(conn)
        conn.close()
        return side.connect().execute("SELECT name FROM t ORDER BY id").fetchall()

    diff.check(run)


SCHEMA_CHANGES = {
    "create_seen_by_open_connection": ["CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT)", "INSERT INTO u(v) VALUES ('n')"],
    "drop_seen_by_open_connection": ["DROP TABLE t"],
    "add_column_seen_by_open_connection": ["ALTER TABLE t ADD COLUMN extra INTEGER DEFAULT 5"],
    "rename_seen_by_open_connection": ["ALTER TABLE t RENAME TO renamed"],
}


@pytest.mark.parametrize("changes", SCHEMA_CHANGES.values(), ids=SCHEMA_CHANGES.keys())
def test_schema_change_by_other_connection(diff, changes):
    """A connection opened before another one changed the schema sees the new schema."""

    def run(side):
        first = side.connect()
        _write(first)
        second = side.connect()
        second.execute("SELECT * FROM t").fetchall()
        for sql in changes:
            first.execute(sql)
        first.commit()
        return [
            attempt(lambda q=q: (lambda cur: (cur.description, cur.fetchall()))(second.execute(q)))
            for q in ("SELECT * FROM t ORDER BY id", "SELECT * FROM u", "SELECT * FROM renamed ORDER BY id")
        ]

    diff.check(run)


def test_uncommitted_data_invisible_to_other_connection(diff):
    def run(side):
        first = side.connect()
        _write(first)
        first.execute("INSERT INTO t(name) VALUES ('uncommitted')")
        second = side.connect()
        seen = second.execute("SELECT count(*) FROM t").fetchall()
        first.commit()
        return seen, second.execute("SELECT count(*) FROM t").fetchall()

    diff.check(run)


def test_mixed_case_namespace_keeps_its_case(backend, monkeypatch):
    """A namespace named in the URL with capitals (PostgreSQL folds unquoted names):
    its catalog queries, sqlite_master and FTS5 must find the schema they created."""
    import hermes_dbapi

    if not backend.is_server:
        pytest.skip("a server namespace")
    monkeypatch.setenv("HERMES_DB_URL", f"{backend.server_url}?namespace={backend.prefix}MixedCase")
    first = hermes_dbapi.connect("any")
    _write(first)
    first.execute("CREATE VIRTUAL TABLE f USING fts5(x)")
    first.execute("INSERT INTO f VALUES ('hello world')")
    first.commit()
    second = hermes_dbapi.connect("any")
    assert [r[0] for r in second.execute("SELECT name FROM sqlite_master WHERE name IN ('t', 'f')")] == ["t", "f"]
    assert [r[1] for r in second.execute("PRAGMA table_info(t)")] == ["id", "name"]
    assert second.execute("SELECT x FROM f WHERE f MATCH 'hello'").fetchall() == [("hello world",)]
    assert second.execute("SELECT name FROM t ORDER BY id").fetchall() == [("a",), ("b",)]
    first.close()
    second.close()
