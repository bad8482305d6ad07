"""PostgreSQL helpers: SQLite's lenient CAST of text to INTEGER / REAL.

SQLite reads the longest numeric prefix after leading whitespace and yields 0
when there is none (``CAST('12abc' AS INTEGER)`` = 12, ``CAST('abc' AS REAL)``
= 0.0); an integer beyond 64 bits saturates.  PG's cast raises instead.
"""

INT = r"""
CREATE OR REPLACE FUNCTION hdb_cast_int(v text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE digits text;
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  digits := substring(v from '^[ \t\n\r\f\v]*([+-]?[0-9]+)');
  IF digits IS NULL THEN RETURN 0; END IF;
  RETURN greatest(least(digits::numeric, 9223372036854775807), -9223372036854775808)::bigint;
END $f$
"""

REAL = r"""
CREATE OR REPLACE FUNCTION hdb_cast_real(v text) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE num text;
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  num := substring(v from '^[ \t\n\r\f\v]*([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)');
  IF num IS NULL THEN RETURN 0; END IF;
  RETURN num::double precision;
EXCEPTION WHEN numeric_value_out_of_range THEN
  RETURN CASE WHEN num LIKE '-%' THEN '-Infinity'::double precision ELSE 'Infinity'::double precision END;
END $f$
"""

STATEMENTS = [INT, REAL]
