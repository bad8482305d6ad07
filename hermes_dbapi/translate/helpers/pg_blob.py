"""PostgreSQL helpers: ``min()``/``max()`` over BLOB (bytea) values.

PostgreSQL compares bytea byte-wise, shorter first on a common prefix, as SQLite
compares BLOBs, but ships no bytea aggregates: ``min``/``max`` over a BLOB column
would be "no such function".  These two aggregates fill that gap (windows too).
Created only when absent: the definition is fixed, and ``CREATE OR REPLACE
AGGREGATE`` needs PostgreSQL 12."""

_STEPS = """
CREATE OR REPLACE FUNCTION hdb_bytea_{name}(a bytea, b bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$ SELECT CASE WHEN b {op} a THEN b ELSE a END $f$
"""

_AGGREGATE = """
DO $d$ BEGIN
  CREATE AGGREGATE {agg}(bytea) (SFUNC = hdb_bytea_{name}, STYPE = bytea,
                                 COMBINEFUNC = hdb_bytea_{name}, SORTOP = {op}, PARALLEL = SAFE);
EXCEPTION WHEN duplicate_function THEN NULL;
END $d$
"""

STATEMENTS = [
    _STEPS.format(name="larger", op=">"),
    _STEPS.format(name="smaller", op="<"),
    _AGGREGATE.format(agg="max", name="larger", op=">"),
    _AGGREGATE.format(agg="min", name="smaller", op="<"),
]
