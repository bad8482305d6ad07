"""A string literal in arithmetic is the number SQLite reads from it: ``'3' * 2`` is 6.

SQLite converts a text operand of ``+ - * / %`` (and unary minus) to the number
its longest numeric prefix spells: ``'3'`` is the integer 3, ``'2.5'`` and
``'1e3'`` are REALs, ``'12abc'`` is 12 and ``'abc'`` 0.  PostgreSQL refuses
``'abc' + 1`` ("datatype mismatch") and MariaDB computes in DOUBLE (``'3' * 2``
is 6.0, ``'10' / '4'`` 2.5).  A literal's number is known when the statement is
translated, so it is written as that number literal (SQLite itself computes it,
so every corner of its reading is its own) and the other passes treat it as any
number.  Text that only a row holds (a TEXT column) is left as it is, except
``strftime()`` with a format of integer fields only (``'%s'``, ``'%Y'``,
``'%Y%m%d'``) or one real field (``'%f'``, ``'%J'``): its text always spells a
number of that type, so ``strftime('%s', 'now') - strftime('%s', created)`` is
the integer difference SQLite computes (PostgreSQL refused text in arithmetic,
MariaDB computed in DOUBLE); compared with an INTEGER or REAL column it is that
number too (the column's affinity converts it in SQLite).  Compared with a bare
number (``strftime('%s', d) > 1700000000``) SQLite compares text with a number,
and text is always the greater: left as it was (a known difference).
"""

from __future__ import annotations

import math
import re
from contextlib import closing

from sqlglot import exp

from ..._stdlib import sqlite3
from ..context import Context
from .value_classes import is_numeric_column

_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod)
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
_INTEGER_FIELDS = re.compile(r"(?:%[dHjmMsSuwWYU])+")  # strftime formats whose text is an integer's digits
_REAL_FIELD = re.compile(r"%[fJ]")  # seconds with their fraction, the Julian day number


def _number_of(text: str) -> exp.Expression | None:
    """The number literal SQLite reads from ``text`` in arithmetic; None if not finite."""
    with closing(sqlite3.connect(":memory:")) as conn:  # translation time only: the result is cached
        value = conn.execute("SELECT ? + 0", (text,)).fetchone()[0]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    literal = exp.Literal.number(repr(abs(value)))
    return exp.Neg(this=literal) if value < 0 or (value == 0 and math.copysign(1, value) < 0) else literal


def _operands(node: exp.Expression) -> list[exp.Expression]:
    if isinstance(node, _ARITHMETIC):
        return [node.this, node.expression]
    if isinstance(node, exp.Neg):
        return [node.this]
    return []


def text_literal_operands(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(*_ARITHMETIC, exp.Neg)):
        for operand in _operands(node):
            inner = operand
            while isinstance(inner, exp.Paren):
                inner = inner.this
            if isinstance(inner, exp.Literal) and inner.is_string:
                number = _number_of(inner.this)
                if number is not None:
                    inner.replace(number)
            else:
                kind = _strftime_number(inner)
                if kind is not None:
                    inner.replace(exp.Cast(this=inner.copy(), to=exp.DataType.build(kind)))
    return tree


def strftime_comparisons(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """``ts > strftime('%s', 'now', '-1 day')``: SQLite gives the text the INTEGER/REAL
    column's affinity, a number; the strftime() becomes that number (PostgreSQL refused
    bigint > text, MariaDB compared as it pleased)."""
    for node in list(tree.find_all(*_COMPARISONS)):
        for mine, other in ((node.this, node.expression), (node.expression, node.this)):
            kind = _strftime_number(mine)
            if kind is not None and is_numeric_column(other, ctx):
                ctx.schema_dependent = True
                mine.replace(exp.Cast(this=mine.copy(), to=exp.DataType.build(kind)))
    return tree


def _strftime_number(node: exp.Expression) -> str | None:
    """The type of the number a ``strftime()``'s text always spells, if it always spells one."""
    fmt = node.args.get("format") if isinstance(node, exp.TimeToStr) else None
    if not (isinstance(fmt, exp.Literal) and fmt.is_string):
        return None
    if _INTEGER_FIELDS.fullmatch(fmt.this):
        return "BIGINT"
    return "DOUBLE" if _REAL_FIELD.fullmatch(fmt.this) else None
