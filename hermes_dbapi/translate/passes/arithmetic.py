"""Integer arithmetic and CAST as SQLite computes them.

* ``int / int`` is integer division (truncating) in SQLite; MariaDB returns a
  DECIMAL.  Where both operands are statically integers (integer literals,
  columns with INTEGER affinity, integer arithmetic, COUNT/LENGTH, casts) MySQL
  gets ``DIV``; with a parameter beside an integer (``n / ?``) the bound value
  decides, as it is bound (:func:`_bound_integer`).
* A literal with a fraction or exponent (``0.1``, ``1e3``) is a REAL (double) in
  SQLite; the servers read it as an exact NUMERIC/DECIMAL (``0.1 + 0.2`` = 0.3,
  MariaDB's ``3.0 / 7`` keeps 4 decimals, PG's ``1e3`` is an integer), so outside
  DDL it is cast to the double type.  round()'s own argument keeps its exact
  literal (round() computes on an exact decimal, see functions.py).
* ``CAST(x AS INTEGER)`` truncates toward zero in SQLite; PG and MySQL round.
  Real operands are truncated first; the target is a 64-bit integer.
* ``CAST(text AS INTEGER/REAL)`` reads the numeric prefix ('12abc' is 12, 'abc'
  0) and clamps an integer past 64 bits: PG through helpers/pg_cast.py, MariaDB
  through a regular expression that leaves CAST a clean number (a CAST that
  truncates warns, and strict mode makes that warning an error inside
  INSERT/UPDATE/DELETE).
* What class an operand has (integer, REAL, text) is read by
  ``value_classes.py``.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up
from .value_classes import is_integer, is_text, maybe_real



# MariaDB: the numeric prefix SQLite reads, as the sign, then "0" and the digits (so that
# no prefix reads 0 and a bare sign -0): a clean number, which CAST converts without the
# warning that strict mode makes an error inside INSERT/UPDATE/DELETE ("Truncated incorrect
# INTEGER value"); in \N a single digit names the group, so \10 is group 1 and a 0
_MY_INT_PREFIX = r"(?s)^\s*([-+]?)([0-9]*).*$"
_MY_REAL_PREFIX = r"(?s)^\s*([-+]?)((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)?.*$"


def _my_lenient(node: exp.Cast) -> exp.Expression | None:
    integer = node.to.is_type(*exp.DataType.INTEGER_TYPES)
    if not integer and not node.to.is_type(exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT):
        return None
    subject = exp.Anonymous(this="CONCAT", expressions=[node.this, exp.Literal.string(" ")])  # '' is not matched
    prefix = exp.Anonymous(this="REGEXP_REPLACE", expressions=[
        subject, exp.Literal.string(_MY_INT_PREFIX if integer else _MY_REAL_PREFIX), exp.Literal.string("\\10\\2")])
    if not integer:
        return exp.Cast(this=prefix, to=exp.DataType.build("DOUBLE"))
    # SQLite clamps an integer past 64 bits to the nearest end; CAST AS SIGNED wraps it
    exact = exp.Cast(this=prefix, to=exp.DataType.build("DECIMAL(65, 0)"))
    low = exp.Anonymous(this="GREATEST", expressions=[exact, exp.Literal.number(-(2**63))])
    clamped = exp.Anonymous(this="LEAST", expressions=[low, exp.Literal.number(2**63 - 1)])
    return exp.Cast(this=clamped, to=exp.DataType.build("BIGINT"))


def _lenient(node: exp.Cast, ctx: Context) -> exp.Expression | None:
    """Text cast to INTEGER/REAL through SQLite's numeric-prefix reading (PG: helpers/pg_cast.py)."""
    if not is_text(node.this, ctx):
        return None
    if ctx.is_mysql:
        return _my_lenient(node)
    if node.to.is_type(*exp.DataType.INTEGER_TYPES):
        return exp.Anonymous(this="hdb_cast_int", expressions=[exp.Cast(this=node.this, to=exp.DataType.build("TEXT"))])
    if node.to.is_type(exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT):
        return exp.Anonymous(this="hdb_cast_real", expressions=[exp.Cast(this=node.this, to=exp.DataType.build("TEXT"))])
    return None


def _cast(node: exp.Cast, ctx: Context) -> exp.Expression:
    lenient = _lenient(node, ctx)
    if lenient is not None:
        return lenient
    if not node.to.is_type(*exp.DataType.INTEGER_TYPES):
        return node
    value = node.this
    if maybe_real(value, ctx):
        trunc = "TRUNCATE" if ctx.is_mysql else "TRUNC"
        args = [value.copy(), exp.Literal.number(0)] if ctx.is_mysql else [value.copy()]
        cast = exp.Cast(this=exp.Anonymous(this=trunc, expressions=args), to=exp.DataType.build("BIGINT"))
        return cast if ctx.is_mysql else _saturated(value, cast)
    return exp.Cast(this=value, to=exp.DataType.build("BIGINT"))


def _constant_number(value: exp.Expression) -> float | None:
    """The value of a number literal (under casts and minus signs), else None."""
    sign = 1.0
    while isinstance(value, (exp.Cast, exp.Neg, exp.Paren)):
        sign = -sign if isinstance(value, exp.Neg) else sign
        value = value.this
    if isinstance(value, exp.Literal) and not value.is_string:
        try:
            return sign * float(value.this)
        except ValueError:
            return None
    return None


