"""Query shapes SQLite accepts and the servers refuse or read differently.

* Derived tables without an alias (PG < 16, MySQL) get ``_hdb_dN``.
* ``SELECT rowid, *``: MySQL needs a qualified star next to other items.
* ``INDEXED BY``/``NOT INDEXED`` are planner hints: stripped (an INDEXED BY naming no
  index of its table is SQLite's "no such index" first).
* ``COLLATE NOCASE``: neither server has a collation folding ASCII letters only
  (MySQL's ``utf8mb4_general_ci`` also folds accents).  Both operands are folded
  with LOWER(), which ``strings.sqlite_case`` makes ASCII-only.
* ``INSERT … DEFAULT VALUES`` is ``() VALUES ()`` on MySQL.
* Aggregate queries with bare columns and no GROUP BY (``SELECT a, max(b) FROM
  t``): SQLite takes the bare value from the max/min row; PG refuses and MySQL
  picks an arbitrary row, so PG raises NotSupportedError (MySQL: tolerance).
* ``ORDER BY 0.5`` / ``ORDER BY 'x'``: a constant that is not a column number
  sorts nothing in SQLite; PG refuses a non-integer constant: the key is dropped.
* PG matches a bare ``ORDER BY name`` against output column names first, and names
  an unaliased ``CASE … ELSE id END`` (or ``coalesce(x, id)``) column "id" too: the
  ORDER BY then sorts by that expression.  SQLite only looks at explicit aliases,
  so such a key is qualified with its (single) table.
* MySQL has no partial indexes: the ``WHERE`` of CREATE INDEX is dropped (a
  UNIQUE index admits many NULLs, which covers ``WHERE col IS NOT NULL``).
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ._build import qualifier, rtrim
from ._walk import reached
from .value_classes import column_table


def constant_order_keys(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for order in list(tree.find_all(exp.Order)):
        for key in order.expressions:  # ORDER BY ((2)) is column 2 in SQLite, a constant on the servers
            term = key.this if isinstance(key, exp.Ordered) else key
            inner = term
            while isinstance(inner, exp.Paren):
                inner = inner.this
            if inner is not term and isinstance(inner, exp.Literal) and not inner.is_string and inner.this.isdigit():
                term.replace(inner.copy())
        keys = order.expressions
        kept = [k for k in keys if not _non_integer_constant(k.this if isinstance(k, exp.Ordered) else k)]
        if len(kept) == len(keys):
            continue
        if kept:
            order.set("expressions", kept)
        else:
            order.pop()
    return tree


def order_by_source_columns(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return tree
    for select in list(tree.find_all(exp.Select)):
        order = select.args.get("order")
        source = select.args.get("from_") or select.args.get("from")
        if order is None or source is None or select.args.get("joins") or not isinstance(source.this, exp.Table) \
                or not isinstance(source.this.this, exp.Identifier):  # a table-valued function (json_each)
            continue
        aliases = {item.alias.lower() for item in select.expressions if isinstance(item, exp.Alias)}
        named = qualifier(source.this)
        known = {name.lower() for name, _declared, _keyed in ctx.schema.columns(source.this.name)}
        for key in order.expressions:
            column = key.this if isinstance(key, exp.Ordered) else key
            if (isinstance(column, exp.Column) and not column.table and column.name.lower() not in aliases
                    and (not known or column.name.lower() in known)):  # an unknown name keeps SQLite's "no such column: x"
                ctx.schema_dependent = True
                column.set("table", named.copy())
    return tree


def _non_integer_constant(key: exp.Expression) -> bool:
    inner = key
    while isinstance(inner, (exp.Neg, exp.Paren)):
        inner = inner.this
    if isinstance(inner, exp.Null):
        return True
    return isinstance(inner, exp.Literal) and (inner.is_string or not inner.this.isdigit() or key is not inner)


def derived_aliases(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for n, sub in enumerate(list(tree.find_all(exp.Subquery))):
        if not sub.alias and isinstance(sub.parent, (exp.From, exp.Join)):
            sub.set("alias", exp.TableAlias(this=exp.to_identifier(f"_hdb_d{n}")))
    for n, values in enumerate(list(tree.find_all(exp.Values))):
        if not values.alias and isinstance(values.parent, (exp.From, exp.Join)):
            values.replace(_named_values(values, f"_hdb_v{n}"))
    return tree


def _named_values(values: exp.Values, alias: str) -> exp.Expression:
    """``FROM (VALUES …)``: SQLite names the columns column1, column2, …; both
    servers want an alias, and MariaDB names the columns after the first row: a
    derived table of SELECTs naming them, joined by UNION ALL."""
    rows = [r.expressions if isinstance(r, exp.Tuple) else [r] for r in values.expressions]
    names = [f"column{i + 1}" for i in range(len(rows[0]))]
    selects = [exp.select(*[exp.alias_(v.copy(), n) if i == 0 else v.copy() for v, n in zip(row, names)])
               for i, row in enumerate(rows)]
    query: exp.Expression = selects[0]
    for select in selects[1:]:
        query = exp.union(query, select, distinct=False)
    return exp.Subquery(this=query, alias=exp.TableAlias(this=exp.to_identifier(alias)))


def qualified_star(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql:
        return tree
    for select in tree.find_all(exp.Select):
        items = select.expressions
        if len(items) < 2 or not any(isinstance(i, exp.Star) for i in items):
            continue
        source = select.args.get("from_") or select.args.get("from")
        if source is None or select.args.get("joins"):
            continue
        table = source.this
        for item in items:
            if isinstance(item, exp.Star):
                item.replace(exp.Column(this=exp.Star(), table=qualifier(table)))
    return tree


def strip_index_hints(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """The hints go; an INDEXED BY naming no index of its table is SQLite's prepare error."""
    for table in tree.find_all(exp.Table):
        hint = table.args.get("indexed")
        if isinstance(hint, exp.Expression) and hint.name:
            ctx.schema_dependent = True
            on = ctx.schema.index_table(hint.name)
            if on is None or on.lower() != table.name.lower():
                raise errors.operational(f"no such index: {hint.name}")
        for key in ("indexed", "not_indexed"):
            if table.args.get(key) is not None:
                table.set(key, None)
    return tree


