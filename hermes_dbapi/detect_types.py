"""sqlite3's ``detect_types`` on server rows.

sqlite3 converts a result column with the converter registered for its
declared type (``PARSE_DECLTYPES``: the first word of ``sqlite3_column_decltype``)
or for the ``[type]`` in its name (``PARSE_COLNAMES``, which wins, and whose
column name loses the ``[type]``).  On a server the shadow catalog, a SQLite
database holding the application's schema, answers the decltype question: the
statement made a temporary view there reports its columns' declared types
through ``PRAGMA table_info``, which SQLite derives as it derives decltypes
(a direct column reference, through subqueries and views, has its column's
type; an expression has none).  A converter receives what sqlite3 hands it: the
bytes of the value's text (a REAL as SQLite prints it), or the blob's bytes;
NULL, an empty string and an empty blob are None without a call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import sqlglot
from sqlglot import exp

from ._stdlib import sqlite3
from .fts.sqlvalues import sql_text
from .translate.generators import HermesSQLite
from .translate.params import MARKER, scan

Converter = Callable[[bytes], Any]

_VIEW = "hdb_decltypes_probe"
_MARKERS = re.compile(":" + MARKER + r"\d+")
_QUERY_WORDS = ("SELECT", "WITH", "VALUES")


def column_name(name: str, detect_types: int) -> str:
    """The name sqlite3 gives a column: with PARSE_COLNAMES, cut before ``[`` (and one space)."""
    if not detect_types & sqlite3.PARSE_COLNAMES:
        return name
    at = name.find("[")
    if at < 0:
        return name
    return name[:at - 1] if at > 0 and name[at - 1] == " " else name[:at]


def _named_converter(name: str) -> Converter | None:
    at = name.find("[")
    end = name.find("]", at + 1) if at >= 0 else -1
    return sqlite3.converters.get(name[at + 1:end].upper()) if end >= 0 else None


def _declared_converter(declared: str | None) -> Converter | None:
    if not declared:
        return None
    return sqlite3.converters.get(re.split(r"[ (]", declared, maxsplit=1)[0].upper())


def converters(names: Sequence[str], declared: Sequence[str | None] | None,
               detect_types: int) -> tuple[Converter | None, ...] | None:
    """Each column's converter (None: none); None when no column has one."""
    out: list[Converter | None] = []
    for i, name in enumerate(names):
        found = _named_converter(name) if detect_types & sqlite3.PARSE_COLNAMES else None
        if found is None and detect_types & sqlite3.PARSE_DECLTYPES and declared is not None:
            found = _declared_converter(declared[i] if i < len(declared) else None)
        out.append(found)
    return tuple(out) if any(c is not None for c in out) else None


def declared_types(shadow: Any, sql: str, width: int) -> tuple[str | None, ...] | None:
    """The declared type of each of the query's ``width`` result columns, as SQLite
    reports them (None: the statement is no query the shadow can read)."""
    text = _query_of(sql.strip().rstrip(";"))
    if text is None:
        return None
    probe = _MARKERS.sub("NULL", scan(text).sql)  # a view takes no parameters; types do not depend on them
    with shadow.lock:
        try:
            shadow.db.execute(f"CREATE TEMP VIEW {_VIEW} AS {probe}")
        except sqlite3.Error:
            return None
        try:
            info = shadow.db.execute(f"PRAGMA temp.table_info({_VIEW})").fetchall()
        finally:
            shadow.db.execute(f"DROP VIEW temp.{_VIEW}")
    if len(info) != width:
        return None
    return tuple(row[2] or None for row in info)


def _query_of(text: str) -> str | None:
    """The query whose columns the statement returns: itself, or for INSERT/UPDATE/DELETE
    … RETURNING a SELECT of the RETURNING list from the target table."""
    head = text[:7].upper()
    if head.startswith(_QUERY_WORDS):
        return text
    if not head.startswith(("INSERT", "UPDATE", "DELETE", "REPLACE")):
        return None
    try:
        tree = sqlglot.parse_one(text, read=HermesSQLite)
    except sqlglot.errors.SqlglotError:
        return None
    returning = tree.args.get("returning")
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if returning is None or not isinstance(target, exp.Table):
        return None
    return exp.select(*(e.copy() for e in returning.expressions)).from_(target.copy()).sql(dialect=HermesSQLite)


def _sqlite_text(value: Any) -> bytes:
    """The bytes sqlite3 hands a converter: a blob's own, else the value's SQLite text."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return (sql_text(value) or "").encode("utf-8", "surrogatepass")


def convert(row: tuple, column_converters: tuple[Converter | None, ...]) -> tuple:
    """``row`` with each converted column's value passed through its converter."""
    values = list(row)
    for i, convert_one in enumerate(column_converters):
        if convert_one is not None and i < len(values) and values[i] is not None:
            data = _sqlite_text(values[i])
            values[i] = convert_one(data) if data else None  # sqlite3 hands no empty value over: None
    return tuple(values)
