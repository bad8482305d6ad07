"""PostgreSQL: keep the hidden rowid column out of ``*`` and positional INSERTs.

A table without a rowid alias holds its implicit rowid in ``hdb_rowid``
(:mod:`.ddl`).  MariaDB declares it INVISIBLE; PostgreSQL has no such thing, so
where a statement reads such a table:

* ``*`` and ``t.*`` become the table's columns as SQLite lists them (SQLite's
  order: every source in turn, without the right-hand ``USING``/``NATURAL``
  columns), other sources staying ``alias.*``;
* ``INSERT INTO t VALUES``/``SELECT`` without a column list gets one;
* ``RETURNING *`` lists the target's columns (on MariaDB too when other items
  stand next to it, as in ``RETURNING rowid, *``: MariaDB refuses a bare ``*`` there).
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context


class _Tables:
    """Schema lookups for one statement (CTE names shadow tables)."""

    def __init__(self, tree: exp.Expression, ctx: Context) -> None:
        self.ctx = ctx
        self.ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}

    def name(self, node: exp.Expression) -> str | None:
        if isinstance(node, exp.Table) and node.name and not node.args.get("catalog"):
            if node.name.lower() not in self.ctes and (node.db or "main").lower() in ("main", "temp"):
                return node.name
        return None

    def hidden(self, node: exp.Expression) -> bool:
        name = self.name(node)
        if name is None:
            return False
        self.ctx.schema_dependent = True
        return self.ctx.schema.implicit_rowid(name)

    def columns(self, node: exp.Expression) -> list[tuple[str, bool, bool]]:
        name = self.name(node)
        return self.ctx.schema.star_columns(name) if name else []


def _is_star(item: exp.Expression) -> bool:
    return isinstance(item, exp.Star) or (isinstance(item, exp.Column) and isinstance(item.this, exp.Star))


def _qualifier(node: exp.Expression) -> exp.Identifier | None:
    alias = node.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.this is not None:
        return alias.this
    if isinstance(node, exp.Table):
        return node.this if isinstance(node.this, exp.Identifier) else None
    return None


def _column(name: str, quoted: bool, qualifier: exp.Identifier | None) -> exp.Column:
    return exp.Column(
        this=exp.to_identifier(name, quoted=quoted), table=qualifier.copy() if qualifier is not None else None
    )


def _sources(select: exp.Select) -> list[tuple[exp.Expression, exp.Join | None]]:
    source = select.args.get("from_") or select.args.get("from")
    if source is None:
        return []
    return [(source.this, None)] + [(j.this, j) for j in select.args.get("joins") or []]


def _expand_all(sources: list, tables: _Tables) -> list[exp.Expression] | None:
    """SQLite's ``*`` over ``sources``; None where it cannot be spelled out."""
    out: list[exp.Expression] = []
    seen: set[str] = set()
    unknown = False  # a source whose columns are not known here came before
    for node, join in sources:
        qualifier = _qualifier(node)
        if qualifier is None:
            return None
        columns = tables.columns(node)
        skip: set[str] = set()
        if join is not None and join.args.get("using"):
            skip = {u.name.lower() for u in join.args["using"]}
        if join is not None and (join.args.get("method") or "").upper() == "NATURAL":
            if not columns or unknown:
                return None
            skip = {c[0].lower() for c in columns} & seen
        if columns:
            out += [_column(name, quoted, qualifier) for name, _gen, quoted in columns if name.lower() not in skip]
            seen |= {c[0].lower() for c in columns}
        elif skip:
            return None  # a derived table's USING columns: unknown here
        else:
            out.append(exp.Column(this=exp.Star(), table=qualifier.copy()))
            unknown = True
    return out


