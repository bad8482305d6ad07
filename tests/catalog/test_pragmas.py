"""PRAGMAs: result shapes and values of a WAL-mode SQLite file, settings and their round trips."""

from __future__ import annotations

import pytest

import hermes_dbapi

SEQUENCES = {
    "journal_mode": ["PRAGMA journal_mode", "PRAGMA journal_mode=WAL", "PRAGMA journal_mode = wal",
                     "PRAGMA journal_mode=DELETE", "PRAGMA journal_mode", "PRAGMA journal_mode=bogus",
                     "PRAGMA journal_mode=WAL"],
    "synchronous": ["PRAGMA synchronous=NORMAL", "PRAGMA synchronous",
                    "PRAGMA synchronous=0", "PRAGMA synchronous", "PRAGMA synchronous=FULL", "PRAGMA synchronous"],
    "busy_timeout": ["PRAGMA busy_timeout", "PRAGMA busy_timeout=2500", "PRAGMA busy_timeout"],
    "foreign_keys": ["PRAGMA foreign_keys", "PRAGMA foreign_keys=ON", "PRAGMA foreign_keys", "PRAGMA foreign_keys=off",
                     "PRAGMA foreign_keys"],
    "user_version": ["PRAGMA user_version", "PRAGMA user_version=42", "PRAGMA user_version",
                     "PRAGMA main.user_version", "PRAGMA user_version = -3", "PRAGMA user_version"],
    "application_id": ["PRAGMA application_id", "PRAGMA application_id=0x48524d53", "PRAGMA application_id"],
    "schema_version": ["PRAGMA schema_version", "CREATE TABLE t(a)", "PRAGMA schema_version",
                       "CREATE INDEX t_a ON t(a)", "PRAGMA schema_version", "DROP INDEX t_a", "PRAGMA schema_version"],
    "cache_size": ["PRAGMA cache_size", "PRAGMA cache_size=-8000", "PRAGMA cache_size", "PRAGMA cache_size=500",
                   "PRAGMA cache_size"],
    "mmap_size": ["PRAGMA mmap_size", "PRAGMA mmap_size=268435456", "PRAGMA mmap_size", "PRAGMA mmap_size=0"],
    "temp_store": ["PRAGMA temp_store", "PRAGMA temp_store=MEMORY", "PRAGMA temp_store", "PRAGMA temp_store=0"],
    "wal_autocheckpoint": ["PRAGMA wal_autocheckpoint", "PRAGMA wal_autocheckpoint=500", "PRAGMA wal_autocheckpoint"],
    "journal_size_limit": ["PRAGMA journal_size_limit", "PRAGMA journal_size_limit=67108864",
                           "PRAGMA journal_size_limit"],
    "locking_mode": ["PRAGMA locking_mode", "PRAGMA locking_mode=EXCLUSIVE", "PRAGMA locking_mode=NORMAL",
                     "PRAGMA locking_mode"],
    "writable_schema": ["PRAGMA writable_schema", "PRAGMA writable_schema=ON", "PRAGMA writable_schema=RESET",
                        "PRAGMA writable_schema"],
    "checkpoint_fullfsync": ["PRAGMA checkpoint_fullfsync", "PRAGMA checkpoint_fullfsync=1",
                             "PRAGMA checkpoint_fullfsync"],
    "wal_checkpoint": ["PRAGMA wal_checkpoint", "PRAGMA wal_checkpoint(PASSIVE)", "PRAGMA wal_checkpoint(TRUNCATE)",
                       "PRAGMA main.wal_checkpoint(FULL)"],
    "checks": ["PRAGMA integrity_check", "PRAGMA quick_check", "PRAGMA integrity_check(10)", "PRAGMA quick_check(t)"],
    "optimize": ["PRAGMA optimize", "PRAGMA optimize(0x10002)"],
    "page_size": ["PRAGMA page_size", "PRAGMA page_size=8192", "PRAGMA page_size", "PRAGMA freelist_count"],
    "unknown": ["PRAGMA no_such_pragma", "PRAGMA no_such_pragma=1", "PRAGMA no_such_pragma(t)"],
    "table_valued": ["SELECT name, pk FROM pragma_table_info('t') WHERE pk > 0",
                     "SELECT COUNT(*) FROM pragma_table_info('t') WHERE name='a' AND pk > 0",
                     "SELECT * FROM pragma_index_list('t') ORDER BY name",
                     "SELECT il.name, ii.name FROM pragma_index_list('t') il JOIN pragma_index_info(il.name) ii"],
    "quoted_spellings": ["PRAGMA table_info(\"t\")", "PRAGMA table_info('t')", "PRAGMA main.table_info(t)",
                         "PRAGMA \"main\".table_info(t)", "PRAGMA TABLE_INFO(t)", "PRAGMA table_info(T)"],
    "maintenance": ["VACUUM", "ANALYZE", "ANALYZE t", "REINDEX", "REINDEX t", "REINDEX t_b"],
    "explain_query_plan": ["EXPLAIN QUERY PLAN SELECT * FROM t WHERE b = 'x'",
                           "EXPLAIN QUERY PLAN SELECT a FROM t WHERE b = 'x' AND c > 2 ORDER BY c DESC LIMIT 20",
                           "EXPLAIN QUERY PLAN SELECT * FROM t ORDER BY c",
                           "EXPLAIN QUERY PLAN SELECT * FROM t JOIN u ON u.t_id = t.a WHERE u.v = 1",
                           "EXPLAIN QUERY PLAN SELECT * FROM missing", "EXPLAIN QUERY PLAN SELEC 1"],
}
SETUP = {
    "checks": ["CREATE TABLE t(a)"],
    "table_valued": ["CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT UNIQUE)", "CREATE INDEX t_b2 ON t(b, a)"],
    "quoted_spellings": ["CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL DEFAULT 'x')"],
    "maintenance": ["CREATE TABLE t(a, b)", "CREATE INDEX t_b ON t(b)"],
    "explain_query_plan": ["CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL)", "CREATE INDEX t_bc ON t(b, c)",
                           "CREATE TABLE u(id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(a), v INTEGER)",
                           "CREATE INDEX u_v ON u(v)"],
}


