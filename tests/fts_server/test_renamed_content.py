"""An external-content FTS5 table whose content column was renamed under it.

SQLite's FTS5 reads the content table only when a statement needs its
columns: MATCH queries that read rowid, rank or bm25() still answer from the
index, and everything that reads the content (a scan without MATCH, a column,
snippet()) fails with "no such column: T.<column>".  The shim must answer and
fail on the same statements, with the same rows.
"""

from __future__ import annotations

import sqlite3 as std

import pytest

SCHEMA = [
    "CREATE TABLE m (id INTEGER PRIMARY KEY, content TEXT, x TEXT)",
    "CREATE VIRTUAL TABLE f USING fts5(content, x, content='m', content_rowid='id')",
    "CREATE TRIGGER m_ai AFTER INSERT ON m BEGIN INSERT INTO f(rowid, content, x) VALUES (new.id, new.content, new.x); END",
    "INSERT INTO m (content, x) VALUES ('hello world', 'a'), ('bye world', 'b')",
    "ALTER TABLE m RENAME COLUMN content TO body",
]
ANSWERED = [
    "SELECT rowid FROM f WHERE f MATCH 'world' ORDER BY rowid",
    "SELECT rowid, rank FROM f WHERE f MATCH 'world' ORDER BY rank, rowid",
    "SELECT rowid, bm25(f) FROM f WHERE f MATCH 'hello'",
    "SELECT m.id, m.x FROM f JOIN m ON m.id = f.rowid WHERE f MATCH 'hello'",
]
FAILING = [
    "SELECT content FROM f WHERE f MATCH 'world'",
    "SELECT x FROM f WHERE f MATCH 'world'",
    "SELECT rowid FROM f WHERE f MATCH 'world' AND x = 'a'",
    "SELECT rowid FROM f",
    "SELECT count(*) FROM f",
    "SELECT * FROM f WHERE rowid = 1",
]


@pytest.fixture
def pair(backend, tmp_path):
    ref = std.connect(str(tmp_path / "reference.db"))
    shim = backend.connect(backend.path("shim.db"))
    for sql in SCHEMA:
        ref.execute(sql)
        shim.execute(sql)
    yield ref, shim
    ref.close()
    shim.close()


@pytest.mark.parametrize("sql", ANSWERED)
def test_a_query_that_reads_no_content_is_answered(pair, sql):
    ref, shim = pair
    assert shim.execute(sql).fetchall() == ref.execute(sql).fetchall()


@pytest.mark.parametrize("sql", FAILING)
def test_a_query_that_reads_the_content_fails_as_in_sqlite(pair, sql):
    ref, shim = pair
    with pytest.raises(std.OperationalError) as want:
        ref.execute(sql).fetchall()
    with pytest.raises(std.OperationalError) as got:
        shim.execute(sql).fetchall()
    assert str(got.value) == str(want.value) == "no such column: T.content"


def test_snippet_fails_too(pair):
    """SQLite says "SQL logic error" here; the shim names the column."""
    ref, shim = pair
    sql = "SELECT snippet(f, 0, '[', ']', '...', 5) FROM f WHERE f MATCH 'world'"
    with pytest.raises(std.OperationalError):
        ref.execute(sql).fetchall()
    with pytest.raises(std.OperationalError):
        shim.execute(sql).fetchall()
