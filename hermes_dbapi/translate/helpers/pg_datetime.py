"""PostgreSQL port of SQLite 3.40's date.c: ``hdb_dt(fmt, value, modifiers[])``.

The state machine (iJD in ms plus the parsed Y/M/D and h:m:s fields, each with
its valid flag) follows date.c line by line so results equal SQLite's text,
including its quirks (``date('2023-02-31')`` stays as written, ``+1 month`` on
Jan 31 gives Mar 3).  ``fmt`` ``E'\\x01'`` returns the iJD as text (julianday,
unixepoch).  'localtime' uses ``current_setting('hermes.timezone')`` when set,
else the session time zone (UTC for hermes_dbapi connections).
"""

CJD = r"""
CREATE OR REPLACE FUNCTION hdb_cjd(vymd boolean, y int, mo int, d int, vhms boolean, h int, mi int,
                                   s float8, vtz boolean, tz int) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE yy int; mm int; dd int; a int; b int; x1 int; x2 int; r bigint;
BEGIN
  IF vymd THEN yy := y; mm := mo; dd := d; ELSE yy := 2000; mm := 1; dd := 1; END IF;
  IF yy < -4713 OR yy > 9999 THEN RETURN NULL; END IF;
  IF mm <= 2 THEN yy := yy - 1; mm := mm + 12; END IF;
  a := yy / 100;
  b := 2 - a + a / 4;
  x1 := 36525 * (yy + 4716) / 100;
  x2 := 306001 * (mm + 1) / 10000;
  r := trunc((x1 + x2 + dd + b - 1524.5::float8) * 86400000);
  IF vhms THEN
    r := r + h * 3600000 + mi * 60000 + trunc(s * 1000 + 0.5)::bigint;
    IF vtz THEN r := r - tz * 60000; END IF;
  END IF;
  RETURN r;
END $f$
"""

YMD = r"""
CREATE OR REPLACE FUNCTION hdb_ymd(ijd bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE z int; a int; b int; c int; dd int; e int; x1 int; d int; m int; y int;
BEGIN
  z := ((ijd + 43200000) / 86400000)::int;
  a := trunc((z - 1867216.25::float8) / 36524.25::float8)::int;
  a := z + 1 + a - a / 4;
  b := a + 1524;
  c := trunc((b - 122.1::float8) / 365.25::float8)::int;
  dd := (36525 * (c & 32767)) / 100;
  e := trunc((b - dd) / 30.6001::float8)::int;
  x1 := trunc(30.6001::float8 * e)::int;
  d := b - dd - x1;
  m := CASE WHEN e < 14 THEN e - 1 ELSE e - 13 END;
  y := CASE WHEN m > 2 THEN c - 4716 ELSE c - 4715 END;
  RETURN (y + 10000)::bigint * 10000 + m * 100 + d;
END $f$
"""

LOCAL_OFFSET = r"""
CREATE OR REPLACE FUNCTION hdb_tzoff(ijd bigint) RETURNS bigint
LANGUAGE plpgsql STABLE AS $f$
DECLARE p bigint; y int; t bigint; zone text;
BEGIN
  p := hdb_ymd(ijd);
  y := p / 10000 - 10000;
  IF y < 1971 OR y >= 2038 THEN
    t := 946684800;
  ELSE
    t := (ijd + 500) / 1000 - 210866760000;
  END IF;
  zone := coalesce(nullif(current_setting('hermes.timezone', true), ''), current_setting('TimeZone'));
  RETURN (extract(epoch FROM (to_timestamp(t) AT TIME ZONE zone))::bigint - t) * 1000;
END $f$
"""

