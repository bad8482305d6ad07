-- Error situations for tests/catalog/test_errors_catalog.py: each case runs on a
-- database holding the setup below (foreign_keys ON) and must raise the same
-- class, message, sqlite_errorcode and sqlite_errorname as real SQLite.

-- setup
CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0), a INTEGER, b INTEGER, x INTEGER, k TEXT DEFAULT 'k' CHECK(length(k) < 5), UNIQUE (a, b), CONSTRAINT x_small CHECK (x < 10));
CREATE TABLE c(id INTEGER PRIMARY KEY, p_id INTEGER NOT NULL REFERENCES p(id), note TEXT);
CREATE TABLE s(k TEXT PRIMARY KEY, v TEXT NOT NULL DEFAULT '');
CREATE TABLE w(a TEXT NOT NULL, b TEXT NOT NULL, c TEXT, PRIMARY KEY (a, b));
CREATE INDEX t_n ON t(n);
CREATE VIEW v AS SELECT id, name FROM t;
INSERT INTO p VALUES (1, 'one'), (2, 'two');
INSERT INTO t(name, n, a, b) VALUES ('a', 1, 1, 2), ('b', 2, 1, 3);
INSERT INTO c VALUES (1, 1, 'x');
INSERT INTO s VALUES ('k1', 'v1');
INSERT INTO w VALUES ('a', 'b', 'c');

