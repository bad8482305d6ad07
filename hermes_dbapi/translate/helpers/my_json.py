"""MariaDB JSON helpers: SQLite's JSON1 semantics over the native JSON functions.

MariaDB keeps documents as text (key order, number spellings) and
``JSON_COMPACT`` prints SQLite's minified form, so the helpers only add what
differs: SQLite's path spellings (``#-1``, the ``->``/``->>`` abbreviations),
"malformed JSON" errors instead of NULL, and the node → SQL value mapping
(``hdb_jval`` tags it for the result hook, ``hdb_jtext``/``hdb_jnum``).

Collation: ``JSON_QUOTE``/``JSON_UNQUOTE`` return ``utf8mb4_bin`` text whatever
their input; next to the namespace's ``utf8mb4_nopad_bin`` parameters in one
``CASE`` that is an "Illegal mix of collations", so their results are relabelled
(an explicit ``COLLATE`` wins over any implicit one, also in a namespace whose
default is still ``utf8mb4_bin``).
"""

_MALFORMED = "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'malformed JSON'"

STATEMENTS = (
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
RETURN CASE WHEN t IS NULL OR t = 'null' THEN NULL
            WHEN LEFT(t, 1) IN ('{', '[') THEN JSON_QUOTE(t) COLLATE utf8mb4_nopad_bin
            WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0' ELSE t END""",
    """CREATE OR REPLACE FUNCTION hdb_jtext(t LONGTEXT) RETURNS LONGTEXT DETERMINISTIC NO SQL
RETURN CASE WHEN t IS NULL OR t = 'null' THEN NULL
            WHEN LEFT(t, 1) = '"' THEN JSON_UNQUOTE(t) COLLATE utf8mb4_nopad_bin
            WHEN t = 'true' THEN '1' WHEN t = 'false' THEN '0' ELSE t END""",
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
