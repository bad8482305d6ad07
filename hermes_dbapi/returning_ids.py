"""``INSERT … RETURNING``: the inserted rows' rowids, read with the rows.

sqlite3 sets ``lastrowid`` after an ``INSERT … RETURNING`` as after any
INSERT, and on PostgreSQL an explicit id must move the identity sequence on
(``Connection._advance_identity``) or a later automatic id collides with it.
So the rowid column is returned as one more column after the statement's own
and taken off again here; the rows are then served from a buffer (RETURNING
rows are few, and the server sent them all already).
"""

from __future__ import annotations

from typing import Any

from .translate import Translation, mysql_names, pg_names


def with_rowid(translation: Translation, column: str, kind: str) -> str | None:
    """``translation``'s SQL returning ``column`` last, or None where the inserted
    rows cannot be told apart (MariaDB upserts: an updated row is no insert)."""
    if kind == "postgres":
        returned = pg_names.quote(column)
        if translation.upsert_update:  # an updated row is no insert: SQLite keeps lastrowid
            returned = f"CASE WHEN xmax = 0 THEN {returned} END"
        return f"{translation.sql}, {returned}"
    if translation.conflict:
        return None
    return f"{translation.sql}, {_my_column(column)}"


def _my_column(column: str) -> str:
    return mysql_names.encode("`" + column.replace("`", "``") + "`")


def _note(raw: Any, ids: list[int]) -> None:
    """The rowid facts the backends set after a plain INSERT, from the ids it returned."""
    raw.inserted = len(ids)
    if ids:
        raw.lastrowid, raw.max_rowid, raw.min_rowid = ids[-1], max(ids), min(ids)


def take(raw: Any) -> None:
    """Move the last column of ``raw``'s result into its rowid facts (as the backends
    set them for a plain INSERT) and serve the rest as the result."""
    rowcount, names = raw.rowcount, raw.names
    rows = raw.fetchall()
    ids = [row[-1] for row in rows if row[-1] is not None]  # None: an upsert's update
    raw.load(names[:-1], [row[:-1] for row in rows])
    raw.rowcount = rowcount
    _note(raw, ids)


def ids_only(translation: Translation, column: str) -> str:
    """MariaDB: ``translation``'s INSERT returning just its rowids.  Its OK packet
    names the first id the statement generated, or the last explicit one when it
    generated none; SQLite's lastrowid is the last row's either way."""
    return f"{translation.sql} RETURNING {_my_column(column)}"


def take_ids(raw: Any) -> None:
    """``raw``'s rowid facts from a result of rowids only; no result is left to fetch."""
    ids = [row[-1] for row in raw.fetchall()]
    raw.load(None, [])
    raw.rowcount = len(ids)
    _note(raw, ids)
