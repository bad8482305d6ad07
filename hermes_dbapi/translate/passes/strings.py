"""substr() and LIKE with SQLite's semantics.

* ``substr(x, y[, n])``: a negative ``y`` counts from the end.  PG counts it
  before the start (``substr('hello', -3)`` is 'hello'), MySQL returns '' for a
  start of 0 or before the string.  We compute SQLite's start and clamp it.
* ``LIKE`` is ASCII-case-insensitive in SQLite and has no default escape.
  PG: both sides folded with ``translate(x, 'A..Z', 'a..z')`` (exactly ASCII
  folding; ILIKE would also fold non-ASCII letters), and ``ESCAPE ''`` when
  SQLite had none (PG's default escape is backslash).  MariaDB: ``LOWER()`` on
  both sides (tolerance: non-ASCII letters fold too, 'É' LIKE 'é' is true there,
  false in SQLite).  MariaDB reads ``ESCAPE ''`` as backslash (its default), so
  a pattern without ESCAPE keeps backslash as the escape and has every
  backslash in it doubled: each one then matches itself, as in SQLite.
"""

from __future__ import annotations

import string

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up
from .arithmetic import column_affinity


def _int(node: exp.Expression) -> int | None:
    if isinstance(node, exp.Literal) and not node.is_string and node.this.lstrip("-").isdigit():
        return int(node.this)
    if isinstance(node, exp.Neg) and (inner := _int(node.this)) is not None:
        return -inner
    return None


def _length(x: exp.Expression, ctx: Context) -> exp.Expression:
    return exp.Length(this=x.copy()) if not ctx.is_mysql else exp.Anonymous(this="CHAR_LENGTH", expressions=[x.copy()])


def _call(name: str, *args: exp.Expression) -> exp.Expression:
    """A plain GREATEST/LEAST: NULL start or length gives NULL (or '') either way."""
    return exp.Anonymous(this=name, expressions=list(args))


def _substr(node: exp.Substring, ctx: Context) -> exp.Expression:
    start, count = node.args.get("start"), node.args.get("length")
    if start is None:
        return node
    known = _int(start)
    if known is not None and known > 0:
        return node  # the common case means the same everywhere
    x = node.this
    if known is not None and known < 0:
        real = exp.Add(this=_length(x, ctx), expression=exp.Literal.number(known + 1))
    elif known == 0:
        real = exp.Literal.number(0)
    else:
        real = exp.Case(
            ifs=[exp.If(this=exp.LT(this=start.copy(), expression=exp.Literal.number(0)),
                        true=exp.Add(this=exp.Add(this=_length(x, ctx), expression=start.copy()),
                                     expression=exp.Literal.number(1)))],
            default=start.copy(),
        )
    one = exp.Literal.number(1)
    clamped = _call("GREATEST", real, one)
    if count is not None:
        shortened = exp.Sub(this=exp.Add(this=count.copy(), expression=_call("LEAST", real.copy(), one.copy())),
                            expression=one.copy())
        count = _call("GREATEST", shortened, exp.Literal.number(0))
    if not ctx.is_mysql:
        clamped = exp.Cast(this=clamped, to=exp.DataType.build("INT"))
        if count is not None:
            count = exp.Cast(this=count, to=exp.DataType.build("INT"))
    return exp.Substring(this=x, start=clamped, length=count)


def _blob_substr(node: exp.Substring, ctx: Context) -> exp.Expression:
    """SQLite's substr() of a zero-length BLOB is NULL (the servers give b''):
    known statically for a column declared BLOB."""
    x = node.this
    blob = isinstance(x, exp.Column) and column_affinity(x, ctx) == "BLOB"  # before x leaves the tree
    result = _substr(node, ctx)
    if not blob:
        return result
    empty = exp.EQ(this=exp.Length(this=x.copy()), expression=exp.Literal.number(0))
    return exp.Case(ifs=[exp.If(this=empty, true=exp.Null())], default=result)


def sqlite_substr(tree: exp.Expression, ctx: Context) -> exp.Expression:
    return bottom_up(tree, lambda n: _blob_substr(n, ctx) if isinstance(n, exp.Substring) else n)


_UPPER, _LOWER = string.ascii_uppercase, string.ascii_lowercase


def _fold(x: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(x, exp.Literal) and x.is_string:
        return exp.Literal.string(x.this.translate(str.maketrans(_UPPER, _LOWER)))
    if ctx.is_mysql:
        return exp.Lower(this=x)
    return exp.Anonymous(this="translate", expressions=[x, exp.Literal.string(_UPPER), exp.Literal.string(_LOWER)])


def _like(node: exp.Expression, ctx: Context) -> exp.Expression:
    like = node.this if isinstance(node, exp.Escape) else node
    like.set("this", _fold(like.this, ctx))
    like.set("expression", _fold(like.expression, ctx))
    if isinstance(node, exp.Escape):
        escape = node.expression
        if isinstance(escape, exp.Literal) and escape.is_string and escape.this in _UPPER:
            node.set("expression", exp.Literal.string(escape.this.lower()))
        return node
    if ctx.is_mysql:
        like.set("expression", _literal_backslashes(like.expression))
        return exp.Escape(this=like, expression=exp.Literal.string("\\"))
    return exp.Escape(this=like, expression=exp.Literal.string(""))


def _literal_backslashes(pattern: exp.Expression) -> exp.Expression:
    """The pattern with each backslash doubled, so that it escapes nothing."""
    if isinstance(pattern, exp.Literal) and pattern.is_string:
        return exp.Literal.string(pattern.this.replace("\\", "\\\\"))
    return exp.Anonymous(
        this="REPLACE", expressions=[pattern, exp.Literal.string("\\"), exp.Literal.string("\\\\")]
    )


def sqlite_like(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Escape) and isinstance(n.this, exp.Like):
            return _like(n, ctx)
        if isinstance(n, exp.Like) and not isinstance(n.parent, exp.Escape):
            return _like(n, ctx)
        return n

    return bottom_up(tree, rewrite)


_PG_ESCAPE = "\uffff"  # backends/pg_text.py: U+FFFF in stored text is written as U+FFFF '1'


def pg_escaped_literals(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """String literals hold U+FFFF the way bound text does on PostgreSQL (pg_text.py),
    so a literal and a parameter with the same text compare equal.  (NUL cannot occur:
    sqlite3 refuses SQL text containing it.)"""
    for node in tree.find_all(exp.Literal):
        if node.is_string and _PG_ESCAPE in node.this:
            node.set("this", node.this.replace(_PG_ESCAPE, _PG_ESCAPE + "1"))
    return tree
