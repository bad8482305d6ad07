"""MariaDB port of SQLite 3.40's date.c: ``hdb_dt(fmt, value, n, modifiers)``.

Same state machine as :mod:`.pg_datetime` (read that first).  MariaDB stored
functions take no arrays: the ``n`` modifiers arrive joined by CHAR(31), and
the whole string is NULL when one of them is (CONCAT propagates NULL).
'localtime' converts to ``@hermes_timezone`` when set (a name needs the server's
time zone tables, an offset such as '+02:00' always works), else UTC.
"""

CJD = r"""
CREATE OR REPLACE FUNCTION hdb_cjd(vymd BOOLEAN, y INT, mo INT, d INT, vhms BOOLEAN, h INT, mi INT,
                                   s DOUBLE, vtz BOOLEAN, tz INT) RETURNS BIGINT
DETERMINISTIC NO SQL
BEGIN
  DECLARE yy INT; DECLARE mm INT; DECLARE dd INT; DECLARE a INT; DECLARE b INT;
  DECLARE x1 INT; DECLARE x2 INT; DECLARE r BIGINT;
  IF vymd THEN SET yy = y, mm = mo, dd = d; ELSE SET yy = 2000, mm = 1, dd = 1; END IF;
  IF yy < -4713 OR yy > 9999 THEN RETURN NULL; END IF;
  IF mm <= 2 THEN SET yy = yy - 1, mm = mm + 12; END IF;
  SET a = yy DIV 100;
  SET b = 2 - a + a DIV 4;
  SET x1 = (36525 * (yy + 4716)) DIV 100;
  SET x2 = (306001 * (mm + 1)) DIV 10000;
  SET r = TRUNCATE((x1 + x2 + dd + b - 1524.5e0) * 86400000e0, 0);
  IF vhms THEN
    SET r = r + h * 3600000 + mi * 60000 + TRUNCATE(s * 1000e0 + 0.5e0, 0);
    IF vtz THEN SET r = r - tz * 60000; END IF;
  END IF;
  RETURN r;
END
"""

YMD = r"""
CREATE OR REPLACE FUNCTION hdb_ymd(ijd BIGINT) RETURNS BIGINT
DETERMINISTIC NO SQL
BEGIN
  DECLARE z BIGINT; DECLARE a BIGINT; DECLARE b BIGINT; DECLARE c BIGINT; DECLARE dd BIGINT;
  DECLARE e BIGINT; DECLARE x1 BIGINT; DECLARE d BIGINT; DECLARE m BIGINT; DECLARE y BIGINT;
  SET z = (ijd + 43200000) DIV 86400000;
  SET a = TRUNCATE((z - 1867216.25e0) / 36524.25e0, 0);
  SET a = z + 1 + a - a DIV 4;
  SET b = a + 1524;
  SET c = TRUNCATE((b - 122.1e0) / 365.25e0, 0);
  SET dd = (36525 * (c & 32767)) DIV 100;
  SET e = TRUNCATE((b - dd) / 30.6001e0, 0);
  SET x1 = TRUNCATE(30.6001e0 * e, 0);
  SET d = b - dd - x1;
  SET m = IF(e < 14, e - 1, e - 13);
  SET y = IF(m > 2, c - 4716, c - 4715);
  RETURN (y + 10000) * 10000 + m * 100 + d;
END
"""

LOCAL_OFFSET = r"""
CREATE OR REPLACE FUNCTION hdb_tzoff(ijd BIGINT) RETURNS BIGINT
NOT DETERMINISTIC NO SQL
BEGIN
  DECLARE y BIGINT; DECLARE t BIGINT; DECLARE utc DATETIME; DECLARE here DATETIME;
  IF @hermes_timezone IS NULL OR @hermes_timezone = '' THEN RETURN 0; END IF;
  SET y = hdb_ymd(ijd) DIV 10000 - 10000;
  IF y < 1971 OR y >= 2038 THEN SET t = 946684800; ELSE SET t = (ijd + 500) DIV 1000 - 210866760000; END IF;
  SET utc = TIMESTAMPADD(SECOND, t, '1970-01-01 00:00:00');
  SET here = CONVERT_TZ(utc, '+00:00', @hermes_timezone);
  RETURN IFNULL(TIMESTAMPDIFF(SECOND, utc, here), 0) * 1000;
END
"""

