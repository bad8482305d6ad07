"""PostgreSQL: FTS5's 'rebuild' writes each batch's postings in key order.

A search reads a term's postings by key; written document by document they
land one per table page, written in key order a term's postings from one batch
share pages (InnoDB keeps rows in key order by itself).  The rows and ranks do
not depend on it: the search below must equal SQLite's either way.
"""

from __future__ import annotations

import sqlite3 as std

import pytest

DOCS = [(i, f"common word{i} " + " ".join(f"filler{i}x{j}" for j in range(12))) for i in range(1, 801)]
SEARCH = "SELECT rowid, bm25(m) FROM m WHERE m MATCH 'common' ORDER BY rank, rowid LIMIT 5"


def test_rebuilt_postings_of_a_term_share_pages(backend):
    if backend.name != "postgres":
        pytest.skip("PostgreSQL's heap order (InnoDB clusters by key)")
    conn = backend.connect()
    conn.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)")
    conn.executemany("INSERT INTO docs VALUES (?, ?)", DOCS)
    conn.execute("CREATE VIRTUAL TABLE m USING fts5(body, content=docs, content_rowid=id)")
    conn.execute("INSERT INTO m(m) VALUES ('rebuild')")
    conn.commit()
    (pages,) = conn._backend.query(
        "SELECT count(DISTINCT (ctid::text::point)[0]) FROM m_idx WHERE term = 'common'::bytea")[0]
    (total,) = conn._backend.query("SELECT count(DISTINCT (ctid::text::point)[0]) FROM m_idx")[0]
    # 800 postings of 'common' among 11,200: by document they would touch every page
    assert total > 40 and pages <= 12, (pages, total)
    ref = std.connect(":memory:")
    ref.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT)")
    ref.executemany("INSERT INTO docs VALUES (?, ?)", DOCS)
    ref.execute("CREATE VIRTUAL TABLE m USING fts5(body, content=docs, content_rowid=id)")
    ref.execute("INSERT INTO m(m) VALUES ('rebuild')")
    assert conn.execute(SEARCH).fetchall() == ref.execute(SEARCH).fetchall()
