"""``CAST(x AS NUMERIC)`` with SQLite's result types (MariaDB, and PostgreSQL).

SQLite's NUMERIC cast gives an INTEGER when the number is integral (``'42'``,
``4.0``) and a REAL otherwise (``'4.5'``); MariaDB's ``DECIMAL`` is
``DECIMAL(10,0)`` and rounds 4.5 to 5.  A top-level result column becomes the
number's shortest text (``DECIMAL(65,30)`` without its trailing zeros), which
the JSON result hook (``json_typed``, see :mod:`.json`) turns into int or float;
inside an expression the value is a DOUBLE (SQLite's REAL arithmetic).  An
operand statically INTEGER stays as it is, one statically REAL a DOUBLE (SQLite
keeps ``CAST(4.0 AS NUMERIC)`` a REAL).  Known gap: text beyond 64-bit integers
(``'1e20'``) comes back as an int where SQLite gives a REAL.  PostgreSQL: the
same static rule, text through ``trim_scale(CAST(x AS NUMERIC))`` (``'4.0'`` is
the integer 4 there too); text that is no number still raises there.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from .value_classes import is_integer, maybe_real

_NUMERIC = (exp.DataType.Type.DECIMAL,)


_WRITTEN = "sqlite_numeric_cast"  # meta tag: a cast the SQL itself wrote (not one a pass made)


def _is_numeric_cast(node: exp.Expression) -> bool:
    return isinstance(node, exp.Cast) and node.to.is_type(*_NUMERIC) and not node.to.expressions


def mark_numeric_casts(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """First pass: tag the statement's own NUMERIC casts (later passes make some too)."""
    for node in tree.find_all(exp.Cast):
        if _is_numeric_cast(node):
            node.meta[_WRITTEN] = True
    return tree


def _pg_cast(node: exp.Cast, ctx: Context) -> None:
    """PostgreSQL: the NUMERIC result loads as int when integral, as float otherwise."""
    if is_integer(node.this, ctx):
        node.replace(node.this.copy())
    elif maybe_real(node.this, ctx):
        node.set("to", exp.DataType.build("DOUBLE PRECISION", dialect="postgres"))
    else:
        node.replace(exp.Anonymous(this="trim_scale", expressions=[node.copy()]))  # '4.0' → 4, as SQLite


def _shortest_text(value: exp.Expression) -> exp.Expression:
    exact = exp.Cast(this=value, to=exp.DataType.build("DECIMAL(65, 30)", dialect="mysql"))
    text = exp.Cast(this=exact, to=exp.DataType.build("CHAR", dialect="mysql"))
    zeros = exp.Trim(this=text, expression=exp.Literal.string("0"), position="TRAILING")
    return exp.Trim(this=zeros, expression=exp.Literal.string("."), position="TRAILING")


def numeric_cast(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(tree, (exp.Create, exp.Alter)):
        return tree
    casts = [node for node in tree.find_all(exp.Cast) if node.meta.get(_WRITTEN) and _is_numeric_cast(node)]
    if not casts:
        return tree
    if not ctx.is_mysql:
        for node in casts:
            _pg_cast(node, ctx)
        return tree
    typed = set(ctx.facts.get("json_typed", ()))  # type: ignore[arg-type]
    top = tree.expressions if isinstance(tree, exp.Select) else []
    plain = not any(isinstance(item, exp.Star) or isinstance(item.unalias(), exp.Star) for item in top)
    for node in casts:
        item = node.parent if isinstance(node.parent, exp.Alias) else node
        at = next((i for i, candidate in enumerate(top) if candidate is item), -1)
        if is_integer(node.this, ctx):
            node.replace(node.this.copy())  # SQLite: an INTEGER stays itself
        elif maybe_real(node.this, ctx) and not isinstance(node.this, (exp.Literal, exp.Neg)):
            node.set("to", exp.DataType.build("DOUBLE", dialect="mysql"))  # a REAL stays REAL (4.0 too)
        elif plain and at >= 0:
            typed.add(at)
            node.replace(_shortest_text(node.this))
        else:
            node.set("to", exp.DataType.build("DOUBLE", dialect="mysql"))
    if typed:
        ctx.facts["json_typed"] = tuple(sorted(typed))
    return tree
