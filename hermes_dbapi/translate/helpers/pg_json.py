"""PostgreSQL JSON helpers: SQLite's JSON1 over TEXT columns (``hdb_j*``).

The documents are parsed as ``json`` (not ``jsonb``), which keeps key order,
duplicate keys and number spellings as written, so output can be minified to
exactly the text SQLite prints.  A node is passed between helpers as its
minified JSON text; ``hdb_jval``/``hdb_jtext``/``hdb_jnum`` turn a node into the
SQL value SQLite's ``json_extract`` would return (tagged for the result hook,
as text, as a number).  PG 15 has no ``IS JSON``, hence ``hdb_json_valid``.
"""

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

DOC = r"""
CREATE OR REPLACE FUNCTION hdb_jdoc(v text) RETURNS json
LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  RETURN v::json;
EXCEPTION WHEN others THEN
  RAISE EXCEPTION 'malformed JSON';
END $f$
"""

MINIFY = r"""
CREATE OR REPLACE FUNCTION hdb_jmin(j json) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE t text := json_typeof(j); s text := j::text;
BEGIN
  IF j IS NULL THEN RETURN NULL; END IF;
  IF t NOT IN ('object', 'array') THEN RETURN btrim(s, E' \t\n\r'); END IF;
  IF s !~ '[ \t\n\r]' THEN RETURN s; END IF;
  IF t = 'object' THEN
    RETURN '{' || coalesce((SELECT string_agg(to_json(e.k)::text || ':' || hdb_jmin(e.v), ',' ORDER BY e.n)
                            FROM json_each(j) WITH ORDINALITY AS e(k, v, n)), '') || '}';
  END IF;
  RETURN '[' || coalesce((SELECT string_agg(hdb_jmin(e.v), ',' ORDER BY e.n)
                          FROM json_array_elements(j) WITH ORDINALITY AS e(v, n)), '') || ']';
END $f$
"""

STEPS = r"""
CREATE OR REPLACE FUNCTION hdb_jsteps(p text, abbrev int) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE out text[] := '{}'; i int := 2; n int; c text; k text; e int; bad text := p;
BEGIN
  IF abbrev = 1 AND left(p, 1) <> '$' THEN
    IF p ~ '^-?[0-9]+$' THEN p := '$[' || p || ']'; ELSE p := '$.' || p; END IF;
  END IF;
  IF left(p, 1) <> '$' THEN RAISE EXCEPTION 'JSON path error near ''%''', bad; END IF;
  n := length(p);
  WHILE i <= n LOOP
    c := substr(p, i, 1);
    IF c = '.' AND substr(p, i + 1, 1) = '"' THEN
      e := strpos(substr(p, i + 2), '"');
      IF e = 0 THEN RAISE EXCEPTION 'JSON path error near ''%''', substr(p, i + 1); END IF;
      out := out || ('k' || substr(p, i + 2, e - 1)); i := i + 2 + e;
    ELSIF c = '.' THEN
      k := substring(substr(p, i + 1) from '^[^.\[]*');
      IF k = '' THEN RAISE EXCEPTION 'JSON path error near ''%''', substr(p, i + 1); END IF;
      out := out || ('k' || k); i := i + 1 + length(k);
    ELSIF c = '[' THEN
      e := strpos(substr(p, i), ']');
      k := CASE WHEN e > 0 THEN substr(p, i + 1, e - 2) END;
      IF k ~ '^[0-9]+$' THEN out := out || ('i' || k);
      ELSIF k ~ '^#-[0-9]+$' THEN out := out || ('e' || substr(k, 3));
      ELSIF k = '#' THEN out := out || 'e0'::text;
      ELSE RAISE EXCEPTION 'JSON path error near ''%''', substr(p, i);
      END IF;
      i := i + e;
    ELSE
      RAISE EXCEPTION 'JSON path error near ''%''', substr(p, i);
    END IF;
  END LOOP;
  RETURN out;
END $f$
"""

