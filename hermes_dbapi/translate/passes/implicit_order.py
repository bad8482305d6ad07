"""The row order SQLite gives a query without ORDER BY, made explicit.

SQL leaves that order undefined, but applications lean on SQLite's: a scan of
one table returns its rows in rowid order, a search through an index in the
index's order (then rowid), ``LIMIT`` keeps the first of those, and GROUP BY
hands its groups out sorted.  A server returns heap order (PostgreSQL: an
updated row moves to the end; a hash aggregate's groups in no order) or its own
clustered key's (MariaDB, for a table whose PRIMARY KEY is not the rowid), and
``INSERT … SELECT`` then numbers the new rows differently.

The shadow catalog (SQLite itself, with the same schema) is asked for its plan,
once per statement text, and the order that plan yields is appended:

* a query over one table (top level, or an INSERT's SELECT) without DISTINCT,
  aggregate, window or subquery: ``ORDER BY rowid`` or ``ORDER BY <index
  columns>, rowid`` (not for a one-row lookup by rowid or by a whole UNIQUE key);
* a GROUP BY: ``ORDER BY <its terms>`` where SQLite sorts them, or the index's
  columns where it groups through an index;
* a UNION (not ALL), INTERSECT or EXCEPT: ``ORDER BY 1, 2, ...``, the order of
  the temporary b-tree SQLite reads its rows from.

A plan of any other shape leaves the query as it is.
"""

from __future__ import annotations

import re
from typing import Any

from sqlglot import exp

from ..context import Context
from ._build import qualifier
from .column_names import has_star, projection

_ROWID_SCAN = re.compile(r"^(SCAN|SEARCH) \S+(?: AS \S+)?(?: USING INTEGER PRIMARY KEY \((.*)\))?$")
_INDEX_SCAN = re.compile(r"^(?:SCAN|SEARCH) \S+(?: AS \S+)? USING (?:COVERING )?INDEX (\S+)(?: \((.*)\))?$")
_SORTED_GROUPS = "USE TEMP B-TREE FOR GROUP BY"
_PRIMARY_KEY_SCAN = re.compile(r"^(?:SCAN|SEARCH) \S+(?: AS \S+)?(?: USING PRIMARY KEY \(.*\))?$")

Key = tuple[str, bool]  # (column, descending)


def implicit_order(tree: exp.Expression, ctx: Context) -> exp.Expression:
    select = tree.expression if isinstance(tree, exp.Insert) else tree
    if isinstance(select, _SORTED_COMPOUNDS) and not select.args.get("order"):
        order = _compound_order(select, ctx)
        if order is not None:
            select.set("order", exp.Order(expressions=order))
        return tree
    if not isinstance(select, exp.Select) or select.args.get("order"):
        return tree
    order = _group_order(select, ctx) if select.args.get("group") else _scan_order(select, ctx)
    if order is not None:
        select.set("order", exp.Order(expressions=order))
    return tree


# -- UNION / INTERSECT / EXCEPT -----------------------------------------------------

_SORTED_COMPOUNDS = (exp.Union, exp.Intersect, exp.Except)
_COMPOUND_B_TREE = re.compile(r"^(UNION|INTERSECT|EXCEPT) USING TEMP B-TREE$")


def _compound_order(compound: exp.SetOperation, ctx: Context) -> list[exp.Ordered] | None:
    """A compound whose last operator removes duplicates hands its rows out of the
    temporary b-tree it builds: sorted by every column, NULLs first (PostgreSQL
    hashes them, MariaDB keeps arrival order, and a LIMIT then kept other rows)."""
    if isinstance(compound, exp.Union) and not compound.args.get("distinct"):
        return None  # UNION ALL: the branches' rows in turn
    first = projection(compound)
    if first is None or has_star(first):
        return None
    plan = _plan(compound, ctx)
    if plan is None or not any(_COMPOUND_B_TREE.match(line) for line in plan):
        return None
    return [_ordered(exp.Literal.number(i + 1), False) for i in range(len(first.expressions))]


# -- one table ------------------------------------------------------------------


