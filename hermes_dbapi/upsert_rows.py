"""A multi-row upsert or OR IGNORE, one row at a time, for SQLite's ids.

PostgreSQL draws an identity value for every VALUES row before it looks for a
conflict, so a row that updates (or is skipped) uses one up and the new rows
after it get ids past SQLite's ``max + 1``; MariaDB does the same with
AUTO_INCREMENT (and a multi-row INSERT … SELECT reserves even more).  Here each
row is its own INSERT (the statement's parameters bound by number, see
``fts/server/sqlrun.py``) and the whole runs atomically, as the one statement
would.  PostgreSQL sets the sequence back after a row that inserted nothing;
on MariaDB the one-row INSERT carries the id of the row it meets and draws
nothing (``translate/passes/mysql_ids.py``).  Only when the ids are the shim's
to give: an id column the INSERT does not list, no RETURNING; and on MariaDB
when the rows carry their ids, for SQLite's lastrowid (the last row inserted,
not updated).  AUTOINCREMENT
tables: SQLite burns an id per conflicting row, as PostgreSQL does in one
statement; MariaDB hands a multi-row statement's unused values to the rows
after, so there too row by row (a one-row statement burns one, as SQLite).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from . import binding
from ._stdlib import sqlite3
from .translate.context import HIDDEN_ROWID

if TYPE_CHECKING:
    from .connection import Connection
    from .cursor import Cursor
    from .translate import Translation


def wanted(conn: "Connection", translation: "Translation") -> bool:
    """Whether the statement runs row by row; asked of the catalog once per statement
    and schema (issue 8: no catalog query on the per-call path)."""
    if not translation.conflict or translation.rows < 2:
        return False
    if translation.returns_rows or not translation.table:
        return False
    known = conn._row_by_row.get(translation.sql)
    if known is None:
        if len(conn._row_by_row) >= 1024:
            conn._row_by_row.clear()
        known = conn._row_by_row[translation.sql] = _wanted(conn, translation)
    return known


def _wanted(conn: "Connection", translation: "Translation") -> bool:
    column = conn._rowid_target(translation.table)
    if column is None:
        return False
    if translation.listed is None and (column != HIDDEN_ROWID or conn._backend.kind == "postgres") \
            or column.lower() in {name.lower() for name in translation.listed or ()}:
        # the values give the rowid (a hidden rowid is never listed): PostgreSQL's RETURNING names the
        # inserted rows' ids; MariaDB's OK packet only the first row's, where SQLite's lastrowid is
        # the last inserted row's, which only a row-by-row run tells from the updated ones
        return conn._backend.kind != "postgres"
    # AUTOINCREMENT: SQLite burns an id per conflicting row, as PostgreSQL does in one statement;
    # MariaDB gives a multi-row statement's unused values to the rows after (a one-row one burns)
    return conn._backend.kind != "postgres" or not conn._autoincrement(translation.table)


def run(conn: "Connection", cursor: "Cursor", sql: str, parameters: Any, keyword: str) -> bool:
    """Run ``sql`` row by row; False when it is not a plain ``INSERT … VALUES``."""
    from .connection import _fts
    from .fts.server import sqlrun
    from .translate.params import scan

    found = scan(sql)
    tree = sqlglot.parse_one(found.sql, read="sqlite")
    source = tree.expression if isinstance(tree, exp.Insert) else None
    if not isinstance(source, exp.Values) or tree.args.get("with_") or tree.args.get("with"):
        return False
    values = binding.bind_scanned(conn, sql, found, parameters)
    backend = conn._backend
    conn._begin_implicitly(keyword)
    total = 0
    with _fts(conn).atomic():
        for row in source.expressions:
            single = tree.copy()
            single.set("expression", exp.Values(expressions=[row.copy()]))
            text = single.sql(dialect="sqlite")
            tr = sqlrun.translation(conn, text)
            driver_sql, with_id = conn._with_rowid(tr)
            raw = backend.cursor()
            try:
                backend.execute(raw, driver_sql, sqlrun.driver_params(tr, values), returning_rowid=with_id,
                                table=tr.table)
            except sqlite3.IntegrityError as exc:
                from .errors import refine
                from .translate.params import MARKER

                named = {f"{MARKER}{i + 1}": v for i, v in enumerate(values)}
                raise refine.integrity(conn, text, named, exc) from None
            finally:
                raw.close()
            total += max(raw.rowcount, 0)
            if raw.lastrowid is not None:
                conn._last_rowid = raw.lastrowid
                if with_id:
                    conn._advance_identity(tr, raw)
            if not raw.inserted:
                conn._rewind_identity(tr)  # the row updated or was skipped: its drawn id goes back
    conn._changes = total
    conn._total_changes += total
    cursor._raw_cursor().reset()
    cursor._set_result(None, total, conn._last_rowid)
    return True