GET = r"""
CREATE OR REPLACE FUNCTION hdb_jget(v text, p text, abbrev int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE j json; s text; idx int;
BEGIN
  IF v IS NULL OR p IS NULL THEN RETURN NULL; END IF;
  j := hdb_jdoc(v);
  FOREACH s IN ARRAY hdb_jsteps(p, abbrev) LOOP
    IF left(s, 1) = 'k' THEN
      IF json_typeof(j) <> 'object' THEN RETURN NULL; END IF;
      j := j -> substr(s, 2);
    ELSE
      IF json_typeof(j) <> 'array' THEN RETURN NULL; END IF;
      idx := substr(s, 2)::int;
      IF left(s, 1) = 'e' THEN idx := json_array_length(j) - idx; END IF;
      IF idx < 0 THEN RETURN NULL; END IF;
      j := j -> idx;
    END IF;
    IF j IS NULL THEN RETURN NULL; END IF;
  END LOOP;
  RETURN hdb_jmin(j);
END $f$
"""

# a node's SQL value: tagged for the result hook (JSON text of the Python value), as text, as a number
VALUES = r"""
CREATE OR REPLACE FUNCTION hdb_jval(t text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL OR t = 'null' THEN NULL
            WHEN left(t, 1) IN ('{', '[') THEN to_json(t)::text
            WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0' ELSE t END
$f$;
CREATE OR REPLACE FUNCTION hdb_jtext(t text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL OR t = 'null' THEN NULL
            WHEN left(t, 1) = '"' THEN t::json #>> '{}'
            WHEN left(t, 1) IN ('{', '[') THEN t
            WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0'
            WHEN t ~ '^-?[0-9]+$' THEN t
            ELSE hdb_jreal(t::float8) END
$f$;
CREATE OR REPLACE FUNCTION hdb_jreal_num(x numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN scale(x) = 0 THEN round(x, 1) ELSE x END
$f$;
CREATE OR REPLACE FUNCTION hdb_jnum(t text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL OR t = 'null' OR left(t, 1) IN ('"', '{', '[') THEN NULL
            WHEN t = 'true' THEN 1 WHEN t = 'false' THEN 0
            WHEN t ~ '^-?[0-9]+$' THEN t::numeric ELSE hdb_jreal_num(t::float8::numeric) END
$f$;
CREATE OR REPLACE FUNCTION hdb_jdiv(a numeric, b numeric, a_int boolean, b_int boolean) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN b = 0 THEN NULL
            WHEN COALESCE(a_int, scale(a) = 0) AND COALESCE(b_int, scale(b) = 0) THEN trunc(a / b)
            ELSE a / b END
$f$;
CREATE OR REPLACE FUNCTION hdb_jclass(t text) RETURNS int
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL OR t = 'null' THEN 0 WHEN left(t, 1) IN ('"', '{', '[') THEN 2 ELSE 1 END
$f$;
CREATE OR REPLACE FUNCTION hdb_jtype(t text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL THEN NULL
            WHEN left(t, 1) = '{' THEN 'object' WHEN left(t, 1) = '[' THEN 'array'
            WHEN left(t, 1) = '"' THEN 'text'
            WHEN t IN ('true', 'false', 'null') THEN t
            WHEN t ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END
$f$;
CREATE OR REPLACE FUNCTION hdb_jlen(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN t IS NULL THEN NULL WHEN left(t, 1) = '[' THEN json_array_length(t::json) ELSE 0 END
$f$
"""

