"""BLOB values made by the statement: ``zeroblob(n)``, ``randomblob(n)`` and CASTs
to and from BLOB, with SQLite's results.

* ``zeroblob(n)``: n zero bytes (n read as an integer, below 0 or NULL as 0).
* ``randomblob(n)``: n random bytes, at least 1, new for every row.  PostgreSQL:
  a literal n is 4 random bytes per ``random()`` call, each call its own (an
  expression, not a sub-SELECT, which PostgreSQL would evaluate once per
  statement); another n, a sub-SELECT over ``generate_series``.  MariaDB:
  ``RANDOM_BYTES`` (at most 1,024), of an argument that is no constant (MariaDB
  computes a function of constants once per statement).
* ``CAST(x AS BLOB)``: the bytes of x's text (UTF-8), a blob as it is; MariaDB
  ``CAST(x AS BINARY)``, PostgreSQL ``convert_to`` (sqlglot wrote VARBINARY,
  which neither server casts to).
* ``CAST(blob AS TEXT)``: the bytes read as UTF-8 (PostgreSQL printed bytea's
  ``\\x…`` escape); MariaDB already reads them so.

What this pass makes is tagged (``meta``) as a blob for the passes after it
(``hex()``, ``typeof()``).
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._build import call
from ._walk import bottom_up
from .value_classes import column_affinity
from .c_strings import BLOB, can_hold_nul
_BLOB_TYPES = (exp.DataType.Type.VARBINARY, exp.DataType.Type.BINARY, exp.DataType.Type.BLOB)
_MAX_INLINE = 256  # randomblob(n) with a literal n up to this size: one random() per 4 bytes


def _blob(node: exp.Expression) -> exp.Expression:
    node.meta[BLOB] = True
    return node


def is_blob(x: exp.Expression, ctx: Context) -> bool:
    """Whether ``x`` is a blob by its kind: a blob literal, a BLOB column, a blob this pass made."""
    if isinstance(x, exp.HexString) or x.meta.get(BLOB):
        return True
    if isinstance(x, exp.Cast) and x.to.is_type(*_BLOB_TYPES):
        return True
    return isinstance(x, exp.Column) and column_affinity(x, ctx) == "BLOB"


def _count(n: exp.Expression, ctx: Context) -> exp.Expression:
    """n as SQLite's sqlite3_value_int64 reads it: truncated, NULL as 0."""
    n = exp.Coalesce(this=n, expressions=[exp.Literal.number(0)])
    if ctx.is_mysql:
        return call("TRUNCATE", n, exp.Literal.number(0))
    real = exp.Cast(this=n, to=exp.DataType.build("DOUBLE PRECISION"))
    return exp.Cast(this=call("TRUNC", real), to=exp.DataType.build("INT"))  # repeat() takes an int


def _zeroblob(n: exp.Expression, ctx: Context) -> exp.Expression:
    size = call("GREATEST", _count(n, ctx), exp.Literal.number(0))  # never NULL: no NULL-propagating form
    if ctx.is_mysql:
        return exp.Cast(this=call("REPEAT", call("CHAR", exp.Literal.number(0)), size),
                        to=exp.DataType.build("BINARY"))
    return call("decode", call("repeat", exp.Literal.string("00"), size), exp.Literal.string("hex"))


def _randomblob(n: exp.Expression, ctx: Context) -> exp.Expression:
    size = call("GREATEST", _count(n, ctx), exp.Literal.number(1))
    if ctx.is_mysql:  # + FLOOR(0 * RAND()): MariaDB computes RANDOM_BYTES of a constant once per statement
        per_row = exp.Add(this=size, expression=call("FLOOR", exp.Mul(this=exp.Literal.number(0), expression=call("RAND"))))
        return call("RANDOM_BYTES", per_row)
    if isinstance(n, exp.Literal) and not n.is_string and n.this.isdigit() and int(n.this) <= _MAX_INLINE:
        want = max(int(n.this), 1)
        words = [call("lpad", call("to_hex", exp.Cast(this=call("floor", exp.Mul(
            this=call("random"), expression=exp.Literal.number(4294967296))), to=exp.DataType.build("BIGINT"))),
            exp.Literal.number(8), exp.Literal.string("0")) for _ in range((want + 3) // 4)]
        text = words[0]
        for word in words[1:]:
            text = exp.DPipe(this=text, expression=word, safe=True)
        hexed = call("substr", text, exp.Literal.number(1), exp.Literal.number(2 * want))
        return call("decode", hexed, exp.Literal.string("hex"))
    byte = call("lpad", call("to_hex", exp.Cast(this=call("floor", exp.Mul(
        this=call("random"), expression=exp.Literal.number(256))), to=exp.DataType.build("INT"))),
        exp.Literal.number(2), exp.Literal.string("0"))
    agg = call("decode", call("string_agg", byte, exp.Literal.string("")), exp.Literal.string("hex"))
    series = exp.Table(this=call("generate_series", exp.Literal.number(1), size))
    return exp.Subquery(this=exp.select(agg).from_(series))


def _to_blob(cast: exp.Cast, ctx: Context) -> exp.Expression:
    x = cast.this
    if ctx.is_mysql:
        return exp.Cast(this=x, to=exp.DataType.build("BINARY"))
    if is_blob(x, ctx) or isinstance(x, exp.Null):
        return x
    text = exp.Cast(this=x, to=exp.DataType.build("TEXT"))
    if can_hold_nul(x, ctx):  # NUL kept escaped in PostgreSQL text (backends/pg_text.py)
        return call("hdb_utf8", text)
    return call("convert_to", text, exp.Literal.string("UTF8"))


def sqlite_blobs(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Anonymous) and len(node.expressions) == 1:
            name = str(node.this).lower()
            if name == "zeroblob":
                return _blob(_zeroblob(node.expressions[0], ctx))
            if name == "randomblob":
                return _blob(_randomblob(node.expressions[0], ctx))
        if isinstance(node, exp.Cast) and node.to.is_type(*_BLOB_TYPES) and not node.to.expressions:
            return _blob(_to_blob(node, ctx))
        if isinstance(node, exp.Cast) and node.to.is_type(*exp.DataType.TEXT_TYPES) and not ctx.is_mysql \
                and is_blob(node.this, ctx):
            return call("convert_from", node.this, exp.Literal.string("UTF8"))
        return node

    return bottom_up(tree, rewrite)