_TRE = r"^([0-9]{2}):([0-9]{2})(:([0-9]{2})(\\.[0-9]+)?)?[[:space:]]*(([-+])([0-9]{2}):([0-9]{2})|[Zz])?[[:space:]]*$"
_NUM = r"^[[:space:]]*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?[[:space:]]*$"
_DRE = r"^(-?)([0-9]{4})-([0-9]{2})-([0-9]{2})[[:space:]T]*(.*)$"

# "computeJD(p)" of date.c, inlined where the PG port calls hdb_cjd.
_CJD = """
        IF NOT vjd THEN
          IF raws THEN RETURN NULL; END IF;
          SET ijd = hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz);
          IF ijd IS NULL THEN RETURN NULL; END IF;
          SET vjd = TRUE;
          IF vhms AND vtz THEN SET vymd = FALSE, vhms = FALSE, vtz = FALSE; END IF;
        END IF;"""
_YMD = """
        IF NOT vymd THEN
          IF NOT vjd THEN SET y = 2000, mo = 1, d = 1;
          ELSEIF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL;
          ELSE SET packed = hdb_ymd(ijd), y = packed DIV 10000 - 10000, mo = (packed DIV 100) % 100, d = packed % 100;
          END IF;
          SET vymd = TRUE;
        END IF;"""
_HMS = (
    """
        IF NOT vhms THEN"""
    + _CJD
    + """
          SET t = (ijd + 43200000) % 86400000;
          SET h = t DIV 3600000, mi = (t DIV 60000) % 60, s = (t % 60000) / 1000e0, vhms = TRUE, raws = FALSE;
        END IF;"""
)
# parseHhMmSs on `src` into the time fields (variables prefixed `out`)
_PARSE_TIME = """
      SET q1 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\1'), q2 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\2'),
          q4 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\4'), q5 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\5'),
          q6 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\6'), q7 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\7'),
          q8 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\8'), q9 = REGEXP_REPLACE(SRC, '(?-i)TRE', '\\\\9');
      IF CAST(q1 AS INT) > 24 OR CAST(q2 AS INT) > 59 OR CAST(IF(q4 = '', '0', q4) AS INT) > 59
         OR CAST(IF(q9 = '', '0', q9) AS INT) > 59 OR CAST(IF(q8 = '', '0', q8) AS INT) > 14 THEN
        RETURN NULL;
      END IF;
      SET th = CAST(q1 AS INT), tm = CAST(q2 AS INT),
          ts = CAST(IF(q4 = '', '0', q4) AS INT) + IF(q5 = '', 0e0, CAST(CONCAT('0', q5) AS DOUBLE)),
          ttz = IF(q7 = '', 0, (CAST(q8 AS INT) * 60 + CAST(q9 AS INT)) * IF(q7 = '-', -1, 1));"""

