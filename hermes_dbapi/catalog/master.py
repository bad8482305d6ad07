"""``sqlite_master`` / ``sqlite_schema`` / ``sqlite_temp_master`` and the
``pragma_*`` table-valued functions inside ordinary queries.

A query that reads only catalog tables runs on the shadow catalog, which is
SQLite itself, so its answer is SQLite's.  A query that mixes them with the
application's tables goes to the server with each catalog reference replaced
by a derived table listing the shadow's rows (``(SELECT ... UNION ALL ...) AS
sqlite_master``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from ..translate.params import scan
from . import refresh, sequence
from .pragmas import shadow_rows

if TYPE_CHECKING:
    from ..connection import Connection
    from ..cursor import Cursor

_BARE = ("table_list", "database_list", "compile_options", "collation_list", "function_list", "module_list",
         "pragma_list")  # table-valued pragmas SQLite also reads without parentheses
MENTION = re.compile(r"sqlite_(?:temp_)?(?:master|schema)|sqlite_sequence|pragma_\w+\s*\(|\bpragma_(?:" + "|".join(_BARE) + r")\b",
                     re.I)
_MAIN = {"sqlite_master", "sqlite_schema"}
_TEMP = {"sqlite_temp_master", "sqlite_temp_schema"}
_COLUMNS = ("type", "name", "tbl_name", "rootpage", "sql")


def handle(conn: "Connection", cursor: "Cursor", sql: str, keyword: str, parameters: Any) -> bool:
    """Run ``sql`` if it reads the catalog; False leaves it to the normal path."""
    try:
        trees = [t for t in sqlglot.parse(sql, read="sqlite") if t is not None]
    except (ParseError, TokenError):
        return False
    if len(trees) != 1:
        return False
    tree = trees[0]
    catalog, functions, others = _references(tree)
    counters = [t for t in others if t.name.lower() == sequence.NAME and t.db.lower() in ("", "main")]
    if counters:
        if not isinstance(tree, exp.Query):
            sequence.refuse_write(conn)
        table = (sequence.COLUMNS, sequence.rows(conn))
        for node in counters:
            _replace(node, table, node.alias or node.name)
        others = [t for t in others if not any(t is c for c in counters)]
    if not catalog and not functions and not counters:
        return False
    refresh.shadow(conn)
    if not others and isinstance(tree, exp.Query):
        names, rows = shadow_rows(conn, tree.sql(dialect="sqlite") if counters else sql, parameters)
        if counters:  # the columns named as SQLite names the statement as written
            names = conn._shadow.result_names(sql, *_scanned(sql)) or names
        cursor._raw_cursor().load(names, rows)
        cursor._set_result(names, -1, conn._last_rowid)
        return True
    conn._raise_sqlite_error(sql)  # e.g. "table sqlite_master may not be modified"
    for node in catalog:
        _replace(node, _catalog_rows(conn, node.name.lower() in _TEMP), node.alias or node.name)
    for node in functions:
        found = _function_rows(conn, node)
        if found is None:
            return False  # arguments from the query itself: let the server say no
        _replace(node, found, node.alias or node.this.name)
    _run_on_server(conn, cursor, sql, tree.sql(dialect="sqlite"), keyword, parameters)
    return True


def _scanned(sql: str) -> tuple[int, tuple[str | None, ...]]:
    found = scan(sql)
    return found.count, found.names


def _references(tree: exp.Expression) -> tuple[list[exp.Table], list[exp.Table], list[exp.Table]]:
    ctes = {cte.alias.lower() for cte in tree.find_all(exp.CTE)}
    catalog, functions, others = [], [], []
    for node in tree.find_all(exp.Table):
        if isinstance(node.this, exp.Anonymous) and node.this.name.lower().startswith("pragma_"):
            functions.append(node)
        elif not node.db and node.name.lower() not in ctes and node.name.lower()[len("pragma_"):] in _BARE \
                and node.name.lower().startswith("pragma_"):
            functions.append(node)
        elif node.name.lower() in _MAIN | _TEMP and node.db.lower() in ("", "main", "temp"):
            catalog.append(node)
        elif node.name.lower() not in ctes or node.db:
            others.append(node)
    return catalog, functions, others


def _catalog_rows(conn: "Connection", temp: bool) -> tuple[tuple[str, ...], list[tuple]]:
    source = "sqlite_temp_master" if temp else "sqlite_master"
    return _COLUMNS, shadow_rows(conn, f"SELECT type, name, tbl_name, rootpage, sql FROM {source}")[1]


def _function_rows(conn: "Connection", node: exp.Table) -> tuple[tuple[str, ...], list[tuple]] | None:
    args = node.this.expressions if isinstance(node.this, exp.Anonymous) else []
    if not all(isinstance(a, exp.Literal) for a in args):
        return None
    names, rows = shadow_rows(conn, f"SELECT * FROM {node.this.sql(dialect='sqlite')}")
    return (names or (), rows)


def _literal(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, bytes):
        return "X'" + value.hex() + "'"
    return "'" + str(value).replace("'", "''") + "'"


def derived_sql(names: tuple[str, ...], rows: list[tuple]) -> str:
    """A SELECT producing ``rows`` under ``names`` (no rows: a typed empty result)."""
    quoted = ['"' + n.replace('"', '""') + '"' for n in names]
    if not rows:
        first = ", ".join(f"NULL AS {q}" for q in quoted)
        return f"SELECT * FROM (SELECT {first}) AS _hdb_empty LIMIT 0"
    lines = [", ".join(f"{_literal(v)} AS {q}" for v, q in zip(rows[0], quoted))]
    lines += [", ".join(_literal(v) for v in row) for row in rows[1:]]
    return " UNION ALL ".join(f"SELECT {line}" for line in lines)


def _replace(node: exp.Table, table: tuple[tuple[str, ...], list[tuple]], alias: str) -> None:
    names, rows = table
    sub = sqlglot.parse_one(derived_sql(names, rows), read="sqlite")
    node.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=exp.to_identifier(alias))))


def _run_on_server(
    conn: "Connection", cursor: "Cursor", original: str, sql: str, keyword: str, parameters: Any
) -> None:
    """The tail of the normal statement path, for the rewritten text (named as the original)."""
    scanned = scan(original)
    conn._names[sql] = conn._shadow.result_names(original, scanned.count, scanned.names)
    translation = conn._translation(sql)
    params = conn._bind(sql, translation, parameters)
    conn._begin_implicitly(keyword)
    conn._run(cursor, sql, translation, params, keyword)
