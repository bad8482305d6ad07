"""sqlglot dialects that print driver-ready SQL for psycopg and PyMySQL.

Both drivers take ``%s`` placeholders and therefore need every literal ``%``
doubled.  Our generators print each parameter marker as a NUL character
(impossible in a SQL statement sqlite3 accepts) and record which SQLite
parameter index it stands for; :func:`render` then escapes ``%`` and turns the
NULs into ``%s``.  MariaDB gets its own dialect because sqlglot's MySQL output
uses constructs MariaDB rejects.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.dialects.postgres import Postgres
from sqlglot.dialects.sqlite import SQLite

from .params import marker_index

_SENTINEL = "\x00"


class _ParamRecorder:
    """Mixin for a Generator: print markers as sentinels, remember their order."""

    param_order: list[int]

    def placeholder_sql(self, expression: exp.Placeholder) -> str:
        index = marker_index(expression.name)
        if index is None:
            raise ValueError(f"unexpected placeholder {expression.sql()!r}")
        self.param_order.append(index)
        return _SENTINEL


class HermesSQLite(SQLite):
    """The reader: JSON path literals stay as written (SQLite path syntax, see passes/json.py)."""

    def to_json_path(self, path: exp.Expression | None) -> exp.Expression | None:
        return path


class HermesPostgres(Postgres):
    class Generator(_ParamRecorder, Postgres.Generator):
        pass


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
        pass


DIALECTS = {"postgres": HermesPostgres, "mysql": HermesMySQL, "mariadb": HermesMariaDB}


def render(expression: exp.Expression, dialect: str) -> tuple[str, tuple[int, ...]]:
    """Driver SQL text and the 0-based SQLite parameter index of each ``%s``."""
    generator = DIALECTS[dialect]().generator()
    generator.param_order = []
    text = generator.generate(expression, copy=False)
    return text.replace("%", "%%").replace(_SENTINEL, "%s"), tuple(generator.param_order)