# SQL value -> JSON text, by the argument's static type (SQLite formats reals with %!.15g)
QUOTE = r"""
CREATE OR REPLACE FUNCTION hdb_jreal(x double precision) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE e int; m numeric; s text;
BEGIN
  IF x IS NULL THEN RETURN NULL; END IF;
  IF x = 0 THEN RETURN '0.0'; END IF;
  IF x = 'Infinity'::float8 THEN RETURN '9.0e+999'; END IF;
  IF x = '-Infinity'::float8 THEN RETURN '-9.0e+999'; END IF;
  e := floor(log(abs(x::numeric)));
  m := round(x::numeric / power(10::numeric, e), 14);
  IF abs(m) >= 10 THEN e := e + 1; m := round(x::numeric / power(10::numeric, e), 14); END IF;
  IF e < -4 OR e >= 15 THEN
    s := rtrim(rtrim(m::text, '0'), '.');
    IF strpos(s, '.') = 0 THEN s := s || '.0'; END IF;
    RETURN s || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || CASE WHEN abs(e) < 10 THEN '0' ELSE '' END || abs(e)::text;
  END IF;
  s := round(x::numeric, 14 - e)::text;
  IF strpos(s, '.') > 0 THEN s := rtrim(rtrim(s, '0'), '.'); END IF;
  IF strpos(s, '.') = 0 THEN s := s || '.0'; END IF;
  RETURN s;
END $f$;
CREATE OR REPLACE FUNCTION hdb_jq(x text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT coalesce(to_json(x)::text, 'null') $f$;
CREATE OR REPLACE FUNCTION hdb_jq(x bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT coalesce(x::text, 'null') $f$;
CREATE OR REPLACE FUNCTION hdb_jq(x integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT coalesce(x::text, 'null') $f$;
CREATE OR REPLACE FUNCTION hdb_jq(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT coalesce(hdb_jreal(x), 'null') $f$;
CREATE OR REPLACE FUNCTION hdb_jq(x numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
SELECT CASE WHEN x IS NULL THEN 'null' WHEN x = trunc(x) AND x::text !~ '\.' THEN x::text ELSE hdb_jreal(x::float8) END
$f$;
CREATE OR REPLACE FUNCTION hdb_jq(x boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT CASE WHEN x IS NULL THEN 'null' WHEN x THEN '1' ELSE '0' END $f$
"""

# json_set/insert/replace/remove: mode 1 set, 2 insert, 3 replace, 4 remove; v is JSON text
MODIFY = r"""
CREATE OR REPLACE FUNCTION hdb_jbuild(steps text[], pos int, v text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE s text := steps[pos]; inner_ text;
BEGIN
  IF pos > coalesce(array_length(steps, 1), 0) THEN RETURN v; END IF;
  inner_ := hdb_jbuild(steps, pos + 1, v);
  IF inner_ IS NULL THEN RETURN NULL; END IF;
  IF left(s, 1) = 'k' THEN RETURN '{' || to_json(substr(s, 2))::text || ':' || inner_ || '}'; END IF;
  IF s = 'e0' OR s = 'i0' THEN RETURN '[' || inner_ || ']'; END IF;
  RETURN NULL;
END $f$;
CREATE OR REPLACE FUNCTION hdb_jmod1(j json, steps text[], pos int, val text, mode int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE s text := steps[pos]; t text := json_typeof(j); key_ text; idx int; len int; hit int;
        last_ boolean := pos = array_length(steps, 1); made text; out text;
BEGIN
  IF pos > coalesce(array_length(steps, 1), 0) THEN
    RETURN CASE WHEN mode IN (1, 3) THEN val WHEN mode = 4 THEN NULL ELSE hdb_jmin(j) END;
  END IF;
  IF left(s, 1) = 'k' THEN
    key_ := substr(s, 2);
    IF t <> 'object' THEN RETURN hdb_jmin(j); END IF;
    SELECT min(e.n) INTO hit FROM json_each(j) WITH ORDINALITY AS e(k, v, n) WHERE e.k = key_;
    IF hit IS NULL THEN
      made := CASE WHEN mode IN (1, 2) THEN hdb_jbuild(steps, pos + 1, val) END;
      IF made IS NULL THEN RETURN hdb_jmin(j); END IF;
      out := hdb_jmin(j);
      RETURN left(out, length(out) - 1) || CASE WHEN out = '{}' THEN '' ELSE ',' END
             || to_json(key_)::text || ':' || made || '}';
    END IF;
    IF last_ AND mode = 2 THEN RETURN hdb_jmin(j); END IF;
    RETURN '{' || coalesce((SELECT string_agg(m, ',' ORDER BY n) FROM (
        SELECT e.n, CASE WHEN e.n <> hit THEN to_json(e.k)::text || ':' || hdb_jmin(e.v)
                         WHEN last_ AND mode = 4 THEN NULL
                         ELSE to_json(e.k)::text || ':' || hdb_jmod1(e.v, steps, pos + 1, val, mode) END AS m
        FROM json_each(j) WITH ORDINALITY AS e(k, v, n)) q), '') || '}';
  END IF;
  IF t <> 'array' THEN RETURN hdb_jmin(j); END IF;
  len := json_array_length(j);
  idx := substr(s, 2)::int;
  IF left(s, 1) = 'e' THEN idx := len - idx; END IF;
  IF idx < 0 OR idx > len THEN RETURN hdb_jmin(j); END IF;
  IF idx = len THEN
    made := CASE WHEN mode IN (1, 2) THEN hdb_jbuild(steps, pos + 1, val) END;
    IF made IS NULL THEN RETURN hdb_jmin(j); END IF;
    out := hdb_jmin(j);
    RETURN left(out, length(out) - 1) || CASE WHEN out = '[]' THEN '' ELSE ',' END || made || ']';
  END IF;
  IF last_ AND mode = 2 THEN RETURN hdb_jmin(j); END IF;
  RETURN '[' || coalesce((SELECT string_agg(m, ',' ORDER BY n) FROM (
      SELECT e.n, CASE WHEN e.n - 1 <> idx THEN hdb_jmin(e.v)
                       WHEN last_ AND mode = 4 THEN NULL
                       ELSE hdb_jmod1(e.v, steps, pos + 1, val, mode) END AS m
      FROM json_array_elements(j) WITH ORDINALITY AS e(v, n)) q), '') || ']';
END $f$;
CREATE OR REPLACE FUNCTION hdb_jmod(d text, p text, v text, mode int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  IF d IS NULL THEN RETURN NULL; END IF;
  IF p IS NULL THEN RETURN CASE WHEN mode = 4 THEN NULL ELSE hdb_jmin(hdb_jdoc(d)) END; END IF;
  RETURN hdb_jmod1(hdb_jdoc(d), hdb_jsteps(p, 0), 1, v, mode);
END $f$
"""

