"""Errors: exception class, message, sqlite_errorcode and sqlite_errorname."""

from __future__ import annotations

import pytest

SCHEMA = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0),"
    " a INTEGER, b INTEGER, x INTEGER, UNIQUE (a, b), CONSTRAINT x_small CHECK (x < 10))",
    "CREATE INDEX t_n ON t(n)",
    "INSERT INTO t(name, n, a, b) VALUES ('a', 1, 1, 2), ('b', 2, 1, 3)",
    ("commit",),
]

DATABASE_ERRORS = {
    # constraints
    "unique": "INSERT INTO t(name, n) VALUES ('a', 2)",
    "unique_on_update": "UPDATE t SET name = 'a' WHERE id = 2",
    "unique_composite": "INSERT INTO t(name, n, a, b) VALUES ('z', 1, 1, 2)",
    "primary_key": "INSERT INTO t(id, name, n) VALUES (1, 'z', 1)",
    "not_null": "INSERT INTO t(name, n) VALUES (NULL, 1)",
    "not_null_missing_column": "INSERT INTO t(n) VALUES (1)",
    "check_unnamed": "INSERT INTO t(name, n) VALUES ('z', 0)",
    "check_named": "INSERT INTO t(name, n, x) VALUES ('z', 1, 11)",
    "datatype_mismatch": "INSERT INTO t(id, name, n) VALUES ('abc', 'z', 1)",
    # names
    "no_such_table_select": "SELECT * FROM nope",
    "no_such_table_insert": "INSERT INTO nope VALUES (1)",
    "no_such_table_update": "UPDATE nope SET a = 1",
    "no_such_table_delete": "DELETE FROM nope",
    "no_such_table_drop": "DROP TABLE nope",
    "no_such_column": "SELECT nope FROM t",
    "no_such_column_qualified": "SELECT t.nope FROM t",
    "no_such_column_in_where": "SELECT id FROM t WHERE nope = 1",
    "insert_unknown_column": "INSERT INTO t(nope) VALUES (1)",
    "ambiguous_column": "SELECT id FROM t, t AS u",
    "no_such_function": "SELECT nofunc(1)",
    "indexed_by_no_such_index": "SELECT id FROM t INDEXED BY nope WHERE n = 1",
    "indexed_by_a_table_not_an_index": "DELETE FROM t INDEXED BY t WHERE n = 1",
    "indexed_by_in_update": "UPDATE t INDEXED BY t_x SET n = 2 WHERE n = 1",
    "wrong_number_of_arguments": "SELECT abs(1, 2)",
    "table_exists": "CREATE TABLE t(a)",
    "index_exists": "CREATE INDEX t_n ON t(name)",
    "index_on_missing_table": "CREATE INDEX j ON nope(a)",
    "duplicate_column": "CREATE TABLE d(a, a)",
    "value_count": "INSERT INTO t VALUES (1)",
    "values_rows_differ": "INSERT INTO t(name, n) VALUES ('x', 1), ('y')",
    "union_column_count": "SELECT id FROM t UNION SELECT 1, 2",
    # syntax
    "syntax_misspelled_keyword": "SELEC 1",
    "syntax_misplaced_keyword": "SELECT FROM t",
    "syntax_trailing_garbage": "SELECT 1 garbage garbage",
    "syntax_incomplete": "SELECT (",
    "syntax_incomplete_where": "SELECT * FROM t WHERE",
    "syntax_unterminated_string": "SELECT 'abc",
    "syntax_unrecognized_token": "SELECT #",
    "syntax_keyword_as_name": "CREATE TABLE select(a)",
}


@pytest.mark.parametrize("sql", DATABASE_ERRORS.values(), ids=DATABASE_ERRORS.keys())
def test_database_error(diff, sql):
    record = diff.steps(SCHEMA + [sql, "SELECT count(*) FROM t"])
    assert "raised" in record[len(SCHEMA)], "the scenario must fail on sqlite3"


