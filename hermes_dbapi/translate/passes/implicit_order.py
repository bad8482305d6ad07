"""The row order SQLite gives a query without ORDER BY, made explicit.

SQL leaves that order undefined, but applications lean on SQLite's: a scan of
one table returns its rows in rowid order, a search through an index in the
index's order (then rowid), and ``LIMIT`` keeps the first of those.  A server
returns heap order (PostgreSQL: an updated row moves to the end) or its own
clustered key's (MariaDB, for a table whose PRIMARY KEY is not the rowid), and
``INSERT … SELECT`` then numbers the new rows differently.

For a query over one table (top level, or an INSERT's SELECT) with no ORDER BY,
grouping, DISTINCT, aggregate or window, the shadow catalog (SQLite itself, with
the same schema) is asked for its plan, once per statement text, and the order
of the scan it names is appended: ``ORDER BY rowid`` or ``ORDER BY <index
columns>, rowid``.  A plan of any other shape leaves the query as it is.
"""

from __future__ import annotations

import re
from typing import Any

from sqlglot import exp

from ..context import Context

_ROWID_SCAN = re.compile(r"^(SCAN|SEARCH) \S+(?: AS \S+)?(?: USING INTEGER PRIMARY KEY \((.*)\))?$")
_INDEX_SCAN = re.compile(r"^(?:SCAN|SEARCH) \S+(?: AS \S+)? USING (?:COVERING )?INDEX (\S+)(?: \((.*)\))?$")


def implicit_order(tree: exp.Expression, ctx: Context) -> exp.Expression:
    select = tree.expression if isinstance(tree, exp.Insert) else tree
    if isinstance(select, exp.Select) and select.args.get("group"):
        return _group_order(tree, select, ctx)
    if not isinstance(select, exp.Select) or not _plain(select):
        return tree
    tables = list(select.find_all(exp.Table))
    if len(tables) != 1 or tables[0].db or not isinstance(select.args.get("from_"), exp.From):
        return tree
    table = tables[0]
    ctx.schema_dependent = True
    if ctx.schema.relation_kind(table.name) != "table":
        return tree  # a view, a virtual (FTS) table, WITHOUT ROWID, or unknown
    rowid = ctx.schema.rowid_column(table.name)
    if rowid is None and (not ctx.schema.implicit_rowid(table.name)
                          or any(c.lower() == "_rowid_" for c, _d, _k in ctx.schema.columns(table.name))):
        return tree  # a server table made without the shim has no rowid to order by (nor one hidden by a column)
    keys = _scan_order(select, table.name, ctx)
    if keys is None:
        return tree
    qualifier = table.alias_or_name
    # SQLite's NULLs sort first; the rowid is never NULL: the server's own default keeps its index usable
    order = [exp.Ordered(this=exp.column(name, table=qualifier, quoted=True), desc=desc, nulls_first=not desc)
             for name, desc in keys]
    last = exp.column(rowid, table=qualifier, quoted=True) if rowid else exp.column("_rowid_", table=qualifier)
    order.append(exp.Ordered(this=last, desc=False, nulls_first=ctx.is_mysql))
    select.set("order", exp.Order(expressions=order))
    return tree


def _group_order(tree: exp.Expression, select: exp.Select, ctx: Context) -> exp.Expression:
    """Groups come out of SQLite's GROUP BY sorter in the order of its terms (NULLs
    first); a server's hash aggregate has none.  Only where SQLite's plan sorts
    (``USE TEMP B-TREE FOR GROUP BY``: an index would set the order of its own
    columns) and each term reads the same in ORDER BY (no select alias inside an
    expression, which a server's ORDER BY does not resolve)."""
    if any(select.args.get(k) for k in ("order", "distinct", "qualify")) or select.find(exp.Window):
        return tree
    if any(inner is not select and inner.args.get("group") for inner in select.find_all(exp.Select)):
        return tree
    terms = list(select.args["group"].expressions)
    aliases = {e.alias.lower() for e in select.expressions if e.alias}
    for term in terms:
        named = [c for c in term.find_all(exp.Column) if not c.table and c.name.lower() in aliases]
        if named and not (isinstance(term, exp.Column) and len(named) == 1):
            return tree
    plan = _plan(select, ctx)
    if plan is None:
        return tree
    ctx.schema_dependent = True
    sorted_by = [d for d in plan if "GROUP BY" in d]
    if sorted_by == ["USE TEMP B-TREE FOR GROUP BY"]:
        order = [exp.Ordered(this=t.copy(), desc=False, nulls_first=True) for t in terms]
    elif not sorted_by and len(plan) == 1:
        order = _index_group_order(plan[0], terms, ctx)  # groups read in an index's order
        if order is None:
            return tree
    else:
        return tree
    select.set("order", exp.Order(expressions=order))
    return tree


