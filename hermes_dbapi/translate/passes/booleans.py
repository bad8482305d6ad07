"""PostgreSQL only: SQLite has no boolean type, PG keeps the two apart.

In SQLite a comparison is the integer 0/1 (or NULL) and any number is a
condition (true when non-zero).  PG refuses both: ``sum(a > 0)``,
``coalesce(x IS NULL, 0)``, ``(a < b) + 1``, ``max(n, a = b)`` fail with "no such
function" / "types boolean and bigint cannot be matched", and ``WHERE n`` or
``NOT n`` with an integer ``n`` fails too.  So every predicate used as a value
becomes ``CAST(p AS INT)`` and every value used as a condition ``(v) <> 0``.
(A predicate projected in the select list is the commonest case: SQLite
returns 0/1 where PG would return ``bool``.)
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context

PREDICATES = (
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Is, exp.Like, exp.ILike, exp.Escape, exp.In,
    exp.Between, exp.Exists, exp.And, exp.Or, exp.Not, exp.NullSafeEQ, exp.NullSafeNEQ, exp.Boolean,
    exp.RegexpLike, exp.Glob,
)
_CONNECTIVES = (exp.And, exp.Or, exp.Not)
_CONDITION_HOLDERS = (exp.Where, exp.Having, exp.Qualify, exp.CheckColumnConstraint)


def _is_condition_slot(node: exp.Expression) -> bool:
    """True when ``node`` sits where SQL expects a truth value."""
    parent = node.parent
    while isinstance(parent, exp.Paren):
        node, parent = parent, parent.parent
    if parent is None:
        return False
    if isinstance(parent, _CONNECTIVES + _CONDITION_HOLDERS):
        return True
    if isinstance(parent, exp.If) and node.arg_key == "this":  # CASE WHEN c, iif(c, …); not CASE x WHEN v
        case = parent.parent
        return not (isinstance(case, exp.Case) and parent.arg_key == "ifs" and case.args.get("this") is not None)
    if isinstance(parent, exp.Join) and node.arg_key == "on":
        return True
    if isinstance(parent, exp.Check):  # table-level CHECK (…)
        return True
    return False


def _is_value(node: exp.Expression) -> bool:
    """An expression that yields a number (or NULL) and can stand as a SQLite condition."""
    if isinstance(node, (exp.Null, exp.Paren, exp.Star)) or isinstance(node, PREDICATES):
        return False
    if isinstance(node, exp.Literal):
        return not node.is_string
    return isinstance(node, (exp.Column, exp.Binary, exp.Unary, exp.Func, exp.Case, exp.Placeholder))


def _is_truth(node: exp.Is) -> exp.Expression:
    """SQLite's ``x IS TRUE``/``x IS FALSE``: x is not NULL and (not) zero."""
    x = node.this
    test = exp.NEQ if node.expression.this else exp.EQ
    known = exp.Not(this=exp.Is(this=x.copy(), expression=exp.Null()))
    return exp.Paren(this=exp.And(this=known, expression=test(this=x.copy(), expression=exp.Literal.number(0))))


def pg_booleans(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return tree
    for node in list(tree.find_all(exp.Is)):
        if isinstance(node.expression, exp.Boolean):  # PostgreSQL's IS TRUE wants a boolean
            node.replace(_is_truth(node))
    for node in reversed(list(tree.walk(bfs=False))):  # children first: a copy carries their rewrites
        if node.parent is None:
            continue
        if isinstance(node, exp.Like) and isinstance(node.parent, exp.Escape):
            continue  # the ESCAPE node is the predicate
        if isinstance(node, exp.EQ) and isinstance(node.parent, (exp.Update, exp.OnConflict)):
            continue  # SET col = value
        if isinstance(node, exp.Boolean) and isinstance(node.parent, exp.Func):
            continue  # TRUE/FALSE a translation passes to a helper function
        condition = _is_condition_slot(node)
        if isinstance(node, exp.Boolean) and not condition and not _in_query(node) \
                and isinstance(tree, (exp.Create, exp.Alter)):  # DEFAULT TRUE, CHECK (b IN (TRUE, FALSE))
            node.replace(exp.Literal.number(1 if node.this else 0))  # SQLite's TRUE is the integer 1
            continue
        if isinstance(node, PREDICATES) and not condition:
            if _in_query(node):
                node.replace(exp.Cast(this=node.copy(), to=exp.DataType.build("INT")))
        elif condition and _is_value(node):
            node.replace(exp.NEQ(this=exp.Paren(this=node.copy()), expression=exp.Literal.number(0)))
    return tree


def _in_query(node: exp.Expression) -> bool:
    """Inside a query or DML statement (DDL keeps its expressions as written)."""
    return node.find_ancestor(exp.Select, exp.Update, exp.Insert, exp.Delete, exp.Values) is not None
