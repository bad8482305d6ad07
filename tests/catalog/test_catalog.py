"""Catalog: sqlite_master queries and schema PRAGMAs over many schemas, against real SQLite."""

from __future__ import annotations

import pytest

from .conftest import schemas

SCHEMAS = schemas()

CATALOG_QUERIES = [
    "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master",
    "SELECT * FROM sqlite_schema ORDER BY name",
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    "SELECT name, sql FROM sqlite_master WHERE sql LIKE 'CREATE%INDEX%' ORDER BY 1",
    "SELECT count(*) FROM sqlite_master WHERE type IN ('trigger', 'view')",
    "SELECT tbl_name, count(*) FROM sqlite_master GROUP BY tbl_name ORDER BY 1",
    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND sql IS NULL)",
    "SELECT * FROM sqlite_temp_master",
    "SELECT m.name, p.cid, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk "
    "FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table' ORDER BY 1, 2",
    "SELECT m.name, i.name, i.\"unique\", i.origin, i.partial "
    "FROM sqlite_master AS m JOIN pragma_index_list(m.name) AS i WHERE m.type = 'table' ORDER BY 1, 2",
]
GLOBAL_PRAGMAS = [
    "PRAGMA schema_version",
    "PRAGMA user_version",
    "PRAGMA application_id",
    "PRAGMA integrity_check",
    "PRAGMA quick_check",
    "PRAGMA journal_mode",
    "PRAGMA foreign_keys",
    "PRAGMA foreign_key_check",
]
TABLE_PRAGMAS = ["table_info", "table_xinfo", "index_list", "foreign_key_list"]
INDEX_PRAGMAS = ["index_info", "index_xinfo"]


def _observe(conn, script: str) -> list:
    conn.execute("PRAGMA journal_mode=WAL")  # the reference is a WAL-mode file
    conn.executescript(script)
    seen = []
    for sql in CATALOG_QUERIES + GLOBAL_PRAGMAS:
        cur = conn.execute(sql)
        seen.append((sql, cur.description, cur.fetchall()))
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    indexes = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")]
    quoted = lambda name: '"' + name.replace('"', '""') + '"'  # noqa: E731
    for table in tables:
        for pragma in TABLE_PRAGMAS:
            for sql in (f"PRAGMA {pragma}({quoted(table)})", f"PRAGMA main.{pragma}('{table}')"):
                cur = conn.execute(sql)
                seen.append((sql, cur.description, cur.fetchall()))
        cur = conn.execute("SELECT * FROM pragma_table_info(?) ORDER BY cid DESC", (table,))
        seen.append((table, cur.description, cur.fetchall()))
    for index in indexes:
        for pragma in INDEX_PRAGMAS:
            cur = conn.execute(f"PRAGMA {pragma}({quoted(index)})")
            seen.append((pragma, index, cur.description, cur.fetchall()))
    return seen


@pytest.mark.parametrize("script", SCHEMAS.values(), ids=SCHEMAS.keys())
def test_schema_catalog(diff, script):
    """Every catalog query and schema PRAGMA answers as SQLite does for this schema."""
    diff.check(lambda side: _observe(side.connect(isolation_level=None), script))


@pytest.mark.parametrize("script", SCHEMAS.values(), ids=SCHEMAS.keys())
def test_catalog_seen_by_second_connection(diff, script):
    """A connection opened after the DDL (and one opened before it) sees the same catalog."""

    def run(side):
        early = side.connect(isolation_level=None)
        early.execute("SELECT 1").fetchall()
        writer = side.connect(isolation_level=None)
        writer.executescript(script)
        late = side.connect(isolation_level=None)
        sql = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        return [c.execute(sql).fetchall() for c in (early, late)] + [
            early.execute("PRAGMA schema_version").fetchall()
        ]

    diff.check(run)


MIXED = [
    "SELECT a.x, (SELECT count(*) FROM sqlite_master WHERE type = 'table') FROM a ORDER BY a.x",
    "SELECT x FROM a WHERE EXISTS (SELECT 1 FROM sqlite_master m WHERE m.name = 'b' AND m.type = 'table')",
    "SELECT m.name, a.y FROM sqlite_master AS m JOIN a ON a.y = m.name ORDER BY 1",
    "SELECT a.y FROM a WHERE a.y IN (SELECT name FROM sqlite_schema) ORDER BY 1",
    "SELECT a.y, p.name FROM a JOIN pragma_table_info('b') AS p ON p.name = a.y ORDER BY 1",
    "SELECT count(*) FROM a LEFT JOIN sqlite_master m ON m.name = a.y WHERE m.name IS NULL",
]


@pytest.mark.parametrize("sql", MIXED)
def test_catalog_mixed_with_tables(diff, sql):
    """Catalog tables joined with application tables, in subqueries and EXISTS."""
    setup = [
        "CREATE TABLE a(x INTEGER PRIMARY KEY, y TEXT)",
        "CREATE TABLE b(x INTEGER PRIMARY KEY, z TEXT)",
        "CREATE INDEX b_z ON b(z)",
        "INSERT INTO a(y) VALUES ('b'), ('z'), ('nothing'), ('a')",
    ]
    diff.steps([sql], setup=setup)


@pytest.mark.parametrize("rename", [
    "ALTER TABLE a RENAME COLUMN y TO label",
    "ALTER TABLE a RENAME TO a2",
])
def test_views_follow_a_rename(diff, rename):
    """SQLite rewrites the views that name a renamed table or column, and they keep
    working (MariaDB kept their old text: 'references invalid table(s) or column(s)')."""
    diff.steps([
        "CREATE TABLE a (x INTEGER PRIMARY KEY, y TEXT)",
        "INSERT INTO a (y) VALUES ('one'), ('two')",
        ("commit",),  # MariaDB's DDL commits implicitly
        "CREATE VIEW v AS SELECT x, y FROM a WHERE x > 0",
        "CREATE VIEW w (k, n) AS SELECT x, length(y) FROM a",
        ("commit",),
        rename,
        "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name",
        "SELECT * FROM v ORDER BY x",
        "SELECT * FROM w ORDER BY k",
    ])


def test_table_under_a_view_dropped_and_made_again(diff):
    """SQLite drops a table a view reads and keeps the view, which works again once the
    table is back (PostgreSQL refused the DROP: 'other objects depend on it')."""
    diff.steps([
        "CREATE TABLE a (x INTEGER PRIMARY KEY, y TEXT)",
        ("commit",),
        "CREATE VIEW v AS SELECT x, y FROM a WHERE x > 1",
        "CREATE VIEW vv AS SELECT count(*) AS n FROM v",
        ("commit",),
        "DROP TABLE a",
        "SELECT name FROM sqlite_master ORDER BY name",
        "CREATE TABLE a (x INTEGER PRIMARY KEY, y TEXT, z INTEGER)",
        ("commit",),
        "INSERT INTO a (y) VALUES ('p'), ('q'), ('r')",
        "SELECT * FROM v ORDER BY x",
        "SELECT * FROM vv",
    ])
