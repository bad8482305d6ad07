"""MariaDB JSON helpers: SQLite's JSON1 semantics over the native JSON functions.

MariaDB keeps documents as text (key order, number spellings) and
``JSON_COMPACT`` prints SQLite's minified form, so the helpers only add what
differs: SQLite's path spellings (``#-1``, the ``->``/``->>`` abbreviations),
"malformed JSON" errors instead of NULL, and the node → SQL value mapping
(``hdb_jval`` tags it for the result hook, ``hdb_jtext``/``hdb_jnum``).

Collation: ``JSON_QUOTE``/``JSON_UNQUOTE`` return ``utf8mb4_bin`` text whatever
their input; next to the namespace's NO PAD parameters in one ``CASE`` that is an
"Illegal mix of collations", so their results go through a variable first (it
takes the namespace's collation, whichever that is: NO PAD, a legacy
``utf8mb4_bin`` namespace, MySQL's ``utf8mb4_0900_bin``).
"""

_MALFORMED = "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'malformed JSON'"

_BASE = (
    r"""CREATE OR REPLACE FUNCTION hdb_jpath(p LONGTEXT, abbrev INT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE msg VARCHAR(300) DEFAULT CONCAT('JSON path error near ''', LEFT(p, 200), '''');
  IF abbrev = 1 AND LEFT(p, 1) <> '$' THEN
    IF p REGEXP '^-?[0-9]+$' THEN RETURN CONCAT('$[', p, ']'); END IF;
    RETURN CONCAT('$.', p);
  END IF;
  IF LEFT(p, 1) <> '$' THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = msg;
  END IF;
  RETURN REPLACE(p, '[#-', '[-');
END""",
    f"""CREATE OR REPLACE FUNCTION hdb_jdoc(v LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  IF v IS NOT NULL AND NOT JSON_VALID(v) THEN {_MALFORMED}; END IF;
  RETURN v;
END""",
    """CREATE OR REPLACE FUNCTION hdb_jget(v LONGTEXT, p LONGTEXT, abbrev INT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  IF v IS NULL OR p IS NULL THEN RETURN NULL; END IF;
  RETURN JSON_COMPACT(JSON_EXTRACT(hdb_jdoc(v), hdb_jpath(p, abbrev)));
END""",
    """CREATE OR REPLACE FUNCTION hdb_jval(t LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE q LONGTEXT;
  IF LEFT(t, 1) IN ('{', '[') THEN SET q = JSON_QUOTE(t); RETURN q; END IF;
  RETURN CASE WHEN t IS NULL OR t = 'null' THEN NULL
              WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0' ELSE t END;
END""",
    """CREATE OR REPLACE FUNCTION hdb_jtext(t LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE q LONGTEXT;
  IF LEFT(t, 1) = '"' THEN SET q = JSON_UNQUOTE(t); RETURN q; END IF;
  RETURN CASE WHEN t IS NULL OR t = 'null' THEN NULL
              WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0' ELSE t END;
END""",
    """CREATE OR REPLACE FUNCTION hdb_jnum(t LONGTEXT) RETURNS DOUBLE DETERMINISTIC NO SQL
RETURN CASE WHEN t IS NULL OR t = 'null' OR LEFT(t, 1) IN ('"', '{', '[') THEN NULL
            WHEN t = 'true' THEN 1 WHEN t = 'false' THEN 0 ELSE CAST(t AS DOUBLE) END""",
    """CREATE OR REPLACE FUNCTION hdb_jclass(t LONGTEXT) RETURNS INT DETERMINISTIC NO SQL
RETURN CASE WHEN t IS NULL OR t = 'null' THEN 0 WHEN LEFT(t, 1) IN ('"', '{', '[') THEN 2 ELSE 1 END""",
    """CREATE OR REPLACE FUNCTION hdb_jtype(t LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
RETURN CASE WHEN t IS NULL THEN NULL
            WHEN LEFT(t, 1) = '{' THEN 'object' WHEN LEFT(t, 1) = '[' THEN 'array'
            WHEN LEFT(t, 1) = '"' THEN 'text'
            WHEN t IN ('true', 'false', 'null') THEN t
            WHEN t REGEXP '^-?[0-9]+$' THEN 'integer' ELSE 'real' END""",
    """CREATE OR REPLACE FUNCTION hdb_jlen(t LONGTEXT) RETURNS BIGINT DETERMINISTIC NO SQL
RETURN CASE WHEN t IS NULL THEN NULL WHEN LEFT(t, 1) = '[' THEN JSON_LENGTH(t) ELSE 0 END""",
)


