"""The rewrite passes, composed per backend dialect in one table.

A pass is ``(tree, ctx) -> tree``: it rewrites one concern (DDL types, LIMIT,
upserts, ...) and leaves everything else alone.  Adding a SQLite construct is
adding a pass here, not a special case in the pipeline.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from ..context import Context
from . import ddl, limits

Pass = Callable[[exp.Expression, Context], exp.Expression]

_COMMON: list[Pass] = [ddl.create_table, ddl.create_index, limits.sqlite_limits]

PASSES: dict[str, list[Pass]] = {
    "postgres": [*_COMMON],
    "mysql": [*_COMMON],
    "mariadb": [*_COMMON],
}