def _scan_order(select: exp.Select, ctx: Context) -> list[exp.Ordered] | None:
    if not _plain(select):
        return None
    tables = list(select.find_all(exp.Table))
    if len(tables) != 1 or tables[0].db or not isinstance(select.args.get("from_"), exp.From):
        return None
    table = tables[0]
    ctx.schema_dependent = True
    kind = ctx.schema.relation_kind(table.name)
    if kind == "without_rowid":
        return _without_rowid_order(select, table, ctx)
    if kind != "table":
        return None  # a view, a virtual (FTS) table, or unknown
    rowid = ctx.schema.rowid_column(table.name)
    if rowid is None and (not ctx.schema.implicit_rowid(table.name)
                          or any(c.lower() == "_rowid_" for c, _d, _k in ctx.schema.columns(table.name))):
        return None  # a server table made without the shim has no rowid to order by (nor one hidden by a column)
    keys = _scan_keys(select, table.name, ctx)
    if keys is None:
        return None
    order = [_ordered(exp.column(name, table=qualifier(table), quoted=True), desc) for name, desc in keys]
    last = (exp.column(rowid, table=qualifier(table), quoted=True) if rowid
            else exp.column("_rowid_", table=qualifier(table)))
    # the rowid is never NULL: the server's own NULL order keeps its index usable
    order.append(exp.Ordered(this=last, desc=False, nulls_first=ctx.is_mysql))
    return order


def _without_rowid_order(select: exp.Select, table: exp.Table, ctx: Context) -> list[exp.Ordered] | None:
    """A WITHOUT ROWID table is a b-tree on its PRIMARY KEY: a scan yields rows in key
    order, a scan of another index in that index's order and then the key's."""
    plan = _plan(select, ctx)
    if plan is None or len(plan) != 1 or _aggregates(select, ctx):
        return None
    primary = _shadow(ctx, lambda db: _primary_key(db, table.name))
    if not primary:
        return None
    if _PRIMARY_KEY_SCAN.match(plan[0]):
        keys = primary
    else:
        found = _INDEX_SCAN.match(plan[0])
        keys = _shadow(ctx, lambda db: _index_keys(db, found.group(1))) if found else None
        if keys is None:
            return None
        named = {name.lower() for name, _desc in keys}
        keys = keys + [key for key in primary if key[0].lower() not in named]
    return [_ordered(exp.column(name, table=qualifier(table), quoted=True), desc) for name, desc in keys]


def _primary_key(db: Any, table: str) -> list[Key] | None:
    index = next((row[1] for row in db.execute("SELECT * FROM pragma_index_list(?)", (table,)) if row[3] == "pk"), None)
    return _index_keys(db, index) if index else None


def _plain(select: exp.Select) -> bool:
    """No clause that fixes or changes the order of the rows a scan yields."""
    if any(select.args.get(k) for k in ("having", "distinct", "joins", "laterals", "qualify")):
        return False
    return not any(select.find(kind) for kind in (exp.AggFunc, exp.Window, exp.Subquery, exp.Union))


def _scan_keys(select: exp.Select, table: str, ctx: Context) -> list[Key] | None:
    """The key columns SQLite's scan yields rows in before the rowid; None when the
    plan is not one plain scan or search of the table, or finds one row."""
    plan = _plan(select, ctx)
    if plan is None or len(plan) != 1 or _aggregates(select, ctx):
        return None
    lookup = not any(select.find(kind) for kind in (exp.In, exp.Is))  # "=" is then one value each
    found = _ROWID_SCAN.match(plan[0])
    if found:
        return None if lookup and found.group(2) == "rowid=?" else []  # one row by its rowid: no order
    found = _INDEX_SCAN.match(plan[0])
    if found is None:
        return None
    index, terms = found.group(1), found.group(2) or ""
    keys = _shadow(ctx, lambda db: _index_keys(db, index))
    if keys and lookup and _shadow(ctx, lambda db: _one_row(db, table, index, terms, len(keys))):
        return None
    return keys


def _aggregates(select: exp.Select, ctx: Context) -> bool:
    """An aggregate sqlglot does not know as one (``total()``, a JSON1 aggregate):
    SQLite's bytecode steps it.  One row: no order to keep."""
    sql = "EXPLAIN " + select.sql(dialect="sqlite")
    ops = _shadow(ctx, lambda db: [row[1] for row in db.execute(sql, _markers(select))])
    return ops is None or any(str(op).startswith("Agg") for op in ops)