_COMPARISONS = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.Like, exp.In)


_DECLARED = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE)
_BOTH_SIDES = (exp.Is, exp.NullSafeEQ, exp.NullSafeNEQ)


def _assignment(node: exp.Expression) -> bool:
    """``k = v`` in the SET list of an UPDATE or of an upsert's DO UPDATE / ON DUPLICATE KEY UPDATE."""
    return isinstance(node, exp.EQ) and node.arg_key == "expressions" and isinstance(
        node.parent, (exp.Update, exp.OnConflict))


def _collated(x: exp.Expression, name: str) -> exp.Expression:
    return exp.Collate(this=x.copy(), expression=exp.Var(this=name))


def column_collations(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """A column declared COLLATE NOCASE or RTRIM compares and sorts by that collation
    (SQLite: an explicit COLLATE first, then the left operand's column, even a
    BINARY one, then the right's): the comparison or ORDER BY key gets the COLLATE written out, which
    :func:`collate_nocase` folds.  IN lists and sub-SELECTs, BETWEEN bounds and IS
    alike; GROUP BY, DISTINCT, min/max, UNIQUE and a derived table's column stay
    byte-wise (README)."""
    getter = getattr(ctx.schema, "collations", None)
    if getter is None:
        return tree

    def declared(x: exp.Expression | None) -> str | None:
        if not isinstance(x, exp.Column) or isinstance(x.this, exp.Star):
            return None
        table = column_table(x, ctx)
        return getter(table).get(x.name.lower()) if table else None

    for node in list(tree.find_all(*_DECLARED, *_BOTH_SIDES, exp.In, exp.Between, exp.Ordered)):
        if _assignment(node):
            continue  # SET k = … (UPDATE, upserts): a column assigned, not compared
        sides = [v for v in node.args.values() if isinstance(v, exp.Expression)]
        if any(isinstance(v, exp.Collate) for v in sides):
            continue  # an explicit COLLATE wins
        left = node.this
        if isinstance(node, _DECLARED):
            target = left if isinstance(left, exp.Column) else node.expression  # a left column's own, even BINARY
            name = declared(target)
            if name:
                target.replace(_collated(target, name))
        elif isinstance(node, _BOTH_SIDES):  # IS, IS NOT, IS [NOT] DISTINCT FROM
            target = left if isinstance(left, exp.Column) else node.expression
            name = declared(target)
            if name and not isinstance(node.expression, exp.Null):
                node.set("this", _collated(left, name))
                node.set("expression", _collated(node.expression, name))
        elif isinstance(node, exp.In):
            name = declared(left)
            query = node.args.get("query")
            inner = query.this if isinstance(query, exp.Subquery) else query
            if name and node.expressions:
                left.replace(_collated(left, name))
                node.set("expressions", [_collated(e, name) for e in node.expressions])
            elif name and isinstance(inner, exp.Select) and len(inner.expressions) == 1 \
                    and not isinstance(inner.expressions[0], exp.Star):
                left.replace(_collated(left, name))
                only = inner.expressions[0]
                value = only.this if isinstance(only, exp.Alias) else only
                value.replace(_collated(value, name))  # the sub-SELECT's values folded alike
        elif isinstance(node, exp.Between):
            name = declared(left)
            if name:
                for key in ("this", "low", "high"):
                    node.set(key, _collated(node.args[key], name))
        else:  # ORDER BY key (not of a DISTINCT: PostgreSQL sorts those only by what they select)
            select = node.find_ancestor(exp.Select)
            name = declared(left) if select is None or not select.args.get("distinct") else None
            if name:
                left.replace(_collated(left, name))
    return tree


def _ordinal_to_column(collate: exp.Collate) -> None:
    """``ORDER BY 2 COLLATE NOCASE`` sorts the second result column by NOCASE: the
    number becomes that column's expression (folding the number sorts nothing)."""
    key = collate.this
    ordered = collate.parent
    select = ordered.parent.parent if isinstance(ordered, exp.Ordered) and ordered.parent else None
    if not (isinstance(key, exp.Literal) and not key.is_string and key.this.isdigit() and isinstance(select, exp.Select)):
        return
    index = int(key.this) - 1
    if 0 <= index < len(select.expressions) and not isinstance(select.expressions[index], exp.Star):
        item = select.expressions[index]
        key.replace((item.this if isinstance(item, exp.Alias) else item).copy())


def collate_nocase(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """COLLATE NOCASE folds with LOWER() (ASCII letters only, strings.sqlite_case), RTRIM strips trailing spaces, BINARY is the default:
    applied to the collated operand and to the other side of its comparison."""
    for collate in list(tree.find_all(exp.Collate)):
        _ordinal_to_column(collate)
        name = collate.expression.name.upper()
        fold = {"NOCASE": lambda x: exp.Lower(this=x), "RTRIM": rtrim, "BINARY": lambda x: x}.get(name)
        if fold is None:
            continue
        parent = collate.parent
        collate.replace(fold(collate.this))
        if isinstance(parent, _COMPARISONS) and name != "BINARY":
            for key in ("this", "expression"):
                side = parent.args.get(key)
                if side is not None and not isinstance(side, (exp.Lower, exp.Trim)):
                    side.replace(fold(side.copy()))
    return tree


def default_values(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql and isinstance(tree, exp.Insert) and tree.args.get("default"):
        tree.set("default", None)
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        tree.set("this", exp.Schema(this=target, expressions=[]))
        tree.set("expression", exp.Values(expressions=[exp.Tuple(expressions=[])]))
    return tree


def partial_index(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql and isinstance(tree, exp.Create) and tree.kind == "INDEX":
        params = tree.this.args.get("params") if tree.this is not None else None
        if params is not None and params.args.get("where") is not None:
            params.set("where", None)
        for where in list(tree.find_all(exp.Where)):
            where.pop()
    return tree


def _bare(column: exp.Column, select: exp.Select) -> bool:
    """True if ``column`` is evaluated per row of ``select`` outside any aggregate."""
    return reached(column, select, (exp.AggFunc, exp.Select, exp.Window))


def bare_columns(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """A bare column next to an aggregate without GROUP BY: PostgreSQL refuses it;
    MariaDB takes it from the first row, SQLite from the min()/max() row (the
    other aggregates: an arbitrary row, alike enough with one row).  Both raise
    NotSupportedError where they would differ silently."""
    for select in tree.find_all(exp.Select):
        if select.args.get("group"):
            continue
        items = select.expressions
        aggregates = [
            a
            for i in items
            for a in i.find_all(exp.AggFunc)
            if a.find_ancestor(exp.Select) is select and a.find_ancestor(exp.Window) is None
        ]
        if ctx.is_mysql:
            aggregates = [a for a in aggregates if isinstance(a, (exp.Min, exp.Max)) and not a.expressions]
        if aggregates and any(_bare(c, select) for i in items for c in i.find_all(exp.Column)):
            raise errors.not_supported("a bare column in an aggregate query without GROUP BY", ctx.dialect)
    return tree


def wrap_in_subquery(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """MySQL: ``IN (SELECT … LIMIT n)`` and a DML target read in its own subquery
    (errors 1235 / 1093) work once the subquery is materialised as a derived table."""
    if not ctx.is_mysql or not isinstance(tree, (exp.Update, exp.Delete)):
        return tree
    target = tree.this.name if isinstance(tree.this, exp.Table) else ""
    for n, node in enumerate(list(tree.find_all(exp.In))):
        query = node.args.get("query")
        select = query.this if isinstance(query, exp.Subquery) else query
        if not isinstance(select, exp.Select):
            continue
        reads_target = any(t.name.lower() == target.lower() for t in select.find_all(exp.Table))
        if select.args.get("limit") is None and not reads_target:
            continue
        derived = exp.select("*").from_(exp.Subquery(this=select.copy(), alias=exp.TableAlias(
            this=exp.to_identifier(f"_hdb_w{n}"))))
        node.set("query", exp.Subquery(this=derived) if isinstance(query, exp.Subquery) else derived)
    return tree
