r"""PostgreSQL helpers: SQLite's text functions over NUL-escaped text (``hdb_cstr`` …).

PostgreSQL text cannot hold NUL, so the backend stores NUL as U+0001 U+0001 and
U+0001 as U+0001 U+0002 (``backends/pg_text.py``).  Comparison, ``||``,
``upper``/``lower`` work on that encoding unchanged; these helpers cover the
functions that count characters, stop at the first NUL or could match inside a
pair:

* ``hdb_cstr(x)`` (``hdb_cstr1`` for an expression that is not a column or
  parameter): the C string SQLite's ``length``, ``substr``, ``LIKE``,
  ``GLOB``, ``quote`` and ``printf('%s')`` read: the text before the first NUL,
  decoded (it holds no NUL, so real PostgreSQL text can carry it).  The leftmost
  U+0001 U+0001 is always a NUL pair.  ``hdb_enc`` encodes such a result again.
  Both are one-expression SQL functions of built-ins, which the planner inlines:
  for text without U+0001 they cost a memchr and return their argument.
* ``hdb_instr``, ``hdb_replace``, ``hdb_utf8`` (``hex``), ``hdb_chr``: the fast
  built-in when the text holds no U+0001, else a PL/pgSQL slow path that stands
  a noncharacter absent from the operands in for NUL (``hdb_dec``), so that
  every SQLite character is one PostgreSQL character again.
The bytea overloads keep BLOB arguments byte-wise, as in SQLite.
"""

# for a column or parameter: x is cheap to read twice, and one 1-byte scan (strpos)
# is all the common case costs (measured: sum(length(x)) over 20,000 1.6 kB rows
# 71-87 ms bare, 78-89 ms through hdb_cstr, 158-211 ms through hdb_cstr1)
CSTR = r"""
CREATE OR REPLACE FUNCTION hdb_cstr(x text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN strpos(x, E'\x01') = 0 THEN x
                   ELSE replace(split_part(x, E'\x01\x01', 1), E'\x01\x02', E'\x01') END $f$
"""

# for any other expression: it appears once, so the planner inlines it whatever its cost
CSTR1 = r"""
CREATE OR REPLACE FUNCTION hdb_cstr1(x text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT replace(split_part(x, E'\x01\x01', 1), E'\x01\x02', E'\x01') $f$
"""

CSTR_BYTEA = r"""
CREATE OR REPLACE FUNCTION hdb_cstr(x bytea) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT x $f$
"""

CSTR1_BYTEA = r"""
CREATE OR REPLACE FUNCTION hdb_cstr1(x bytea) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT x $f$
"""

ENC = r"""
CREATE OR REPLACE FUNCTION hdb_enc(x text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT replace(x, E'\x01', E'\x01\x02') $f$
"""

ENC_BYTEA = r"""
CREATE OR REPLACE FUNCTION hdb_enc(x bytea) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT x $f$
"""

NONCHAR = r"""
CREATE OR REPLACE FUNCTION hdb_nonchar(x text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE cp int;
BEGIN
  FOREACH cp IN ARRAY ARRAY[65535, 65534, 1114111, 1114110] || ARRAY(SELECT generate_series(64976, 65007)) LOOP
    IF strpos(x, chr(cp)) = 0 THEN RETURN chr(cp); END IF;
  END LOOP;
  RAISE EXCEPTION 'text holds NUL and every Unicode noncharacter';
END $f$
"""

DEC = r"""
CREATE OR REPLACE FUNCTION hdb_dec(x text, s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT replace(replace(x, E'\x01\x01', s), E'\x01\x02', E'\x01') $f$
"""

REENC = r"""
CREATE OR REPLACE FUNCTION hdb_reenc(x text, s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT replace(replace(x, E'\x01', E'\x01\x02'), s, E'\x01\x01') $f$
"""

INSTR_ESC = r"""
CREATE OR REPLACE FUNCTION hdb_instr_esc(h text, n text) RETURNS int
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE s text;
BEGIN
  IF h IS NULL OR n IS NULL THEN RETURN NULL; END IF;
  s := hdb_nonchar(h || n);
  RETURN strpos(hdb_dec(h, s), hdb_dec(n, s));
END $f$
"""

INSTR = r"""
CREATE OR REPLACE FUNCTION hdb_instr(h text, n text) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN strpos(h, E'\x01') = 0 THEN strpos(h, n) ELSE hdb_instr_esc(h, n) END $f$
"""

