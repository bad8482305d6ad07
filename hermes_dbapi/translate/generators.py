"""sqlglot dialects that print driver-ready SQL for psycopg and PyMySQL.

Both drivers take ``%s`` placeholders and therefore need every literal ``%``
doubled.  Our generators print each parameter marker as NUL, its SQLite
parameter index, SOH (NUL is impossible in a statement sqlite3 accepts);
:func:`render` then escapes ``%`` and turns the markers into ``%s``, reading the
parameter order from the final text: sqlglot prints some parts after others
that precede them (a statement's CTEs are printed after its body).  MariaDB gets its own dialect because sqlglot's MySQL output
uses constructs MariaDB rejects.
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.dialects.postgres import Postgres
from sqlglot.dialects.sqlite import SQLite

from .. import errors
from . import pg_names
from .params import marker_index

_MARK = re.compile("\x00(\\w+)\x01")
SESSION_MARKER = "__hdb_v_"  # a connection value bound at execution: changes(), last_insert_rowid()


class _ParamRecorder:
    """Mixin for a Generator: print each parameter marker as NUL index SOH."""

    def placeholder_sql(self, expression: exp.Placeholder) -> str:
        if expression.name.startswith(SESSION_MARKER):
            return f"\x00{expression.name[len(SESSION_MARKER):]}\x01"
        index = marker_index(expression.name)
        if index is None:
            # a parameter where SQLite allows none (e.g. a column name in CREATE TABLE)
            raise errors.operational(f"unsupported or malformed SQL (unexpected parameter {expression.sql()!r})")
        return f"\x00{index}\x01"


class HermesSQLite(SQLite):
    """The reader: JSON path literals stay as written (SQLite path syntax, see passes/json.py)."""

    def to_json_path(self, path: exp.Expression | None) -> exp.Expression | None:
        return path

    class Parser(SQLite.Parser):
        LAMBDAS: dict = {}  # SQLite has no lambdas: ``f(doc -> '$.a')`` is the JSON operator, as outside a call
        # mod(x, y) is SQLite's math function (fmod, a REAL), not the % operator: kept apart
        FUNCTIONS = {**SQLite.Parser.FUNCTIONS, "MOD": lambda args: exp.Anonymous(this="mod", expressions=args)}


# PostgreSQL's reserved key words that SQLite takes as plain names (``CREATE TABLE
# user (key TEXT)``); a name SQLite reserves too comes quoted already.
_PG_RESERVED = frozenset("""
    all analyse analyze and any array as asc asymmetric authorization binary both case cast check
    collate collation column concurrently constraint create cross current_catalog current_date
    current_role current_schema current_time current_timestamp current_user default deferrable desc
    distinct do else end except false fetch for foreign freeze from full grant group having ilike in
    initially inner intersect into is isnull join lateral leading left like limit localtime
    localtimestamp natural not notnull null offset on only or order outer overlaps placing primary
    references returning right select session_user similar some symmetric system_user table
    tablesample then to trailing true union unique user using variadic verbose when where window with
""".split())


# identifiers that name no table, column or alias: kept as written (COLLATE "C")
_NOT_NAMES = (exp.Collate, exp.CollateColumnConstraint)


class HermesPostgres(Postgres):
    class Generator(_ParamRecorder, Postgres.Generator):
        def identifier_sql(self, expression: exp.Identifier) -> str:
            """Every name folded to ASCII lower case (``translate/pg_names.py``); a
            PostgreSQL key word used as a name quoted."""
            if not expression.meta.get(pg_names.EXACT) and not isinstance(expression.parent, _NOT_NAMES):
                folded = pg_names.fold(expression.name)
                if folded != expression.name:
                    expression = exp.Identifier(this=folded, quoted=expression.quoted)
                if not expression.quoted and folded in _PG_RESERVED:
                    return '"' + folded + '"'
            return super().identifier_sql(expression)


class HermesMySQL(MySQL):
    class Generator(_ParamRecorder, MySQL.Generator):
        def insert_sql(self, expression: exp.Insert) -> str:
            """SQLite's ``INSERT OR REPLACE`` is MySQL's ``REPLACE`` (same delete+insert)."""
            if (expression.args.get("alternative") or "").upper() != "REPLACE":
                return super().insert_sql(expression)
            expression = expression.copy()
            expression.set("alternative", None)
            text = super().insert_sql(expression)
            head, rest = text.split("INSERT", 1) if text.startswith(("WITH", "INSERT")) else ("", text)
            return f"{head}REPLACE{rest}"


class HermesMariaDB(HermesMySQL):
    class Generator(HermesMySQL.Generator):
        # MariaDB reserves these beyond MySQL's list (a name SQLite takes as plain)
        RESERVED_KEYWORDS = HermesMySQL.Generator.RESERVED_KEYWORDS | {"offset", "returning", "sql_calc_found_rows"}

        def regexplike_sql(self, expression: exp.RegexpLike) -> str:
            """MariaDB has the REGEXP operator, not MySQL 8's REGEXP_LIKE()."""
            return self.binary(expression, "REGEXP")


DIALECTS = {"postgres": HermesPostgres, "mysql": HermesMySQL, "mariadb": HermesMariaDB}


def render(expression: exp.Expression, dialect: str) -> tuple[str, tuple[int | str, ...]]:
    """Driver SQL text and, for each ``%s``, the 0-based SQLite parameter index
    or the name of the session value it takes."""
    text = DIALECTS[dialect]().generator().generate(expression, copy=False)
    order = tuple(int(mark) if mark.isdigit() else mark for mark in _MARK.findall(text))
    return _MARK.sub("%s", text.replace("%", "%%")), order