@pytest.mark.parametrize("name", SEQUENCES)
def test_pragma_sequence(diff, name):
    setup = ["PRAGMA journal_mode=WAL", *SETUP.get(name, [])]  # the reference is a WAL-mode file
    diff.steps(SEQUENCES[name], setup=setup, isolation_level=None)


def test_settings_persist_per_namespace(diff):
    """user_version and application_id live in the database: a new connection reads them."""

    def run(side):
        first = side.connect(isolation_level=None)
        first.execute("PRAGMA user_version = 7")
        first.execute("PRAGMA application_id = 99")
        second = side.connect()
        return [second.execute(f"PRAGMA {p}").fetchall() for p in ("user_version", "application_id")]

    diff.check(run)


def test_database_list_names_the_file(backend):
    conn = backend.connect(isolation_level=None)
    rows = conn.execute("PRAGMA database_list").fetchall()
    assert rows == [(0, "main", backend.path())]
    assert [d[0] for d in conn.execute("PRAGMA database_list").description] == ["seq", "name", "file"]


def test_page_count_is_a_positive_int(backend):
    conn = backend.connect(isolation_level=None)
    conn.execute("CREATE TABLE t(a)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 50)
    (count,) = conn.execute("PRAGMA page_count").fetchone()
    assert type(count) is int and count >= 1
    assert conn.execute("PRAGMA page_size").fetchall() == [(4096,)]
    assert conn.execute("PRAGMA freelist_count").fetchall() == [(0,)]


def test_vacuum_into_and_attach(backend):
    """No honest server meaning: NotSupportedError naming the backend (SQLite does them)."""
    conn = backend.connect(isolation_level=None)
    target = backend.path("copy.db")
    if not backend.is_server:
        conn.execute("VACUUM INTO ?", (target,))
        return
    from hermes_dbapi import NotSupportedError

    for sql in ("VACUUM INTO ?", "ATTACH ? AS other"):
        with pytest.raises(NotSupportedError, match="not supported on (PostgreSQL|MySQL/MariaDB)"):
            conn.execute(sql, (target,))
    with pytest.raises(NotSupportedError):
        conn.execute("DETACH other")


def test_vacuum_tidies_the_tables_on_postgres(backend):
    """PostgreSQL: VACUUM vacuums and analyzes the namespace's tables (the visibility map
    an index-only scan needs, fresh statistics), whether or not autovacuum runs."""
    if backend.name != "postgres":
        pytest.skip("PostgreSQL's VACUUM")
    conn = backend.connect(isolation_level=None)
    conn.execute("CREATE TABLE t(a)")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(x)")
    conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(200)])
    conn.executemany("INSERT INTO f VALUES (?)", [(f"word{i} other",) for i in range(200)])
    raw = backend.raw_connect()
    try:
        pages = ("SELECT c.relname, c.relallvisible > 0, c.reltuples > 0 FROM pg_class c "
                 "WHERE c.relnamespace = %s::regnamespace AND c.relname IN ('t', 'f_idx', 'f_docsize') ORDER BY 1")
        namespace = conn._backend.namespace
        assert raw.execute(pages, (namespace,)).fetchall() == [
            ("f_docsize", False, False), ("f_idx", False, False), ("t", False, False)]
        conn.execute("VACUUM")
        assert raw.execute(pages, (namespace,)).fetchall() == [
            ("f_docsize", True, True), ("f_idx", True, True), ("t", True, True)]
    finally:
        raw.close()
    assert conn.execute("SELECT count(*) FROM f WHERE f MATCH 'other'").fetchone() == (200,)


def test_vacuum_inside_a_transaction_is_refused(backend):
    conn = backend.connect()
    conn.execute("CREATE TABLE t(a INTEGER)")
    conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(hermes_dbapi.OperationalError, match="cannot VACUUM from within a transaction"):
        conn.execute("VACUUM")
    conn.commit()
    conn.execute("VACUUM")
    assert conn.execute("SELECT a FROM t").fetchall() == [(1,)]
