"""A bottom-up rewrite helper shared by the expression passes.

sqlglot's ``transform`` does not descend into a node it has replaced, so a
rewrite that wraps its input (``CASE … ELSE GREATEST(a, b) END``) would leave
the arguments untranslated.  Here children are rewritten before their parents.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp


def bottom_up(tree: exp.Expression, fn: Callable[[exp.Expression], exp.Expression]) -> exp.Expression:
    for node in reversed(list(tree.walk(bfs=False))):
        parent, key, index = node.parent, node.arg_key, node.index
        new = fn(node)
        if new is node:
            continue
        if parent is None:
            tree = new
        else:
            parent.set(key, new, index)
    return tree


def reached(node: exp.Expression, top: exp.Expression, stops: tuple[type, ...]) -> bool:
    """Whether walking up from ``node`` reaches ``top`` without passing a node of the
    ``stops`` types (an aggregate, a nested query...): what evaluates ``node``."""
    parent = node.parent
    while parent is not None and parent is not top:
        if isinstance(parent, stops):
            return False
        parent = parent.parent
    return parent is top