DT = r"""
CREATE OR REPLACE FUNCTION hdb_dt(fmt text, v text, mods text[]) RETURNS text
LANGUAGE plpgsql STABLE AS $f$
DECLARE
  ijd bigint := 0; vjd boolean := false;
  y int := 2000; mo int := 1; d int := 1; vymd boolean := false;
  h int := 0; mi int := 0; s float8 := 0; vhms boolean := false;
  tz int := 0; vtz boolean := false; tzset boolean := false; raws boolean := false;
  num text := '^[[:space:]]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[[:space:]]*$';
  tre text := '^([0-9]{2}):([0-9]{2})(:([0-9]{2})(\.[0-9]+)?)?[[:space:]]*(([-+])([0-9]{2}):([0-9]{2})|[Zz])?[[:space:]]*$';
  p text[]; q text[]; m text; lm text; idx int; r float8; n int; x int; z bigint; c1 bigint;
  t bigint; packed bigint; unit text; lim float8; xf float8; pos int; k int; ch text; res text := '';
  nday int; wd int; sec float8; dstyle boolean;
BEGIN
  IF fmt IS NULL OR v IS NULL THEN RETURN NULL; END IF;
  -- parseDateOrTime
  p := regexp_match(v, '^(-?)([0-9]{4})-([0-9]{2})-([0-9]{2})[[:space:]T]*(.*)$');
  IF p IS NOT NULL AND (p[3]::int BETWEEN 1 AND 12) AND (p[4]::int BETWEEN 1 AND 31)
     AND (p[5] = '' OR p[5] ~ tre) THEN
    y := p[2]::int; IF p[1] = '-' THEN y := -y; END IF;
    mo := p[3]::int; d := p[4]::int; vymd := true;
    IF p[5] <> '' THEN
      q := regexp_match(p[5], tre);
      h := q[1]::int; mi := q[2]::int; s := coalesce(q[4]::int, 0) + coalesce(('0' || q[5])::float8, 0);
      IF h > 24 OR mi > 59 OR coalesce(q[4]::int, 0) > 59 OR coalesce(q[9]::int, 0) > 59 OR coalesce(q[8]::int, 0) > 14 THEN
        RETURN NULL;
      END IF;
      vhms := true;
      IF q[6] IS NOT NULL THEN
        tzset := true;
        IF q[7] IS NOT NULL THEN tz := (q[8]::int * 60 + q[9]::int) * (CASE WHEN q[7] = '-' THEN -1 ELSE 1 END); END IF;
      END IF;
      vtz := tz <> 0;
      IF vtz THEN
        ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); vjd := true;
        vymd := false; vhms := false; vtz := false;
      END IF;
    END IF;
  ELSIF v ~ tre THEN
    q := regexp_match(v, tre);
    h := q[1]::int; mi := q[2]::int; s := coalesce(q[4]::int, 0) + coalesce(('0' || q[5])::float8, 0);
    IF h > 24 OR mi > 59 OR coalesce(q[4]::int, 0) > 59 OR coalesce(q[9]::int, 0) > 59 OR coalesce(q[8]::int, 0) > 14 THEN
      RETURN NULL;
    END IF;
    vhms := true;
    IF q[6] IS NOT NULL THEN
      tzset := true;
      IF q[7] IS NOT NULL THEN tz := (q[8]::int * 60 + q[9]::int) * (CASE WHEN q[7] = '-' THEN -1 ELSE 1 END); END IF;
    END IF;
    vtz := tz <> 0;
  ELSIF lower(v) = 'now' THEN
    ijd := floor(extract(epoch FROM statement_timestamp()) * 1000)::bigint + 210866760000000; vjd := true;
  ELSIF v ~ num THEN
    r := v::float8; s := r; raws := true;
    IF r >= 0 AND r < 5373484.5 THEN ijd := trunc(r * 86400000 + 0.5); vjd := true; END IF;
  ELSE
    RETURN NULL;
  END IF;
  -- modifiers
  FOR idx IN 1 .. coalesce(array_length(mods, 1), 0) LOOP
    m := mods[idx];
    IF m IS NULL THEN RETURN NULL; END IF;
    lm := lower(m);
    IF lm = 'auto' THEN
      IF idx > 1 THEN RETURN NULL; END IF;
      IF NOT raws OR vjd THEN raws := false;
      ELSIF s >= -210866760000 AND s <= 253402300799 THEN
        ijd := trunc(s * 1000 + 210866760000000 + 0.5); vjd := true; raws := false;
        vymd := false; vhms := false; vtz := false;
      ELSE RETURN NULL; END IF;
    ELSIF lm = 'julianday' THEN
      IF idx > 1 OR NOT (vjd AND raws) THEN RETURN NULL; END IF;
      raws := false;
    ELSIF lm = 'localtime' THEN
      IF NOT vjd AND raws THEN
        raws := false; vymd := false; vhms := false; vtz := false; CONTINUE;
      END IF;
      IF NOT vjd THEN
        ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
        vjd := true; IF vhms AND vtz THEN vymd := false; vhms := false; vtz := false; END IF;
      END IF;
      ijd := ijd + hdb_tzoff(ijd);
      vymd := false; vhms := false; vtz := false;
    ELSIF lm = 'unixepoch' AND raws THEN
      IF idx > 1 THEN RETURN NULL; END IF;
      r := s * 1000 + 210866760000000;
      IF NOT (r >= 0 AND r < 464269060800000) THEN RETURN NULL; END IF;
      vymd := false; vhms := false; vtz := false;
      ijd := trunc(r + 0.5); vjd := true; raws := false;
    ELSIF lm = 'utc' THEN
      IF NOT tzset AND NOT vjd AND raws THEN
        ijd := 0; vjd := true; raws := false; tzset := true; vymd := false; vhms := false; vtz := false;
      ELSIF NOT tzset THEN
        IF NOT vjd THEN
          ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
          vjd := true; IF vhms AND vtz THEN vymd := false; vhms := false; vtz := false; END IF;
        END IF;
        c1 := hdb_tzoff(ijd);
        ijd := ijd - c1;
        vymd := false; vhms := false; vtz := false;
        ijd := ijd + c1 - hdb_tzoff(ijd);
        tzset := true;
      END IF;
    ELSIF left(lm, 8) = 'weekday ' THEN
      IF substr(m, 9) !~ num THEN RETURN NULL; END IF;
      r := substr(m, 9)::float8; n := trunc(r)::int;
      IF n <> r OR n < 0 OR r >= 7 THEN RETURN NULL; END IF;
      IF NOT vymd THEN
        IF NOT vjd THEN y := 2000; mo := 1; d := 1;
        ELSIF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL;
        ELSE packed := hdb_ymd(ijd); y := packed / 10000 - 10000; mo := (packed / 100) % 100; d := packed % 100; END IF;
        vymd := true;
      END IF;
      IF NOT vhms THEN
        IF NOT vjd THEN
          IF raws THEN RETURN NULL; END IF;
          ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
          vjd := true;
        END IF;
        t := (ijd + 43200000) % 86400000;
        h := t / 3600000; mi := (t / 60000) % 60; s := (t % 60000) / 1000.0::float8; vhms := true; raws := false;
      END IF;
      vtz := false;
      IF raws THEN RETURN NULL; END IF;
      ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
      vjd := true;
      z := ((ijd + 129600000) / 86400000) % 7;
      IF z > n THEN z := z - 7; END IF;
      ijd := ijd + (n - z) * 86400000;
      vymd := false; vhms := false; vtz := false;
    ELSIF left(lm, 9) = 'start of ' THEN
      IF NOT (vjd OR vymd OR vhms) THEN RETURN NULL; END IF;
      IF NOT vymd THEN
        IF NOT vjd THEN y := 2000; mo := 1; d := 1;
        ELSIF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL;
        ELSE packed := hdb_ymd(ijd); y := packed / 10000 - 10000; mo := (packed / 100) % 100; d := packed % 100; END IF;
        vymd := true;
      END IF;
      vhms := true; h := 0; mi := 0; s := 0; raws := false; vtz := false; vjd := false;
      IF substr(lm, 10) = 'month' THEN d := 1;
      ELSIF substr(lm, 10) = 'year' THEN mo := 1; d := 1;
      ELSIF substr(lm, 10) <> 'day' THEN RETURN NULL; END IF;
    ELSIF left(m, 1) IN ('+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN
      pos := 2;
      WHILE pos <= length(m) AND substr(m, pos, 1) <> ':' AND substr(m, pos, 1) !~ '[[:space:]]' LOOP
        pos := pos + 1;
      END LOOP;
      IF left(m, pos - 1) !~ num THEN RETURN NULL; END IF;
      r := left(m, pos - 1)::float8;
      IF substr(m, pos, 1) = ':' THEN
        lm := CASE WHEN left(m, 1) IN ('+', '-') THEN substr(m, 2) ELSE m END;
        IF lm !~ tre THEN RETURN NULL; END IF;
        q := regexp_match(lm, tre);
        IF q[1]::int > 24 OR q[2]::int > 59 OR coalesce(q[4]::int, 0) > 59 OR coalesce(q[9]::int, 0) > 59
           OR coalesce(q[8]::int, 0) > 14 THEN RETURN NULL; END IF;
        x := 0;
        IF q[7] IS NOT NULL THEN x := (q[8]::int * 60 + q[9]::int) * (CASE WHEN q[7] = '-' THEN -1 ELSE 1 END); END IF;
        t := hdb_cjd(false, 0, 0, 0, true, q[1]::int, q[2]::int,
                     coalesce(q[4]::int, 0) + coalesce(('0' || q[5])::float8, 0), x <> 0, x) - 43200000;
        t := t - (t / 86400000) * 86400000;
        IF left(m, 1) = '-' THEN t := -t; END IF;
        IF NOT vjd THEN
          IF raws THEN RETURN NULL; END IF;
          ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
          vjd := true;
        END IF;
        vymd := false; vhms := false; vtz := false;
        ijd := ijd + t;
      ELSE
        unit := lower(ltrim(substr(m, pos), E' \t\n\r\f\v'));
        n := length(unit);
        IF n > 10 OR n < 3 THEN RETURN NULL; END IF;
        IF right(unit, 1) = 's' THEN unit := left(unit, n - 1); END IF;
        IF NOT vjd THEN
          IF raws THEN RETURN NULL; END IF;
          ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
          vjd := true; IF vhms AND vtz THEN vymd := false; vhms := false; vtz := false; END IF;
        END IF;
        lim := CASE unit WHEN 'second' THEN 4.6427e14 WHEN 'minute' THEN 7.7379e12 WHEN 'hour' THEN 1.2897e11
               WHEN 'day' THEN 5373485.0 WHEN 'month' THEN 176546.0 WHEN 'year' THEN 14713.0 END;
        xf := CASE unit WHEN 'second' THEN 1.0 WHEN 'minute' THEN 60.0 WHEN 'hour' THEN 3600.0
               WHEN 'day' THEN 86400.0 WHEN 'month' THEN 2592000.0 WHEN 'year' THEN 31536000.0 END;
        IF lim IS NULL OR NOT (r > -lim AND r < lim) THEN RETURN NULL; END IF;
        IF unit IN ('month', 'year') THEN
          IF NOT vymd THEN
            IF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL; END IF;
            packed := hdb_ymd(ijd); y := packed / 10000 - 10000; mo := (packed / 100) % 100; d := packed % 100;
            vymd := true;
          END IF;
          IF NOT vhms THEN
            t := (ijd + 43200000) % 86400000;
            h := t / 3600000; mi := (t / 60000) % 60; s := (t % 60000) / 1000.0::float8; vhms := true; raws := false;
          END IF;
          IF unit = 'month' THEN
            mo := mo + trunc(r)::int;
            x := CASE WHEN mo > 0 THEN (mo - 1) / 12 ELSE (mo - 12) / 12 END;
            y := y + x; mo := mo - x * 12;
          ELSE
            y := y + trunc(r)::int;
          END IF;
          vjd := false;
          r := r - trunc(r);
          IF raws THEN RETURN NULL; END IF;
          ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
          vjd := true;
        END IF;
        ijd := ijd + trunc(r * 1000.0 * xf + CASE WHEN r < 0 THEN -0.5 ELSE 0.5 END)::bigint;
        vymd := false; vhms := false; vtz := false;
      END IF;
    ELSE
      RETURN NULL;
    END IF;
  END LOOP;
  -- final computeJD and validity
  IF NOT vjd THEN
    IF raws THEN RETURN NULL; END IF;
    ijd := hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz); IF ijd IS NULL THEN RETURN NULL; END IF;
    vjd := true; IF vhms AND vtz THEN vymd := false; vhms := false; vtz := false; END IF;
  END IF;
  IF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL; END IF;
  IF fmt = E'\x01' THEN RETURN ijd::text; END IF;
  IF NOT vymd THEN
    packed := hdb_ymd(ijd); y := packed / 10000 - 10000; mo := (packed / 100) % 100; d := packed % 100;
  END IF;
  IF NOT vhms THEN
    t := (ijd + 43200000) % 86400000;
    h := t / 3600000; mi := (t / 60000) % 60; s := (t % 60000) / 1000.0::float8;
  END IF;
  -- strftime (a leading \x02 asks for date()'s year style: -0001, not -001)
  k := 1;
  dstyle := left(fmt, 1) = E'\x02';
  IF dstyle THEN k := 2; END IF;
  WHILE k <= length(fmt) LOOP
    ch := substr(fmt, k, 1);
    IF ch <> '%' THEN res := res || ch; k := k + 1; CONTINUE; END IF;
    ch := substr(fmt, k + 1, 1);
    k := k + 2;
    IF ch = 'd' THEN res := res || lpad(d::text, 2, '0');
    ELSIF ch = 'f' THEN
      sec := least(s, 59.999);
      res := res || lpad(to_char(round(sec::numeric, 3), 'FM990.000'), 6, '0');
    ELSIF ch = 'H' THEN res := res || lpad(h::text, 2, '0');
    ELSIF ch IN ('W', 'j') THEN
      nday := ((ijd - hdb_cjd(true, y, 1, 1, true, h, mi, s, false, 0) + 43200000) / 86400000)::int;
      IF ch = 'W' THEN
        wd := (((ijd + 43200000) / 86400000) % 7)::int;
        res := res || lpad(((nday + 7 - wd) / 7)::text, 2, '0');
      ELSE
        res := res || lpad((nday + 1)::text, 3, '0');
      END IF;
    ELSIF ch = 'J' THEN
      IF ijd = 0 THEN res := res || '0';
      ELSE
        res := res || rtrim(rtrim(round((ijd::float8 / 86400000::float8)::text::numeric,
                   greatest(0, 16 - (floor(log(ijd::numeric / 86400000))::int + 1)))::text, '0'), '.');
      END IF;
    ELSIF ch = 'm' THEN res := res || lpad(mo::text, 2, '0');
    ELSIF ch = 'M' THEN res := res || lpad(mi::text, 2, '0');
    ELSIF ch = 's' THEN res := res || (ijd / 1000 - 210866760000)::text;
    ELSIF ch = 'S' THEN res := res || lpad(trunc(s)::int::text, 2, '0');
    ELSIF ch = 'w' THEN res := res || (((ijd + 129600000) / 86400000) % 7)::text;
    ELSIF ch = 'Y' AND (y >= 0 OR dstyle) THEN
      res := res || CASE WHEN y < 0 THEN '-' ELSE '' END || lpad(abs(y)::text, 4, '0');
    ELSIF ch = 'Y' THEN
      res := res || '-' || CASE WHEN y > -1000 THEN lpad(abs(y)::text, 3, '0') ELSE abs(y)::text END;
    ELSIF ch = '%' THEN res := res || '%';
    ELSE RETURN NULL;
    END IF;
  END LOOP;
  RETURN res;
END $f$
"""

STATEMENTS = (CJD, YMD, LOCAL_OFFSET, DT)
