"""Translations kept in a file, shared by the processes of one machine (issue 8).

A process translates each distinct statement once in its life; Hermes starts many
short processes (CLI commands, cron ticks, gateway restarts), and each would pay
sqlglot again, 1-4 ms a statement, its first writes doing so while they hold the
write lock.  Here a translation outlives its process, in a small SQLite file.

An entry is served only where ``translate()`` would make the same one: it is
keyed by the statement, the dialect, the server version and this very code
(sqlglot's version and the package's files), and a translation that consulted
the schema also by the schema (a hash of the shadow catalog's DDL) and by the
answers the server gave about hidden rowid columns (the one schema question the
DDL does not settle), asked again before the entry is used.

Best effort: a file that cannot be opened, read or written turns the cache off
for the process (or for that one call), never an error for the application.
``HERMES_DB_CACHE`` names the file; ``off`` turns it off.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
import weakref
from functools import lru_cache
from pathlib import Path
from typing import Any

from .._stdlib import sqlite3
from . import Translation, translate
from .context import Context

ENV_VAR = "HERMES_DB_CACHE"
_FORMAT = "1"  # bump when an entry's shape changes
_MAX_ENTRIES = 20_000  # past this the older half goes
_PRUNE_EVERY = 256  # writes between size checks
_BUSY_MS = 200  # another process writing: wait this long, then go without


def default_path() -> str | None:
    """The file named by ``HERMES_DB_CACHE``, else the user's cache directory; None: off."""
    named = os.environ.get(ENV_VAR, "").strip()
    if named.lower() == "off":
        return None
    if named:
        return named
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hermes_dbapi", "translations.sqlite3")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sqlglot's version and every module of this package (name, size, mtime): an
    edit or an upgrade starts afresh."""
    import sqlglot

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders.sort()
        for name in sorted(names):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                files.append(f"{os.path.relpath(folder, root)}/{name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("|".join([_FORMAT, sqlglot.__version__, *files]).encode()).hexdigest()


class RecordingSchema:
    """A schema view that notes the hidden-rowid answers a translation got."""

    def __init__(self, schema: Any) -> None:
        self._schema = schema
        self.probes: list[tuple[str, bool]] = []

    def implicit_rowid(self, table: str) -> bool:
        answer = bool(self._schema.implicit_rowid(table))
        if (table, answer) not in self.probes:
            self.probes.append((table, answer))
        return answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._schema, name)


def encode(translation: Translation) -> str:
    return json.dumps(dataclasses.asdict(translation), separators=(",", ":"))


def decode(text: str) -> Translation:
    fields = {k: _tuples(v) for k, v in json.loads(text).items()}
    return Translation(**fields)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


class DiskCache:
    """One process's handle on the file (reopened after a fork)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.hits = 0  # translations served from the file
        self.stored = 0  # entries this process added to it
        self._lock = threading.Lock()
        self._db: Any = None
        self._pid = 0
        self._off = path is None
        self._writes = 0
        self._schema_hashes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def ready(self) -> None:
        """Do the once-per-process work now (hash this code, open the file), not in
        a statement that may hold the write lock."""
        code_fingerprint()
        self._run(lambda db: None)

    # -- the two questions -------------------------------------------------------

    def get(self, dialect: str, version: tuple[int, ...], sql: str, schema: Any) -> Translation | None:
        """The kept translation of ``sql`` valid for ``schema`` now, if any."""
        rows = self._run(lambda db: db.execute(
            "SELECT schema, probes, value FROM translations WHERE key = ?", (_key(dialect, version, sql),)
        ).fetchall())
        for schema_hash, probes, value in rows or ():
            if schema_hash and schema_hash != self._schema_hash(schema):
                continue
            if any(bool(schema.implicit_rowid(table)) != answer for table, answer in json.loads(probes)):
                continue
            try:
                found = decode(value)
            except (ValueError, TypeError):
                continue  # not ours to trust: translate afresh
            self.hits += 1
            return found
        return None

    def put(self, dialect: str, version: tuple[int, ...], sql: str, translation: Translation,
            schema: Any, probes: list[tuple[str, bool]]) -> None:
        """Keep ``translation``; ``probes``: the hidden-rowid answers it was made with."""
        value = encode(translation)
        if decode(value) != translation:
            return  # a field JSON cannot carry faithfully: never serve a changed translation
        schema_hash = self._schema_hash(schema) if translation.schema_dependent else ""
        row = (_key(dialect, version, sql), schema_hash, json.dumps(probes), value)

        def write(db: Any) -> int:
            added = db.execute(
                "INSERT OR IGNORE INTO translations (key, schema, probes, value) VALUES (?, ?, ?, ?)", row
            ).rowcount
            self._writes += 1
            if self._writes % _PRUNE_EVERY == 0 and db.execute(
                "SELECT count(*) FROM translations"
            ).fetchone()[0] > _MAX_ENTRIES:
                db.execute(
                    "DELETE FROM translations WHERE rowid <= (SELECT max(rowid) FROM translations) - ?",
                    (_MAX_ENTRIES // 2,),
                )
            return added

        self.stored += self._run(write, default=0)

    # -- the file ----------------------------------------------------------------

    def _schema_hash(self, schema: Any) -> str:
        """A hash of the shadow catalog's DDL (its TEMP objects too: a name may mean a
        TEMP table), once per schema epoch."""
        epoch = getattr(schema, "epoch", None)
        known = self._schema_hashes.get(schema)
        if known is not None and known[0] == epoch:
            return known[1]
        temp = schema.temp_dump() if hasattr(schema, "temp_dump") else []
        digest = hashlib.sha256(json.dumps([schema.dump(), temp] if temp else schema.dump()).encode()).hexdigest()
        try:
            self._schema_hashes[schema] = (epoch, digest)
        except TypeError:
            pass  # not weakly referenceable: hashed again next time
        return digest

    def _run(self, work: Any, default: Any = None) -> Any:
        """``work(db)`` under the lock; ``default`` when the file is off or fails."""
        if self._off:
            return default
        with self._lock:
            try:
                db = self._open()
                if db is None:
                    return default
                return work(db)
            except sqlite3.OperationalError:
                return default  # busy with another process's write, or the disk is full: go without
            except sqlite3.Error:
                self._close()
                self._off = True  # e.g. not a database: leave it alone for this process
                return default

    def _open(self) -> Any:
        pid = os.getpid()
        if self._db is not None and self._pid == pid:
            return self._db
        self._db = None  # a forked child never uses its parent's handle
        assert self.path is not None
        try:
            Path(self.path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error):
            self._off = True
            return None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS translations (key TEXT NOT NULL, schema TEXT NOT NULL, "
                "probes TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (key, schema, probes))"
            )
        except BaseException:
            db.close()
            raise
        self._db, self._pid = db, pid
        return db

    def _close(self) -> None:
        if self._db is not None and self._pid == os.getpid():
            try:
                self._db.close()
            except sqlite3.Error:
                pass
        self._db = None


def _key(dialect: str, version: tuple[int, ...], sql: str) -> str:
    text = f"{code_fingerprint()}|{dialect}|{'.'.join(map(str, version))}|{sql}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def translate_kept(sql: str, dialect: str, version: tuple[int, ...], schema: Any) -> Translation:
    """``translate()``, or the same translation kept by an earlier process."""
    kept = shared()
    found = kept.get(dialect, version, sql, schema)
    if found is None:
        recording = RecordingSchema(schema)
        found = translate(sql, Context(dialect=dialect, version=version, schema=recording))
        kept.put(dialect, version, sql, found, schema, recording.probes)
    return found


_SHARED: DiskCache | None = None
_SHARED_LOCK = threading.Lock()


def shared() -> DiskCache:
    """The process's cache, at the file the environment names when first asked."""
    global _SHARED
    with _SHARED_LOCK:
        path = default_path()
        if _SHARED is None or _SHARED.path != path:
            if _SHARED is not None:
                with _SHARED._lock:
                    _SHARED._close()
            _SHARED = DiskCache(path)
        return _SHARED
