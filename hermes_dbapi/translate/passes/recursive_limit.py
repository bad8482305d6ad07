"""LIMIT/OFFSET inside a recursive CTE: SQLite stops the recursion after N rows.

SQLite applies a LIMIT on the recursive CTE's compound to the rows the CTE
produces (OFFSET rows are produced, recursion goes on from them, but they are
not returned), which is what lets ``WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL
SELECT x + 1 FROM n LIMIT 5)`` end.  PostgreSQL and MariaDB refuse or ignore it.

For a one-row-per-step chain (a FROM-less anchor; a recursive member reading
only the CTE, without joins, grouping, DISTINCT or LIMIT) the n-th row is the
n-th step, so a step counter carries it::

    WITH RECURSIVE _hdb_rn(x, _hdb_step) AS (SELECT 1, 1 UNION ALL
        SELECT x + 1, n._hdb_step + 1 FROM _hdb_rn AS n WHERE n._hdb_step - off < lim),
      n(x) AS (SELECT x FROM _hdb_rn WHERE _hdb_step > off AND _hdb_step - off <= lim)

Any other shape (a step may make several rows, and SQLite's queue order picks
which ones) raises NotSupportedError naming the construct.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context

_STEP = "_hdb_step"


def _chain(union: exp.Union, name: str) -> bool:
    anchor, step = union.this, union.expression
    if not isinstance(anchor, exp.Select) or anchor.args.get("from_") is not None:
        return False
    if not isinstance(step, exp.Select) or step.args.get("joins") or step.args.get("group"):
        return False
    if step.args.get("distinct") or step.args.get("limit") or step.args.get("having"):
        return False
    if any(step.find_all(exp.AggFunc, exp.Window)):
        return False
    source = step.args.get("from_")
    table = source.this if isinstance(source, exp.From) else None
    if not isinstance(table, exp.Table) or table.name.lower() != name.lower():
        return False
    return not any(isinstance(node, exp.Subquery) for node in step.find_all(exp.Subquery))


def _names(cte: exp.CTE, anchor: exp.Select) -> list[str] | None:
    columns = cte.args["alias"].columns if cte.args.get("alias") is not None else []
    if columns:
        return [c.name for c in columns]
    names = [item.alias_or_name for item in anchor.expressions]
    return names if all(names) and not any(isinstance(item, exp.Star) for item in anchor.expressions) else None


def recursive_limits(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for with_ in list(tree.find_all(exp.With)):
        if not with_.args.get("recursive"):
            continue
        ctes = list(with_.expressions)
        for cte in ctes:
            union = cte.this
            if not isinstance(union, exp.Union) or union.args.get("limit") is None:
                continue
            name = cte.alias_or_name
            names = _names(cte, union.this) if isinstance(union.this, exp.Select) else None
            if not _chain(union, name) or names is None:
                raise errors.not_supported("LIMIT inside a recursive CTE beyond a one-row-per-step chain", ctx.dialect)
            _rewrite(with_, cte, union, name, names)
    return tree


def _rewrite(with_: exp.With, cte: exp.CTE, union: exp.Union, name: str, names: list[str]) -> None:
    limit = union.args["limit"].expression
    offset_node = union.args.get("offset")
    offset = offset_node.expression if offset_node is not None else exp.Literal.number(0)
    union.set("limit", None)
    union.set("offset", None)
    union.set("order", None)  # one row in SQLite's queue at a time: its order cannot matter
    inner = f"_hdb_r{name}"
    anchor, step = union.this, union.expression
    anchor.append("expressions", exp.alias_(exp.Literal.number(1), _STEP))
    table = step.args["from_"].this
    alias = table.alias or table.name
    table.set("this", exp.to_identifier(inner))
    table.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    counter = exp.column(_STEP, table=alias)
    step.append("expressions", exp.Add(this=counter.copy(), expression=exp.Literal.number(1)))
    # step - off < lim, not step < off + lim: a "no limit" bound (2**63 - 1) plus an offset overflows
    done = exp.Sub(this=counter.copy(), expression=offset.copy())
    step.where(exp.LT(this=done, expression=limit.copy()), copy=False)
    cte.set("alias", exp.TableAlias(this=exp.to_identifier(inner), columns=[exp.to_identifier(n) for n in [*names, _STEP]]))
    kept = exp.and_(
        exp.GT(this=exp.column(_STEP), expression=offset.copy()),
        exp.LTE(this=exp.Sub(this=exp.column(_STEP), expression=offset.copy()), expression=limit.copy()),
    )
    visible = exp.select(*[exp.column(n) for n in names]).from_(inner).where(kept)
    outer = exp.CTE(this=visible, alias=exp.TableAlias(this=exp.to_identifier(name), columns=[exp.to_identifier(n) for n in names]))
    expressions = list(with_.expressions)
    position = next(i for i, item in enumerate(expressions) if item is cte)
    expressions.insert(position + 1, outer)
    with_.set("expressions", expressions)
