"""``rowid``/``oid``/``_rowid_`` → the server column holding the table's rowid.

Servers have no implicit rowid.  A table with a rowid alias (INTEGER PRIMARY
KEY) has its value in that column; an ordinary table without one gets a hidden
automatic column, ``hdb_rowid`` (:mod:`.ddl`, kept out of ``*`` by
:mod:`.stars`).  A real column of that name wins, as in SQLite.  Tables with
neither (virtual tables) raise NotSupportedError naming the table; a WITHOUT
ROWID table's raises SQLite's "no such column", a view's reads NULL (SQLite
3.40 does that).
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import HIDDEN_ROWID, Context

_NAMES = {"rowid", "oid", "_rowid_"}
_SCOPES = (exp.Select, exp.Update, exp.Delete, exp.Insert)


def _tables(node: exp.Expression) -> dict[str, str]:
    """alias-or-name (lowercase) → table name, for the statement around ``node``."""
    out: dict[str, str] = {}
    for table in node.root().find_all(exp.Table):
        if table.name:
            out[(table.alias or table.name).lower()] = table.name
            out.setdefault(table.name.lower(), table.name)
    return out


def _scope_tables(scope: exp.Expression) -> list[str]:
    """Tables a statement level reads directly (its FROM, joins, or DML target)."""
    found = []
    sources = [scope.this] if isinstance(scope, (exp.Update, exp.Delete, exp.Insert)) else []
    source = scope.args.get("from_") or scope.args.get("from")
    if source is not None:
        sources.append(source.this)
    sources += [j.this for j in scope.args.get("joins") or []]
    for item in sources:
        if isinstance(item, exp.Schema):
            item = item.this
        if isinstance(item, exp.Table) and item.name:
            found.append(item.name)
    return found


def _unqualified(column: exp.Expression, everything: dict[str, str]) -> list[str]:
    """The nearest enclosing level that reads any table decides, as SQLite's name resolution."""
    scope = column.find_ancestor(*_SCOPES)
    while scope is not None:
        found = sorted({t.lower(): t for t in _scope_tables(scope)}.values())
        if found:
            return found
        scope = scope.find_ancestor(*_SCOPES)
    return sorted(set(everything.values()))


def target(table: str, name: str, ctx: Context) -> str | None:
    """The server column for ``name`` (a rowid spelling) of ``table``; None to leave it,
    "" for a view's (SQLite reads NULL)."""
    if any(column.lower() == name.lower() for column, _d, _k in ctx.schema.columns(table)):
        return None
    kind = ctx.schema.relation_kind(table)
    if kind == "view":
        return ""
    if kind == "without_rowid":
        raise errors.operational(f"no such column: {name}")
    alias = ctx.schema.rowid_column(table)
    if alias is not None:
        return alias
    if ctx.schema.implicit_rowid(table):
        return HIDDEN_ROWID
    if not ctx.schema.columns(table):
        return None
    raise errors.not_supported(f"the implicit rowid of table {table}", ctx.dialect)


def rowid_alias(tree: exp.Expression, ctx: Context) -> exp.Expression:
    columns = [c for c in tree.find_all(exp.Column) if c.name.lower() in _NAMES and not c.this.args.get("quoted")]
    listed = _insert_list(tree)
    if not columns and not listed:
        return tree
    ctx.schema_dependent = True
    tables = _tables(tree)
    for column in columns:
        if column.table:
            candidates = [tables.get(column.table.lower())]
        else:
            candidates = _unqualified(column, tables)
        candidates = [c for c in candidates if c]
        if len(candidates) != 1:
            continue  # ambiguous or unknown: leave it for the server to report
        try:
            server = target(candidates[0], column.name, ctx)
        except errors.sqlite3.OperationalError:
            raise errors.operational(f"no such column: {column.sql(dialect='sqlite')}") from None
        if server == "":
            column.replace(exp.Null())
        elif server is not None:
            column.set("this", exp.to_identifier(server, quoted=True))
    for identifier in listed:
        server = target(tree.this.this.name, identifier.name, ctx)
        if server is not None:
            identifier.replace(exp.to_identifier(server, quoted=True))
    return tree


def _insert_list(tree: exp.Expression) -> list[exp.Identifier]:
    """Rowid spellings in ``INSERT INTO t (…)``'s column list."""
    if not (isinstance(tree, exp.Insert) and isinstance(tree.this, exp.Schema)):
        return []
    return [
        e for e in tree.this.expressions
        if isinstance(e, exp.Identifier) and e.name.lower() in _NAMES and not e.args.get("quoted")
    ]
