"""MariaDB: window functions and UPDATE forms it lacks.

* ``lag/lead(x, n, default)``: MariaDB 10.11 refuses the third argument.  The
  default applies only where the offset row does not exist, which
  ``lead(1, n)`` (NULL exactly there) tells apart from a NULL value:
  ``CASE WHEN lead(1, n) OVER w IS NULL THEN default ELSE lead(x, n) OVER w END``.
* ``group_concat(…) OVER (…)``: no GROUP_CONCAT window function: NotSupportedError;
  so are GROUPS frames and EXCLUDE (MariaDB has neither; it dropped EXCLUDE).
* ``percent_rank()``/``cume_dist()``: MariaDB hands them out rounded to 10 decimals;
  a CAST to DOUBLE gives the whole double, as SQLite's.
* ``UPDATE … SET a = b, b = a``: MariaDB reads the old row (its sessions run with
  ``SIMULTANEOUS_ASSIGNMENT``); MySQL assigns left to right: NotSupportedError there.
* ``UPDATE … RETURNING``: MariaDB returns rows only from INSERT and DELETE: the
  connection emulates it (returning.py); translated alone it is NotSupportedError.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from .conflicts import refuse_order_dependent


def _offset_default(window: exp.Window) -> exp.Expression:
    func = window.this
    default = func.args.get("default")
    offset = func.args.get("offset") or exp.Literal.number(1)
    probe = window.copy()
    probe.set("this", type(func)(this=exp.Literal.number(1), offset=offset.copy()))
    plain = window.copy()
    plain.this.set("default", None)
    plain.this.set("offset", offset.copy())
    return exp.Case(ifs=[exp.If(this=exp.Is(this=probe, expression=exp.Null()), true=default.copy())], default=plain)


def _excludes(spec: exp.Expression) -> bool:
    """A frame's EXCLUDE other than the default NO OTHERS (MariaDB would drop it silently)."""
    exclude = spec.args.get("exclude")
    return exclude is not None and exclude.name.upper().replace(" ", "") != "NOOTHERS"


def mysql_dml(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql:
        return tree
    if isinstance(tree, exp.Update):
        if tree.args.get("returning"):
            raise errors.not_supported("UPDATE … RETURNING", ctx.dialect)
        refuse_order_dependent(tree.expressions, ctx, "an UPDATE whose SET")  # MySQL; MariaDB reads the old row
    for window in list(tree.find_all(exp.Window)):
        func = window.this
        spec = window.args.get("spec")
        if spec is not None and (str(spec.args.get("kind") or "").upper() == "GROUPS" or _excludes(spec)):
            raise errors.not_supported("a GROUPS frame or EXCLUDE in a window", ctx.dialect)
        if isinstance(func, exp.GroupConcat):
            raise errors.not_supported("group_concat() as a window function", ctx.dialect)
        if isinstance(func, (exp.Lag, exp.Lead)) and func.args.get("default") is not None:
            window.replace(_offset_default(window))
        elif isinstance(func, (exp.PercentRank, exp.CumeDist)):  # MariaDB rounds them to 10 decimals
            window.replace(exp.Cast(this=window.copy(), to=exp.DataType.build("DOUBLE")))
    return tree
