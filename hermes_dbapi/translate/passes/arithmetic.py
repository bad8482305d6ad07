"""Integer arithmetic and CAST as SQLite computes them.

* ``int / int`` is integer division (truncating) in SQLite; MariaDB returns a
  DECIMAL.  Where both operands are statically integers (integer literals,
  columns with INTEGER affinity, integer arithmetic, COUNT/LENGTH, casts) MySQL
  gets ``DIV``.  Operands of unknown type (parameters) keep ``/``: tolerance.
* A literal with a fraction or exponent (``0.1``, ``1e3``) is a REAL (double) in
  SQLite; the servers read it as an exact NUMERIC/DECIMAL (``0.1 + 0.2`` = 0.3,
  MariaDB's ``3.0 / 7`` keeps 4 decimals, PG's ``1e3`` is an integer), so outside
  DDL it is cast to the double type.  round()'s own argument keeps its exact
  literal (round() computes on an exact decimal, see functions.py).
* ``CAST(x AS INTEGER)`` truncates toward zero in SQLite; PG and MySQL round.
  Real operands are truncated first; the target is a 64-bit integer.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up
from .booleans import PREDICATES

_INT_FUNCS = (exp.Count, exp.Length, exp.StrPosition)


def column_affinity(column: exp.Column, ctx: Context) -> str | None:
    tree = column.root()
    tables = [t for t in tree.find_all(exp.Table)]
    table = None
    if column.table:
        for t in tables:
            if column.table.lower() in (t.name.lower(), (t.alias or "").lower()):
                table = t.name
    elif len({t.name for t in tables}) == 1:
        table = tables[0].name
    if table is None:
        return None
    ctx.schema_dependent = True
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


def _lenient(node: exp.Cast, ctx: Context) -> exp.Expression | None:
    """PG: text cast to INTEGER/REAL through SQLite's numeric-prefix reading (helpers/pg_cast.py)."""
    if ctx.is_mysql or not _is_text(node.this, ctx):
        return None
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
        value = exp.Anonymous(this=trunc, expressions=args)
    return exp.Cast(this=value, to=exp.DataType.build("BIGINT"))


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


def sqlite_numbers(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Cast):
            return _cast(n, ctx)
        if isinstance(n, exp.Sum) and not isinstance(n.parent, exp.Window):
            return _integer_sum(n, ctx)
        if ctx.is_mysql and isinstance(n, exp.Div) and is_integer(n.this, ctx) and is_integer(n.expression, ctx):
            return exp.IntDiv(this=n.this, expression=n.expression)
        return n

    return bottom_up(tree, rewrite)

