"""``rowid``/``oid``/``_rowid_`` → the table's INTEGER PRIMARY KEY column.

Servers have no implicit rowid.  A table with a rowid alias has its value in
that column; a table without one has no stable equivalent, so the reference
raises NotSupportedError naming the table.  A real column of that name wins,
as in SQLite.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context

_NAMES = {"rowid", "oid", "_rowid_"}


def _tables(node: exp.Expression) -> dict[str, str]:
    """alias-or-name (lowercase) → table name, for the statement around ``node``."""
    out: dict[str, str] = {}
    for table in node.root().find_all(exp.Table):
        if table.name:
            out[(table.alias or table.name).lower()] = table.name
            out.setdefault(table.name.lower(), table.name)
    return out


def rowid_alias(tree: exp.Expression, ctx: Context) -> exp.Expression:
    columns = [c for c in tree.find_all(exp.Column) if c.name.lower() in _NAMES and not c.this.args.get("quoted")]
    if not columns:
        return tree
    ctx.schema_dependent = True
    tables = _tables(tree)
    for column in columns:
        if column.table:
            candidates = [tables.get(column.table.lower())]
        else:
            candidates = sorted(set(tables.values()))
        candidates = [c for c in candidates if c]
        if len(candidates) != 1:
            continue  # ambiguous or unknown: leave it for the server to report
        table = candidates[0]
        if any(name.lower() == column.name.lower() for name, _d, _k in ctx.schema.columns(table)):
            continue
        alias = ctx.schema.rowid_column(table)
        if alias is None:
            if not ctx.schema.columns(table):
                continue
            raise errors.not_supported(f"the implicit rowid of table {table}", ctx.dialect)
        column.set("this", exp.to_identifier(alias, quoted=True))
    return tree
