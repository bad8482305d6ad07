"""Integer arithmetic and CAST as SQLite computes them.

* ``int / int`` is integer division (truncating) in SQLite; MariaDB returns a
  DECIMAL.  Where both operands are statically integers (integer literals,
  columns with INTEGER affinity, integer arithmetic, COUNT/LENGTH, casts) MySQL
  gets ``DIV``.  Operands of unknown type (parameters) keep ``/``: tolerance.
* ``CAST(x AS INTEGER)`` truncates toward zero in SQLite; PG and MySQL round.
  Real operands are truncated first; the target is a 64-bit integer.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._walk import bottom_up

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
    if isinstance(node, _INT_FUNCS):
        return True
    if isinstance(node, exp.Cast):
        return node.to.is_type(*exp.DataType.INTEGER_TYPES)
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "INTEGER"
    return False


def _real_literal(node: exp.Expression) -> bool:
    inner = node.this if isinstance(node, exp.Neg) else node
    return isinstance(inner, exp.Literal) and not inner.is_string and not inner.this.isdigit()


def _cast(node: exp.Cast, ctx: Context) -> exp.Expression:
    if not node.to.is_type(*exp.DataType.INTEGER_TYPES):
        return node
    value = node.this
    if _real_literal(value) or (isinstance(value, exp.Column) and column_affinity(value, ctx) == "REAL"):
        trunc = "TRUNCATE" if ctx.is_mysql else "TRUNC"
        args = [value.copy(), exp.Literal.number(0)] if ctx.is_mysql else [value.copy()]
        value = exp.Anonymous(this=trunc, expressions=args)
    return exp.Cast(this=value, to=exp.DataType.build("BIGINT"))


def sqlite_numbers(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Cast):
            return _cast(n, ctx)
        if ctx.is_mysql and isinstance(n, exp.Div) and is_integer(n.this, ctx) and is_integer(n.expression, ctx):
            return exp.IntDiv(this=n.this, expression=n.expression)
        return n

    return bottom_up(tree, rewrite)


_INT64_MAX = 2**63 - 1


def _is_real_literal(node: exp.Literal) -> bool:
    """SQLite reads ``0.1``, ``1e3`` and integers beyond 64 bits as REAL (a double)."""
    if node.is_string:
        return False
    text = node.this
    if text.isdigit():
        return int(text) > _INT64_MAX
    return any(c in text for c in ".eE")


def _json_argument(node: exp.Expression) -> bool:
    parent = node.parent
    if not isinstance(parent, exp.Func):
        return False
    name = parent.name if isinstance(parent, exp.Anonymous) else parent.sql_name()
    return name.upper().startswith("JSON")


def real_literals(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """REAL literals as doubles: the servers read ``0.1`` as an exact DECIMAL, so
    ``0.1 + 0.2`` would be 0.3 (SQLite: 0.30000000000000004), ``1e3`` an integer on
    PostgreSQL and ``1.0 / 3`` four digits on MariaDB.  An explicit CAST and DDL
    (defaults, CHECKs) keep the literal: the target type decides there."""
    for literal in list(tree.find_all(exp.Literal)):
        if not _is_real_literal(literal) or isinstance(literal.parent, exp.Cast):
            continue
        if literal.this == str(_INT64_MAX + 1) and isinstance(literal.parent, exp.Neg):
            continue  # -9223372036854775808 is the smallest INTEGER, not a REAL
        if literal.find_ancestor(exp.ColumnDef, exp.Limit, exp.Offset, exp.Fetch) is not None:
            continue
        if ctx.is_mysql and _json_argument(literal):  # MariaDB prints a DECIMAL 100.0 as SQLite does, a double as 100
            continue
        if ctx.is_mysql:
            text = literal.this
            if not any(c in text for c in "eE"):
                literal.replace(exp.Literal.number(text + "e0"))
        else:
            literal.replace(exp.Cast(this=literal.copy(), to=exp.DataType.build("DOUBLE PRECISION")))
    return tree
