"""PostgreSQL JSON helpers: SQLite's ``json_valid`` (PG 15 has no ``IS JSON``)."""

JSON_VALID = r"""
CREATE OR REPLACE FUNCTION hdb_json_valid(v text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  IF v IS NULL THEN RETURN 0; END IF;  -- SQLite 3.40: json_valid(NULL) is 0
  PERFORM v::json;
  RETURN 1;
EXCEPTION WHEN others THEN
  RETURN 0;
END $f$
"""

STATEMENTS = (JSON_VALID,)
