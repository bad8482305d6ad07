"""FTS5's index writes done by PostgreSQL itself (issue 8: ``fts/server/native.py``).

A sync trigger (``AFTER INSERT ON messages … INSERT INTO messages_fts(rowid,
content) VALUES (new.id, new.content)``) run by the shim costs a tokenizing
pass and three statements of the client per row.  These functions let a
server trigger write the same rows (``fts/server/storage.py``'s format) in the
statement itself:

* ``hdb_u61_terms(text)``: the tokens of FTS5's default ``unicode61``
  tokenizer (remove_diacritics 1), folded, in order.  The token class and the
  fold table are ``fts/tokenizers.py``'s own, written out as a regular
  expression and a ``translate()``, so the two agree character for character
  (tests/fts_server/test_native_triggers.py checks every code point).
* ``hdb_fts_raw(text)``: a token's stored bytes, cut at FTS5's 32,768 as
  ``query.clip_token`` cuts it.
* ``hdb_sha1(bytea)``: SHA-1 (PostgreSQL has none without pgcrypto), for the
  key of a term longer than 480 bytes (``storage.term_key``).
* ``hdb_varints(int[])``: FTS5's size blob (``storage.varints``).
"""

from __future__ import annotations

from functools import lru_cache

from ...fts.tokenizers import Unicode61
from ...fts.unicode61_tables import fold_table


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@lru_cache(maxsize=1)
def terms_function() -> str:
    """``hdb_u61_terms``: ASCII text folded and split at once (what is not a letter
    or digit becomes one space); other text by the tokenizer's whole class, each
    token folded by the fold table (a token of ASCII only by A-Z alone:
    ``translate`` walks its whole list per character).  A-Z is folded by
    ``lower()`` under the "C" collation, which changes ASCII letters and nothing
    else (issue 8: a fifth of the cost of ``translate``)."""
    tokenizer = Unicode61()
    pattern = tokenizer.pattern  # \Uxxxxxxxx escapes PostgreSQL reads too
    fold = fold_table(tokenizer.remove_diacritics)
    pairs = sorted((cp, to) for cp, to in fold.items() if to and not 65 <= cp <= 90)
    dropped = "".join(chr(cp) for cp, to in sorted(fold.items()) if not to)
    source = "".join(chr(cp) for cp, _to in pairs) + dropped
    target = "".join(to for _cp, to in pairs)
    return rf"""
CREATE OR REPLACE FUNCTION hdb_u61_terms(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF t IS NULL THEN
    RETURN '{{}}'::text[];
  END IF;
  IF t ~ '^[\x01-\x7f]*$' THEN
    RETURN string_to_array(btrim(regexp_replace(lower(t COLLATE "C"), '[^a-z0-9]+', ' ', 'g')), ' ');
  END IF;
  RETURN ARRAY(SELECT CASE WHEN m[1] ~ '^[\x01-\x7f]*$' THEN lower(m[1] COLLATE "C")
                      ELSE translate(lower(m[1] COLLATE "C"), {_literal(source)}, {_literal(target)}) END
               FROM regexp_matches(t, {_literal("(" + pattern + ")")}, 'g') WITH ORDINALITY AS r(m, n) ORDER BY n);
END $f$
"""


# a token's bytes; past 32,768 cut there, and the bytes of a character the cut split
# written as Python's surrogateescape + surrogatepass round trip writes them (ED, B0|b>>6, 80|b&3F)
RAW = r"""
CREATE OR REPLACE FUNCTION hdb_fts_raw(tok text) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $f$
DECLARE
  r bytea := convert_to(tok, 'UTF8');
  i int;
  lead int;
  need int;
  tail bytea := '';
  b int;
BEGIN
  IF octet_length(r) <= 32768 THEN
    RETURN r;
  END IF;
  r := substring(r FROM 1 FOR 32768);
  i := 32767;
  WHILE i > 0 AND get_byte(r, i) BETWEEN 128 AND 191 LOOP
    i := i - 1;
  END LOOP;
  lead := get_byte(r, i);
  need := CASE WHEN lead >= 240 THEN 4 WHEN lead >= 224 THEN 3 WHEN lead >= 192 THEN 2 ELSE 1 END;
  IF 32768 - i >= need THEN
    RETURN r;
  END IF;
  FOR j IN i .. 32767 LOOP
    b := get_byte(r, j);
    tail := tail || set_byte(set_byte(set_byte('\x000000'::bytea, 0, 237), 1, 176 | (b >> 6)), 2, 128 | (b & 63));
  END LOOP;
  RETURN substring(r FROM 1 FOR i) || tail;
END $f$
"""

