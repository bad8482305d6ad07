"""Common table expressions where MySQL/MariaDB read them differently from SQLite.

* ``AS [NOT] MATERIALIZED``: a hint MySQL/MariaDB do not read; dropped there.
* ``WITH … UPDATE``/``WITH … DELETE``/``WITH … INSERT``: MariaDB accepts a WITH
  clause only in front of a SELECT.  The clause moves into each subquery of the
  statement that reads a CTE (``WHERE id IN (WITH … SELECT id FROM lineage)``),
  or in front of an INSERT's own SELECT (``INSERT INTO t WITH … SELECT …``),
  which MariaDB accepts and evaluates the same way.
* In a recursive CTE MySQL/MariaDB type each column from the anchor member
  alone: an anchor ``SELECT ?`` bound to ``'b'`` makes a one-character column,
  and longer values from the recursive member fail with "Data too long".  SQLite
  columns have no length, so a parameter or literal in the anchor is cast to a
  wide type chosen from the recursive member's column (integer or text).
  PostgreSQL has the integer half of this: ``SELECT 1`` is a 32-bit column, so
  an integer anchor becomes BIGINT (SQLite integers are 64-bit).
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ..typenames import affinity

_WIDE_TEXT = "CHAR(16383)"  # MariaDB keeps up to 64 KiB per value in the CTE's work table


def materialized_hints(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """``AS [NOT] MATERIALIZED``: a planner hint SQLite reads and MySQL/MariaDB do not (dropped)."""
    if ctx.is_mysql:
        for cte in tree.find_all(exp.CTE):
            if cte.args.get("materialized") is not None:
                cte.set("materialized", None)
    return tree


def _merged(with_: exp.With, query: exp.Expression) -> exp.With:
    """``with_`` followed by the query's own CTEs, for the query to carry."""
    own = query.args.get("with_")
    merged = with_.copy()
    if isinstance(own, exp.With):
        merged.set("expressions", [*merged.expressions, *own.expressions])
    return merged


def dml_ctes(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql or not isinstance(tree, (exp.Update, exp.Delete, exp.Insert)):
        return tree
    with_ = tree.args.get("with_")
    if not isinstance(with_, exp.With):
        return tree
    source = tree.expression if isinstance(tree, exp.Insert) else None
    if isinstance(source, (exp.Select, exp.SetOperation)):  # INSERT INTO t WITH … SELECT …
        source.set("with_", _merged(with_, source))
        tree.set("with_", None)
        return tree
    names = {cte.alias_or_name for cte in with_.expressions}
    for select in _outermost_selects(tree, with_):
        if any(t.name in names for t in select.find_all(exp.Table) if not t.db):
            select.set("with_", _merged(with_, select))
    tree.set("with_", None)
    return tree


def _outermost_selects(tree: exp.Expression, with_: exp.With) -> list[exp.Select]:
    found = []
    for select in tree.find_all(exp.Select):
        if select.find_ancestor(exp.With) is with_:
            continue
        if select.find_ancestor(exp.Select) is None:
            found.append(select)
    return found


def recursive_anchor_types(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for with_ in tree.find_all(exp.With):
        if not with_.args.get("recursive"):
            continue
        for cte in with_.expressions:
            union = cte.this
            if not isinstance(union, exp.Union) or not isinstance(union.this, exp.Select):
                continue
            anchor, member = union.this, union.expression
            if not isinstance(member, exp.Select):
                continue
            for position, item in enumerate(anchor.expressions):
                target = item.this if isinstance(item, exp.Alias) else item
                if not isinstance(target, (exp.Placeholder, exp.Literal)):
                    continue
                wide = _wide_type(member, position, target, ctx)
                if wide == "text" and ctx.is_mysql:
                    target.replace(exp.Cast(this=target.copy(), to=exp.DataType.build(_WIDE_TEXT, dialect="mysql")))
                elif wide == "integer":
                    target.replace(_wide_integer(target.copy(), ctx))
    return tree


def _wide_integer(value: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql:
        return exp.Cast(this=value, to=exp.DataType.build("BIGINT"))
    # MariaDB sizes even CAST(1 AS SIGNED) to the literal (int(2)); a CASE whose
    # other branch is a 64-bit constant makes the column bigint(20), value unchanged
    return exp.Case(ifs=[exp.If(this=exp.true(), true=value)], default=exp.Literal.number(-(2**63) + 1))


def _wide_type(member: exp.Select, position: int, anchor: exp.Expression, ctx: Context) -> str | None:
    if isinstance(anchor, exp.Literal):
        return "text" if anchor.is_string else "integer" if anchor.is_int else None
    if position >= len(member.expressions):
        return None
    item = member.expressions[position]
    value = item.this if isinstance(item, exp.Alias) else item
    if isinstance(value, (exp.Add, exp.Sub, exp.Mul)):
        return "integer"
    if isinstance(value, (exp.DPipe, exp.Concat)):
        return "text"
    if isinstance(value, exp.Column):
        declared = _declared_type(member, value, ctx)
        if declared is not None:
            return "integer" if affinity(declared) == "INTEGER" else "text"
    return None


def _declared_type(select: exp.Select, column: exp.Column, ctx: Context) -> str | None:
    tables = [t for t in select.find_all(exp.Table) if t.find_ancestor(exp.Select) is select]
    if column.table:
        tables = [t for t in tables if t.alias_or_name == column.table]
    for table in tables:
        ctx.schema_dependent = True
        for name, declared, _ in ctx.schema.columns(table.name):
            if name.lower() == column.name.lower():
                return declared
    return None
