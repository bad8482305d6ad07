"""A result column's alias named in WHERE or HAVING, as SQLite reads it.

SQLite resolves a name in WHERE and HAVING against the FROM tables first and,
when none has such a column, against the SELECT's own aliases
(``SELECT count(*) AS n … HAVING n > 1``).  PostgreSQL reads neither clause's
aliases, MariaDB only HAVING's: the aliased expression is put in the alias's
place.  Only when every source's columns are known (tables of the catalog,
CTEs and derived tables with named columns); otherwise the name is left to
the server, as before.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from .column_names import has_star, projection

_ROWID = {"rowid", "oid", "_rowid_"}


def _ctes(tree: exp.Expression) -> dict[str, list[str] | None]:
    out: dict[str, list[str] | None] = {}
    for cte in tree.find_all(exp.CTE):
        listed = cte.args.get("alias")
        columns = [c.name.lower() for c in listed.columns] if isinstance(listed, exp.TableAlias) and listed.columns else None
        out[cte.alias_or_name.lower()] = columns if columns is not None else _named(cte.this)
    return out


def _named(query: exp.Expression) -> list[str] | None:
    """The output names of a query, or None when one is a *."""
    select = projection(query)
    if select is None or has_star(select):
        return None
    return [e.alias_or_name.lower() for e in select.expressions]


def _source_columns(select: exp.Select, ctx: Context, ctes: dict[str, list[str] | None]) -> set[str] | None:
    """Every column name the SELECT's sources have, or None when one source is unknown."""
    sources = []
    from_ = select.args.get("from_") or select.args.get("from")
    if from_ is not None:
        sources.append(from_.this)
    sources += [j.this for j in select.args.get("joins") or []]
    known = set(_ROWID)
    for source in sources:
        if isinstance(source, exp.Table) and not source.args.get("db"):
            name = source.name.lower()
            if name in ctes:
                columns = ctes[name]
            else:
                found = ctx.schema.columns(source.name)
                ctx.schema_dependent = True
                columns = [c[0].lower() for c in found] or None
        elif isinstance(source, exp.Subquery):
            columns = _named(source.this)
        else:
            columns = None
        if columns is None:
            return None
        known.update(columns)
    return known


def alias_references(tree: exp.Expression, ctx: Context) -> exp.Expression:
    ctes: dict[str, list[str] | None] | None = None
    for select in list(tree.find_all(exp.Select)):
        aliases = {e.alias.lower(): e.this for e in select.expressions if isinstance(e, exp.Alias) and e.alias}
        if not aliases:
            continue
        clauses = ["where"] if ctx.is_mysql else ["where", "having"]
        found = [(c, col) for c in clauses if select.args.get(c) is not None
                 for col in select.args[c].find_all(exp.Column)
                 if not col.table and col.name.lower() in aliases and col.find_ancestor(exp.Select) is select]
        if not found:
            continue
        ctes = _ctes(tree) if ctes is None else ctes
        known = _source_columns(select, ctx, ctes)
        if known is None:
            continue
        for _clause, column in found:
            name = column.name.lower()
            if name not in known:
                column.replace(exp.Paren(this=aliases[name].copy()))
    return tree
