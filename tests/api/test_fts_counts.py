"""FTS5's running row and token counts: what bm25 reads, moved as SQLite moves them.

FTS5 keeps the table's row count and token total as counters: every inserted
row adds, every deleted row subtracts (a 'delete' command the tokens of the
values it was given, whatever the index held), and a delete that would take
either below zero is its corruption error.  So an external-content index written twice for a rowid, or told to
delete text it never held, ranks differently from a freshly built one; the
shim's counts must follow the same arithmetic (and fail the same way).
"""

from __future__ import annotations

import pytest

EXTERNAL = [
    "CREATE TABLE m(id INTEGER PRIMARY KEY, content TEXT)",
    "CREATE VIRTUAL TABLE f USING fts5(content, content='m', content_rowid='id')",
    "INSERT INTO m VALUES (1, 'a b c'), (2, 'a d'), (3, 'x y')",
    "INSERT INTO f(rowid, content) VALUES (1, 'a b c'), (2, 'a d'), (3, 'x y')",
]
RANKS = "SELECT rowid, bm25(f), rank FROM f WHERE f MATCH 'a' ORDER BY rowid"
CHECK = "INSERT INTO f(f, rank) VALUES ('integrity-check', 1)"


def _delete(rowid: int, text: str) -> tuple:
    return ("sql", "INSERT INTO f(f, rowid, content) VALUES ('delete', ?, ?)", (rowid, text))


def _insert(rowid: int, text: str) -> tuple:
    return ("sql", "INSERT INTO f(rowid, content) VALUES (?, ?)", (rowid, text))


SCENARIOS = {
    "rowid_indexed_twice": [_insert(2, "a d e f"), RANKS, CHECK],
    "delete_then_delete_again": [_delete(3, "x y"), RANKS, _delete(3, "x y"), RANKS],
    "delete_with_other_text": [_delete(1, "a b c d e"), RANKS],
    "delete_below_zero_rows": [_delete(1, "a"), _delete(2, ""), _delete(3, ""), _delete(4, ""), RANKS],
    # (after this failure SQLite's FTS5 still holds the failed delete in its pending
    # writes and cached counts, a statement it did not undo: only the error is followed)
    "delete_below_zero_tokens": [_delete(3, "x y z w v u q r s")],
    "no_rows_left_but_postings": [_delete(3, "x y"), _delete(5, ""), _delete(6, ""), RANKS,
                                  "SELECT rowid FROM f WHERE f MATCH 'a' ORDER BY rowid"],
    "delete_all_then_insert": ["INSERT INTO f(f) VALUES ('delete-all')", _insert(1, "a b c"),
                               _insert(2, "a"), RANKS, CHECK],
    "rebuild_recounts": [_insert(2, "a d e f"), "INSERT INTO f(f) VALUES ('rebuild')", RANKS, CHECK],
    "delete_statement": ["DELETE FROM f WHERE rowid = 2", RANKS, CHECK],
    "update_statement": ["UPDATE f SET content = 'a a a' WHERE rowid = 2", "UPDATE m SET content = 'a a a' WHERE id = 2",
                         RANKS, CHECK],
    "delete_with_fewer_terms": [_delete(1, "a"), RANKS, "SELECT rowid FROM f WHERE f MATCH 'b OR c'"],
    "rolled_back_writes_uncount": ["BEGIN", _insert(4, "a z z z z"), RANKS, "ROLLBACK", RANKS],
    "savepoint_undone_uncounts": ["BEGIN", "SAVEPOINT s", _insert(4, "a z"), RANKS, "ROLLBACK TO s",
                                  RANKS, "COMMIT", RANKS],
}


@pytest.mark.parametrize("steps", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_counts_follow_sqlite(diff, steps):
    diff.steps(steps, setup=EXTERNAL)


CONTENTFUL = [
    "CREATE VIRTUAL TABLE g USING fts5(body)",
    "INSERT INTO g(rowid, body) VALUES (1, 'a b c'), (2, 'a d'), (3, 'x y')",
]
G_RANKS = "SELECT rowid, bm25(g) FROM g WHERE g MATCH 'a' ORDER BY rowid"


@pytest.mark.parametrize("steps", [
    ["INSERT OR REPLACE INTO g(rowid, body) VALUES (2, 'a a a a')", G_RANKS],
    ["DELETE FROM g WHERE rowid = 3", G_RANKS, "INSERT INTO g(g) VALUES ('integrity-check')"],
    ["DELETE FROM g", G_RANKS, "INSERT INTO g(body) VALUES ('a')", G_RANKS],
    ["INSERT INTO g(body) VALUES ('p'), ('q')", "SELECT changes()", "DELETE FROM g WHERE rowid < 3",
     "SELECT changes()", "UPDATE g SET body = 'z' WHERE rowid = 99", "SELECT changes()"],
], ids=["replace", "delete", "delete_everything", "changes_counts_the_rows_written"])
def test_counts_of_a_table_keeping_its_content(diff, steps):
    diff.steps(steps, setup=CONTENTFUL)