PATCH = r"""
CREATE OR REPLACE FUNCTION hdb_jpatch1(a json, b json) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  IF json_typeof(b) <> 'object' THEN RETURN hdb_jmin(b); END IF;
  IF a IS NULL OR json_typeof(a) <> 'object' THEN a := '{}'::json; END IF;
  RETURN '{' || coalesce((SELECT string_agg(m, ',' ORDER BY g, n) FROM (
      SELECT 0 AS g, x.n, CASE WHEN y.k IS NULL THEN to_json(x.k)::text || ':' || hdb_jmin(x.v)
                               WHEN json_typeof(y.v) = 'null' THEN NULL
                               ELSE to_json(x.k)::text || ':' || hdb_jpatch1(x.v, y.v) END AS m
      FROM json_each(a) WITH ORDINALITY AS x(k, v, n)
      LEFT JOIN json_each(b) AS y(k, v) ON y.k = x.k
      UNION ALL
      SELECT 1, y.n, to_json(y.k)::text || ':' || hdb_jpatch1(NULL, y.v)
      FROM json_each(b) WITH ORDINALITY AS y(k, v, n)
      WHERE json_typeof(y.v) <> 'null' AND NOT EXISTS (SELECT 1 FROM json_each(a) AS x(k, v) WHERE x.k = y.k)) q), '')
    || '}';
END $f$;
CREATE OR REPLACE FUNCTION hdb_jpatch(a text, b text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT hdb_jpatch1(hdb_jdoc(a), hdb_jdoc(b)) $f$
"""


def _split(text: str) -> list[str]:
    parts = text.split(";\nCREATE OR REPLACE")
    return [parts[0]] + ["CREATE OR REPLACE" + part for part in parts[1:]]


