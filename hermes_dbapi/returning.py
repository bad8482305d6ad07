"""``UPDATE … RETURNING`` on MariaDB, which returns rows only from INSERT and DELETE.

The statement runs as three, atomically (a savepoint inside a transaction, its
own transaction otherwise): the rowids of the rows the WHERE clause picks, the
UPDATE of exactly those rows, and the RETURNING expressions read back from them
in rowid order (SQLite leaves the order unspecified; a table scan gives rowid
order).  The WHERE clause is evaluated once, so ``random()`` or a subquery on
the same table picks the same rows SQLite would.  Refused with
NotSupportedError: ``UPDATE … FROM``, ``ORDER BY``/``LIMIT``, a SET of the
rowid itself, and tables without a rowid.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from . import binding, errors
from ._stdlib import sqlite3

if TYPE_CHECKING:
    from .connection import Connection
    from .cursor import Cursor

_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
_ROWID_NAMES = ("rowid", "oid", "_rowid_")


def wanted(conn: "Connection", sql: str, keyword: str) -> bool:
    """Whether ``sql`` is an UPDATE … RETURNING this backend needs emulated."""
    return keyword == "UPDATE" and conn._backend.kind == "mysql" and _RETURNING.search(sql) is not None


def run(conn: "Connection", cursor: "Cursor", sql: str, parameters: Any) -> bool:
    """Run ``sql`` as described above; False if it is no UPDATE … RETURNING after all."""
    from .fts.server import sqlrun
    from .translate import conflict_clause
    from .translate.params import scan

    conn._raise_sqlite_error(sql)
    found = scan(sql)
    text, update_or = conflict_clause.split(found.sql)
    if update_or in conflict_clause.ROW_BY_ROW:
        return False  # run row by row (update_conflicts in the trigger engine), which says what it cannot do
    tree = sqlglot.parse_one(text, read="sqlite")
    if not isinstance(tree, exp.Update) or tree.args.get("returning") is None:
        return False
    dialect = conn._backend.dialect
    table = tree.this
    if not isinstance(table, exp.Table) or tree.args.get("from") or tree.args.get("order") or tree.args.get("limit"):
        raise errors.not_supported("UPDATE … RETURNING with FROM, ORDER BY or LIMIT", dialect)
    name = table.name
    shadow = conn._shadow
    rid = shadow.rowid_column(name) or ("rowid" if shadow.implicit_rowid(name) else None)
    if rid is None:
        raise errors.not_supported(f"UPDATE … RETURNING on table {name} (it has no rowid)", dialect)
    targets = {a.this.name.lower() for a in tree.expressions if isinstance(a, exp.EQ) and isinstance(a.this, exp.Column)}
    if targets & {rid.lower(), *_ROWID_NAMES}:
        raise errors.not_supported("UPDATE … RETURNING that changes the rowid", dialect)
    values = binding.bind_scanned(conn, sql, found, parameters)
    qual = exp.to_identifier(table.alias_or_name).sql(dialect="sqlite")
    key = f"{qual}.{exp.to_identifier(rid).sql(dialect='sqlite')}"
    source = table.sql(dialect="sqlite")
    where = tree.args.get("where")
    head = ""
    ctes = tree.args.get("with_") or tree.args.get("with")
    if ctes is not None:
        head = ctes.sql(dialect="sqlite") + " "
    condition = f" WHERE {where.this.sql(dialect='sqlite')}" if where is not None else ""
    names = shadow.result_names(sql, found.count, found.names)
    conn._begin_implicitly("UPDATE")
    with conn_bridge(conn).atomic():
        _, picked = sqlrun.run(conn, f"{head}SELECT {key} FROM {source}{condition} ORDER BY {key}", values)
        ids = [row[0] for row in picked]
        rows: list[tuple] = []
        if ids:
            listed = ", ".join(str(int(i)) for i in ids)
            update = tree.copy()
            update.set("returning", None)
            update.set("where", exp.Where(this=sqlglot.parse_one(f"{key} IN ({listed})", read="sqlite")))
            _update(conn, update.sql(dialect="sqlite"), values)
            returning = ", ".join(e.sql(dialect="sqlite") for e in tree.args["returning"].expressions)
            server_names, rows = sqlrun.run(
                conn, f"SELECT {returning} FROM {source} WHERE {key} IN ({listed}) ORDER BY {key}", values
            )
            if names is None or server_names is None or len(names) != len(server_names):
                names = server_names
    conn._changes = len(ids)
    conn._total_changes += len(ids)
    raw = cursor._raw_cursor()
    raw.load(names, rows)
    cursor._set_result(names, len(rows), conn._last_rowid)
    return True


def conn_bridge(conn: "Connection") -> Any:
    from .connection import _fts

    return _fts(conn)


def _update(conn: "Connection", text: str, values: tuple) -> None:
    from .fts.server import sqlrun

    tr = sqlrun.translation(conn, text)
    backend = conn._backend
    raw = backend.cursor()
    try:
        backend.execute(raw, tr.sql, sqlrun.driver_params(tr, values), table=tr.table)
    except sqlite3.IntegrityError as exc:
        from .errors import refine
        from .translate.params import MARKER

        named = {f"{MARKER}{i + 1}": v for i, v in enumerate(values)}
        raise refine.integrity(conn, text, named, exc) from None
    finally:
        raw.close()
