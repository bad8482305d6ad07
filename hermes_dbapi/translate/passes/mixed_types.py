"""Result columns whose type varies per row: ``coalesce(n, 'none')``, ``CASE … THEN 0 ELSE name END``.

SQLite gives each value its own type, so ``coalesce(n, '')`` is an int on one
row and a str on the next; a server column has one type: PostgreSQL refuses to
mix integer and text ("COALESCE types … cannot be matched", or reads 'none' as
an integer and fails), MariaDB turns every value into text (``'1'``), and both
turn an INTEGER next to a REAL into a float.

A top-level result column built from COALESCE/IFNULL, IIF and CASE whose
result branches are statically of different storage classes (integer, real,
text) has each branch tagged with its class: ``'i' || CAST(n AS TEXT)``,
``'t' || name``.  A NULL stays NULL (so COALESCE still skips it), and the
result hook (``backends/base.py``) turns ``i…``/``r…``/``t…`` back into
int/float/str; the column index goes to ``ctx.facts["tagged"]``.  The same holds
for a compound SELECT whose arms differ in a column.

Left as they are (the server's answer or error): a branch of unknown type (a
parameter, a function of its own type), uses inside expressions, a column the
query sorts or groups by (text order is not SQLite's value order), DISTINCT,
and a compound that sorts or that would have to treat 1 and 1.0 as one value.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from .value_classes import storage_class

_BRANCHING = (exp.Coalesce, exp.If, exp.Case, exp.Paren)


def _results(node: exp.Expression) -> list[exp.Expression]:
    """The sub-expressions whose value ``node`` returns (through COALESCE/IIF/CASE)."""
    if isinstance(node, exp.Paren):
        return _results(node.this)
    if isinstance(node, exp.Coalesce):
        branches = [node.this, *node.expressions]
    elif isinstance(node, exp.If):
        branches = [node.args.get("true"), node.args.get("false")]
    elif isinstance(node, exp.Case):
        branches = [i.args.get("true") for i in node.args.get("ifs") or []] + [node.args.get("default")]
    else:
        return [node]
    return [leaf for b in branches if b is not None for leaf in _results(b)]


_LETTER = {"integer": "i", "real": "r", "text": "t", "null": ""}  # the result hook's tags


def _storage_class(node: exp.Expression, ctx: Context) -> str | None:
    """The tag letter of ``node``'s class ('' for the NULL literal); None when unknown."""
    kind = storage_class(node, ctx)
    return None if kind is None else _LETTER[kind]


def _classes(item: exp.Expression, ctx: Context, plain_too: bool = False) -> set[str] | None:
    """The storage classes a result column's branches have; None when one is unknown,
    or when the column is not built from branches (unless ``plain_too``: a compound's
    arm, whose plain column is its own one branch)."""
    expr = item.unalias()
    if not plain_too and not isinstance(expr, _BRANCHING):
        return None
    found = set()
    for leaf in _results(expr):
        kind = _storage_class(leaf, ctx)
        if kind is None:
            return None
        found.add(kind)
    found.discard("")
    return found


def _tagged(value: exp.Expression, kind: str) -> exp.Expression:
    """``value`` as its class letter followed by its text."""
    text = value.copy() if kind == "t" else exp.Cast(this=value.copy(), to=exp.DataType.build("TEXT"))
    return exp.Paren(this=exp.DPipe(this=exp.Literal.string(kind), expression=text, safe=True))


def _tag(item: exp.Expression, ctx: Context) -> None:
    """Each non-NULL result branch of ``item`` (or ``item`` itself, when it has no
    branches) becomes its class letter and its text."""
    for leaf in _results(item.unalias()):
        kind = _storage_class(leaf, ctx)
        if kind:
            leaf.replace(_tagged(leaf, kind))


def _referenced(select: exp.Select, item: exp.Expression, at: int) -> bool:
    """Does the query sort, group or filter by this result column (its alias or position)?"""
    alias = item.alias if isinstance(item, exp.Alias) else ""
    for key in ("order", "group", "having"):
        clause = select.args.get(key)
        if clause is None:
            continue
        for node in clause.find_all(exp.Column, exp.Literal):
            if isinstance(node, exp.Column) and alias and not node.table and node.name.lower() == alias.lower():
                return True
            if isinstance(node, exp.Literal) and not node.is_string and node.this == str(at + 1) and key != "having":
                return True
    return False


def _plain(select: exp.Expression) -> bool:
    return isinstance(select, exp.Select) and not select.args.get("distinct") and not any(
        isinstance(item.unalias(), exp.Star) or isinstance(item, exp.Star) for item in select.expressions)


def _arms(tree: exp.Expression) -> list[exp.Select] | None:
    """The SELECTs of a compound (left to right), or None when one is not plain."""
    if isinstance(tree, exp.SetOperation):
        left, right = _arms(tree.this), _arms(tree.expression)
        return None if left is None or right is None else left + right
    return [tree] if _plain(tree) else None


def tagged_results(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(tree, exp.Select):
        if not _plain(tree):
            return tree
        tagged = []
        for at, item in enumerate(tree.expressions):
            classes = _classes(item, ctx)
            if classes is not None and len(classes) > 1 and not _referenced(tree, item, at):
                _tag(item, ctx)
                tagged.append(at)
    elif isinstance(tree, exp.SetOperation) and tree.args.get("order") is None:
        arms = _arms(tree)
        if not arms or len({len(arm.expressions) for arm in arms}) != 1:
            return tree
        distinct = any(isinstance(node, exp.SetOperation) and node.args.get("distinct", True)
                       for node in [tree, *tree.find_all(exp.SetOperation)])
        tagged = []
        for at in range(len(arms[0].expressions)):
            items = [arm.expressions[at] for arm in arms]
            per_arm = [_classes(item, ctx, plain_too=True) for item in items]
            if any(c is None for c in per_arm):
                continue
            classes = set().union(*per_arm)  # type: ignore[arg-type]
            if len(classes) < 2 or (distinct and {"i", "r"} <= classes):
                continue  # one class; or UNION/INTERSECT/EXCEPT, where 1 and 1.0 are one value
            for item in items:
                _tag(item, ctx)
            tagged.append(at)
    else:
        return tree
    if tagged:
        ctx.facts["tagged"] = tuple(tagged)
        ctx.schema_dependent = True  # the classes came from the columns' declared types
    return tree
