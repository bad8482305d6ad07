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
