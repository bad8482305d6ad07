"""An aggregate used as a window function after the passes rewrote it.

Several aggregates are written for the servers as an expression around the
server's aggregate: ``total(x)`` as ``CAST(COALESCE(SUM(x), 0) AS DOUBLE)``,
``json_group_array(x)`` as ``'[' || COALESCE(STRING_AGG(…), '') || ']'``.  With
an ``OVER (…)`` the window then sits on the whole expression, which neither
server can read; here it moves onto the aggregates inside, and the expression
goes around them again.  MariaDB has no window form of GROUP_CONCAT or
JSON_ARRAYAGG/JSON_OBJECTAGG: NotSupportedError naming the function.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context

_NO_MARIADB_WINDOW = {"json_arrayagg": "json_group_array()", "json_objectagg": "json_group_object()"}


def _aggregates(node: exp.Expression) -> list[exp.Expression]:
    """The aggregate calls of ``node`` itself (not of a sub-SELECT or another window)."""
    found = []
    for inner in node.walk(prune=lambda n: isinstance(n, (exp.Query, exp.Window))):
        if isinstance(inner, exp.AggFunc) or (
                isinstance(inner, exp.Anonymous) and str(inner.this).lower() in _NO_MARIADB_WINDOW):
            found.append(inner)
    return found


def _refuse_on_mariadb(calls: list[exp.Expression], ctx: Context) -> None:
    for call in calls:
        if isinstance(call, exp.GroupConcat):
            raise errors.not_supported("group_concat() as a window function", ctx.dialect)
        if isinstance(call, exp.Anonymous):
            raise errors.not_supported(_NO_MARIADB_WINDOW[str(call.this).lower()] + " as a window function",
                                       ctx.dialect)


def window_calls(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for window in list(tree.find_all(exp.Window)):
        body = window.this
        if isinstance(body, exp.Filter) or isinstance(body, exp.AggFunc) and not ctx.is_mysql:
            continue
        calls = _aggregates(body) if body is not None else []
        if ctx.is_mysql:
            _refuse_on_mariadb(calls, ctx)
        if isinstance(body, exp.AggFunc) or not calls:
            continue  # a window function (row_number(), lag() …) or the aggregate itself
        for call in calls:
            over = window.copy()
            over.set("this", call.copy())
            call.replace(over)
        window.replace(window.this)
    return tree
