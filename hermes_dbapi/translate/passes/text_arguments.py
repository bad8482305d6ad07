"""A number handed to a text function or to ``||`` is read as its text.

SQLite converts an INTEGER or REAL argument of ``replace()``, ``trim()``,
``unicode()``, ``length()``, ``instr()`` or ``LIKE`` to text (``replace(n, '2', 'x')`` on 42
is '4x'); PostgreSQL has none of these for a number and says the function does
not exist.  An argument that is a number whatever the row (a number literal, an
INTEGER/REAL column, integer arithmetic) is cast to TEXT.  MariaDB converts by
itself.  A REAL literal becomes SQLite's text of it on both servers (``'v' ||
1.0`` is 'v1.0', ``length(1e20)`` is 7: '1.0e+20'); on PostgreSQL any other REAL
read as text (a REAL column, REAL arithmetic, ``CAST(r AS TEXT)``) goes through
``hdb_real_text`` (``helpers/pg_text.py``), which writes it as SQLite does
(15 significant digits, '2.0', '1.0e+20').  MariaDB's text of a REAL is its own
(10.0 reads '10').
"""

from __future__ import annotations

from sqlglot import exp

from ...fts.sqlvalues import real_to_text
from ..context import Context
from ._build import call
from .value_classes import is_integer, is_numeric_column, is_real

# the text arguments of each function SQLite converts numbers for
_TEXT_ARGS: dict[type[exp.Expression], tuple[str, ...]] = {
    exp.Replace: ("this", "expression", "replacement"),
    exp.Trim: ("this", "expression"),
    exp.Unicode: ("this",),
    exp.Length: ("this",),
    exp.Like: ("this", "expression"),
    exp.StrPosition: ("this", "substr"),
}


def _number(x: exp.Expression, ctx: Context) -> bool:
    """A number whatever the row."""
    if isinstance(x, exp.Neg):
        x = x.this
    if isinstance(x, exp.Literal):
        return not x.is_string
    return is_numeric_column(x, ctx) or is_integer(x, ctx) or is_real(x, ctx)


def real_text(x: exp.Expression) -> exp.Expression:
    """PostgreSQL: the REAL ``x`` as SQLite writes it (``helpers/pg_text.py``)."""
    return call("hdb_real_text", x)


def as_text(x: exp.Expression, ctx: Context) -> exp.Expression:
    """``x`` as text on PostgreSQL when it is a number (a REAL as SQLite writes it),
    else ``x`` itself."""
    if ctx.is_mysql or not _number(x, ctx):
        return x
    if is_real(x, ctx):
        return real_text(x)
    return exp.Cast(this=x, to=exp.DataType.build("TEXT"))


def _real_cast(cast: exp.Cast, ctx: Context) -> exp.Expression | None:
    """``CAST(x AS TEXT)`` of a REAL as SQLite writes it, or None when ``x`` is no REAL."""
    if not cast.to.is_type(*exp.DataType.TEXT_TYPES) or cast.to.expressions:
        return None
    text = _real_literal_text(cast.this)
    if text is not None:
        return text
    if ctx.is_mysql or not is_real(cast.this, ctx):
        return None
    return real_text(cast.this)


def _real_literal_text(x: exp.Expression) -> exp.Expression | None:
    """SQLite's text of a REAL literal (``-1.0`` too), or None for anything else."""
    negative = isinstance(x, exp.Neg)
    literal = x.this if negative else x
    if not isinstance(literal, exp.Literal) or literal.is_string or literal.this.isdigit():
        return None
    return exp.Literal.string(real_to_text(-float(literal.this) if negative else float(literal.this)))


def text_arguments(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for cast in list(tree.find_all(exp.Cast)):
        text = _real_cast(cast, ctx)
        if text is not None:
            if cast is tree:
                return text
            cast.replace(text)
    for node in list(tree.find_all(exp.DPipe, *_TEXT_ARGS)):
        for key in ("this", "expression") if isinstance(node, exp.DPipe) else _TEXT_ARGS[type(node)]:
            arg = node.args.get(key)
            if arg is None:
                continue
            text = _real_literal_text(arg)
            node.set(key, text if text is not None else as_text(arg, ctx))
    return tree