# json_each / json_tree: rows in SQLite's columns (value/atom as text; hdb_* = tagged for the result hook);
# id is the node's slot in SQLite's parse array (an object member's label takes one slot)
TREE = r"""
CREATE OR REPLACE FUNCTION hdb_jslots(j json) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  RETURN CASE json_typeof(j)
    WHEN 'object' THEN 1 + coalesce((SELECT sum(1 + hdb_jslots(e.v)) FROM json_each(j) AS e(k, v)), 0)
    WHEN 'array' THEN 1 + coalesce((SELECT sum(hdb_jslots(e.v)) FROM json_array_elements(j) AS e(v)), 0)
    ELSE 1 END;
END $f$;
CREATE OR REPLACE FUNCTION hdb_jwalk(j json, k text, kj text, fk text, pth text, myid bigint, par bigint,
                                     recurse boolean, emit_self boolean)
RETURNS TABLE(key text, value text, type text, atom text, id bigint, parent bigint, fullkey text, path text,
              hdb_key text, hdb_value text, hdb_atom text)
LANGUAGE plpgsql IMMUTABLE AS $f$
#variable_conflict use_column
DECLARE t text := json_typeof(j); node text := hdb_jmin(j); cid bigint; r record; cfk text;
BEGIN
  IF emit_self THEN
    key := k; value := hdb_jtext(node); type := hdb_jtype(node);
    atom := CASE WHEN t IN ('object', 'array') THEN NULL ELSE hdb_jtext(node) END;
    id := myid; parent := par; fullkey := fk; path := pth; hdb_key := kj; hdb_value := hdb_jval(node);
    hdb_atom := CASE WHEN t IN ('object', 'array') THEN NULL ELSE hdb_jval(node) END;
    RETURN NEXT;
  END IF;
  IF emit_self AND NOT recurse THEN RETURN; END IF;
  IF t = 'object' THEN
    cid := myid + 1;
    FOR r IN SELECT e.ek, e.ev FROM json_each(j) WITH ORDINALITY AS e(ek, ev, en) ORDER BY e.en LOOP
      cfk := fk || CASE WHEN r.ek ~ '^[A-Za-z_][A-Za-z0-9_]*$' THEN '.' || r.ek ELSE '."' || r.ek || '"' END;
      RETURN QUERY SELECT * FROM hdb_jwalk(r.ev, r.ek, to_json(r.ek)::text, cfk, fk, cid + 1,
                                           CASE WHEN recurse THEN myid END, recurse, true);
      cid := cid + 1 + hdb_jslots(r.ev);
    END LOOP;
  ELSIF t = 'array' THEN
    cid := myid + 1;
    FOR r IN SELECT e.ev, e.en - 1 AS ix FROM json_array_elements(j) WITH ORDINALITY AS e(ev, en) ORDER BY e.en LOOP
      RETURN QUERY SELECT * FROM hdb_jwalk(r.ev, r.ix::text, r.ix::text, fk || '[' || r.ix || ']', fk, cid,
                                           CASE WHEN recurse THEN myid END, recurse, true);
      cid := cid + hdb_jslots(r.ev);
    END LOOP;
  END IF;
END $f$;
CREATE OR REPLACE FUNCTION hdb_jeach(d text, p text, recurse boolean)
RETURNS TABLE(key text, value text, type text, atom text, id bigint, parent bigint, fullkey text, path text,
              hdb_key text, hdb_value text, hdb_atom text)
LANGUAGE plpgsql IMMUTABLE AS $f$
#variable_conflict use_column
DECLARE root text; steps text[]; last_ text; k text; kj text; up text; t text;
BEGIN
  IF d IS NULL THEN RETURN; END IF;
  p := coalesce(p, '$');
  root := hdb_jget(d, p, 0);
  IF root IS NULL THEN RETURN; END IF;
  steps := hdb_jsteps(p, 0);
  last_ := steps[array_length(steps, 1)];
  IF last_ IS NOT NULL THEN
    k := substr(last_, 2); kj := CASE WHEN left(last_, 1) = 'k' THEN to_json(k)::text ELSE k END;
    up := regexp_replace(p, '(\.[^.\[]*|\."[^"]*"|\[[^\]]*\])$', '');
  ELSE
    up := '$';
  END IF;
  t := left(root, 1);
  RETURN QUERY SELECT * FROM hdb_jwalk(root::json, k, kj, p, up, 0, NULL, recurse,
                                       recurse OR t NOT IN ('{', '['));
END $f$
"""


STATEMENTS = tuple(sql for text in (JSON_VALID, DOC, MINIFY, STEPS, GET, QUOTE, VALUES, MODIFY, PATCH, TREE)
                   for sql in _split(text))