def _one_row(db: Any, table: str, index: str, terms: str, width: int) -> bool:
    """A search that names every key column of a UNIQUE index with ``=``: one row at most."""
    unique = any(row[1] == index and row[2] for row in db.execute("SELECT * FROM pragma_index_list(?)", (table,)))
    return unique and terms.count("=?") == width and ">" not in terms and "<" not in terms


# -- GROUP BY -------------------------------------------------------------------


def _group_order(select: exp.Select, ctx: Context) -> list[exp.Ordered] | None:
    """Groups in the order of the GROUP BY terms where SQLite's plan sorts them, or of
    the index it groups through; each term must read the same in ORDER BY (no
    select alias inside an expression: a server's ORDER BY does not resolve it)."""
    if any(select.args.get(k) for k in ("distinct", "qualify")) or select.find(exp.Window):
        return None
    if any(inner is not select and inner.args.get("group") for inner in select.find_all(exp.Select)):
        return None
    terms = list(select.args["group"].expressions)
    if not ctx.is_mysql and any(t.find(exp.Placeholder) for t in terms):
        return None  # PostgreSQL: the parameter again in ORDER BY is another $n, not the grouped term
    aliases = {e.alias.lower() for e in select.expressions if e.alias}
    for term in terms:
        named = [c for c in term.find_all(exp.Column) if not c.table and c.name.lower() in aliases]
        if named and not (isinstance(term, exp.Column) and len(named) == 1):
            return None
    plan = _plan(select, ctx)
    if plan is None:
        return None
    ctx.schema_dependent = True
    sorted_by = [d for d in plan if "GROUP BY" in d]
    if sorted_by == [_SORTED_GROUPS]:
        return [_ordered(t.copy(), False) for t in terms]
    if not sorted_by and len(plan) == 1:
        return _index_group_order(plan[0], terms, ctx)
    return None


def _index_group_order(detail: str, terms: list[exp.Expression], ctx: Context) -> list[exp.Ordered] | None:
    """ORDER BY the leading columns of the index SQLite groups through, when they are
    the GROUP BY's plain columns (in any order: SQLite follows the index's)."""
    found = _INDEX_SCAN.match(detail)
    if found is None or not all(isinstance(t, exp.Column) for t in terms):
        return None
    keys = _shadow(ctx, lambda db: _index_keys(db, found.group(1)))
    if not keys or len(keys) < len(terms):
        return None
    leading = keys[: len(terms)]
    by_name = {t.name.lower(): t for t in terms}
    if {name.lower() for name, _desc in leading} != set(by_name):
        return None
    return [_ordered(by_name[name.lower()].copy(), desc) for name, desc in leading]


# -- the shadow catalog -----------------------------------------------------------


def _ordered(term: exp.Expression, desc: bool) -> exp.Ordered:
    """SQLite's NULLs sort first."""
    return exp.Ordered(this=term, desc=desc, nulls_first=not desc)


def _markers(select: exp.Expression) -> dict[str, None]:
    return {p.name: None for p in select.find_all(exp.Placeholder) if p.name}


def _shadow(ctx: Context, ask: Any) -> Any:
    """``ask(db)`` on the shadow catalog under its lock; None when there is none or
    it fails (then no order is added: the server decides)."""
    db, lock = getattr(ctx.schema, "db", None), getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return None
    with lock:
        try:
            return ask(db)
        except Exception:  # noqa: BLE001
            return None


def _plan(select: exp.Expression, ctx: Context) -> list[str] | None:
    """The detail lines of SQLite's EXPLAIN QUERY PLAN for ``select`` (parameters unbound)."""
    sql = "EXPLAIN QUERY PLAN " + select.sql(dialect="sqlite")
    return _shadow(ctx, lambda db: [str(row[-1]) for row in db.execute(sql, _markers(select))])


def _index_keys(db: Any, index: str) -> list[Key] | None:
    """(column, descending) per key column of ``index``; None for an expression or a
    collation other than BINARY (the server's order of those is not SQLite's here)."""
    keys = []
    for _seqno, cid, name, desc, collation, key in db.execute("SELECT * FROM pragma_index_xinfo(?)", (index,)):
        if not key:
            continue
        if cid < 0 or name is None or str(collation).upper() != "BINARY":
            return None
        keys.append((name, bool(desc)))
    return keys
