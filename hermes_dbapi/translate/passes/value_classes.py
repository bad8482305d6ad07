"""The storage class SQLite gives an expression's values, read from its form and the
declared columns of the tables it reads: the one place the passes ask (integer
division, REAL ``%``, casts, typeof(), result columns of mixed classes).

A column's affinity is its declared type's; an unqualified column belongs to the
one table of the innermost query around it that has it (an INSERT ... SELECT or a
join reads it as SQLite resolves it).  Each question answers for every row: "an
integer" means an integer or NULL whatever the row; "don't know" is the safe answer.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
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


def real_literal(node: exp.Expression) -> bool:
    inner = node.this if isinstance(node, exp.Neg) else node
    return isinstance(inner, exp.Literal) and not inner.is_string and not inner.this.isdigit()


TEXT_NODES = (exp.DPipe, exp.Concat, exp.Substring, exp.Upper, exp.Lower, exp.Trim, exp.Replace, exp.Placeholder)


def maybe_real(node: exp.Expression, ctx: Context) -> bool:
    """Could ``node`` be a REAL with a fraction?  (Text and integers are cast as they are.)"""
    if isinstance(node, exp.Paren):
        return maybe_real(node.this, ctx)
    if isinstance(node, exp.Null):
        return False
    if real_literal(node):
        return True
    if isinstance(node, exp.Literal) or isinstance(node, TEXT_NODES) or is_integer(node, ctx):
        return False
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "REAL"
    if isinstance(node, exp.Cast):
        return not node.to.is_type(*exp.DataType.TEXT_TYPES)
    return not isinstance(node, exp.Anonymous)  # helpers and unknown functions: their own type


def is_text(node: exp.Expression, ctx: Context) -> bool:
    """Text whatever the row (or NULL); substr() of a blob is a blob, so substr() of
    text only."""
    if isinstance(node, exp.Paren):
        return is_text(node.this, ctx)
    if isinstance(node, exp.Literal):
        return node.is_string
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "TEXT"
    if isinstance(node, exp.Substring):
        return is_text(node.this, ctx)
    return isinstance(node, TEXT_NODES) and not isinstance(node, exp.Placeholder)


def is_real(node: exp.Expression, ctx: Context) -> bool:
    """A REAL whatever the row (or NULL): a real literal, a REAL column, arithmetic on one."""
    if isinstance(node, (exp.Paren, exp.Neg)):
        return is_real(node.this, ctx)
    if isinstance(node, exp.Literal):
        return not node.is_string and not node.this.isdigit()
    if isinstance(node, exp.Column):
        return column_affinity(node, ctx) == "REAL"
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div)):
        sides = (node.this, node.expression)
        return any(is_real(s, ctx) for s in sides) and all(is_real(s, ctx) or is_integer(s, ctx) for s in sides)
    return False


_REAL_RESULTS = (exp.Avg, exp.Round)
_TEXT_RESULTS = (exp.DPipe, exp.Upper, exp.Lower, exp.Trim, exp.Hex, exp.Typeof, exp.Chr)
_REAL_TYPES = (exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT)


def storage_class(node: exp.Expression, ctx: Context) -> str | None:
    """'integer', 'real' or 'text' when SQLite gives every non-NULL value of ``node``
    that class, 'null' for the NULL literal, None when only the row can tell."""
    if isinstance(node, exp.Paren):
        return storage_class(node.this, ctx)
    if isinstance(node, exp.Null):
        return "null"
    if is_integer(node, ctx):
        return "integer"
    if is_real(node, ctx) or isinstance(node, _REAL_RESULTS) or is_call(node, "total"):
        return "real"
    if isinstance(node, exp.Cast) and node.to.is_type(*_REAL_TYPES):
        return "real"
    if isinstance(node, (exp.Abs, exp.Max, exp.Min)) and not node.expressions and is_real(node.this, ctx):
        return "real"
    if is_text(node, ctx) or isinstance(node, _TEXT_RESULTS):
        return "text"
    return None


def is_call(node: exp.Expression, name: str) -> bool:
    """``node`` is a call of the function sqlglot does not know, ``name`` (lower case)."""
    return isinstance(node, exp.Anonymous) and str(node.this).lower() == name
