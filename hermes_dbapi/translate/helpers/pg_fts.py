"""The hits of one FTS5 search read from two array parameters (issue 8).

A search's hits (rowid, bm25 rank) are computed here and joined with the
statement on the server.  ``hdb_fts_hits`` hands them to the statement
itself (``fts/server/select.py``), where a temporary table costs a round
trip of its own and cannot be made inside a read-only transaction.  A SQL
function of one SELECT: the planner inlines it as the ``unnest`` it is.
"""

from __future__ import annotations

from ..passes import fts_hits as passes_fts_hits

HITS = rf"""
CREATE OR REPLACE FUNCTION {passes_fts_hits.HITS}(rids text, ranks text)
RETURNS TABLE(rid bigint, rnk double precision) LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT * FROM unnest(rids::bigint[], ranks::double precision[]) $f$
"""

STATEMENTS = [HITS]
