"""MariaDB/MySQL: a search's hits read from a JSON parameter (issue 8).

``fts/server/select.py`` hands a search's hits to the statement itself as
``hdb_fts_hits(…)`` in FROM: PostgreSQL has that function for two arrays,
rowids and ranks (``helpers/pg_fts.py``).  Here its one argument is a JSON
array of [rowid, rank] pairs, read by ``JSON_TABLE`` into the same columns,
``rid`` and ``rnk``.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from ..context import Context

HITS = "hdb_fts_hits"

_PAIRS = "JSON_TABLE(hdb_pairs, '$[*]' COLUMNS (rid BIGINT PATH '$[0]', rnk DOUBLE PATH '$[1]'))"


def mysql_hits(tree: exp.Expression, ctx: Context) -> exp.Expression:
    for table in list(tree.find_all(exp.Table)):
        call = table.this
        if not (isinstance(call, exp.Anonymous) and str(call.this).lower() == HITS and len(call.expressions) == 1):
            continue
        pairs = sqlglot.parse_one(f"SELECT * FROM {_PAIRS} AS h", read="mysql").args["from_"].this
        pairs.find(exp.Column).replace(call.expressions[0].copy())
        pairs.set("alias", table.args.get("alias"))
        table.replace(pairs)
    return tree
