"""SQLite's date and time functions → the ``hdb_dt`` server helper.

``date``, ``time``, ``datetime``, ``strftime``, ``julianday``, ``unixepoch`` and
``CURRENT_TIMESTAMP/DATE/TIME`` (outside DDL) become calls of the helper
function installed in every namespace (:mod:`..helpers`), a port of SQLite's
date.c, so results are SQLite's text exactly.  Arguments are passed as text
(SQLite also reads a numeric string as a julian day number); PG receives the
modifiers as ``text[]``, MariaDB as one CHAR(31)-joined string plus a count.

In CREATE TABLE only column DEFAULTs are rewritten (``DEFAULT (datetime('now'))``);
MariaDB refuses a stored function there, so its DEFAULT gets the built-in
equivalent of the current time's forms and NotSupportedError for the others.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
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
        for default in list(tree.find_all(exp.DefaultColumnConstraint)):
            rewrite = (lambda n: _my_default(n, ctx)) if ctx.is_mysql else (lambda n: _rewrite(n, ctx))
            dated = any(_sqlite_call(n) is not None for n in default.this.walk())
            value = bottom_up(default.this, rewrite)
            column = default.find_ancestor(exp.ColumnDef)
            kind = column.args.get("kind") if column is not None else None
            if (not ctx.is_mysql and dated and isinstance(kind, exp.DataType)
                    and not kind.is_type(*exp.DataType.TEXT_TYPES)):
                value = exp.Cast(this=value, to=kind.copy())  # the helper's text, stored as the column's type
            default.set("this", value)
        return tree
    return bottom_up(tree, lambda n: _rewrite(n, ctx))


# strftime() conversions MariaDB's DATE_FORMAT spells otherwise (the rest: NotSupportedError)
_MY_FORMAT = {"%Y": "%Y", "%m": "%m", "%d": "%d", "%H": "%H", "%M": "%i", "%S": "%s", "%%": "%%", "%j": "%j"}


def _sqlite_call(node: exp.Expression) -> tuple[str, list[exp.Expression]] | None:
    """(name, arguments) of a SQLite date/time function call, whatever sqlglot made of it."""
    if isinstance(node, exp.Anonymous) and str(node.this).lower() in (*_FORMATS, "julianday", "unixepoch", "strftime"):
        return str(node.this).lower(), list(node.expressions)
    if isinstance(node, exp.Date):
        return "date", [node.this, *node.expressions] if node.this is not None else list(node.expressions)
    if isinstance(node, exp.TimeToStr) and isinstance(node.this, exp.TsOrDsToTimestamp):
        return "strftime", [node.args["format"], node.this.this]
    return None


def _my_default(node: exp.Expression, ctx: Context) -> exp.Expression:
    """A DEFAULT's date function on MariaDB: the current time's forms as built-ins."""
    call = _sqlite_call(node)
    if call is None:
        return node
    name, args = call
    fmt = None
    if name == "strftime" and args and isinstance(args[0], exp.Literal):
        fmt, args = args[0].this, args[1:]
    now = all(isinstance(a, exp.Literal) and a.is_string and a.this.lower() == "now" for a in args) and len(args) <= 1
    if now and (name == "unixepoch" or fmt == "%s"):
        return exp.Anonymous(this="UNIX_TIMESTAMP")
    if now and name == "julianday":  # the unix epoch is julian day 2440587.5
        seconds = exp.Anonymous(this="UNIX_TIMESTAMP", expressions=[
            exp.Anonymous(this="UTC_TIMESTAMP", expressions=[exp.Literal.number(3)])])
        days = exp.Div(this=seconds, expression=exp.Literal.number("86400.0"))
        return exp.paren(exp.Add(this=days, expression=exp.Literal.number("2440587.5")), copy=False)
    pattern = {"date": "%Y-%m-%d", "time": "%H:%M:%S", "datetime": "%Y-%m-%d %H:%M:%S"}.get(name, fmt)
    if now and pattern is not None:
        out, at = [], 0
        while at < len(pattern):
            piece = pattern[at:at + 2] if pattern[at] == "%" else pattern[at]
            if piece.startswith("%") and piece not in _MY_FORMAT:
                break
            out.append(_MY_FORMAT.get(piece, piece))
            at += len(piece)
        else:
            utc = exp.Anonymous(this="UTC_TIMESTAMP")
            return exp.Anonymous(this="DATE_FORMAT", expressions=[utc, exp.Literal.string("".join(out))])
    raise errors.not_supported(f"{name}() in a column DEFAULT other than of the current time", ctx.dialect)
