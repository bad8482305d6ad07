"""PostgreSQL: ``INSERT … VALUES (NULL, …)`` into an INTEGER PRIMARY KEY.

In SQLite a NULL written to the rowid alias means "the next rowid"; PG's
identity column refuses NULL (NOT NULL constraint).  A literal NULL in that
position of a VALUES row becomes ``DEFAULT``; a parameter there becomes
``COALESCE(param, nextval(<the identity's sequence>))``, so a bound None takes
the next id as DEFAULT would (the sequence is only drawn from for a NULL).  In
OR IGNORE's derived rows (passes/ignore_rows.py) both take the COALESCE form:
DEFAULT has no place there, and a typed value compares with the key.
(MySQL's AUTO_INCREMENT already reads NULL that way.)
"""

from __future__ import annotations

from sqlglot import exp

from .. import pg_names
from ..context import Context
from ..params import MARKER
from . import ignore_rows


def pg_null_rowid(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql or not isinstance(tree, exp.Insert):
        return tree
    rows, derived = _rows_of(tree)
    if rows is None:
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
    for row in rows:
        if position < len(row):
            value = row[position]
            if isinstance(value, exp.Null) and not derived:
                value.replace(exp.var("DEFAULT"))
            elif isinstance(value, exp.Null) or _is_parameter(value):
                value.replace(or_next_id(value.copy(), table.name, column))
                ctx.facts["rowid_coalesced"] = True
    return tree


def _rows_of(insert: exp.Insert) -> tuple[list[list[exp.Expression]] | None, bool]:
    """The value expressions of each VALUES row of ``insert`` and whether they are a
    derived table (OR IGNORE's filter, passes/ignore_rows.py: no DEFAULT there, a
    typed value instead)."""
    source = insert.expression
    if isinstance(source, exp.Values):
        return [list(row.expressions) for row in source.expressions if isinstance(row, exp.Tuple)], False
    if isinstance(source, exp.Select) and isinstance(source.args.get("from_"), exp.From):
        rows = ignore_rows.typed_row_values(source.args["from_"].this)
        if rows is not None:
            return rows, True
    return None, False


def _is_parameter(node: exp.Expression) -> bool:
    return isinstance(node, exp.Placeholder) and (node.name or "").startswith(MARKER)


def or_next_id(param: exp.Expression, table: str, column: str) -> exp.Expression:
    """``COALESCE(param, nextval(pg_get_serial_sequence('"table"', 'column')))``,
    the names quoted as Connection._rewind_identity's upkeep quotes them."""
    sequence = exp.Anonymous(this="pg_get_serial_sequence", expressions=[
        exp.Literal.string(pg_names.quote(table)), exp.Literal.string(pg_names.fold(column))])
    next_id = exp.Anonymous(this="nextval", expressions=[sequence])  # text to regclass: an implicit cast
    return exp.Coalesce(this=param, expressions=[next_id])
