"""SQLite's schema names ``main`` and ``temp`` in table and column references.

``main.t`` and ``temp.t`` name a table of the database itself; on the server the
connection's namespace holds them (a TEMP table shadowing a table of its name,
as SQLite's temp schema is searched first), so the name goes.  Other schema
names (ATTACHed databases) stay, and the server says there is no such table.
``CREATE INDEX main.i ON t(...)`` is taken apart by sqlglot (it reads ``main``
as the index and ``i`` as the table), so :func:`unqualified_index` drops the
schema from the text before parsing.
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import TokenType

from ..context import Context

_OWN = ("main", "temp")
_MAYBE = re.compile(r"\bINDEX\b[^(]*\.", re.IGNORECASE)
_SQLITE = SQLite()
_HEAD = (TokenType.CREATE, TokenType.UNIQUE, TokenType.INDEX)


def unqualified_index(text: str) -> str:
    """``text`` with the schema of a CREATE INDEX's index name taken out when it is
    ``main`` or ``temp`` (any other stays, for the server to refuse)."""
    if not _MAYBE.search(text):
        return text
    tokens = _SQLITE.tokenize(text)
    at = 0
    while at < len(tokens) and tokens[at].token_type in _HEAD:
        at += 1
    if at < 2 or tokens[at - 1].token_type != TokenType.INDEX or tokens[0].token_type != TokenType.CREATE:
        return text
    words = [t.text.upper() for t in tokens[at : at + 3]]
    if words == ["IF", "NOT", "EXISTS"]:
        at += 3
    if at + 2 < len(tokens) and tokens[at + 1].token_type == TokenType.DOT and tokens[at].text.lower() in _OWN:
        return text[: tokens[at].start] + text[tokens[at + 2].start :]
    return text


def own_schema(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for table in tree.find_all(exp.Table):
        if table.args.get("db") is not None and not table.args.get("catalog") and table.db.lower() in _OWN:
            table.set("db", None)
    for column in tree.find_all(exp.Column):
        if column.args.get("db") is not None and not column.args.get("catalog") and column.db.lower() in _OWN:
            column.set("db", None)
        elif isinstance(column.parent, exp.In) and column.arg_key == "field" and column.table.lower() in _OWN:
            column.set("table", None)  # x IN main.t: a table, not a column
    return tree
