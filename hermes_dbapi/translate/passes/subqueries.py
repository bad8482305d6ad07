"""Subquery forms SQLite reads more leniently than the servers.

* A scalar sub-SELECT that finds several rows gives the first one in SQLite;
  both servers raise "more than one row".  Without a LIMIT of its own it gets
  ``LIMIT 1`` (not inside IN, EXISTS, ANY/ALL or FROM, where every row counts).
* ``x IN ()`` / ``x NOT IN ()``: an empty list, false / true even for a NULL x;
  both servers refuse the syntax.
* ``x IN t`` (a table or CTE name, not a list): SQLite's short form of
  ``x IN (SELECT * FROM t)``; both servers refuse the syntax.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context

_SET_CONTEXTS = (exp.From, exp.Join, exp.In, exp.Exists, exp.Any, exp.All, exp.SetOperation, exp.CTE,
                 exp.Insert, exp.Create, exp.Lateral)


def first_row(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for sub in list(tree.find_all(exp.Subquery)):
        if isinstance(sub.parent, _SET_CONTEXTS) or sub.alias or sub.parent is None:
            continue
        query = sub.this
        if isinstance(query, exp.Subquery) or isinstance(sub.parent, exp.Subquery) and sub.parent.this is sub:
            query = sub.this  # ((SELECT …)): the innermost parentheses hold the SELECT
            while isinstance(query, exp.Subquery):
                query = query.this
        if not isinstance(query, (exp.Select, exp.SetOperation)) or query.args.get("limit") is not None:
            continue
        if isinstance(query, exp.Select) and any(isinstance(e, exp.Star) for e in query.expressions):
            continue  # a width SQLite checks; the server says the same
        query.set("limit", exp.Limit(expression=exp.Literal.number(1)))
    return tree


def empty_in(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(exp.In)):
        if not node.expressions and not any(node.args.get(k) for k in ("query", "unnest", "field")):
            node.replace(exp.Paren(this=exp.EQ(this=exp.Literal.number(1), expression=exp.Literal.number(0))))
    return tree


def in_table(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for node in list(tree.find_all(exp.In)):
        name = node.args.get("field")
        if not isinstance(name, exp.Column) or isinstance(name.this, exp.Star):
            continue
        table = exp.Table(this=name.this.copy(), db=exp.to_identifier(name.table) if name.table else None)
        node.set("field", None)
        node.set("query", exp.Subquery(this=exp.select("*").from_(table)))
    return tree
