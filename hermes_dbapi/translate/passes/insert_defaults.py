"""PostgreSQL: ``INSERT … VALUES (NULL, …)`` into an INTEGER PRIMARY KEY.

In SQLite a NULL written to the rowid alias means "the next rowid"; PG's
identity column refuses NULL (NOT NULL constraint).  A literal NULL in that
position of a VALUES row becomes ``DEFAULT``.  (MySQL's AUTO_INCREMENT already
reads NULL that way.)  A bound NULL is not seen here: tolerance.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context


def pg_null_rowid(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql or not isinstance(tree, exp.Insert) or not isinstance(tree.expression, exp.Values):
        return tree
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    if not isinstance(table, exp.Table):
        return tree
    column = ctx.schema.rowid_column(table.name)
    ctx.schema_dependent = True
    if column is None:
        return tree
    if isinstance(target, exp.Schema):
        names = [c.name.lower() for c in target.expressions]
    else:
        names = [name.lower() for name, _declared, _keyed in ctx.schema.columns(table.name)]
    if column.lower() not in names:
        return tree
    position = names.index(column.lower())
    for row in tree.expression.expressions:
        if isinstance(row, exp.Tuple) and position < len(row.expressions):
            value = row.expressions[position]
            if isinstance(value, exp.Null):
                value.replace(exp.var("DEFAULT"))
    return tree