-- case: unique_insert
INSERT INTO t(name, n) VALUES ('a', 2)
-- case: unique_update
UPDATE t SET name = 'a' WHERE id = 2
-- case: unique_composite
INSERT INTO t(name, n, a, b) VALUES ('z', 1, 1, 2)
-- case: unique_text_pk
INSERT INTO s VALUES ('k1', 'x')
-- case: unique_composite_pk
INSERT INTO w VALUES ('a', 'b', 'z')
-- case: primary_key_rowid
INSERT INTO t(id, name, n) VALUES (1, 'z', 1)
-- case: primary_key_update
UPDATE t SET id = 1 WHERE id = 2
-- case: unique_multi_row
INSERT INTO p VALUES (3, 'three'), (4, 'three')
-- case: unique_parent_table
INSERT INTO p(name) VALUES ('one')
-- case: not_null_explicit
INSERT INTO t(name, n) VALUES (NULL, 1)
-- case: not_null_missing
INSERT INTO t(n) VALUES (1)
-- case: not_null_update
UPDATE t SET name = NULL WHERE id = 1
-- case: not_null_fk_column
INSERT INTO c(id, note) VALUES (5, 'n')
-- case: not_null_with_default_column
INSERT INTO s(k, v) VALUES ('k9', NULL)
-- case: not_null_composite_pk
INSERT INTO w(a, c) VALUES ('q', 'c')
-- case: check_unnamed_insert
INSERT INTO t(name, n) VALUES ('z', 0)
-- case: check_unnamed_update
UPDATE t SET n = -5 WHERE id = 1
-- case: check_named_insert
INSERT INTO t(name, n, x) VALUES ('z', 1, 11)
-- case: check_named_update
UPDATE t SET x = 50
-- case: check_function_expression
INSERT INTO t(name, n, k) VALUES ('z', 1, 'toolong')
-- case: check_function_update
UPDATE t SET k = 'abcdefgh' WHERE id = 2
-- case: check_with_parameters
INSERT INTO t(name, n) VALUES (?, ?)|["q", -1]
-- case: foreign_key_insert
INSERT INTO c(p_id) VALUES (99)
-- case: foreign_key_update_child
UPDATE c SET p_id = 42 WHERE id = 1
-- case: foreign_key_delete_parent
DELETE FROM p WHERE id = 1
-- case: foreign_key_update_parent
UPDATE p SET id = 10 WHERE id = 1
-- case: no_such_table_select
SELECT * FROM nope
-- case: no_such_table_insert
INSERT INTO nope VALUES (1)
-- case: no_such_table_update
UPDATE nope SET a = 1
-- case: no_such_table_delete
DELETE FROM nope
-- case: no_such_table_drop
DROP TABLE nope
-- case: no_such_table_join
SELECT * FROM t JOIN nope ON 1
-- case: no_such_table_subquery
SELECT * FROM t WHERE id IN (SELECT id FROM nope)
-- case: no_such_view_drop
DROP VIEW nope
-- case: no_such_index_drop
DROP INDEX nope
-- case: no_such_trigger_drop
DROP TRIGGER nope
-- case: no_such_column_select
SELECT nope FROM t
-- case: no_such_column_qualified
SELECT t.nope FROM t
-- case: no_such_column_where
SELECT id FROM t WHERE nope = 1
-- case: no_such_column_order
SELECT id FROM t ORDER BY nope
-- case: no_such_column_insert
INSERT INTO t(nope) VALUES (1)
-- case: no_such_column_update
UPDATE t SET nope = 1
-- case: no_such_column_index
CREATE INDEX bad ON t(nope)
-- case: ambiguous_column
SELECT id FROM t, p
-- case: no_such_function
SELECT nofunc(1)
-- case: wrong_argument_count
SELECT abs(1, 2)
-- case: misuse_aggregate
SELECT id FROM t WHERE count(*) > 1
-- case: table_exists
CREATE TABLE t(a)
-- case: table_exists_view_name
CREATE TABLE v(a)
-- case: view_exists
CREATE VIEW v AS SELECT 1
-- case: index_exists
CREATE INDEX t_n ON t(name)
-- case: index_on_missing_table
CREATE INDEX j ON nope(a)
-- case: duplicate_column_create
CREATE TABLE d(a, a)
-- case: duplicate_column_alter
ALTER TABLE t ADD COLUMN name TEXT
-- case: alter_missing_table
ALTER TABLE nope ADD COLUMN z
-- case: alter_add_not_null_no_default
ALTER TABLE t ADD COLUMN z TEXT NOT NULL
-- case: alter_add_primary_key
ALTER TABLE t ADD COLUMN z INTEGER PRIMARY KEY
-- case: value_count
INSERT INTO t VALUES (1)
-- case: value_count_columns
INSERT INTO t(name, n) VALUES ('x')
-- case: values_rows_differ
INSERT INTO t(name, n) VALUES ('x', 1), ('y')
-- case: union_column_count
SELECT id FROM t UNION SELECT 1, 2
-- case: datatype_mismatch_rowid
INSERT INTO t(id, name, n) VALUES ('abc', 'z', 1)
-- case: insert_into_view
INSERT INTO v VALUES (1, 'x')
-- case: modify_sqlite_master
DELETE FROM sqlite_master
-- case: drop_sqlite_master
DROP TABLE sqlite_master
-- case: reserved_name
CREATE TABLE sqlite_foo(a)
-- case: syntax_misspelled_keyword
SELEC 1
-- case: syntax_misplaced_keyword
SELECT FROM t
-- case: syntax_trailing_garbage
SELECT 1 garbage garbage
-- case: syntax_incomplete
SELECT (
-- case: syntax_incomplete_where
SELECT * FROM t WHERE
-- case: syntax_unterminated_string
SELECT 'abc
-- case: syntax_unrecognized_token
SELECT #
-- case: syntax_keyword_as_name
CREATE TABLE select(a)
-- case: syntax_bad_pragma_value
PRAGMA table_info(
-- case: too_many_terms_in_order
SELECT id FROM t ORDER BY 2
-- case: group_by_out_of_range
SELECT id FROM t GROUP BY 3
-- case: vacuum_in_transaction
BEGIN; VACUUM
-- case: on_conflict_no_target_match
INSERT INTO s(k, v) VALUES ('k1', 'x') ON CONFLICT (v) DO NOTHING
-- case: quick_check_missing_table
PRAGMA quick_check(nope)
-- case: unknown_database_pragma
PRAGMA nope.user_version
-- case: reindex_missing
REINDEX nope
-- case: analyze_missing
ANALYZE nope