def _natural_joins(sources: list, tables: _Tables) -> None:
    """``NATURAL JOIN`` → ``JOIN … USING (common columns)``: both sides' hidden
    rowids would otherwise be common columns too."""
    seen: list[str] = []
    for node, join in sources:
        quoted = {name: q for name, _g, q in tables.columns(node)}
        columns = list(quoted)
        if not columns:
            return  # a derived source: its columns (and later joins') are not known here
        if join is not None and (join.args.get("method") or "").upper() == "NATURAL":
            left = {name.lower() for name in seen}
            common = [name for name in columns if name.lower() in left]
            join.set("method", None)
            if common:
                join.set("using", [exp.to_identifier(name, quoted=quoted[name]) for name in common])
            else:
                join.set("kind", "CROSS")
        seen += columns


def _expand_select(select: exp.Select, tables: _Tables) -> None:
    sources = _sources(select)
    if not any(tables.hidden(node) for node, _j in sources):
        return
    _natural_joins(sources, tables)
    items = select.expressions
    if not any(_is_star(i) for i in items):
        return
    new: list[exp.Expression] = []
    for item in items:
        if isinstance(item, exp.Star):
            expanded = _expand_all(sources, tables)
            if expanded is None:
                return
            new += expanded
        elif _is_star(item):
            match = [n for n, _j in sources if (q := _qualifier(n)) is not None and q.name.lower() == item.table.lower()]
            if len(match) == 1 and tables.hidden(match[0]):
                qualifier = _qualifier(match[0])
                new += [_column(name, quoted, qualifier) for name, _g, quoted in tables.columns(match[0])]
            else:
                new.append(item)
        else:
            new.append(item)
    select.set("expressions", new)


def _target(tree: exp.Expression) -> exp.Expression | None:
    target = tree.this
    return target.this if isinstance(target, exp.Schema) else target


def _insert_list(tree: exp.Insert, tables: _Tables) -> None:
    target = tree.this
    if not isinstance(target, exp.Table) or tree.expression is None or not tables.hidden(target):
        return
    names = [exp.to_identifier(name, quoted=quoted) for name, generated, quoted in tables.columns(target) if not generated]
    tree.set("this", exp.Schema(this=target, expressions=names))


def _returning(tree: exp.Expression, tables: _Tables) -> None:
    returning = tree.args.get("returning")
    target = _target(tree)
    if returning is None or target is None or not any(_is_star(i) for i in returning.expressions):
        return
    if tables.ctx.is_mysql and len(returning.expressions) == 1:
        return  # MariaDB: a lone * already leaves INVISIBLE columns out; with other items it is refused
    if not tables.ctx.is_mysql and not tables.hidden(target):
        return
    columns = [_column(name, quoted, None) for name, _g, quoted in tables.columns(target)]
    if not columns:
        return
    returning.set("expressions", [c for i in returning.expressions for c in (columns if _is_star(i) else [i])])


def _check_value_count(tree: exp.Insert, tables: _Tables) -> None:
    """SQLite's prepare-time error for a column-less INSERT of the wrong width (the
    server would count the hidden rowid too, or word it its own way)."""
    target, values = tree.this, tree.expression
    if not isinstance(target, exp.Table) or not isinstance(values, exp.Values):
        return
    widths = {len(row.expressions) if isinstance(row, exp.Tuple) else 1 for row in values.expressions}
    tables.ctx.schema_dependent = True
    visible = [name for name, generated, _quoted in tables.columns(target) if not generated]
    if len(widths) == 1 and visible and (width := widths.pop()) != len(visible):
        raise errors.operational(f"table {target.name} has {len(visible)} columns but {width} values were supplied")


def hide_rowid(tree: exp.Expression, ctx: Context) -> exp.Expression:
    tables = _Tables(tree, ctx)
    if isinstance(tree, exp.Insert):
        _check_value_count(tree, tables)
    if ctx.is_mysql:  # INVISIBLE does it, but for a * next to other RETURNING items
        if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)):
            _returning(tree, tables)
        return tree
    for select in list(tree.find_all(exp.Select)):
        _expand_select(select, tables)
    if isinstance(tree, exp.Insert):
        _insert_list(tree, tables)
    if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)):
        _returning(tree, tables)
    return tree
