"""Translations kept on disk for later processes (translate/disk_cache.py).

A kept translation must be the one ``translate()`` would make where it is used:
the same rows, ids and errors as SQLite, whichever schema or process comes next.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_dbapi.catalog.shadow import Shadow
from hermes_dbapi.connection import _SHARED_CACHE
from hermes_dbapi.translate import Context, translate
from hermes_dbapi.translate import disk_cache

INSERT = "INSERT INTO items (label) VALUES (?)"


@pytest.fixture
def cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "kept" / "translations.sqlite3"
    monkeypatch.setenv(disk_cache.ENV_VAR, str(path))
    return path


def _fresh_process_view(conn: Any) -> None:
    """Forget what this process translated, as a new process would not know it."""
    _SHARED_CACHE.clear()
    conn._local_cache.clear()
    conn._plans.clear()


def _server_only(backend: Any) -> None:
    if not backend.is_server:
        pytest.skip("SQLite runs the statements itself: nothing is translated")


_CHILD = """
import json, sys
import hermes_dbapi
from hermes_dbapi.translate import disk_cache
conn = hermes_dbapi.connect(sys.argv[1], isolation_level=None)
conn.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, label TEXT)")
before = disk_cache.shared().hits
cur = conn.execute("INSERT INTO items (label) VALUES (?)", (sys.argv[2],))
rows = conn.execute("SELECT id, label FROM items WHERE label LIKE ? ORDER BY id", ("run%",)).fetchall()
print(json.dumps({"hits": disk_cache.shared().hits - before, "lastrowid": cur.lastrowid, "rows": rows}))
conn.close()
"""


def test_a_later_process_reuses_the_translations(backend: Any, cache_file: Path) -> None:
    _server_only(backend)
    db = backend.path("shared.db")

    def child(label: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, db, label], capture_output=True, text=True, timeout=120, env=os.environ
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first, second = child("run 1"), child("run 2")
    assert first["hits"] == 0
    assert second["hits"] == 2  # the INSERT and the SELECT: neither translated again
    assert second["lastrowid"] == 2
    assert second["rows"] == [[1, "run 1"], [2, "run 2"]]


def test_a_kept_translation_follows_the_schema(backend: Any, std: Any, cache_file: Path, tmp_path: Path) -> None:
    """One INSERT text on a table whose id is its rowid, then on one with a hidden
    rowid: each gets its own translation, and SQLite's ids."""
    _server_only(backend)
    shapes = {
        "alias": "CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)",
        "hidden": "CREATE TABLE items (label TEXT, id TEXT)",
    }
    for name, ddl in shapes.items():
        ref = std.connect(str(tmp_path / f"{name}.ref.db"))
        shim = backend.connect(backend.path(f"{name}.db"))
        for conn in (ref, shim):
            conn.execute(ddl)
            conn.execute("INSERT INTO items (label) VALUES ('seed')")
        _fresh_process_view(shim)
        got = [shim.execute(INSERT, (f"{name} {i}",)).lastrowid for i in range(3)]
        want = [ref.execute(INSERT, (f"{name} {i}",)).lastrowid for i in range(3)]
        assert got == want
        query = "SELECT rowid, label FROM items ORDER BY rowid"
        assert shim.execute(query).fetchall() == ref.execute(query).fetchall()
        shim.commit()
        ref.close()
    key = disk_cache._key(shim._backend.dialect, shim._backend.server_version, INSERT)
    with contextlib.closing(std.connect(cache_file)) as kept:  # one entry per schema when the schema mattered
        schemas = kept.execute("SELECT schema FROM translations WHERE key = ?", (key,)).fetchall()
    kinds = {s for (s,) in schemas}  # "": made without asking the schema, good for any
    assert kinds == {""} or (len(kinds) == 2 and "" not in kinds)


def test_the_same_schema_elsewhere_reuses_it(backend: Any, cache_file: Path) -> None:
    _server_only(backend)
    for n in range(2):
        conn = backend.connect(backend.path(f"copy{n}.db"))
        conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)")
        _fresh_process_view(conn)
        hits = disk_cache.shared().hits
        assert conn.execute(INSERT, ("x",)).lastrowid == 1
        assert disk_cache.shared().hits == hits + n
        conn.commit()


