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
* A column's affinity is its declared type's; an unqualified column belongs to
  the one table of the innermost query around it that has it (an INSERT ...
  SELECT or a join reads it as SQLite resolves it).
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up
from .booleans import PREDICATES

_INT_FUNCS = (exp.Count, exp.Length, exp.StrPosition)


def _own_tables(node: exp.Expression) -> list[str]:
    """The tables a SELECT, UPDATE or DELETE reads directly (not those of its subqueries)."""
    sources = [node.this] if isinstance(node, (exp.Update, exp.Delete)) else []
    source = node.args.get("from_") or node.args.get("from")
    if source is not None:
        sources.append(source.this)
    sources.extend(join.this for join in node.args.get("joins") or [])
    return [t.name for t in sources if isinstance(t, exp.Table)]


def _holder(column: exp.Column, ctx: Context) -> str | None:
    """The table an unqualified column belongs to: the one table of the innermost
    query around it that has such a column (an outer query's for a correlated
    subquery), as SQLite resolves it."""
    wanted = column.name.lower()
    node = column.parent
    while node is not None:
        if isinstance(node, (exp.Select, exp.Update, exp.Delete)):
            holders = [t for t in dict.fromkeys(_own_tables(node))
                       if any(name.lower() == wanted for name, _d, _k in ctx.schema.columns(t))]
            if holders:
                return holders[0] if len(holders) == 1 else None
        node = node.parent
    return None


def column_table(column: exp.Column, ctx: Context) -> str | None:
    """The catalog table a column reference names, as SQLite resolves it (None: unknown)."""
    tree = column.root()
    tables = [t for t in tree.find_all(exp.Table)]
    table = None
    ctx.schema_dependent = True
    if column.table:
        for t in tables:
            if column.table.lower() in (t.name.lower(), (t.alias or "").lower()):
                table = t.name
    elif len({t.name for t in tables}) == 1:
        table = tables[0].name
    else:
        table = _holder(column, ctx)
    return table


def column_affinity(column: exp.Column, ctx: Context) -> str | None:
    table = column_table(column, ctx)
    if table is None:
        return None
    for name, declared, _keyed in ctx.schema.columns(table):
        if name.lower() == column.name.lower():
            upper = (declared or "").upper()
            if "INT" in upper:
                return "INTEGER"
            if any(k in upper for k in ("CHAR", "CLOB", "TEXT")):
                return "TEXT"
            if any(k in upper for k in ("REAL", "FLOA", "DOUB")):
                return "REAL"
            if "BLOB" in upper:
                return "BLOB"
            return None
    return None


def is_numeric_column(node: exp.Expression, ctx: Context) -> bool:
    """A column with INTEGER or REAL affinity: SQLite turns text compared with it into a number."""
    return isinstance(node, exp.Column) and column_affinity(node, ctx) in ("INTEGER", "REAL")


def is_integer(node: exp.Expression, ctx: Context) -> bool:
    """True when ``node`` is an integer in SQLite whatever the row (or NULL)."""
    if isinstance(node, exp.Paren):
        return is_integer(node.this, ctx)
    if isinstance(node, exp.Literal):
        return not node.is_string and node.this.isdigit()
    if isinstance(node, exp.Neg):
        return is_integer(node.this, ctx)
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Mod, exp.IntDiv)):
        return is_integer(node.this, ctx) and is_integer(node.expression, ctx)
    if isinstance(node, exp.Div):
        return is_integer(node.this, ctx) and is_integer(node.expression, ctx)
    if isinstance(node, _INT_FUNCS + (exp.Sign,)):
        return True
    if isinstance(node, (exp.Sum, exp.Max, exp.Min, exp.Abs)) and not isinstance(node.this, exp.Distinct):
        return is_integer(node.this, ctx) and all(is_integer(e, ctx) for e in node.expressions)
    if isinstance(node, (exp.Greatest, exp.Least, exp.Coalesce)):
        return all(is_integer(e, ctx) for e in (node.this, *node.expressions))
    if isinstance(node, PREDICATES):
        return True  # 0/1 in SQLite
    if isinstance(node, exp.If):
        return all(b is None or isinstance(b, exp.Null) or is_integer(b, ctx)
                   for b in (node.args.get("true"), node.args.get("false")))
    if isinstance(node, exp.Nullif):
        return is_integer(node.this, ctx)
    if isinstance(node, exp.Case):
        branches = [i.args.get("true") for i in node.args.get("ifs") or []] + [node.args.get("default")]
        return all(b is None or isinstance(b, exp.Null) or is_integer(b, ctx) for b in branches)
    if isinstance(node, exp.Subquery) and isinstance(node.this, (exp.Subquery, exp.Paren)):
        return is_integer(node.this, ctx)  # ((SELECT …))
    if isinstance(node, exp.Subquery) and isinstance(node.this, exp.Select) and len(node.this.expressions) == 1:
        item = node.this.expressions[0]
        return is_integer(item.this if isinstance(item, exp.Alias) else item, ctx)
    if isinstance(node, exp.Cast):
        return node.to.is_type(*exp.DataType.INTEGER_TYPES)
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "INTEGER"
    return False


def _real_literal(node: exp.Expression) -> bool:
    inner = node.this if isinstance(node, exp.Neg) else node
    return isinstance(inner, exp.Literal) and not inner.is_string and not inner.this.isdigit()


_TEXT_NODES = (exp.DPipe, exp.Concat, exp.Substring, exp.Upper, exp.Lower, exp.Trim, exp.Replace, exp.Placeholder)


def _maybe_real(node: exp.Expression, ctx: Context) -> bool:
    """Could ``node`` be a REAL with a fraction?  (Text and integers are cast as they are.)"""
    if isinstance(node, exp.Paren):
        return _maybe_real(node.this, ctx)
    if isinstance(node, exp.Null):
        return False
    if _real_literal(node):
        return True
    if isinstance(node, exp.Literal) or isinstance(node, _TEXT_NODES) or is_integer(node, ctx):
        return False
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "REAL"
    if isinstance(node, exp.Cast):
        return not node.to.is_type(*exp.DataType.TEXT_TYPES)
    return not isinstance(node, exp.Anonymous)  # helpers and unknown functions: their own type


def _is_text(node: exp.Expression, ctx: Context) -> bool:
    if isinstance(node, exp.Paren):
        return _is_text(node.this, ctx)
    if isinstance(node, exp.Literal):
        return node.is_string
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "TEXT"
    return isinstance(node, _TEXT_NODES) and not isinstance(node, exp.Placeholder)


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
    if not _is_text(node.this, ctx):
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
    if _maybe_real(value, ctx):
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

