"""Names in another ASCII case than the server's: SQLite finds them.

``CREATE TABLE Users`` then ``SELECT * FROM users`` works in SQLite; MariaDB's
table names (and aliases) are case-sensitive, so the server says there is no
such table.  A table reference the server would not find is written with the
server's own spelling (``catalog/server_names.py``), and a column's qualifier
with its table's or alias's; a name already spelled as the server has it, or
one it does not have, stays.  PostgreSQL's driver SQL folds every name
(``translate/pg_names.py``), so there this only reaches tables and columns an
earlier version made quoted in another case.
"""

from __future__ import annotations

from sqlglot import exp

from .. import pg_names
from ..context import Context


def table_names(tree: exp.Expression, ctx: Context) -> exp.Expression:
    spelling = getattr(ctx.schema, "server_spelling", None)
    if spelling is None:
        return tree
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    for table in tree.find_all(exp.Table):
        ident = table.this
        if not isinstance(ident, exp.Identifier) or table.args.get("db") or ident.name.lower() in ctes:
            continue
        written = ident.name
        seen = written if ctx.is_mysql else pg_names.fold(written)  # how the driver SQL spells it
        actual = spelling(written)
        if actual is not None and actual != seen:
            ctx.schema_dependent = True  # only then: a statement spelled as the server has it is shared
            table.set("this", _exact(actual))
    _qualifiers(tree)
    return tree


def _qualifiers(tree: exp.Expression) -> None:
    """A column's qualifier spelled as its table or alias is (MariaDB's are case-sensitive;
    a server spelling above is exact): ``SELECT User.a FROM user``."""
    sources: dict[str, exp.Identifier] = {}
    for source in tree.find_all(exp.Table, exp.Subquery):
        alias = source.args.get("alias")
        ident = alias.this if alias is not None and alias.this is not None else source.this
        if isinstance(ident, exp.Identifier):
            sources.setdefault(ident.name.lower(), ident)
    for column in tree.find_all(exp.Column):
        qualifier = column.args.get("table")
        if isinstance(qualifier, exp.Identifier) and not column.args.get("db"):
            ident = sources.get(qualifier.name.lower())
            if ident is not None and (ident.name != qualifier.name or ident.meta.get(pg_names.EXACT)):
                column.set("table", ident.copy())


_SCOPES = (exp.Select, exp.Update, exp.Delete, exp.Insert)


def column_names(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """PostgreSQL: column names likewise (MariaDB matches them without regard to case),
    where the column's table is known: its qualifier's, or the only tables its query reads."""
    columns = getattr(ctx.schema, "server_columns", None)
    if columns is None or ctx.is_mysql:
        return tree
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    for column in list(tree.find_all(exp.Column)):
        ident = column.this
        if isinstance(ident, exp.Identifier):
            tables = _tables_of(column, ctes)
            if tables:
                _respell(ident, tables, columns, ctx)
    insert = tree if isinstance(tree, exp.Insert) else None
    if insert is not None and isinstance(insert.this, exp.Schema) and isinstance(insert.this.this, exp.Table):
        target = _server_table(insert.this.this, ctes)
        for ident in insert.this.expressions:
            if isinstance(ident, exp.Identifier) and target is not None:
                _respell(ident, [target], columns, ctx)
    return tree


def _exact(name: str) -> exp.Identifier:
    ident = exp.to_identifier(name, quoted=True)
    ident.meta[pg_names.EXACT] = True
    return ident


def _respell(ident: exp.Identifier, tables: list[str], columns, ctx: Context) -> None:
    seen = pg_names.fold(ident.name)
    spellings: set[str] = set()
    for table in tables:
        known = columns(table)
        if known is None:
            return
        found = known.get(ident.name.lower(), [])
        if seen in found:
            return
        spellings.update(found)
    if len(spellings) == 1:
        ctx.schema_dependent = True
        ident.replace(_exact(spellings.pop()))


def _server_table(table: exp.Table, ctes: set[str]) -> str | None:
    """The server's name of a table reference (a CTE or a schema-qualified one: None)."""
    ident = table.this
    if not isinstance(ident, exp.Identifier) or table.args.get("db") or ident.name.lower() in ctes:
        return None
    return ident.name if ident.meta.get(pg_names.EXACT) else pg_names.fold(ident.name)


def _sources(scope: exp.Expression) -> list[exp.Expression]:
    if isinstance(scope, exp.Select):
        found = []
        source = scope.args.get("from_") or scope.args.get("from")
        if source is not None:
            found.append(source.this)
        return found + [j.this for j in scope.args.get("joins") or []]
    if isinstance(scope, exp.Insert):
        target = scope.this
        return [target.this if isinstance(target, exp.Schema) else target]
    found = [scope.this]
    source = scope.args.get("from_") or scope.args.get("from")
    if source is not None:
        found.append(source.this)
    return found + [j.this for j in scope.args.get("joins") or []]


def _tables_of(column: exp.Column, ctes: set[str]) -> list[str]:
    """The server tables ``column`` may belong to ([] when a source is not a table)."""
    qualifier = column.table.lower()
    scope = column.find_ancestor(*_SCOPES)
    while scope is not None:
        if isinstance(scope, exp.Insert) and column.find_ancestor(exp.Select) is not None:
            return []  # INSERT … SELECT: the SELECT's own column, read there
        sources = _sources(scope)
        if qualifier:
            for source in sources:
                if source.alias_or_name.lower() == qualifier:
                    server = _server_table(source, ctes) if isinstance(source, exp.Table) else None
                    return [server] if server is not None else []
            scope = scope.find_ancestor(*_SCOPES)  # an outer query's table
            continue
        servers = [_server_table(s, ctes) if isinstance(s, exp.Table) else None for s in sources]
        return [s for s in servers if s is not None] if servers and None not in servers else []
    return []