INSTR_BYTEA = r"""
CREATE OR REPLACE FUNCTION hdb_instr(h bytea, n bytea) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT position(n IN h) $f$
"""

REPLACE_ESC = r"""
CREATE OR REPLACE FUNCTION hdb_replace_esc(x text, p text, r text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE s text;
BEGIN
  IF x IS NULL OR p IS NULL OR r IS NULL THEN RETURN NULL; END IF;
  s := hdb_nonchar(x || p || r);
  RETURN hdb_reenc(replace(hdb_dec(x, s), hdb_dec(p, s), hdb_dec(r, s)), s);
END $f$
"""

# SQLite reads the pattern as a C string first: one starting with NUL leaves x as it is.
# A match of a pattern that starts with neither U+0001 nor U+0002 starts at a
# character of the original, never inside a pair: plain replace() is exact then
REPLACE = r"""
CREATE OR REPLACE FUNCTION hdb_replace(x text, p text, r text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
SELECT CASE WHEN left(p, 2) = E'\x01\x01' THEN x
            WHEN strpos(x, E'\x01') = 0 OR left(p, 1) NOT IN (E'\x01', E'\x02') THEN replace(x, p, r)
            ELSE hdb_replace_esc(x, p, r) END $f$
"""

UTF8_ESC = r"""
CREATE OR REPLACE FUNCTION hdb_utf8_esc(x text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE s text;
BEGIN
  s := hdb_nonchar(x);
  -- a noncharacter's UTF-8 (EF B7 9x / EF BF BE..BF / F4 8F BF BE..BF) cannot occur
  -- at an odd hex digit: the shifted bytes would include 0xFB, never in UTF-8
  RETURN decode(replace(encode(convert_to(hdb_dec(x, s), 'UTF8'), 'hex'),
                        encode(convert_to(s, 'UTF8'), 'hex'), '00'), 'hex');
END $f$
"""

UTF8 = r"""
CREATE OR REPLACE FUNCTION hdb_utf8(x text) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN strpos(x, E'\x01') > 0 THEN hdb_utf8_esc(x) ELSE convert_to(x, 'UTF8') END $f$
"""

CHR = r"""
CREATE OR REPLACE FUNCTION hdb_chr(n int) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE n WHEN 0 THEN E'\x01\x01' WHEN 1 THEN E'\x01\x02' ELSE chr(n) END $f$
"""

# a REAL as SQLite writes it as text (%!.15g: 15 significant digits, a ".0" on whole
# numbers, e+NN past 1e15 and below 1e-4, Inf): float8 -> numeric is %.15g of the value
REAL_TEXT = r"""
CREATE OR REPLACE FUNCTION hdb_real_text(x double precision) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $f$
DECLARE
  n numeric;
  m numeric;
  e int;
  t text;
BEGIN
  IF x IS NULL OR x = 'NaN' THEN RETURN NULL; END IF;
  IF x = 'Infinity' THEN RETURN 'Inf'; END IF;
  IF x = '-Infinity' THEN RETURN '-Inf'; END IF;
  IF x = 0 THEN RETURN '0.0'; END IF;
  n := x::numeric;
  e := floor(log(abs(n)));  -- may be one off next to a power of ten: m settles it exactly
  m := CASE WHEN e < 0 THEN n * power(10::numeric, -e) ELSE n / power(10::numeric, e) END;
  IF abs(m) >= 10 THEN m := m / 10; e := e + 1; ELSIF abs(m) < 1 THEN m := m * 10; e := e - 1; END IF;
  IF e < -4 OR e >= 15 THEN
    t := rtrim(m::text, '0');
    IF right(t, 1) = '.' THEN t := t || '0'; END IF;
    RETURN t || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || CASE WHEN abs(e) < 10 THEN '0' ELSE '' END || abs(e);
  END IF;
  t := n::text;
  RETURN CASE WHEN position('.' in t) = 0 THEN t || '.0' ELSE t END;
END $f$
"""

STATEMENTS = [CSTR, CSTR1, CSTR_BYTEA, CSTR1_BYTEA, ENC, ENC_BYTEA, NONCHAR, DEC, REENC, INSTR_ESC, INSTR, INSTR_BYTEA,
              REPLACE_ESC, REPLACE, UTF8_ESC, UTF8, CHR, REAL_TEXT]