def _index_group_order(detail: str, terms: list[exp.Expression], ctx: Context) -> list[exp.Ordered] | None:
    """ORDER BY the leading columns of the index SQLite groups through, when they are
    the GROUP BY's plain columns (in any order: SQLite follows the index's)."""
    found = _INDEX_SCAN.match(detail)
    if found is None or not all(isinstance(t, exp.Column) for t in terms):
        return None
    with ctx.schema.lock:  # type: ignore[attr-defined]
        try:
            keys = _index_keys(ctx.schema.db, found.group(1))  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001
            return None
    if not keys or len(keys) < len(terms):
        return None
    leading = keys[: len(terms)]
    by_name = {t.name.lower(): t for t in terms}
    if {name.lower() for name, _desc in leading} != set(by_name):
        return None
    return [exp.Ordered(this=by_name[name.lower()].copy(), desc=desc, nulls_first=not desc) for name, desc in leading]


def _plan(select: exp.Select, ctx: Context) -> list[str] | None:
    """The detail lines of SQLite's EXPLAIN QUERY PLAN for ``select`` (parameters unbound)."""
    db, lock = getattr(ctx.schema, "db", None), getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return None
    markers = {p.name: None for p in select.find_all(exp.Placeholder) if p.name}
    with lock:
        try:
            return [str(row[-1]) for row in db.execute("EXPLAIN QUERY PLAN " + select.sql(dialect="sqlite"), markers)]
        except Exception:  # noqa: BLE001 - no plan: no order added, the server decides
            return None


def _plain(select: exp.Select) -> bool:
    """No clause that fixes or changes the order of the rows a scan yields."""
    if any(select.args.get(k) for k in ("order", "group", "having", "distinct", "joins", "laterals", "qualify")):
        return False
    return not any(select.find(kind) for kind in (exp.AggFunc, exp.Window, exp.Subquery, exp.Union))


def _scan_order(select: exp.Select, table: str, ctx: Context) -> list[tuple[str, bool]] | None:
    """The key columns (name, descending) SQLite's scan yields rows in before the rowid;
    None when the plan is not one plain scan or search of the table, or finds one row."""
    db, lock = getattr(ctx.schema, "db", None), getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return None
    markers = {p.name: None for p in select.find_all(exp.Placeholder) if p.name}
    sql = select.sql(dialect="sqlite")
    with lock:
        try:
            plan = db.execute("EXPLAIN QUERY PLAN " + sql, markers).fetchall()
            if len(plan) != 1:
                return None
            if any(str(op).startswith("Agg") for _addr, op, *_ in db.execute("EXPLAIN " + sql, markers)):
                return None  # an aggregate sqlglot does not know as one (total(), a JSON1 aggregate): one row
            detail = str(plan[0][-1])
            lookup = not any(select.find(kind) for kind in (exp.In, exp.Is))  # "=" is then one value each
            found = _ROWID_SCAN.match(detail)
            if found:
                return None if lookup and found.group(2) == "rowid=?" else []  # one row by its rowid: no order
            found = _INDEX_SCAN.match(detail)
            if found is None:
                return None
            keys = _index_keys(db, found.group(1))
            if keys and lookup and _one_row(db, table, found.group(1), found.group(2) or "", len(keys)):
                return None
            return keys
        except Exception:  # noqa: BLE001 - no plan: no order added, the server decides
            return None


def _one_row(db: Any, table: str, index: str, terms: str, width: int) -> bool:
    """A search that names every key column of a UNIQUE index with ``=``: one row at most."""
    unique = any(row[1] == index and row[2] for row in db.execute("SELECT * FROM pragma_index_list(?)", (table,)))
    return unique and terms.count("=?") == width and ">" not in terms and "<" not in terms


def _index_keys(db: Any, index: str) -> list[tuple[str, bool]] | None:
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
