"""The shadow catalog: an in-memory SQLite database holding the namespace's schema.

Every DDL statement the application sends through a server connection is also
run here, on empty tables.  That gives, straight from SQLite itself: its syntax
errors and schema errors with their exact messages, the declared types, keys
and rowid aliases the translator needs, the column names SQLite would give a
result set, and (for the catalog emulation) ``sqlite_master`` and the PRAGMAs.
The server keeps the DDL texts (:mod:`.store`) so every connection can rebuild
the same shadow.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any, Callable, Iterable

import sqlglot
import sqlglot.errors
from sqlglot import exp

from .._stdlib import sqlite3

_NAME_STEPS = 20_000  # VM steps allowed when asking SQLite for result column names


class _TooLong(Exception):
    pass


def _quoted_columns(sql: str | None) -> dict[str, bool]:
    """Column name → whether its CREATE TABLE spelled it quoted (a server folds
    unquoted names: PostgreSQL keeps ``"Mixed"`` but makes ``Mixed`` ``mixed``)."""
    if not sql:
        return {}
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except Exception:
        return {}
    return {c.this.name: bool(c.this.args.get("quoted")) for c in tree.find_all(exp.ColumnDef)}


class Shadow:
    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.lock = threading.RLock()
        self.epoch = 0  # bumped whenever the schema changes
        self._loaded: list | None = None  # the rows of the last load(), to skip identical reloads
        self._cookie_delta = 0  # schema-cookie increments since the last take_cookie()
        # Asks the server whether a table has the hidden rowid column (None: assume so).
        # Tables made before the column existed, or by CREATE TABLE … AS, lack it.
        self.rowid_probe: Callable[[str], bool | None] | None = None
        self._probed: dict[tuple[int, str], bool] = {}
        # Asks the server how it spells the namespace's tables (catalog/server_names.py).
        self.names_probe: Callable[[], dict[str, list[str]] | None] | None = None
        self.columns_probe: Callable[[], dict[str, dict[str, list[str]]] | None] | None = None
        self._spellings: tuple[int, dict[str, list[str]]] | None = None
        self._column_spellings: tuple[int, dict[str, dict[str, list[str]]]] | None = None
        self._collations: dict[tuple[int, str], dict[str, str]] = {}
        self._kinds: dict[tuple[int, str], str | None] = {}
        self._strict: dict[tuple[int, str], bool] = {}

    # -- SchemaView -----------------------------------------------------------

    def columns(self, table: str) -> list[tuple[str, str, bool]]:
        with self.lock:
            try:
                info = self.db.execute("SELECT name, type, pk FROM pragma_table_info(?)", (table,)).fetchall()
                keyed = self._unique_columns(table)
            except sqlite3.Error:
                return []
        return [(name, declared, bool(pk) or name in keyed) for name, declared, pk in info]

    def collations(self, table: str) -> dict[str, str]:
        """Each column's declared collation other than BINARY (lower-case name -> NOCASE/RTRIM),
        read from its CREATE TABLE (SQLite reports it nowhere else); cached per schema epoch."""
        key = (self.epoch, table.lower())
        found = self._collations.get(key)
        if found is None:
            found = self._collations[key] = self._declared_collations(table)
            if len(self._collations) > 512:
                self._collations = {key: found}
        return found

    def _declared_collations(self, table: str) -> dict[str, str]:
        with self.lock:
            row = self.db.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", (table,)
            ).fetchone()
        if row is None or not row[0] or "COLLATE" not in row[0].upper():
            return {}
        try:
            tree = sqlglot.parse_one(row[0], read="sqlite")
        except sqlglot.errors.SqlglotError:
            return {}
        out = {}
        for column in tree.find_all(exp.ColumnDef):
            for constraint in column.constraints:
                kind = constraint.args.get("kind")
                if isinstance(kind, exp.CollateColumnConstraint):
                    name = kind.this.name.upper() if kind.this is not None else ""
                    if name in ("NOCASE", "RTRIM"):
                        out[column.name.lower()] = name
        return out

    def _unique_columns(self, table: str) -> set[str]:
        names: set[str] = set()
        for _, index, unique, *_ in self.db.execute("SELECT * FROM pragma_index_list(?)", (table,)).fetchall():
            if unique:
                names.update(row[2] for row in self.db.execute("SELECT * FROM pragma_index_info(?)", (index,)))
        return names

    def key_widths(self, table: str) -> dict[str, int]:
        """Per column: the column count of the narrowest PRIMARY KEY/UNIQUE key holding it."""
        widths: dict[str, int] = {}
        with self.lock:
            try:
                pk = [r[1] for r in self.db.execute("SELECT * FROM pragma_table_info(?) WHERE pk > 0", (table,))]
                keys = [pk] if pk else []
                for _, index, unique, *_ in self.db.execute("SELECT * FROM pragma_index_list(?)", (table,)).fetchall():
                    if unique:
                        keys.append([r[2] for r in self.db.execute("SELECT * FROM pragma_index_info(?)", (index,))])
            except sqlite3.Error:
                return {}
        for key in keys:
            for name in key:
                if name is not None:
                    widths[name] = min(widths.get(name, len(key)), len(key))
        return widths

    def index_columns(self, index: str) -> list[str | None]:
        """Key columns of an index in order (None for an expression)."""
        with self.lock:
            rows = self.db.execute("SELECT name FROM pragma_index_info(?)", (index,)).fetchall()
        return [row[0] for row in rows]

    def rowid_column(self, table: str) -> str | None:
        with self.lock:
            try:
                pk = self.db.execute(
                    "SELECT name, type FROM pragma_table_info(?) WHERE pk > 0", (table,)
                ).fetchall()
                if len(pk) != 1 or pk[0][1].upper() != "INTEGER":
                    return None
                origins = [row[3] for row in self.db.execute("SELECT * FROM pragma_index_list(?)", (table,))]
                if "pk" in origins:
                    return None  # PRIMARY KEY DESC or WITHOUT ROWID keeps a separate key
                self.db.execute(f'SELECT rowid FROM "{table.replace(chr(34), chr(34) * 2)}" LIMIT 0')
            except sqlite3.Error:
                return None
            return pk[0][0]

    def autoincrement(self, table: str) -> bool:
        """Whether ``table`` was declared with AUTOINCREMENT (SQLite never reuses its ids)."""
        with self.lock:
            row = self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? AND sql LIKE '%AUTOINCREMENT%'", (table,)
            ).fetchone()
        return row is not None

    def is_strict(self, table: str) -> bool:
        """A STRICT table (SQLite refuses a value of another type: "cannot store …");
        cached per schema epoch."""
        key = (self.epoch, table.lower())
        found = self._strict.get(key)
        if found is None:
            try:
                with self.lock:
                    row = self.db.execute(
                        "SELECT strict FROM pragma_table_list WHERE name = ? COLLATE NOCASE "
                        "AND schema IN ('temp', 'main') ORDER BY schema = 'main'", (table,)
                    ).fetchone()
            except sqlite3.Error:
                return False
            found = bool(row and row[0])
            if len(self._strict) > 512:
                self._strict = {}
            self._strict[key] = found
        return found

    def relation_kind(self, table: str) -> str | None:
        """'table', 'view', 'virtual', 'shadow' or 'without_rowid' (None: no such relation);
        cached per schema epoch (issue 8: the trigger engine asks it for every statement)."""
        key = (self.epoch, table.lower())
        if key in self._kinds:
            return self._kinds[key]
        try:
            kind = self._relation_kind(table)
        except sqlite3.Error:
            return None  # not cached: the catalog could not be read now
        if len(self._kinds) > 512:
            self._kinds = {}
        self._kinds[key] = kind
        return kind

    def _relation_kind(self, table: str) -> str | None:
        with self.lock:
            row = self.db.execute(
                "SELECT type, wr FROM pragma_table_list WHERE name = ? COLLATE NOCASE AND schema IN ('temp', 'main') "
                "ORDER BY schema = 'main'", (table,)  # SQLite's own order: a TEMP one first
            ).fetchone()
        if row is None:
            return None
        return "without_rowid" if row[0] == "table" and row[1] else str(row[0])

    def is_temp(self, table: str) -> bool:
        """Whether ``table`` names a TEMP table (SQLite looks there first)."""
        return self._first("table", table, "1", ("temp",)) is not None

    def index_table(self, index: str) -> str | None:
        """The table of the index ``index`` (a TEMP one first, as SQLite looks), or None."""
        return self._first("index", index, "tbl_name", ("temp", "main"))

    def _first(self, kind: str, name: str, column: str, schemas: tuple[str, ...]) -> Any:
        """``column`` of the first ``schemas``' catalog row of that ``kind`` and ``name``."""
        with self.lock:
            for schema in schemas:
                row = self.db.execute(
                    f"SELECT {column} FROM {schema}.sqlite_master WHERE type = ? AND name = ? COLLATE NOCASE",
                    (kind, name),
                ).fetchone()
                if row is not None:
                    return row[0]
        return None

    def implicit_rowid(self, table: str) -> bool:
        if self.relation_kind(table) != "table" or table.lower().startswith("sqlite_"):
            return False  # a view, a virtual or shadow table, WITHOUT ROWID, SQLite's own
        if self.rowid_column(table) is not None:
            return False
        return self._server_has_rowid(table)

    def _server_has_rowid(self, table: str) -> bool:
        if self.rowid_probe is None:
            return True
        key = (self.epoch, table.lower())
        found = self._probed.get(key)
        if found is None:
            answer = self.rowid_probe(table)
            if answer is None:
                return False  # cannot ask now (e.g. a failed transaction): not cached
            if len(self._probed) > 256:
                self._probed.clear()
            found = self._probed[key] = answer
        return found

    def server_spelling(self, table: str) -> str | None:
        """The server's own spelling of ``table`` where it differs only in ASCII case and
        is the only one; None when the server has no such table (or cannot say).
        A name SQLite's catalog spells in lower case is the server's spelling too (the
        driver SQL folds on PostgreSQL; MariaDB keeps the catalog's): the server is asked
        only for one with an upper-case letter, once per schema epoch."""
        if self.names_probe is None:
            return None
        with self.lock:
            row = self.db.execute(
                "SELECT name FROM pragma_table_list WHERE name = ? COLLATE NOCASE AND schema IN ('temp', 'main') "
                "ORDER BY schema = 'main'", (table,)
            ).fetchone()
        if row is not None and not any(c.isupper() for c in row[0] if c.isascii()):
            return str(row[0])
        if self._spellings is None or self._spellings[0] != self.epoch:
            found = self.names_probe()
            if found is None:
                return None  # cannot ask now: not kept
            self._spellings = (self.epoch, found)
        names = self._spellings[1].get(table.lower(), [])
        return names[0] if len(names) == 1 else None

    def server_columns(self, table: str) -> dict[str, list[str]] | None:
        """PostgreSQL: the server's table ``table`` (its own spelling): lower-cased column
        name -> the server's spellings; None when unknown, or when SQLite's catalog spells
        every column of the table in lower case (the server then does too: not asked)."""
        if self.columns_probe is None:
            return None
        if not any(c.isupper() for name, _type, _keyed in self.columns(table) for c in name if c.isascii()):
            return None
        if self._column_spellings is None or self._column_spellings[0] != self.epoch:
            found = self.columns_probe()
            if found is None:
                return None
            self._column_spellings = (self.epoch, found)
        return self._column_spellings[1].get(table)

    def star_columns(self, table: str) -> list[tuple[str, bool, bool]]:
        with self.lock:
            try:
                info = self.db.execute("SELECT name, hidden FROM pragma_table_xinfo(?)", (table,)).fetchall()
                row = self.db.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", (table,)
                ).fetchone()
            except sqlite3.Error:
                return []
        quoted = _quoted_columns(row[0] if row else None)
        return [(name, hidden in (2, 3), quoted.get(name, False)) for name, hidden in info if hidden != 1]

    def has_table(self, name: str) -> bool:
        with self.lock:
            row = self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ? COLLATE NOCASE", (name,)
            ).fetchone()
        return row is not None

    # -- checking and naming statements --------------------------------------

    def check(self, sql: str, count: int, names: tuple[str | None, ...]) -> sqlite3.Error | None:
        """Compile ``sql`` without running it; return SQLite's error, if any."""
        with self.lock:
            try:
                self._run("EXPLAIN " + sql, count, names)
            except sqlite3.Error as exc:
                return exc
        return None

    def result_names(self, sql: str, count: int, names: tuple[str | None, ...]) -> tuple[str, ...] | None:
        """The column names SQLite gives this query's result, or None if unknown."""
        with self.lock:
            self.db.execute("SAVEPOINT hdb_names")
            steps = [0]

            def progress() -> int:
                steps[0] += 1
                return 1 if steps[0] * 100 > _NAME_STEPS else 0

            self.db.set_progress_handler(progress, 100)
            description = None
            try:
                for filler in (None, 0):  # 0 where NULL is refused (LIMIT ?: "datatype mismatch")
                    try:
                        description = self._run(sql, count, names, filler).description
                        break
                    except sqlite3.Error:
                        continue
            finally:
                self.db.set_progress_handler(None, 0)
                self.db.execute("ROLLBACK TO hdb_names")
                self.db.execute("RELEASE hdb_names")
        if description is None:
            return None
        return tuple(col[0] for col in description)

    def _run(self, sql: str, count: int, names: tuple[str | None, ...], filler: object = None) -> sqlite3.Cursor:
        if count == 0:
            return self.db.execute(sql)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            if all(n is not None for n in names):
                return self.db.execute(sql, {n[1:]: filler for n in names if n})
            return self.db.execute(sql, [filler] * count)

    # -- schema changes -------------------------------------------------------

    def apply(self, sql: str) -> None:
        """Run one DDL statement; raises SQLite's own error if SQLite refuses it."""
        with self.lock:
            cookie = self.cookie()
            self.db.execute("SAVEPOINT hdb_ddl")
            try:
                self.db.execute(sql)
            except BaseException:
                self.db.execute("ROLLBACK TO hdb_ddl")
                self.db.execute("RELEASE hdb_ddl")
                raise
            self.db.execute("RELEASE hdb_ddl")
            self._cookie_delta += self.cookie() - cookie
            self.epoch += 1
            self._loaded = None
            if sql.lstrip()[:4].upper() == "DROP":
                self._compact()

    def _compact(self) -> None:
        """Rebuild from our own dump after a DROP, so root pages depend only on
        the stored schema and every connection reports the same ones."""
        delta = self._cookie_delta
        self.load(self.dump())
        self._cookie_delta = delta

    def cookie(self) -> int:
        """SQLite's schema cookie (``PRAGMA schema_version``) of the shadow."""
        with self.lock:
            return int(self.db.execute("PRAGMA schema_version").fetchone()[0])

    def take_cookie(self) -> int:
        """How many schema-cookie steps the DDL applied since the last call made."""
        delta, self._cookie_delta = self._cookie_delta, 0
        return delta

    def dump(self) -> list[tuple[str, str, str, str]]:
        """(type, name, tbl_name, sql) of every object, in creation order."""
        with self.lock:
            return self.db.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
            ).fetchall()

    def temp_dump(self) -> list[tuple[str, str, str, str]]:
        """:meth:`dump` of the connection's TEMP objects (never stored: the connection's own)."""
        with self.lock:
            return self.db.execute(
                "SELECT type, name, tbl_name, sql FROM temp.sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
            ).fetchall()

    def load(self, rows: Iterable[tuple[str, str, str, str]]) -> None:
        """Replace the whole schema with ``rows`` (as produced by :meth:`dump`)."""
        rows = [tuple(row) for row in rows]
        with self.lock:
            if rows == self._loaded or rows == self.dump():
                self._loaded = rows
                return
            fresh = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            for _type, _name, _tbl, sql in rows:
                try:
                    fresh.execute(sql)
                except sqlite3.Error:
                    continue  # e.g. shadow tables FTS5 re-creates itself
            old, self.db = self.db, fresh
            old.close()
            self.epoch += 1
            self._loaded = rows
            self._cookie_delta = 0

    def close(self) -> None:
        self.db.close()