PROGRAMMING_ERRORS = {
    "two_statements": ("SELECT 1; SELECT 2",),
    "two_dml_statements": ("INSERT INTO t(name, n) VALUES ('x', 1); INSERT INTO t(name, n) VALUES ('y', 1)",),
    "statement_then_comment": ("SELECT 1; -- just a comment",),
    "statement_then_semicolons": ("SELECT 1;;",),
    "null_character": ("SELECT '\x00'",),
    "not_a_string": (1,),
    "bytes_sql": (b"SELECT 1",),
    "none_sql": (None,),
    "empty_string": ("",),
    "only_whitespace": ("   ",),
    "only_comment": ("-- nothing",),
    "only_semicolon": (";",),
}


@pytest.mark.parametrize("args", PROGRAMMING_ERRORS.values(), ids=PROGRAMMING_ERRORS.keys())
def test_execute_argument_errors(diff, args):
    diff.steps(SCHEMA + [("sql", *args), "SELECT count(*) FROM t"])


def test_execute_without_arguments(diff):
    diff.check(lambda side: side.connect().execute())


def test_cursor_execute_without_arguments(diff):
    diff.check(lambda side: side.connect().cursor().execute())


def test_execute_too_many_arguments(diff):
    diff.check(lambda side: side.connect().execute("SELECT ?", (1,), "extra"))


def test_execute_keyword_arguments(diff):
    diff.check(lambda side: side.connect().execute(sql="SELECT 1"))


def test_error_hierarchy_of_raised_errors(diff):
    """Each raised error is caught by the PEP 249 classes it should be caught by."""

    def run(side):
        api = side.api
        conn = side.connect()
        conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO t(id) VALUES (1)")
        out = []
        for sql in ("INSERT INTO t(id) VALUES (1)", "SELECT * FROM nope", "SELECT 1; SELECT 2"):
            try:
                conn.execute(sql)
            except api.Error as exc:
                out.append(
                    {
                        name: isinstance(exc, getattr(api, name))
                        for name in ("DatabaseError", "IntegrityError", "OperationalError", "ProgrammingError")
                    }
                )
        return out

    diff.check(run)


def test_unsupported_operation_on_result_column(diff):
    """Errors from evaluating values are raised at execute time for the first row."""
    diff.steps(["SELECT abs(-9223372036854775808)"])


@pytest.mark.parametrize("column, value", [("n", "'x'"), ("r", "'abc'")])
def test_strict_table_names_the_type_and_column(diff, column, value):
    """A STRICT table's type error: SQLite's "cannot store TEXT value in INTEGER column
    s.n" (the servers' type error alone said "datatype mismatch").  Values the
    server converts (1.5 into INTEGER, a blob into INTEGER on PostgreSQL) are
    stored: README, known differences."""
    record = diff.steps([
        "CREATE TABLE s(id INTEGER PRIMARY KEY, n INTEGER, r REAL) STRICT",
        ("commit",),
        f"INSERT INTO s({column}) VALUES ({value})",
        "SELECT count(*) FROM s",
    ])
    assert "raised" in record[2], "the scenario must fail on sqlite3"


def test_sqlite_syntax_the_translator_cannot_read(backend):
    """SQL SQLite accepts but the translator cannot read (two ON CONFLICT clauses,
    SQLite 3.35) is NotSupportedError naming the backend, not a syntax error."""
    if not backend.is_server:
        pytest.skip("the reference itself")
    import hermes_dbapi

    conn = backend.connect()
    conn.execute("CREATE TABLE g(id INTEGER PRIMARY KEY, k TEXT UNIQUE, s TEXT UNIQUE)")
    sql = "INSERT INTO g(k, s) VALUES ('a', 'b') ON CONFLICT (k) DO NOTHING ON CONFLICT (s) DO NOTHING"
    with pytest.raises(hermes_dbapi.NotSupportedError, match="cannot read"):
        conn.execute(sql)
    with pytest.raises(hermes_dbapi.OperationalError, match="syntax error"):
        conn.execute("INSERT INTO g(k) VALUES ('a') ON CONFLICT (k) DO NOTHIN")


