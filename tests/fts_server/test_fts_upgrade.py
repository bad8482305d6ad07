"""FTS tables made by an earlier version (no running counts) on this version.

The first connection of this version to a namespace adds the counts, filled
from the size rows; until then (or when it cannot) searches sum the size rows.
Either way the ranks are SQLite's.
"""

from __future__ import annotations

import sqlite3 as std

import pytest

from hermes_dbapi.translate.helpers import VERSION

ROWS = [(i, f"common word{i % 7} " + "filler " * (i % 5)) for i in range(1, 41)]
RANKS = "SELECT rowid, bm25(f) FROM f WHERE f MATCH 'common OR word3' ORDER BY rank, rowid"


def _reference() -> list[tuple]:
    ref = std.connect(":memory:")
    ref.execute("CREATE VIRTUAL TABLE f USING fts5(a)")
    ref.executemany("INSERT INTO f(rowid, a) VALUES (?, ?)", ROWS)
    return ref.execute(RANKS).fetchall()


def _as_an_earlier_version(conn, backend, marker: bool) -> None:
    """Drop the counts table (and with ``marker``, this version's helper marker)."""
    q = conn._backend.query
    q("DROP TABLE f_data")
    if marker:
        q(f"DROP FUNCTION hdb_helpers_v{VERSION}" + ("()" if backend.name == "postgres" else ""))
    conn.commit()


@pytest.fixture
def server(backend):
    if not backend.is_server:
        pytest.skip("server tables")
    conn = backend.connect()
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(a)")
    conn.executemany("INSERT INTO f(rowid, a) VALUES (?, ?)", ROWS)
    conn.commit()
    assert conn.execute(RANKS).fetchall() == _reference()
    return backend, conn


def test_first_connection_of_this_version_adds_the_counts(server):
    backend, old = server
    _as_an_earlier_version(old, backend, marker=True)
    old.close()
    conn = backend.connect()
    tokens = sum(len(text.split()) for _r, text in ROWS)
    assert conn._backend.query("SELECT nrow, ntoken FROM f_data") == [(len(ROWS), tokens)]
    assert conn.execute(RANKS).fetchall() == _reference()
    conn.execute("INSERT INTO f(rowid, a) VALUES (99, 'common common')")
    assert conn._backend.query("SELECT nrow, ntoken FROM f_data") == [(len(ROWS) + 1, tokens + 2)]
    conn.rollback()


def test_without_counts_searches_sum_the_sizes(server):
    backend, old = server
    _as_an_earlier_version(old, backend, marker=False)
    old.close()
    conn = backend.connect()  # this version's helpers are there: nothing adds the counts
    assert not conn._backend.has_table("f_data")
    assert conn.execute(RANKS).fetchall() == _reference()
    conn.execute("INSERT INTO f(rowid, a) VALUES (99, 'common common')")
    conn.execute("DELETE FROM f WHERE rowid = 99")
    conn.execute("INSERT INTO f(f) VALUES ('integrity-check')")
    conn.commit()
    assert conn.execute(RANKS).fetchall() == _reference()
