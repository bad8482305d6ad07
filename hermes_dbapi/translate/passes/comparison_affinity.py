"""Comparisons of a column with a constant of another kind, as SQLite's affinity rules read them.

SQLite applies a column's affinity to the other operand of a comparison when
that operand has none (a literal, a parameter):

* a TEXT column against a number compares text: ``v = 7`` is ``v = '7'`` (so
  ' 7' and '7.0' do not match).  PostgreSQL has no ``text = integer`` operator
  and MariaDB compared numbers (' 7' and '7.0' matched, 'abc' matched 0, and
  inside an UPDATE strict mode made the conversion an error).  The number
  becomes its SQLite text; a parameter is cast to text.
* an INTEGER or REAL column against text that is not a number: every number
  sorts before every text, so ``i = 'abc'`` is false and ``i < 'abc'`` true
  (NULL for a NULL ``i``).  PostgreSQL refused 'abc' as a bigint, MariaDB read
  it as 0.  Text that is a number (' 5', '5.0') becomes that number.

``IN`` lists and ``BETWEEN`` bounds follow the left operand's affinity, as in
SQLite; ``IS``/``IS NOT`` compare as ``=``/``<>`` do.
"""

from __future__ import annotations

import math
import re

from sqlglot import exp

from ...fts.sqlvalues import real_to_text
from ..context import Context
from .value_classes import column_affinity

_ORDERED = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.NullSafeEQ, exp.NullSafeNEQ)
_MIRROR = {exp.LT: exp.GT, exp.LTE: exp.GTE, exp.GT: exp.LT, exp.GTE: exp.LTE}
# "number < text" holds for these with the column on the left
_TRUE_WHEN_COLUMN_LEFT = {exp.NEQ: True, exp.EQ: False, exp.LT: True, exp.LTE: True, exp.GT: False, exp.GTE: False}
_NULL_SAFE = {exp.NullSafeEQ: False, exp.NullSafeNEQ: True}  # c IS 'abc': false even for a NULL c
_NUMBER = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*")


def _number_literal(node: exp.Expression) -> exp.Literal | None:
    inner = node.this if isinstance(node, exp.Neg) else node
    if isinstance(inner, exp.Literal) and not inner.is_string:
        return inner
    return None


def _sqlite_text(node: exp.Expression) -> str | None:
    """SQLite's text of a numeric literal (an integer, or a REAL without exponent)."""
    literal = _number_literal(node)
    if literal is None:
        return None
    sign = "-" if isinstance(node, exp.Neg) else ""
    text = literal.this
    if text.isdigit():
        return sign + str(int(text))
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    shown = real_to_text(value)
    return None if "e" in shown else sign + shown  # SQLite's exponent form: left as it was


def _as_text(other: exp.Expression, ctx: Context) -> exp.Expression | None:
    if isinstance(other, exp.Placeholder):
        return exp.Cast(this=other.copy(), to=exp.DataType.build("CHAR" if ctx.is_mysql else "TEXT"))
    text = _sqlite_text(other)
    return None if text is None else exp.Literal.string(text)


def _as_number(text: str) -> exp.Expression | None:
    if not _NUMBER.fullmatch(text):
        return None
    stripped = text.strip()
    body = stripped.lstrip("+-")
    literal = exp.Literal.number(body)
    return exp.Neg(this=literal) if stripped.startswith("-") else literal


def _typed_side(node: exp.Expression, ctx: Context) -> tuple[exp.Column, str] | None:
    if isinstance(node, exp.Column) and not node.is_star:
        affinity = column_affinity(node, ctx)
        if affinity in ("TEXT", "INTEGER", "REAL"):
            return node, affinity
    return None


def _constant_order(cmp: exp.Expression, column: exp.Column, column_left: bool) -> exp.Expression:
    """True or false for a number against text, NULL for a NULL column: ``c = c`` / ``c <> c``
    (``IS``/``IS NOT`` are never NULL)."""
    if type(cmp) in _NULL_SAFE:
        return exp.true() if _NULL_SAFE[type(cmp)] else exp.false()
    kind = type(cmp) if column_left else _MIRROR.get(type(cmp), type(cmp))
    same = exp.EQ if _TRUE_WHEN_COLUMN_LEFT[kind] else exp.NEQ
    return exp.Paren(this=same(this=column.copy(), expression=column.copy()))


def _compare(cmp: exp.Expression, ctx: Context) -> exp.Expression:
    for key, other_key in (("this", "expression"), ("expression", "this")):
        typed = _typed_side(cmp.args[key], ctx)
        if typed is None:
            continue
        column, affinity = typed
        other = cmp.args[other_key]
        if affinity == "TEXT":
            replaced = _as_text(other, ctx)
            if replaced is not None:
                other.replace(replaced)
        elif isinstance(other, exp.Literal) and other.is_string:
            number = _as_number(other.this)
            if number is not None:
                other.replace(number)
            else:
                return _constant_order(cmp, column, column_left=key == "this")
        return cmp
    return cmp


def _in_list(node: exp.In | exp.Between, ctx: Context) -> None:
    """The items of an IN list, or the bounds of a BETWEEN, against a TEXT column."""
    typed = _typed_side(node.this, ctx)
    if typed is None or typed[1] != "TEXT":
        return
    items = node.expressions if isinstance(node, exp.In) else [node.args["low"], node.args["high"]]
    for item in list(items):
        replaced = _as_text(item, ctx)
        if replaced is not None:
            item.replace(replaced)


def _assignment(node: exp.Expression) -> bool:
    """``SET c = v`` of an UPDATE or an upsert: a store, not a comparison."""
    return node.arg_key == "expressions" and isinstance(node.parent, (exp.Update, exp.OnConflict))


def comparison_affinity(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(*_ORDERED, exp.In, exp.Between)):
        if isinstance(node, (exp.In, exp.Between)):
            _in_list(node, ctx)
        elif not _assignment(node):
            result = _compare(node, ctx)
            if result is not node:
                node.replace(result)
    return tree