def _saturated(value: exp.Expression, cast: exp.Expression) -> exp.Expression:
    """PostgreSQL: a REAL beyond 64 bits cast to INTEGER is the nearest bound in SQLite
    ("integer overflow" on the server; MariaDB saturates by itself).  Only where reading
    ``value`` again is safe: no function call or sub-SELECT in it."""
    if value.find(exp.Func, exp.Subquery) is not None:
        return cast
    constant = _constant_number(value)
    if constant is not None:
        if -(2.0**63) <= constant < 2.0**63:
            return cast
        bound = _INT64_MAX if constant > 0 else -(_INT64_MAX + 1)
        return exp.Cast(this=exp.Literal.number(bound), to=exp.DataType.build("BIGINT"))
    top = exp.Literal.number("9223372036854775808.0")
    return exp.Case(ifs=[
        exp.If(this=exp.GTE(this=value.copy(), expression=top), true=exp.Literal.number(_INT64_MAX)),
        exp.If(this=exp.LT(this=value.copy(), expression=exp.Neg(this=top.copy())),
               true=exp.Cast(this=exp.Neg(this=exp.Literal.number(_INT64_MAX + 1)), to=exp.DataType.build("BIGINT"))),
    ], default=cast)


def _integer_sum(node: exp.Sum, ctx: Context) -> exp.Expression:
    """PG's sum(bigint) is NUMERIC (a later ``/`` would not truncate); SQLite's is an integer."""
    if ctx.is_mysql or not is_integer(node, ctx):
        return node
    return exp.Cast(this=node, to=exp.DataType.build("BIGINT"))


_INT64_MAX = 2**63 - 1


def _integer_literal(node: exp.Literal) -> bool:
    """Digits SQLite reads as an INTEGER: up to 2**63 - 1, and 2**63 after a minus sign."""
    if not node.this.isdigit():
        return False
    value = int(node.this)
    return value <= _INT64_MAX or (value == _INT64_MAX + 1 and isinstance(node.parent, exp.Neg))


def _double_literal(node: exp.Literal, ctx: Context) -> exp.Expression:
    if node.is_string or _integer_literal(node):
        return node
    parent = node.parent.parent if isinstance(node.parent, exp.Neg) else node.parent
    if _stored_as_written(node, parent):
        return node
    if isinstance(parent, exp.Round) or _json_argument(parent) or node.find_ancestor(exp.Limit, exp.Offset, exp.Create, exp.Fetch):
        return node
    return exp.Cast(this=node, to=exp.DataType.build("DOUBLE" if ctx.is_mysql else "DOUBLE PRECISION"))


def _stored_as_written(node: exp.Expression, parent: exp.Expression | None) -> bool:
    """A literal that is a whole value stored by INSERT … VALUES or UPDATE … SET: the
    column's type converts it (a TEXT column keeps '2.0' as written, as in SQLite)."""
    value = node.parent if isinstance(node.parent, exp.Neg) else node
    if isinstance(parent, exp.Tuple) and isinstance(parent.parent, exp.Values):
        return True
    return isinstance(parent, exp.EQ) and isinstance(parent.parent, exp.Update) and value is parent.expression


def _json_argument(parent: exp.Expression | None) -> bool:
    """JSON builders print a literal as written (json_array(100.0) is [100.0]), not as a double."""
    if isinstance(parent, exp.Anonymous):
        return str(parent.this).lower().startswith(("hdb_j", "json"))
    return parent is not None and "json" in type(parent).__name__.lower()


def real_literals(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """Runs after the function passes, which read literals as written."""
    if isinstance(tree, exp.Create) or (isinstance(tree, exp.Command)):
        return tree
    return bottom_up(tree, lambda n: _double_literal(n, ctx) if isinstance(n, exp.Literal) else n)


def _bound_integer(p: exp.Placeholder) -> exp.Expression:
    """MariaDB: is the value bound to ``p`` an integer?  PyMySQL writes an int as 2 and
    a float as 2.0e0; adding a DECIMAL 0.0 prints the first as '2.0' (a DECIMAL), the
    second as '2' (a DOUBLE)."""
    tenths = exp.Cast(this=exp.Literal.number(0), to=exp.DataType.build("DECIMAL(2, 1)"))  # not a REAL literal
    printed = exp.Concat(expressions=[exp.Add(this=p.copy(), expression=tenths)])
    return exp.Like(this=printed, expression=exp.Literal.string("%.0"))


def _mysql_division(n: exp.Div, ctx: Context) -> exp.Expression:
    """``a / b`` of integers is integer division in SQLite, MariaDB's ``DIV``; with a
    bound operand (``n / ?``) the bound value's kind decides, as it is bound."""
    sides = (n.this, n.expression)
    if all(is_integer(s, ctx) for s in sides):
        return exp.IntDiv(this=n.this, expression=n.expression)
    bound = [s for s in sides if isinstance(s, exp.Placeholder)]
    if not bound or not all(is_integer(s, ctx) or isinstance(s, exp.Placeholder) for s in sides):
        return n
    integers = exp.and_(*[_bound_integer(p) for p in bound])
    whole = exp.IntDiv(this=n.this.copy(), expression=n.expression.copy())
    return exp.Case(ifs=[exp.If(this=integers, true=whole)], default=n)


def sqlite_numbers(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Cast):
            return _cast(n, ctx)
        if isinstance(n, exp.Sum) and not isinstance(n.parent, exp.Window):
            return _integer_sum(n, ctx)
        if ctx.is_mysql and isinstance(n, exp.Div):
            return _mysql_division(n, ctx)
        return n

    return bottom_up(tree, rewrite)