SHA1 = r"""
CREATE OR REPLACE FUNCTION hdb_sha1(m bytea) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $f$
DECLARE
  mask bigint := 4294967295;
  h0 bigint := 1732584193;
  h1 bigint := 4023233417;
  h2 bigint := 2562383102;
  h3 bigint := 271733878;
  h4 bigint := 3285377520;
  p bytea := m || '\x80'::bytea || decode(repeat('00', (119 - octet_length(m) % 64) % 64), 'hex')
             || int8send(octet_length(m)::bigint * 8);
  w bigint[];
  a bigint; b bigint; c bigint; d bigint; e bigint; f bigint; k bigint; t bigint;
BEGIN
  FOR off IN 0 .. octet_length(p) - 1 BY 64 LOOP
    w := array_fill(0::bigint, ARRAY[80]);
    FOR i IN 0 .. 15 LOOP
      w[i + 1] := (get_byte(p, off + 4 * i)::bigint << 24) | (get_byte(p, off + 4 * i + 1)::bigint << 16)
                  | (get_byte(p, off + 4 * i + 2)::bigint << 8) | get_byte(p, off + 4 * i + 3)::bigint;
    END LOOP;
    FOR i IN 16 .. 79 LOOP
      t := w[i - 2] # w[i - 7] # w[i - 13] # w[i - 15];
      w[i + 1] := ((t << 1) | (t >> 31)) & mask;
    END LOOP;
    a := h0; b := h1; c := h2; d := h3; e := h4;
    FOR i IN 0 .. 79 LOOP
      IF i < 20 THEN
        f := (b & c) | ((~b & mask) & d); k := 1518500249;
      ELSIF i < 40 THEN
        f := b # c # d; k := 1859775393;
      ELSIF i < 60 THEN
        f := (b & c) | (b & d) | (c & d); k := 2400959708;
      ELSE
        f := b # c # d; k := 3395469782;
      END IF;
      t := ((((a << 5) | (a >> 27)) & mask) + f + e + k + w[i + 1]) & mask;
      e := d; d := c; c := ((b << 30) | (b >> 2)) & mask; b := a; a := t;
    END LOOP;
    h0 := (h0 + a) & mask; h1 := (h1 + b) & mask; h2 := (h2 + c) & mask;
    h3 := (h3 + d) & mask; h4 := (h4 + e) & mask;
  END LOOP;
  RETURN substring(int8send(h0) FROM 5) || substring(int8send(h1) FROM 5) || substring(int8send(h2) FROM 5)
         || substring(int8send(h3) FROM 5) || substring(int8send(h4) FROM 5);
END $f$
"""

VARINTS = r"""
CREATE OR REPLACE FUNCTION hdb_varints(sizes int[]) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $f$
DECLARE
  out bytea := '';
  v bigint;
  one bytea;
BEGIN
  FOREACH v IN ARRAY sizes LOOP
    one := set_byte('\x00'::bytea, 0, (v & 127)::int);
    v := v >> 7;
    WHILE v > 0 LOOP
      one := set_byte('\x00'::bytea, 0, (128 | (v & 127))::int) || one;
      v := v >> 7;
    END LOOP;
    out := out || one;
  END LOOP;
  RETURN out;
END $f$
"""


def statements() -> list[str]:
    return [terms_function(), RAW, SHA1, VARINTS]
