"""Names in another ASCII case than they were made with (SQLite matches them anyway).

MariaDB's table names are case-sensitive and PostgreSQL's names are when quoted;
PostgreSQL also reserves words SQLite takes as plain names (``user``).
"""

from __future__ import annotations

import pytest

SCENARIOS = {
    "quoted_mixed_case_table_and_column": [
        'CREATE TABLE "Foo" (x INTEGER, "Y" TEXT)',
        "INSERT INTO foo VALUES (1, 'a')",
        "INSERT INTO FOO (X, y) VALUES (2, 'b')",
        "SELECT x, y FROM FOO ORDER BY X",
        'SELECT "X", "y", f.Y FROM "FOO" AS f WHERE f.x > 0 ORDER BY 1',
        "UPDATE foo SET y = upper(Y) WHERE X = 1",
        "SELECT * FROM Foo",
        "DELETE FROM FOO WHERE y = 'b'",
        "SELECT count(*) FROM foo",
    ],
    "unquoted_mixed_case_table": [
        "CREATE TABLE Users (Id INTEGER PRIMARY KEY, Name TEXT)",
        "INSERT INTO users (name) VALUES ('ann')",
        "INSERT INTO USERS (NAME) VALUES ('bob')",
        'SELECT id, name FROM "users" ORDER BY "Id"',
        "SELECT u.name FROM users u JOIN USERS AS v ON v.id = u.id ORDER BY u.id",
        ("commit",),  # MariaDB's DDL commits implicitly
        "CREATE INDEX users_name ON USERS (name)",
        "CREATE VIEW Active AS SELECT name FROM users",
        "SELECT * FROM active ORDER BY 1",
        "ALTER TABLE users RENAME TO People",
        "SELECT name FROM people ORDER BY name",
        "DROP VIEW ACTIVE",
        "DROP TABLE PEOPLE",
    ],
    "table_made_by_create_as": [
        "CREATE TABLE T4 AS SELECT 1 AS Q, 'x' AS r",
        "SELECT q, R FROM t4",
    ],
    "postgres_reserved_words_as_names": [
        "CREATE TABLE user (key TEXT, value TEXT, type TEXT, date TEXT, time TEXT, level INTEGER, "
        "user TEXT, offset INTEGER, analyze TEXT)",
        "INSERT INTO user VALUES ('k', 'v', 't', 'd', 'tm', 1, 'me', 5, 'a')",
        "SELECT key, value, type, date, time, level, user, User.offset, analyze FROM User WHERE key = 'k'",
        "UPDATE user SET offset = offset + 1 WHERE user = 'me'",
        "SELECT offset FROM user",
    ],
}


@pytest.mark.parametrize("steps", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_identifier_case(diff, steps):
    diff.steps(steps)