DT = r"""
CREATE OR REPLACE FUNCTION hdb_dt(fmt LONGTEXT, v LONGTEXT, nmods INT, mods LONGTEXT) RETURNS LONGTEXT
NOT DETERMINISTIC NO SQL
BEGIN
  DECLARE ijd BIGINT DEFAULT 0; DECLARE vjd BOOLEAN DEFAULT FALSE;
  DECLARE y BIGINT DEFAULT 2000; DECLARE mo BIGINT DEFAULT 1; DECLARE d BIGINT DEFAULT 1;
  DECLARE vymd BOOLEAN DEFAULT FALSE;
  DECLARE h BIGINT DEFAULT 0; DECLARE mi BIGINT DEFAULT 0; DECLARE s DOUBLE DEFAULT 0; DECLARE vhms BOOLEAN DEFAULT FALSE;
  DECLARE tz BIGINT DEFAULT 0; DECLARE vtz BOOLEAN DEFAULT FALSE; DECLARE tzset BOOLEAN DEFAULT FALSE;
  DECLARE raws BOOLEAN DEFAULT FALSE;
  DECLARE q1, q2, q4, q5, q6, q7, q8, q9, rest, m, lm, unit, ch LONGTEXT;
  DECLARE res LONGTEXT DEFAULT '';
  DECLARE th, tm, ttz, idx, n, x, pos, k, nday, wd BIGINT;
  DECLARE ts, r, lim, xf, sec DOUBLE;
  DECLARE z, c1, t, packed BIGINT;
  DECLARE dstyle BOOLEAN;
  IF fmt IS NULL OR v IS NULL OR mods IS NULL THEN RETURN NULL; END IF;
  IF v REGEXP '(?-i)DRE' AND CAST(REGEXP_REPLACE(v, '(?-i)DRE', '\\3') AS INT) BETWEEN 1 AND 12
     AND CAST(REGEXP_REPLACE(v, '(?-i)DRE', '\\4') AS INT) BETWEEN 1 AND 31
     AND (REGEXP_REPLACE(v, '(?-i)DRE', '\\5') = '' OR REGEXP_REPLACE(v, '(?-i)DRE', '\\5') REGEXP '(?-i)TRE') THEN
    SET y = CAST(REGEXP_REPLACE(v, '(?-i)DRE', '\\2') AS INT), mo = CAST(REGEXP_REPLACE(v, '(?-i)DRE', '\\3') AS INT),
        d = CAST(REGEXP_REPLACE(v, '(?-i)DRE', '\\4') AS INT), vymd = TRUE, rest = REGEXP_REPLACE(v, '(?-i)DRE', '\\5');
    IF REGEXP_REPLACE(v, '(?-i)DRE', '\\1') = '-' THEN SET y = -y; END IF;
    IF rest <> '' THEN
      PARSE_REST
      SET h = th, mi = tm, s = ts, tz = ttz, vhms = TRUE, tzset = q6 <> '', vtz = ttz <> 0;
      IF vtz THEN
        SET ijd = hdb_cjd(vymd, y, mo, d, vhms, h, mi, s, vtz, tz), vjd = TRUE, vymd = FALSE, vhms = FALSE, vtz = FALSE;
      END IF;
    END IF;
  ELSEIF v REGEXP '(?-i)TRE' THEN
    PARSE_V
    SET h = th, mi = tm, s = ts, tz = ttz, vhms = TRUE, tzset = q6 <> '', vtz = ttz <> 0;
  ELSEIF LOWER(v) = 'now' THEN
    SET ijd = FLOOR(UNIX_TIMESTAMP(NOW(3)) * 1000) + 210866760000000, vjd = TRUE;
  ELSEIF v REGEXP 'NUM' THEN
    SET r = CAST(v AS DOUBLE), s = r, raws = TRUE;
    IF r >= 0 AND r < 5373484.5e0 THEN SET ijd = TRUNCATE(r * 86400000e0 + 0.5e0, 0), vjd = TRUE; END IF;
  ELSE
    RETURN NULL;
  END IF;
  SET idx = 1;
  mods: WHILE idx <= nmods DO
    SET m = SUBSTRING_INDEX(SUBSTRING_INDEX(mods, CHAR(31), idx), CHAR(31), -1), lm = LOWER(m);
    IF lm = 'auto' THEN
      IF idx > 1 THEN RETURN NULL; END IF;
      IF NOT raws OR vjd THEN SET raws = FALSE;
      ELSEIF s >= -210866760000 AND s <= 253402300799 THEN
        SET ijd = TRUNCATE(s * 1000e0 + 210866760000000e0 + 0.5e0, 0), vjd = TRUE, raws = FALSE,
            vymd = FALSE, vhms = FALSE, vtz = FALSE;
      ELSE RETURN NULL; END IF;
    ELSEIF lm = 'julianday' THEN
      IF idx > 1 OR NOT (vjd AND raws) THEN RETURN NULL; END IF;
      SET raws = FALSE;
    ELSEIF lm = 'localtime' THEN
      IF NOT vjd AND raws THEN
        SET raws = FALSE, vymd = FALSE, vhms = FALSE, vtz = FALSE;
      ELSE
        COMPUTE_JD
        SET ijd = ijd + hdb_tzoff(ijd), vymd = FALSE, vhms = FALSE, vtz = FALSE;
      END IF;
    ELSEIF lm = 'unixepoch' AND raws THEN
      IF idx > 1 THEN RETURN NULL; END IF;
      SET r = s * 1000e0 + 210866760000000e0;
      IF NOT (r >= 0 AND r < 464269060800000e0) THEN RETURN NULL; END IF;
      SET vymd = FALSE, vhms = FALSE, vtz = FALSE, ijd = TRUNCATE(r + 0.5e0, 0), vjd = TRUE, raws = FALSE;
    ELSEIF lm = 'utc' THEN
      IF NOT tzset AND NOT vjd AND raws THEN
        SET ijd = 0, vjd = TRUE, raws = FALSE, tzset = TRUE, vymd = FALSE, vhms = FALSE, vtz = FALSE;
      ELSEIF NOT tzset THEN
        COMPUTE_JD
        SET c1 = hdb_tzoff(ijd);
        SET ijd = ijd - c1, vymd = FALSE, vhms = FALSE, vtz = FALSE;
        SET ijd = ijd + c1 - hdb_tzoff(ijd), tzset = TRUE;
      END IF;
    ELSEIF LEFT(lm, 8) = 'weekday ' THEN
      IF NOT SUBSTRING(m, 9) REGEXP 'NUM' THEN RETURN NULL; END IF;
      SET r = CAST(SUBSTRING(m, 9) AS DOUBLE), n = TRUNCATE(r, 0);
      IF n <> r OR n < 0 OR r >= 7 THEN RETURN NULL; END IF;
      COMPUTE_YMD
      COMPUTE_HMS
      SET vtz = FALSE, vjd = FALSE;
      COMPUTE_JD
      SET z = ((ijd + 129600000) DIV 86400000) % 7;
      IF z > n THEN SET z = z - 7; END IF;
      SET ijd = ijd + (n - z) * 86400000, vymd = FALSE, vhms = FALSE, vtz = FALSE;
    ELSEIF LEFT(lm, 9) = 'start of ' THEN
      IF NOT (vjd OR vymd OR vhms) THEN RETURN NULL; END IF;
      COMPUTE_YMD
      SET vhms = TRUE, h = 0, mi = 0, s = 0, raws = FALSE, vtz = FALSE, vjd = FALSE;
      IF SUBSTRING(lm, 10) = 'month' THEN SET d = 1;
      ELSEIF SUBSTRING(lm, 10) = 'year' THEN SET mo = 1, d = 1;
      ELSEIF SUBSTRING(lm, 10) <> 'day' THEN RETURN NULL; END IF;
    ELSEIF LEFT(m, 1) IN ('+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN
      SET pos = 2;
      WHILE pos <= CHAR_LENGTH(m) AND SUBSTRING(m, pos, 1) <> ':' AND NOT SUBSTRING(m, pos, 1) REGEXP '^[[:space:]]$' DO
        SET pos = pos + 1;
      END WHILE;
      IF NOT LEFT(m, pos - 1) REGEXP 'NUM' THEN RETURN NULL; END IF;
      SET r = CAST(LEFT(m, pos - 1) AS DOUBLE);
      IF SUBSTRING(m, pos, 1) = ':' THEN
        SET rest = IF(LEFT(m, 1) IN ('+', '-'), SUBSTRING(m, 2), m);
        IF NOT rest REGEXP '(?-i)TRE' THEN RETURN NULL; END IF;
        PARSE_REST
        SET t = hdb_cjd(FALSE, 0, 0, 0, TRUE, th, tm, ts, ttz <> 0, ttz) - 43200000;
        SET t = t - (t DIV 86400000) * 86400000;
        IF LEFT(m, 1) = '-' THEN SET t = -t; END IF;
        COMPUTE_JD
        SET vymd = FALSE, vhms = FALSE, vtz = FALSE, ijd = ijd + t;
      ELSE
        SET unit = LOWER(TRIM(LEADING ' ' FROM SUBSTRING(m, pos)));
        SET n = CHAR_LENGTH(unit);
        IF n > 10 OR n < 3 THEN RETURN NULL; END IF;
        IF RIGHT(unit, 1) = 's' THEN SET unit = LEFT(unit, n - 1); END IF;
        COMPUTE_JD
        SET lim = CASE unit WHEN 'second' THEN 4.6427e14 WHEN 'minute' THEN 7.7379e12 WHEN 'hour' THEN 1.2897e11
                  WHEN 'day' THEN 5373485.0e0 WHEN 'month' THEN 176546.0e0 WHEN 'year' THEN 14713.0e0 END;
        SET xf = CASE unit WHEN 'second' THEN 1.0e0 WHEN 'minute' THEN 60.0e0 WHEN 'hour' THEN 3600.0e0
                 WHEN 'day' THEN 86400.0e0 WHEN 'month' THEN 2592000.0e0 WHEN 'year' THEN 31536000.0e0 END;
        IF lim IS NULL OR NOT (r > -lim AND r < lim) THEN RETURN NULL; END IF;
        IF unit IN ('month', 'year') THEN
          COMPUTE_YMD
          COMPUTE_HMS
          IF unit = 'month' THEN
            SET mo = mo + TRUNCATE(r, 0);
            SET x = IF(mo > 0, (mo - 1) DIV 12, (mo - 12) DIV 12);
            SET y = y + x, mo = mo - x * 12;
          ELSE
            SET y = y + TRUNCATE(r, 0);
          END IF;
          SET vjd = FALSE, r = r - TRUNCATE(r, 0);
          COMPUTE_JD
        END IF;
        SET ijd = ijd + TRUNCATE(r * 1000.0e0 * xf + IF(r < 0, -0.5e0, 0.5e0), 0),
            vymd = FALSE, vhms = FALSE, vtz = FALSE;
      END IF;
    ELSE
      RETURN NULL;
    END IF;
    SET idx = idx + 1;
  END WHILE mods;
  COMPUTE_JD
  IF ijd < 0 OR ijd > 464269060799999 THEN RETURN NULL; END IF;
  IF fmt = CHAR(1) THEN RETURN CAST(ijd AS CHAR); END IF;
  COMPUTE_YMD
  COMPUTE_HMS
  SET k = 1, dstyle = LEFT(fmt, 1) = CHAR(2);
  IF dstyle THEN SET k = 2; END IF;
  WHILE k <= CHAR_LENGTH(fmt) DO
    SET ch = SUBSTRING(fmt, k, 1);
    IF ch <> '%' THEN
      SET res = CONCAT(res, ch), k = k + 1;
    ELSE
      SET ch = SUBSTRING(fmt, k + 1, 1), k = k + 2;
      IF ch = BINARY 'd' THEN SET res = CONCAT(res, LPAD(d, 2, '0'));
      ELSEIF ch = BINARY 'f' THEN
        SET sec = LEAST(s, 59.999e0);
        SET res = CONCAT(res, LPAD(FORMAT(ROUND(CAST(sec AS DECIMAL(20, 10)), 3), 3), 6, '0'));
      ELSEIF ch = BINARY 'H' THEN SET res = CONCAT(res, LPAD(h, 2, '0'));
      ELSEIF ch = BINARY 'W' OR ch = BINARY 'j' THEN
        SET nday = (ijd - hdb_cjd(TRUE, y, 1, 1, TRUE, h, mi, s, FALSE, 0) + 43200000) DIV 86400000;
        IF ch = BINARY 'W' THEN
          SET wd = ((ijd + 43200000) DIV 86400000) % 7;
          SET res = CONCAT(res, LPAD((nday + 7 - wd) DIV 7, 2, '0'));
        ELSE
          SET res = CONCAT(res, LPAD(nday + 1, 3, '0'));
        END IF;
      ELSEIF ch = BINARY 'J' THEN
        SET res = CONCAT(res, IF(ijd = 0, '0', TRIM(TRAILING '.' FROM TRIM(TRAILING '0' FROM
                  CAST(ROUND(CAST(ijd / 86400000e0 AS DECIMAL(40, 20)),
                  GREATEST(0, 16 - (FLOOR(LOG10(GREATEST(ijd, 1) / 86400000e0)) + 1))) AS CHAR)))));
      ELSEIF ch = BINARY 'm' THEN SET res = CONCAT(res, LPAD(mo, 2, '0'));
      ELSEIF ch = BINARY 'M' THEN SET res = CONCAT(res, LPAD(mi, 2, '0'));
      ELSEIF ch = BINARY 's' THEN SET res = CONCAT(res, ijd DIV 1000 - 210866760000);
      ELSEIF ch = BINARY 'S' THEN SET res = CONCAT(res, LPAD(TRUNCATE(s, 0), 2, '0'));
      ELSEIF ch = BINARY 'w' THEN SET res = CONCAT(res, ((ijd + 129600000) DIV 86400000) % 7);
      ELSEIF ch = BINARY 'Y' AND (y >= 0 OR dstyle) THEN
        SET res = CONCAT(res, IF(y < 0, '-', ''), LPAD(ABS(y), 4, '0'));
      ELSEIF ch = BINARY 'Y' THEN
        SET res = CONCAT(res, '-', IF(y > -1000, LPAD(ABS(y), 3, '0'), ABS(y)));
      ELSEIF ch = '%' THEN SET res = CONCAT(res, '%');
      ELSE RETURN NULL;
      END IF;
    END IF;
  END WHILE;
  RETURN res;
END
"""


def _expand(body: str) -> str:
    body = body.replace("PARSE_REST", _PARSE_TIME.replace("SRC", "rest"))
    body = body.replace("PARSE_V", _PARSE_TIME.replace("SRC", "v"))
    body = body.replace("COMPUTE_HMS", _HMS).replace("COMPUTE_YMD", _YMD).replace("COMPUTE_JD", _CJD)
    return body.replace("TRE", _TRE).replace("DRE", _DRE).replace("NUM", _NUM)


STATEMENTS = (CJD, YMD, LOCAL_OFFSET, _expand(DT))
