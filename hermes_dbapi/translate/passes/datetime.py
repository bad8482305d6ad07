"""SQLite's date and time functions → the ``hdb_dt`` server helper.

``date``, ``time``, ``datetime``, ``strftime``, ``julianday``, ``unixepoch`` and
``CURRENT_TIMESTAMP/DATE/TIME`` (outside DDL) become calls of the helper
function installed in every namespace (:mod:`..helpers`), a port of SQLite's
date.c, so results are SQLite's text exactly.  Arguments are passed as text
(SQLite also reads a numeric string as a julian day number); PG receives the
modifiers as ``text[]``, MariaDB as one CHAR(31)-joined string plus a count.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up

_IJD = "\x01"  # helper format: return the julian day in ms as text
_FORMATS = {"date": "\x02%Y-%m-%d", "time": "%H:%M:%S", "datetime": "\x02%Y-%m-%d %H:%M:%S"}
_CURRENT = {exp.CurrentTimestamp: "datetime", exp.CurrentDate: "date", exp.CurrentTime: "time"}


def _text(node: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(node, exp.Literal) and node.is_string:
        return node
    return exp.Cast(this=node, to=exp.DataType.build("CHAR" if ctx.is_mysql else "TEXT"))


def _call(fmt: exp.Expression, args: list[exp.Expression], ctx: Context) -> exp.Expression:
    value = args[0] if args else exp.Literal.string("now")
    mods = [_text(m, ctx) for m in args[1:]]
    if ctx.is_mysql:
        joined: exp.Expression = exp.Literal.string("")
        if mods:
            parts: list[exp.Expression] = []
            for m in mods:
                parts += [m, exp.Literal.string("\x1f")]
            joined = mods[0] if len(mods) == 1 else exp.Anonymous(this="CONCAT", expressions=parts[:-1])
        extra = [exp.Literal.number(len(mods)), joined]
    else:
        array = exp.Array(expressions=mods)
        extra = [exp.Cast(this=array, to=exp.DataType.build("TEXT[]", dialect="postgres"))]
    return exp.Anonymous(this="hdb_dt", expressions=[fmt, _text(value, ctx), *extra])


def _ijd(args: list[exp.Expression], ctx: Context) -> exp.Expression:
    return exp.Cast(this=_call(exp.Literal.string(_IJD), args, ctx), to=exp.DataType.build("BIGINT"))


def _function(name: str, args: list[exp.Expression], ctx: Context) -> exp.Expression | None:
    if name in _FORMATS:
        return _call(exp.Literal.string(_FORMATS[name]), args, ctx)
    if name == "strftime" and args:
        return _call(args[0], args[1:], ctx)
    if name == "julianday":
        double = exp.DataType.build("DOUBLE" if ctx.is_mysql else "DOUBLE PRECISION")
        return exp.paren(
            exp.Div(
                this=exp.Cast(this=_ijd(args, ctx), to=double),
                expression=exp.Cast(this=exp.Literal.number(86400000), to=double),
            ),
            copy=False,
        )
    if name == "unixepoch":
        ijd, thousand = _ijd(args, ctx), exp.Literal.number(1000)
        seconds = (
            exp.IntDiv(this=ijd, expression=thousand)
            if ctx.is_mysql
            else exp.Div(this=ijd, expression=thousand, typed=True)
        )
        return exp.paren(exp.Sub(this=seconds, expression=exp.Literal.number(210866760000)), copy=False)
    return None


def _rewrite(node: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(node, exp.Anonymous):
        return _function(str(node.this).lower(), list(node.expressions), ctx) or node
    if isinstance(node, exp.Date):
        args = [node.this, *node.expressions] if node.this is not None else list(node.expressions)
        return _function("date", args, ctx) or node
    if isinstance(node, exp.TimeToStr) and isinstance(node.this, exp.TsOrDsToTimestamp):
        value = node.this.this
        args = [] if isinstance(value, exp.CurrentTimestamp) else [value]
        return _call(node.args["format"], args, ctx)
    kind = _CURRENT.get(type(node))
    if kind is not None and node.find_ancestor(exp.Create, exp.TsOrDsToTimestamp) is None:
        return _function(kind, [], ctx) or node
    return node


def sqlite_datetime(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(tree, exp.Create):
        return tree
    return bottom_up(tree, lambda n: _rewrite(n, ctx))
