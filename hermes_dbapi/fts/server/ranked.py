"""A lone term's best rows, ranked by the server itself (issue 8).

The usual search is one word, ordered by rank, a page at a time.  Ranking in
Python needs every row holding the word, with its positions and its size,
fetched first: 10,000 rows for a common word in 100,000 messages.  bm25 of a
lone term needs only, per row, its count of positions and its token total,
both on the server, and the table's counts: the server computes each row's
rank (``Storage.best_by_bm25``: FTS5's operation order in float8 on PostgreSQL,
DOUBLE on MariaDB, IEEE doubles like SQLite's C, the IDF and average length
computed here once, as
``ranking.Bm25`` does) and sends only the best rows.  Anything else (prefix,
column filter, ``^``, a phrase, a long term, detail other than full) is left
to the Python engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import engine, ranking
from ...backends.base import Backend
from ..errors import FtsError
from ..query import Query, parse_query
from .spec import FtsSpec
from .storage import Storage, keyed_whole


def ranks_here(backend: Backend) -> bool:
    """Whether this server ranks: PostgreSQL, MariaDB (MySQL 8, whose CAST AS DOUBLE
    needs 8.0.17 and which no test here reaches, keeps the engine)."""
    return backend.dialect in ("postgres", "mariadb")


def lone_term(spec: FtsSpec, text: str, column: int | None) -> str | None:
    """The term of a MATCH that is one plain term in every column (the engine's
    :func:`..engine.lone_term`, not a prefix, its key its bytes), else None (also for a
    query FTS5 refuses: the engine reports that)."""
    if text.startswith("*"):
        return None
    try:
        query = parse_query(text, spec.columns, spec.tokenizer, spec.detail, column)
    except FtsError:
        return None
    if not isinstance(query, Query) or not engine.lone_term(spec.detail, query):
        return None
    term = query.phrases[0].terms[0]
    return term.text if not term.prefix and keyed_whole(term.text) else None


def best(storage: Storage, term: str, wanted: int) -> Ranked:
    """The ``wanted`` best rows holding ``term`` and those tying the last, ranked by the
    server; or, where ranking every row costs less (at most twice ``wanted`` rows hold
    it: the engine ranks what the deciding round trip fetched) or bm25 is not a finite
    number here (the engine reports corrupt counts), nothing ranked."""
    limit = 2 * wanted
    stats, postings, sizes = storage.first_postings(term, limit)
    if postings is not None:
        return Ranked(None, postings, sizes, stats, every=True)
    n_row, n_token = stats
    holding = storage.row_frequency(term, False)
    if n_row > 0 and holding is not None:
        avgdl = ranking.average_length(n_row, n_token)
        idf = ranking.idf(n_row, holding)
        if 0.0 < avgdl < math.inf and math.isfinite(idf):
            hits, best_postings = storage.best_by_bm25(term, idf, avgdl, wanted)
            return Ranked(hits, best_postings, {}, stats, every=False)
    return Ranked(None, {}, {}, stats, every=False)


@dataclass
class Ranked:
    """A lone term's rows: ``hits``, (rowid, rank) in rowid order, when the server
    ranked the best of them (``postings``: theirs), else None; ``every``: ``postings``
    and ``sizes`` are every row's holding it (few of them); the table's (row count,
    token total)."""

    hits: list[tuple[int, float]] | None
    postings: dict[int, list[int]]
    sizes: dict[int, list[int]]
    stats: tuple[int, int]
    every: bool
