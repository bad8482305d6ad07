"""SQLite's math functions where the servers compute or word them differently.

* ``ln``/``log``/``log10``/``log2``/``log(b, x)``: SQLite gives NULL outside the
  domain (x <= 0, a base <= 0 or 1) where PostgreSQL raises; it computes every
  base as a quotient of natural logarithms (its build here has no ``log10``:
  ``log10(1000)`` is 2.9999999999999996), and MariaDB's one-argument ``LOG`` is
  the natural one where SQLite's is base 10.  Each becomes
  ``CASE WHEN x > 0 THEN LN(x) / LN(b) END`` on doubles (PostgreSQL's ``LN`` of
  an integer literal would be an exact NUMERIC).
* ``pi()``: MariaDB hands it out rounded to 6 decimals (its display width); a
  CAST to DOUBLE gives the whole double.
* ``x % y`` with a REAL operand: SQLite takes both operands as integers
  (7.5 % 2 is 1.0, 7 % 0.5 is NULL) and gives a REAL; the servers compute the
  remainder of the fractions (1.5; PostgreSQL has no % of a double).  Each REAL
  side is truncated to an integer and the remainder cast to a double.
* ``mod(x, y)``: SQLite's math function, fmod as a REAL (mod(7, 2) is 1.0, y = 0
  gives NULL); the servers' MOD keeps integers integers.
* ``x >> n`` on MariaDB shifts the unsigned 64 bits (-3 >> 1 is
  9223372036854775806); SQLite's shift keeps the sign (-2): a negative ``x`` is
  shifted as ``~(~x >> n)``.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._build import call
from .value_classes import is_integer, is_real


def _double(x: exp.Expression) -> exp.Expression:
    return exp.Cast(this=x, to=exp.DataType.build("DOUBLE"))


def _logarithm(x: exp.Expression, base: exp.Expression | None) -> exp.Expression:
    """``log`` of ``x`` in ``base`` (None: e) as SQLite computes it, NULL outside the domain."""
    value = _double(x.copy())
    positive = exp.GT(this=value.copy(), expression=exp.Literal.number(0))
    natural = exp.Ln(this=value)
    if base is None:
        return exp.Case(ifs=[exp.If(this=positive, true=natural)])
    b = _double(base.copy())
    constant = base.this if isinstance(base, exp.Literal) and not base.is_string else None
    if constant is not None and float(constant) > 0 and float(constant) != 1:
        valid: exp.Expression = positive
    else:
        valid = exp.and_(positive, exp.GT(this=b.copy(), expression=exp.Literal.number(0)),
                         exp.NEQ(this=b.copy(), expression=exp.Literal.number(1)))
    quotient = exp.Div(this=natural, expression=exp.Ln(this=b), typed=False, safe=False)
    return exp.Case(ifs=[exp.If(this=valid, true=quotient)])


def _log(node: exp.Log) -> exp.Expression:
    if node.expression is None:  # log(x): base 10 in SQLite
        return _logarithm(node.this, exp.Literal.number(10))
    return _logarithm(node.expression, node.this)


def _arithmetic_right_shift(node: exp.BitwiseRightShift) -> exp.Expression:
    x, n = node.this, node.expression
    negative = exp.LT(this=x.copy(), expression=exp.Literal.number(0))
    shifted = exp.BitwiseRightShift(this=exp.Paren(this=exp.BitwiseNot(this=x.copy())), expression=n.copy())
    inverted = exp.BitwiseNot(this=exp.Paren(this=shifted))
    return exp.If(this=negative, true=inverted, false=node.copy())




def _whole(x: exp.Expression, ctx: Context) -> exp.Expression:
    """A REAL as SQLite's % reads it: truncated to a 64-bit integer."""
    if ctx.is_mysql:
        return exp.Cast(this=call("TRUNCATE", x, exp.Literal.number(0)), to=exp.DataType.build("BIGINT"))
    return exp.Cast(this=call("TRUNC", _double(x)), to=exp.DataType.build("BIGINT"))


def _real_modulo(node: exp.Mod, ctx: Context) -> exp.Expression:
    a, b = node.this, node.expression
    if not (is_real(a, ctx) or is_real(b, ctx)) or not all(is_real(s, ctx) or is_integer(s, ctx) for s in (a, b)):
        return node  # integers, or a side whose kind only the row tells: as the server computes it
    whole_a = _whole(a.copy(), ctx) if is_real(a, ctx) else a.copy()
    whole_b = _whole(b.copy(), ctx) if is_real(b, ctx) else b.copy()
    return _double(exp.Mod(this=whole_a, expression=whole_b, safe=node.args.get("safe")))  # safe: x % 0 is NULL


def _fmod(node: exp.Anonymous, ctx: Context) -> exp.Expression:
    x, y = node.expressions
    if ctx.is_mysql:
        return _double(call("MOD", _double(x), call("NULLIF", _double(y), exp.Literal.number(0))))
    exact = exp.DataType.build("NUMERIC")  # PostgreSQL has MOD of integers and numerics only
    y_exact = exp.Cast(this=_double(y), to=exact)
    return _double(call("MOD", exp.Cast(this=_double(x), to=exact), call("NULLIF", y_exact, exp.Literal.number(0))))


def sqlite_math(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(exp.Mod, exp.Anonymous)):
        if isinstance(node, exp.Mod):
            node.replace(_real_modulo(node, ctx))
        elif str(node.this).lower() == "mod" and len(node.expressions) == 2:
            node.replace(_fmod(node, ctx))
    for node in list(tree.find_all(exp.Ln, exp.Log, exp.Pi, exp.BitwiseRightShift)):
        if isinstance(node, exp.Ln):
            node.replace(_logarithm(node.this, None))
        elif isinstance(node, exp.Log):
            node.replace(_log(node))
        elif isinstance(node, exp.Pi) and ctx.is_mysql:
            node.replace(_double(node.copy()))
        elif isinstance(node, exp.BitwiseRightShift) and ctx.is_mysql:
            node.replace(_arithmetic_right_shift(node))
    return tree
