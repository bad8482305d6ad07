"""``Connection.iterdump()`` on a server: the SQL text sqlite3's own dump yields.

The schema comes from ``sqlite_master`` (the shadow catalog: the statements as
the application wrote them), the rows from the server.  Values are quoted by
SQLite's own ``quote()`` on a private in-memory database, so numbers, text and
blobs are written exactly as sqlite3's dump writes them.  ``sqlite_sequence``
is not kept on a server: for each AUTOINCREMENT table holding rows it is
rebuilt as the highest id present (what SQLite holds unless the newest rows
were deleted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ._stdlib import sqlite3

if TYPE_CHECKING:
    from .connection import Connection

def _name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def iterdump(conn: "Connection", filter: Any = None) -> Iterator[str]:  # noqa: A002 (sqlite3's name)
    cursor = conn.cursor()
    cursor.row_factory = None
    quoter = sqlite3.connect(":memory:")
    try:
        yield "BEGIN TRANSACTION;"
        clause, params = ('AND "name" LIKE ?', (filter,)) if filter else ("", ())
        tables = cursor.execute(
            'SELECT "name", "type", "sql" FROM "sqlite_master" '
            f"WHERE \"sql\" NOT NULL AND \"type\" == 'table' {clause} ORDER BY \"name\"",
            params,
        ).fetchall()
        sequence: list[str] = []
        for name, _type, sql in tables:
            if name == "sqlite_sequence":
                sequence = _sequence_rows(conn, cursor)
                continue
            if name == "sqlite_stat1":
                yield 'ANALYZE "sqlite_master";'
            elif name.startswith("sqlite_"):
                continue
            elif sql.startswith("CREATE VIRTUAL TABLE"):
                yield f"INSERT INTO sqlite_master(type,name,tbl_name,rootpage,sql)VALUES('table',{_text(name)},{_text(name)},0,{_text(sql)});"
            else:
                yield f"{sql};"
            yield from _rows(cursor, quoter, name)
        others = cursor.execute(
            'SELECT "name", "type", "sql" FROM "sqlite_master" '
            f"WHERE \"sql\" NOT NULL AND \"type\" IN ('index', 'trigger', 'view') {clause}",
            params,
        ).fetchall()
        for _name_, _type, sql in others:
            yield f"{sql};"
        yield from sequence
        yield "COMMIT;"
    finally:
        quoter.close()


def _rows(cursor: Any, quoter: sqlite3.Connection, table: str) -> Iterator[str]:
    columns = [str(info[1]) for info in cursor.execute(f"PRAGMA table_info({_name(table)})").fetchall()]
    if not columns:
        return
    quote = "SELECT " + ",".join("quote(?)" for _ in columns)
    head = f"INSERT INTO {_name(table)} VALUES("
    for row in cursor.execute(f"SELECT {','.join(_name(c) for c in columns)} FROM {_name(table)}").fetchall():
        yield head + ",".join(quoter.execute(quote, row).fetchone()) + ");"


def _sequence_rows(conn: "Connection", cursor: Any) -> list[str]:
    """``sqlite_sequence`` as SQLite would hold it: the highest id of each AUTOINCREMENT table."""
    rows = ['DELETE FROM "sqlite_sequence";']
    for name, sql in cursor.execute(
        "SELECT \"name\", \"sql\" FROM \"sqlite_master\" WHERE \"type\" == 'table' AND \"sql\" NOT NULL"
    ).fetchall():
        column = conn._shadow.rowid_column(name) if _autoincrement(sql) else None
        if column is None:
            continue
        highest = cursor.execute(f"SELECT max({_name(column)}) FROM {_name(name)}").fetchone()[0]
        if highest is not None:
            rows.append(f'INSERT INTO "sqlite_sequence" VALUES({_text(name)},{highest});')
    return rows


def _autoincrement(sql: str) -> bool:
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.ParseError:
        return False
    return tree.find(exp.AutoIncrementColumnConstraint) is not None