def _path_error(near: str) -> str:
    return (f"BEGIN SET msg = CONCAT('JSON path error near ''', LEFT({near}, 200), ''''); "
            "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = msg; END")


# json_set/insert/replace/remove with SQLite's rules, which MariaDB's natives do not have:
# missing intermediate objects are created, [#] appends, an index past the end is a no-op
# (JSON_SET would append).  Paths become steps ('k<key>', 'i<n>', 'e<n from end>') in a JSON
# array; the value comes wrapped as JSON_ARRAY(v) so it keeps its JSON type (a function
# parameter would turn it into a string).  Stored functions cannot recurse: loops.
MODIFY = (
    f"""CREATE OR REPLACE FUNCTION hdb_jsteps(p LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE steps LONGTEXT DEFAULT '[]';
  DECLARE i, n, e INT DEFAULT 2;
  DECLARE c, k, msg LONGTEXT;
  IF LEFT(p, 1) <> '$' THEN {_path_error("p")}; END IF;
  SET n = CHAR_LENGTH(p), i = 2;
  WHILE i <= n DO
    SET c = SUBSTRING(p, i, 1);
    IF c = '.' AND SUBSTRING(p, i + 1, 1) = '"' THEN
      SET e = LOCATE('"', p, i + 2);
      IF e = 0 THEN {_path_error("SUBSTRING(p, i + 1)")}; END IF;
      SET steps = JSON_ARRAY_APPEND(steps, '$', CONCAT('k', SUBSTRING(p, i + 2, e - i - 2))), i = e + 1;
    ELSEIF c = '.' THEN
      SET k = REGEXP_SUBSTR(SUBSTRING(p, i + 1), '^[^.[]*');
      IF k = '' THEN {_path_error("SUBSTRING(p, i + 1)")}; END IF;
      SET steps = JSON_ARRAY_APPEND(steps, '$', CONCAT('k', k)), i = i + 1 + CHAR_LENGTH(k);
    ELSEIF c = '[' THEN
      SET e = LOCATE(']', p, i);
      SET k = IF(e > 0, SUBSTRING(p, i + 1, e - i - 1), NULL);
      IF k REGEXP '^[0-9]+$' THEN SET steps = JSON_ARRAY_APPEND(steps, '$', CONCAT('i', k));
      ELSEIF k REGEXP '^#-[0-9]+$' THEN SET steps = JSON_ARRAY_APPEND(steps, '$', CONCAT('e', SUBSTRING(k, 3)));
      ELSEIF k = '#' THEN SET steps = JSON_ARRAY_APPEND(steps, '$', 'e0');
      ELSE {_path_error("SUBSTRING(p, i)")};
      END IF;
      SET i = e + 1;
    ELSE {_path_error("SUBSTRING(p, i)")};
    END IF;
  END WHILE;
  RETURN steps;
END""",
    """CREATE OR REPLACE FUNCTION hdb_jbuild(steps LONGTEXT, pos INT, va LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE k INT DEFAULT JSON_LENGTH(steps) - 1;
  DECLARE s LONGTEXT;
  WHILE k >= pos DO
    SET s = JSON_UNQUOTE(JSON_EXTRACT(steps, CONCAT('$[', k, ']')));
    IF LEFT(s, 1) = 'k' THEN SET va = JSON_ARRAY(JSON_OBJECT(SUBSTRING(s, 2), JSON_EXTRACT(va, '$[0]')));
    ELSEIF s IN ('e0', 'i0') THEN SET va = JSON_ARRAY(JSON_ARRAY(JSON_EXTRACT(va, '$[0]')));
    ELSE RETURN NULL;
    END IF;
    SET k = k - 1;
  END WHILE;
  RETURN va;
END""",
    """CREATE OR REPLACE FUNCTION hdb_jmod(d LONGTEXT, p LONGTEXT, va LONGTEXT, mode INT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE steps, s, cur, child, node, made LONGTEXT;
  DECLARE i, n, idx, len INT;
  IF d IS NULL THEN RETURN NULL; END IF;
  SET d = hdb_jdoc(d);
  IF p IS NULL THEN RETURN IF(mode = 4, NULL, d); END IF;
  SET steps = hdb_jsteps(p), n = JSON_LENGTH(steps), i = 0, cur = '$';
  IF n = 0 THEN
    RETURN CASE WHEN mode IN (1, 3) THEN JSON_EXTRACT(va, '$[0]') WHEN mode = 4 THEN NULL ELSE d END;
  END IF;
  WHILE i < n DO
    SET s = JSON_UNQUOTE(JSON_EXTRACT(steps, CONCAT('$[', i, ']'))), node = JSON_EXTRACT(d, cur);
    IF LEFT(s, 1) = 'k' THEN
      IF JSON_TYPE(node) <> 'OBJECT' THEN RETURN d; END IF;
      SET child = CONCAT(cur, '.', JSON_QUOTE(SUBSTRING(s, 2)));
      IF NOT JSON_CONTAINS_PATH(d, 'one', child) THEN
        IF mode NOT IN (1, 2) THEN RETURN d; END IF;
        SET made = hdb_jbuild(steps, i + 1, va);
        RETURN IF(made IS NULL, d, JSON_SET(d, child, JSON_EXTRACT(made, '$[0]')));
      END IF;
    ELSE
      IF JSON_TYPE(node) <> 'ARRAY' THEN RETURN d; END IF;
      SET len = JSON_LENGTH(node), idx = CAST(SUBSTRING(s, 2) AS INT);
      IF LEFT(s, 1) = 'e' THEN SET idx = len - idx; END IF;
      IF idx < 0 OR idx > len THEN RETURN d; END IF;
      IF idx = len THEN
        IF mode NOT IN (1, 2) THEN RETURN d; END IF;
        SET made = hdb_jbuild(steps, i + 1, va);
        RETURN IF(made IS NULL, d, JSON_ARRAY_APPEND(d, cur, JSON_EXTRACT(made, '$[0]')));
      END IF;
      SET child = CONCAT(cur, '[', idx, ']');
    END IF;
    IF i = n - 1 THEN
      RETURN CASE mode WHEN 2 THEN d WHEN 4 THEN JSON_REMOVE(d, child)
                       ELSE JSON_SET(d, child, JSON_EXTRACT(va, '$[0]')) END;
    END IF;
    SET cur = child, i = i + 1;
  END WHILE;
  RETURN d;
END""",
    # RFC 7396 like SQLite's json_patch (MariaDB's JSON_MERGE_PATCH drops nested members when
    # the patch also deletes one): breadth first over the patch's objects
    """CREATE OR REPLACE FUNCTION hdb_jpatch(t LONGTEXT, p LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
BEGIN
  DECLARE queue LONGTEXT DEFAULT '["$"]';
  DECLARE here, ks, k, fp LONGTEXT;
  DECLARE i, n INT;
  IF t IS NULL OR p IS NULL THEN RETURN NULL; END IF;
  IF JSON_TYPE(p) <> 'OBJECT' THEN RETURN p; END IF;
  IF JSON_TYPE(t) <> 'OBJECT' THEN SET t = '{}'; END IF;
  WHILE JSON_LENGTH(queue) > 0 DO
    SET here = JSON_UNQUOTE(JSON_EXTRACT(queue, '$[0]')), queue = JSON_REMOVE(queue, '$[0]');
    SET ks = JSON_KEYS(p, here), n = JSON_LENGTH(ks), i = 0;
    WHILE i < n DO
      SET k = JSON_UNQUOTE(JSON_EXTRACT(ks, CONCAT('$[', i, ']'))), i = i + 1;
      SET fp = CONCAT(here, '.', JSON_QUOTE(k));
      IF JSON_TYPE(JSON_EXTRACT(p, fp)) = 'NULL' THEN
        SET t = JSON_REMOVE(t, fp);
      ELSEIF JSON_TYPE(JSON_EXTRACT(p, fp)) = 'OBJECT' THEN
        IF JSON_TYPE(JSON_EXTRACT(t, fp)) IS NULL OR JSON_TYPE(JSON_EXTRACT(t, fp)) <> 'OBJECT' THEN
          SET t = JSON_SET(t, fp, JSON_OBJECT());
        END IF;
        SET queue = JSON_ARRAY_APPEND(queue, '$', fp);
      ELSE
        SET t = JSON_SET(t, fp, JSON_EXTRACT(p, fp));
      END IF;
    END WHILE;
  END WHILE;
  RETURN t;
END""",
)

STATEMENTS = _BASE + MODIFY
