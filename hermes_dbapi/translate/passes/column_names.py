"""The column names of a derived table, a CTE or a view, as SQLite gives them.

SQLite names such a column by its alias, by the column it reads, or by the
expression's text, and makes the names unique the way ``sqlite3ColumnsFromExprList``
does: a repeated name gets ``:1``, ``:2``, ... (``SELECT b, b`` reads as ``b``
and ``b:1``; compared without case).  PostgreSQL keeps both ``b`` (an outer
``b`` is then "ambiguous"), MariaDB refuses the subquery ("duplicate column
name").  Each column whose SQLite name is not its own name gets that name as
its alias, so the outer query reads the columns SQLite reads.  An expression
without an alias always gets its SQLite name: the servers name it otherwise
(MariaDB names ``'B'`` as ``B``, the same as a column ``b``; PostgreSQL names
every literal ``?column?``, which a view refuses twice).  A name longer than
the servers' identifiers (PostgreSQL cuts at 63 bytes) becomes ``columnN``,
SQLite's name for a column it cannot name.

A projection with ``*`` is left alone (its names come from the tables), as is a
CTE or view that lists its column names.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context


def projection(query: exp.Expression) -> exp.Select | None:
    """The SELECT whose items name a query's columns (the first of a compound)."""
    while isinstance(query, (exp.SetOperation, exp.Subquery)):
        query = query.this
    return query if isinstance(query, exp.Select) else None


_MAX_NAME_BYTES = 60


def own_name(item: exp.Expression, position: int) -> str:
    """The name SQLite starts from: the alias, the column, else the expression's text."""
    if isinstance(item, exp.Alias):
        name = item.alias
    elif isinstance(item, exp.Column):
        name = item.name
    else:
        name = item.sql(dialect="sqlite")
        if len(name.encode()) > _MAX_NAME_BYTES:
            name = f"column{position + 1}"
    return f"column{position + 1}" if name.lower() in ("true", "false") else name


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name:N`` with the first N not taken (an ``:digits`` ending is
    replaced, not extended), as SQLite numbers a repeated name."""
    count = 0
    while name.lower() in taken:
        base, colon, digits = name.rpartition(":")
        stem = base if colon and digits.isdigit() and base else name
        count += 1
        name = f"{stem}:{count}"
    return name


def has_star(select: exp.Select) -> bool:
    """``*`` or ``t.*`` among the items: names and count come from the tables."""
    return any(isinstance(i, exp.Star) or isinstance(i, exp.Column) and i.is_star for i in select.expressions)


def _name_columns(query: exp.Expression) -> None:
    select = projection(query)
    if select is None or has_star(select):
        return
    taken: set[str] = set()
    for position, item in enumerate(list(select.expressions)):
        own = own_name(item, position)
        name = _unique(own, taken)
        taken.add(name.lower())
        if name == own and isinstance(item, (exp.Alias, exp.Column)):
            continue
        target = item.this if isinstance(item, exp.Alias) else item
        item.replace(exp.alias_(target.copy(), exp.to_identifier(name, quoted=True)))


def sqlite_column_names(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for sub in tree.find_all(exp.Subquery):
        if isinstance(sub.parent, (exp.From, exp.Join)):
            _name_columns(sub.this)
    for cte in tree.find_all(exp.CTE):
        if not cte.args["alias"].columns:
            _name_columns(cte.this)
    if isinstance(tree, exp.Create) and tree.kind == "VIEW" and not isinstance(tree.this, exp.Schema):
        _name_columns(tree.expression)
    return tree