@pytest.mark.parametrize("key", ["note COLLATE NOCASE", "lower(note)", "note COLLATE RTRIM, id"])
def test_unique_index_on_a_collated_or_expression_key(diff, key):
    """A UNIQUE index on a COLLATE NOCASE key holds values as SQLite compares them and
    the error names the column; on an expression it names the index."""
    diff.steps([
        "CREATE TABLE u(id INTEGER PRIMARY KEY, note TEXT)",
        ("commit",),
        f"CREATE UNIQUE INDEX ux ON u({key})",
        "CREATE INDEX ix ON u(note COLLATE NOCASE)",
        ("commit",),
        "INSERT INTO u(id, note) VALUES (1, 'Abc ')",
        "INSERT INTO u(id, note) VALUES (2, 'aBC ')",
        "INSERT INTO u(id, note) VALUES (1, 'Abc')",
        "SELECT * FROM u ORDER BY id",
    ])


def test_ungrouped_column_beside_an_aggregate(backend):
    """A column neither grouped nor aggregated beside an aggregate, in a group of
    several rows: SQLite takes it from an arbitrary row; PostgreSQL refuses it, as
    NotSupportedError naming the column (not a bare server message), and keeps
    accepting a column its key determines; MariaDB takes it from a row of the group."""
    if not backend.is_server:
        pytest.skip("the reference itself")
    import hermes_dbapi

    conn = backend.connect()
    conn.execute("CREATE TABLE g(id INTEGER PRIMARY KEY, k TEXT, w TEXT)")
    conn.execute("INSERT INTO g(k, w) VALUES ('a', 'x'), ('a', 'x'), ('b', 'y')")
    assert conn.execute("SELECT id, w, count(*) FROM g GROUP BY id ORDER BY id").fetchall() == [
        (1, "x", 1), (2, "x", 1), (3, "y", 1)]
    sql = "SELECT k, w, count(*) FROM g GROUP BY k ORDER BY k"
    if backend.name == "postgres":
        with pytest.raises(hermes_dbapi.NotSupportedError, match="the column g.w, neither grouped nor aggregated"):
            conn.execute(sql)
    else:
        assert conn.execute(sql).fetchall() == [("a", "x", 2), ("b", "y", 1)]


def test_match_without_an_fts_table(diff):
    """MATCH whose left side is no FTS5 table: SQLite's own errors (no such table,
    no such column, and MATCH used on a plain column), not the server's syntax error."""
    diff.steps([
        "CREATE TABLE t(a TEXT)",
        "INSERT INTO t VALUES ('x')",
        "SELECT * FROM nosuch WHERE nosuch MATCH 'x'",
        "SELECT * FROM t WHERE t MATCH 'x'",
        "SELECT * FROM t WHERE a MATCH 'x'",
        "SELECT count(*) FROM t",
    ])


def test_sqlite_function_the_server_lacks_for_these_types(backend):
    """A function SQLite has but PostgreSQL has not for these arguments (soundex(), not
    installed there) is NotSupportedError naming it with the argument types, not
    "no such function"; an unknown name stays SQLite's "no such function: name"."""
    if backend.name != "postgres":
        pytest.skip("PostgreSQL's function resolution by argument types")
    import hermes_dbapi

    conn = backend.connect()
    with pytest.raises(hermes_dbapi.NotSupportedError, match=r"soundex\(unknown\) is not supported"):
        conn.execute("SELECT soundex('abc')")
    with pytest.raises(hermes_dbapi.OperationalError, match="^no such function: nofunc$"):
        conn.execute("SELECT nofunc('abc')")


def test_real_overflow_is_named_as_such(backend):
    """A REAL result past the range of a double is Inf in SQLite; the servers refuse
    it, which is NotSupportedError saying so, not SQLite's "integer overflow"
    (which stays for 64-bit integer results)."""
    import hermes_dbapi

    conn = backend.connect()
    conn.execute("CREATE TABLE f(r REAL)")
    conn.execute("INSERT INTO f VALUES (1e308)")
    if not backend.is_server:
        assert conn.execute("SELECT r * 10, -r * 10 FROM f").fetchall() == [(float("inf"), float("-inf"))]
        return
    for sql in ("SELECT r * 10 FROM f", "SELECT 1e300 * -1e300"):
        with pytest.raises(hermes_dbapi.NotSupportedError, match="REAL arithmetic past the range of a double"):
            conn.execute(sql)
    with pytest.raises(hermes_dbapi.OperationalError, match="^integer overflow$"):
        conn.execute("SELECT abs(-9223372036854775807 - 1)")