def test_a_temp_table_of_the_name_is_part_of_the_schema(backend: Any, std: Any, cache_file: Path,
                                                        tmp_path: Path) -> None:
    """``SELECT *`` and ``DROP TABLE`` mean the TEMP table where one has the name: a
    translation made then is not the one for the same main schema without it."""
    _server_only(backend)
    ddl = "CREATE TABLE items (label TEXT, n INTEGER)"
    for name, temp in (("with_temp", True), ("without", False)):
        ref = std.connect(str(tmp_path / f"{name}.ref.db"), isolation_level=None)
        shim = backend.connect(backend.path(f"{name}.db"), isolation_level=None)
        for conn in (ref, shim):
            conn.execute(ddl)
            conn.execute("INSERT INTO items VALUES ('main', 1)")
            if temp:
                conn.execute("CREATE TEMP TABLE items (label TEXT)")
                conn.execute("INSERT INTO items VALUES ('temp')")
        _fresh_process_view(shim)
        for sql in ("SELECT * FROM items", "DROP TABLE items", "SELECT count(*) FROM sqlite_master"):
            want = ref.execute(sql).fetchall()
            assert shim.execute(sql).fetchall() == want, (name, sql)
        ref.close()


@pytest.mark.parametrize("how", ["off", "not_a_directory", "not_a_database"])
def test_an_unusable_cache_never_reaches_the_application(
    backend: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _server_only(backend)
    blocker = tmp_path / "blocker"
    blocker.write_bytes(b"this is not an SQLite database, nor a directory" * 100)
    target = {"off": "off", "not_a_directory": str(blocker / "translations.sqlite3"), "not_a_database": str(blocker)}
    monkeypatch.setenv(disk_cache.ENV_VAR, target[how])
    conn = backend.connect(backend.path())
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)")
    _fresh_process_view(conn)
    assert [conn.execute(INSERT, (f"x{i}",)).lastrowid for i in range(3)] == [1, 2, 3]
    assert disk_cache.shared().stored == 0
    assert blocker.read_bytes().startswith(b"this is not")  # left as it was


def _shadow(ddl: str, has_rowid: bool) -> Shadow:
    shadow = Shadow()
    shadow.apply(ddl)
    shadow.rowid_probe = lambda table: has_rowid  # what the server says of its hidden rowid column
    return shadow


def test_a_hidden_rowid_answer_is_asked_again(tmp_path: Path) -> None:
    """The same DDL, but the server table has no hidden rowid column (made by
    CREATE TABLE … AS): the kept translation, made where it had one, is not used."""
    cache = disk_cache.DiskCache(str(tmp_path / "t.sqlite3"))
    sql = "SELECT rowid, label FROM items"
    made_with, asked = _shadow("CREATE TABLE items (label TEXT)", True), _shadow("CREATE TABLE items (label TEXT)", False)
    schema = disk_cache.RecordingSchema(made_with)
    kept = translate(sql, Context(dialect="postgres", version=(15,), schema=schema))
    assert schema.probes == [("items", True)]  # asked once, however often the passes ask
    cache.put("postgres", (15,), sql, kept, made_with, schema.probes)
    assert cache.get("postgres", (15,), sql, made_with) == kept
    assert cache.get("postgres", (15,), sql, asked) is None


def test_an_edit_of_the_code_starts_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = disk_cache.DiskCache(str(tmp_path / "t.sqlite3"))
    shadow = _shadow("CREATE TABLE items (label TEXT)", True)
    sql = "SELECT upper(label) FROM items"
    kept = translate(sql, Context(dialect="postgres", version=(15,), schema=shadow))
    cache.put("postgres", (15,), sql, kept, shadow, [])
    assert cache.get("postgres", (15,), sql, shadow) == kept
    assert cache.get("mysql", (15,), sql, shadow) is None  # nor another dialect
    assert cache.get("postgres", (16,), sql, shadow) is None  # nor another server version
    monkeypatch.setattr(disk_cache, "code_fingerprint", lambda: "edited")
    assert cache.get("postgres", (15,), sql, shadow) is None


@pytest.mark.parametrize("dialect", ["postgres", "mysql"], ids=["to_pg_dialect", "to_mysql_dialect"])
@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM items WHERE label = :label LIMIT ? OFFSET ?",
        "SELECT changes(), last_insert_rowid(), total_changes()",
        "INSERT INTO items (label) VALUES (?1), (?1) ON CONFLICT DO NOTHING RETURNING rowid",
        "CREATE TABLE more (id INTEGER PRIMARY KEY, doc TEXT UNIQUE, at TEXT DEFAULT CURRENT_TIMESTAMP)",
        "SELECT json_extract(label, '$.a'), strftime('%Y', 'now') FROM items",
    ],
)
def test_every_field_survives_the_file(dialect: str, sql: str) -> None:
    shadow = _shadow("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)", True)
    made = translate(sql, Context(dialect=dialect, version=(15,) if dialect == "postgres" else (10, 11), schema=shadow))
    assert disk_cache.decode(disk_cache.encode(made)) == made
