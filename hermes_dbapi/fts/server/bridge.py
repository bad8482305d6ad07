"""The connection's one FTS hook: statements touching FTS tables come here.

``handle`` answers False, cheaply, for every statement that names no FTS table
and no table with shim-run triggers; the connection then runs it as usual.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ... import binding, errors, statements
from ...catalog import store
from ...translate import conflict_clause
from ...translate.params import scan
from ..errors import FtsError
from . import native, select, sqlrun, triggers, writes
from .spec import FtsSpec, is_fts5_ddl, parse
from .storage import Storage
from .undecodable import Stash

if TYPE_CHECKING:
    from ...connection import Connection
    from ...cursor import Cursor

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*|\"[^\"]+\"|`[^`]+`|\[[^\]]+\]")
_CREATE_VT = re.compile(r"(?is)^\s*CREATE\s+VIRTUAL\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\S+?)\s+USING\s*(\w*)")
_CREATE_TRIGGER = re.compile(r"(?is)^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\b")
_DROP = re.compile(r"(?is)^\s*DROP\s+(TABLE|TRIGGER)\s+(IF\s+EXISTS\s+)?(\S+?)\s*;?\s*$")


def _unq(name: str) -> str:
    return triggers._unq(name)
_FTS5_STRUCTURE_ROWID = 10  # the %_data row FTS5 writes when it creates a table (last_insert_rowid)


class FtsBridge:
    def __init__(self, conn: "Connection") -> None:
        self.conn = conn
        self._epoch = -1
        self.specs: dict[str, FtsSpec] = {}
        self.triggers: dict[str, list[triggers.Trigger]] = {}  # table -> shim-run triggers
        self.natives: dict[str, list[triggers.Trigger]] = {}  # table -> triggers the server runs (native.py)
        self._shim_runs_all: dict[str, list[triggers.Trigger]] = {}  # table -> every trigger (native.off)
        self._main_triggers: list[triggers.Trigger] = []
        self._natives_on = True  # this session's hdb.native_triggers (set at connect)
        self._natives_session: object = None  # the driver session it was last set for
        self._storages: dict[str, Storage] = {}
        self._script = False
        self._parsed: dict[str, tuple[int, Any, exp.Expression | None]] = {}  # sql -> (epoch, scan, tree)
        self._plans: dict[tuple[str, bool], tuple[int, Any]] = {}  # (sql, deferring) -> (epoch, select.Plan)
        self.table_shapes: dict[tuple[int, str], tuple] = {}  # (epoch, table) -> triggers.engine._shape
        self.compiled: set[tuple[int, str]] = set()  # (epoch, sql): statements whose triggers compile (engine)
        self.temp_rows: dict[str, int] = {}  # hits table -> rows written since it was renewed (select._renewing)
        self.temp_made: set[str] = set()  # hits tables (and indexes) a read-only connection's session has
        self.temp_session: object = None  # ... that session (its driver connection)

    # -- catalog ----------------------------------------------------------

    def _refresh(self) -> None:
        shadow = self.conn._shadow
        if shadow.epoch == self._epoch:
            return
        with shadow.lock:
            rows = shadow.db.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') "
                "AND sql IS NOT NULL ORDER BY rowid"
            ).fetchall()
            main = len(rows)
            rows += shadow.db.execute(  # CREATE TEMP TRIGGER: this connection's only, fired all the same
                "SELECT type, name, tbl_name, sql FROM sqlite_temp_master WHERE type = 'trigger' ORDER BY rowid"
            ).fetchall()
        self.specs = {n.lower(): parse(n, s) for t, n, _tb, s in rows if t == "table" and is_fts5_ddl(s)}
        self.triggers = {}
        self._main_triggers = []
        for at, (t, _n, tbl, s) in enumerate(rows):
            if t == "trigger":
                trig = triggers.parse(s)
                if trig is not None:  # ordinary triggers too: hermes_dbapi/triggers runs them
                    self.triggers.setdefault(tbl.lower(), []).append(trig)
                    if at < main:
                        self._main_triggers.append(trig)
        self._storages = {}
        self._epoch = shadow.epoch
        self._find_natives()

    def _find_natives(self) -> None:
        """Which triggers the server runs (``native.py``): those whose native form it
        has; the shim leaves their tables' statements to it when it runs every trigger
        of the table.  A native trigger this connection would not make (another
        version's, a catalog it has not caught up with) turns them all off for it."""
        self.natives, self._shim_runs_all = {}, dict(self.triggers)
        backend = self.conn._backend
        if not native.usable(backend):
            return
        have = native.present(backend) if self._main_triggers else set()
        made = native.wanted(self, self._main_triggers) if have else {}
        known = {n.name for n in made.values()}
        self._set_natives(not have - known)
        if have - known:
            return
        for trigger in self._main_triggers:
            made_one = made.get(trigger.name.lower())
            if made_one is not None and made_one.name in have:
                self.natives.setdefault(trigger.table.lower(), []).append(trigger)
        for table, natives in self.natives.items():
            if len(natives) == len(self.triggers.get(table, ())):
                del self.triggers[table]  # the server runs them all

    def _set_natives(self, on: bool) -> None:
        backend = self.conn._backend
        if on != self._natives_on:
            backend.query(f"SELECT set_config('{native.SETTING}', %s, false)", (native.GENERATION if on else "off",))
            self._natives_on = on
        self._natives_session = backend.conn

    def _keep_natives_off(self) -> None:
        """A session that replaced one the native triggers were turned off for (a reconnect,
        issue 5) starts with them on: off again, or they would index rows the shim indexes."""
        if not self._natives_on and self.conn._backend.conn is not self._natives_session:
            self._natives_on = True
            self._set_natives(False)

    def _runs_natives(self, tree: exp.Expression, table: str) -> bool:
        """A statement on a table with native triggers that the shim runs with them off:
        a REPLACE (SQLite's replacing deletes fire no delete trigger), or a table with
        triggers of its own beside them (this connection's TEMP ones)."""
        return table in self.natives and (table in self.triggers or conflict_clause.replaces(tree))

    @contextlib.contextmanager
    def _all_in_shim(self) -> Iterator[None]:
        """The native triggers off on the server and run by the shim meanwhile."""
        self.triggers, kept = self._shim_runs_all, self.triggers
        try:
            with native.off(self.conn._backend):
                yield
        finally:
            self.triggers = kept

    def sync_natives(self) -> None:
        """After DDL: the server's native triggers made to match the catalog (native.sync),
        in the same transaction."""
        backend = self.conn._backend
        if not native.usable(backend):
            return
        self._refresh()
        guarded = backend.in_transaction
        try:
            if guarded:
                backend.savepoint("SAVEPOINT", "hermes_native")
            native.sync(self, self._main_triggers)
            if guarded:
                backend.savepoint("RELEASE SAVEPOINT", "hermes_native")
        except Exception:  # noqa: BLE001 - e.g. no privilege: the shim runs the triggers, as before
            if guarded:
                backend.savepoint("ROLLBACK TO SAVEPOINT", "hermes_native")
                backend.savepoint("RELEASE SAVEPOINT", "hermes_native")
        self._epoch = -1  # which are native is read again

    def after_table_ddl(self, keyword: str) -> None:
        """After an application ALTER or DROP (a renamed or added column, a dropped
        table): the server's sync triggers follow, when the catalog has any that are,
        or could become, the server's."""
        if keyword in ("ALTER", "DROP") and (self.natives or self.triggers):
            self.sync_natives()

    def install_natives(self) -> None:
        """At connect, when this version's helpers were just installed: native triggers
        for the catalog's sync triggers (outside a transaction, under the write lock;
        failure leaves the shim running them, as before)."""
        backend = self.conn._backend
        if not native.usable(backend) or getattr(backend, "read_only", False):
            return
        try:
            backend.begin("IMMEDIATE")
            try:
                self.sync_natives()
            except BaseException:
                backend.rollback()
                raise
            backend.commit()
        except Exception:  # noqa: BLE001 - the shim runs the triggers itself, as before
            self._epoch = -1
            return

    def warm(self) -> None:
        """Read the catalog's FTS5 tables and triggers and make their tokenizers now
        (a unicode61 tokenizer compiles a large regex, ~15 ms once per process),
        not inside the first write, which may hold the write lock.  A tokenizer
        that cannot be made, or a catalog entry that cannot be read, reports its
        error where it is used, as before."""
        try:
            self._refresh()
        except Exception:  # noqa: BLE001 - only a head start: the first use raises it again
            return
        for spec in self.specs.values():
            with contextlib.suppress(FtsError):
                spec.tokenizer  # noqa: B018 - a cached property: made here, used later

    def storage(self, spec: FtsSpec) -> Storage:
        got = self._storages.get(spec.name.lower())
        if got is None:
            got = self._storages[spec.name.lower()] = Storage(self.conn._backend, spec)
        return got

    # -- entry ------------------------------------------------------------

    def handle(self, cursor: "Cursor", sql: str, keyword: str, parameters: Any, script: bool = False) -> bool:
        """Run ``sql`` if it concerns FTS or triggers; False to let the connection run it.
        ``script``: a statement of executescript(), which opens no implicit transaction."""
        self._script = script
        if keyword == "CREATE":
            if _CREATE_VT.match(sql):
                return self._create_virtual(cursor, sql)
            if _CREATE_TRIGGER.match(sql):
                return self._create_trigger(cursor, sql)
            return False
        self._refresh()
        self._keep_natives_off()
        if keyword == "DROP":
            return self._drop(cursor, sql)
        if not self.specs and not self.triggers:
            return False
        words = {_unq(w).lower() for w in _WORD.findall(sql)}
        fts = words & set(self.specs)
        trig = words & (set(self.triggers) | set(self.natives))
        if not fts and not trig:
            return False
        found, tree = self._parse(sql, copy=False)
        if tree is None:
            return False
        target = tree.this if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) else None
        if isinstance(target, exp.Schema):
            target = target.this
        target_name = target.name.lower() if isinstance(target, exp.Table) else ""
        values = self._bind(sql, found, parameters)
        if target_name in self.specs:
            self._write(cursor, tree.copy(), self.specs[target_name], values, keyword)
            return True
        if target_name in self.natives and self._runs_natives(tree, target_name):
            with self._all_in_shim():
                return self._dml_with_triggers(cursor, sql, tree, target_name, values, keyword, parameters)
        if target_name in self.triggers:
            # the trigger engine only reads the statement (triggers/engine.py): no copy (issue 8)
            return self._dml_with_triggers(cursor, sql, tree, target_name, values, keyword, parameters)
        if target is None and fts and isinstance(tree, exp.Query):
            stash = Stash()
            names, rows = self.query_tree(tree, values, sql, found, stash)
            rows, check = stash.restore(names, rows, self.conn)
            raw = cursor._raw_cursor()
            raw.load(names, rows, check)
            cursor._set_result(names, -1, self.conn._last_rowid)
            return True
        return False

    def _parse(self, sql: str, copy: bool = True) -> tuple[Any, exp.Expression | None]:
        """issue 8: the checked, scanned and parsed statement, once per text and
        catalog epoch (the sync triggers' writes repeat); the tree is a copy
        (``copy=False``: the cached tree itself, which the caller must not change)."""
        epoch = self.conn._shadow.epoch
        cached = self._parsed.get(sql)
        if cached is None or cached[0] != epoch:
            self.conn._raise_sqlite_error(sql)
            found = scan(conflict_clause.replace_into(sql))
            text, update_or = conflict_clause.split(found.sql)
            try:
                tree = sqlglot.parse_one(text, read="sqlite")
                tree.meta[sqlrun.SQLITE_TEXT] = text
                if update_or:
                    tree.meta[conflict_clause.META] = update_or
            except sqlglot.errors.ParseError:
                tree = None
            if len(self._parsed) >= 256:
                self._parsed.clear()
            cached = self._parsed[sql] = (epoch, found, tree)
        tree = cached[2]
        return cached[1], tree.copy() if tree is not None and copy else tree

    def _bind(self, sql: str, found: Any, parameters: Any) -> tuple:
        return binding.bind_scanned(self.conn, sql, found, parameters)

    # -- queries ----------------------------------------------------------

    def query(self, text: str, values: Sequence[Any]) -> list[tuple]:
        """Rows of a marker-numbered SQLite SELECT, FTS tables included."""
        tree = sqlglot.parse_one(text, read="sqlite")
        if select.find_refs(tree, self.specs):
            text = select.rewrite(self.conn, tree, self.specs, values, self._all_storages())
        return sqlrun.run(self.conn, text, values)[1]

    def query_tree(self, tree: exp.Expression, values: Sequence[Any], sql: str, found: Any,
                   stash: Stash | None = None):
        """Rows of a query over FTS tables (``tree``: the cached parse, left unchanged);
        issue 8: its rewrite and SQLite's names for its columns are found once per
        text, catalog epoch and stash use."""
        key = (sql, stash is not None)
        shadow = self.conn._shadow
        epoch = shadow.epoch
        cached = self._plans.get(key)
        if cached is None or cached[0] != epoch:
            if len(self._plans) >= 256:
                self._plans.clear()
            try:
                planned = select.plan(self.conn, tree.copy(), self.specs, stash is not None, len(values))
            except select.MisplacedMatch:
                from ...errors import refine

                raise refine.match_outside_fts(self.conn, sql) from None
            cached = self._plans[key] = (epoch, planned, shadow.result_names(sql, found.count, found.names))
        text, given, fallback = select.run(self.conn, cached[1], values, self._all_storages(), stash, cut=True)
        server_names, rows = sqlrun.run(self.conn, text, given)
        if fallback is not None and len(rows) < fallback.needed:  # the best hits did not fill the LIMIT
            text, given = fallback.complete()
            server_names, rows = sqlrun.run(self.conn, text, given)
        for deferred in stash.deferred if stash is not None else ():
            rows = deferred.fill(rows, stash)
        names = cached[2]
        if names is None or server_names is None or len(names) != len(server_names):
            names = server_names
        return names, rows

    def _all_storages(self) -> dict[str, Storage]:
        return {k: self.storage(s) for k, s in self.specs.items()}

    def storages(self) -> list[Storage]:
        """The server tables of every FTS table in the catalog (none when it cannot be
        read: as for :meth:`warm`, its first use reports that)."""
        try:
            self._refresh()
        except Exception:  # noqa: BLE001
            return []
        return list(self._all_storages().values())

    # -- writes -----------------------------------------------------------

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """One statement's server writes succeed or vanish together."""
        backend = self.conn._backend
        if backend.in_transaction:
            backend.savepoint("SAVEPOINT", "hermes_fts", lazy=True)  # issue 8: sent with the first write
            try:
                yield
            except BaseException:
                backend.savepoint("ROLLBACK TO SAVEPOINT", "hermes_fts")
                backend.savepoint("RELEASE SAVEPOINT", "hermes_fts")
                raise
            backend.savepoint("RELEASE SAVEPOINT", "hermes_fts", lazy=True)
        else:
            backend.begin("DEFERRED")
            try:
                yield
            except BaseException:
                backend.rollback()
                raise
            backend.commit()

    def _write(self, cursor: "Cursor", tree: exp.Expression, spec: FtsSpec, values: Sequence[Any], keyword: str) -> None:
        conn = self.conn
        if not self._script:
            conn._begin_implicitly(keyword)
        last = None
        with self.atomic():
            if isinstance(tree, exp.Insert):
                count, last = writes.insert(self, tree, spec, values)
            elif isinstance(tree, exp.Delete):
                count = writes.delete(self, tree, spec, values)
            else:
                count, last = writes.update(self, tree, spec, values)
        if last is not None:
            conn._last_rowid = last
        conn._total_changes += count
        conn._changes = count  # changes(): the statement's own rows
        cursor._raw_cursor().reset()
        cursor._set_result(None, count, conn._last_rowid)

    def _dml_with_triggers(self, cursor: "Cursor", sql: str, tree: exp.Expression, table: str,
                           values: Sequence[Any], keyword: str, parameters: Any) -> bool:
        from ...triggers import engine

        if not engine.Runner(self).fired(tree) and not engine.resolves_row_by_row(tree):
            return False
        self._run_row_by_row(cursor, sql, tree, values, keyword)
        return True

    def row_by_row(self, cursor: "Cursor", sql: str, keyword: str, parameters: Any, script: bool = False) -> None:
        """A statement the trigger engine runs row by row though no trigger fires:
        UPDATE OR IGNORE / REPLACE / FAIL (each row's conflict resolved as SQLite does).
        ``script``: a statement of executescript(), which opens no implicit transaction."""
        self._script = script
        self._refresh()
        self._keep_natives_off()
        found, tree = self._parse(sql, copy=False)
        if tree is None:  # the connection translated it: sqlglot read it then
            raise errors.operational(f"unsupported or malformed SQL ({sql[:80]})")
        target = target_table(tree)
        if not self.conn._shadow.has_table(target):  # _parse reloaded the catalog when SQLite missed it
            raise errors.operational(f"no such table: {target}")
        if self._runs_natives(tree, target.lower()):
            with self._all_in_shim():
                self._run_row_by_row(cursor, sql, tree, self._bind(sql, found, parameters), keyword)
            return
        self._run_row_by_row(cursor, sql, tree, self._bind(sql, found, parameters), keyword)

    def _run_row_by_row(self, cursor: "Cursor", sql: str, tree: exp.Expression, values: Sequence[Any],
                        keyword: str) -> None:
        from ...triggers import engine

        conn = self.conn
        engine.check_compiles(self, sql, tree)
        if not self._script:
            conn._begin_implicitly(keyword)
        count, last = engine.run_statement(self, tree, values)
        if last is not None:
            conn._last_rowid = last
        if statements.is_dml(keyword):
            conn._changes = count  # changes(): the statement's own rows, not its triggers'
        cursor._raw_cursor().reset()
        cursor._set_result(None, count if statements.is_dml(keyword) else -1, conn._last_rowid)

    def many(self, cursor: "Cursor", sql: str, keyword: str, items: Any) -> bool:
        """executemany() of a DML statement on a table with triggers: item by item."""
        self._refresh()
        if not (self.triggers or self.specs) or not statements.is_dml(keyword):
            return False
        words = {_unq(w).lower() for w in _WORD.findall(sql)}
        if not words & (set(self.triggers) | set(self.specs)) and not self._replaces_native(sql, words):
            return False
        conn = self.conn
        total, kept = 0, cursor.lastrowid
        items = list(items) if keyword == "INSERT" else items
        if keyword == "INSERT" and self._many_insert(cursor, sql, items):
            return True
        for parameters in items:
            if not self.handle(cursor, sql, keyword, parameters):
                translation = conn._translation(sql)
                conn._begin_implicitly(keyword)
                conn._run(cursor, sql, translation, conn._bind(sql, translation, parameters), keyword)
            total += max(cursor.rowcount, 0)
        cursor._set_result(None, total, kept)  # sqlite3: executemany() leaves lastrowid alone
        return True

    def _replaces_native(self, sql: str, words: set[str]) -> bool:
        """executemany() of a statement the shim runs with the native triggers off."""
        if not words & set(self.natives):
            return False
        tree = self._parse(sql, copy=False)[1]
        return tree is not None and self._runs_natives(tree, target_table(tree).lower())

    def _many_insert(self, cursor: "Cursor", sql: str, items: list) -> bool:
        """executemany() of ``INSERT INTO fts(...) VALUES (?, ...)``: one batched write.

        Loading a corpus row by row costs a parse and several round trips per
        row; here the statement is parsed once and all rows are indexed
        together.  Anything unusual (a bind error, a duplicate rowid) falls
        back to the row-by-row path, which reproduces sqlite3's partial effects.
        """
        conn = self.conn
        self._refresh()
        if not items:
            return False
        conn._raise_sqlite_error(sql)
        found = scan(sql)
        try:
            tree = sqlglot.parse_one(found.sql, read="sqlite")
        except sqlglot.errors.ParseError:
            return False
        target = target_table(tree).lower() if isinstance(tree, exp.Insert) else ""
        spec = self.specs.get(target) if target not in self.triggers else None
        source = tree.expression if spec is not None else None
        if (spec is None or tree.args.get("returning") or not isinstance(source, exp.Values)
                or len(source.expressions) != 1):
            return False
        only = source.expressions[0]
        cells = list(only.expressions) if isinstance(only, exp.Tuple) else [only]
        if not all(isinstance(e, (exp.Placeholder, exp.Literal, exp.Null)) for e in cells):
            return False
        try:
            rows = [tuple(select.constant(e, self._bind(sql, found, p), conn) for e in cells) for p in items]
        except Exception:  # noqa: BLE001 - the row-by-row path raises it at the right row
            return False
        if not self._script:
            conn._begin_implicitly("INSERT")
        kept = cursor.lastrowid
        try:
            with self.atomic():
                count, last = writes.insert(self, tree, spec, (), rows=rows)
        except Exception:  # noqa: BLE001 - redone row by row for sqlite3's exact partial effect
            return False
        if last is not None:
            conn._last_rowid = last
        conn._total_changes += count
        cursor._raw_cursor().reset()
        cursor._set_result(None, count, kept)
        return True

    # -- DDL --------------------------------------------------------------

    def _ddl(self, cursor: "Cursor", sql: str, server: Any) -> None:
        """Apply DDL to the shadow, run ``server()``, store the schema; undo on failure."""
        conn = self.conn
        before = conn._shadow.dump()
        conn._shadow.apply(sql)
        try:
            server()
            store.write(conn._backend, conn._shadow.dump(), conn._shadow.take_cookie())
            self.sync_natives()
        except BaseException:
            conn._shadow.load(before)
            raise
        conn._tx.note_ddl()
        cursor._set_result(None, -1, conn._last_rowid)

    def _create_virtual(self, cursor: "Cursor", sql: str) -> bool:
        m = _CREATE_VT.match(sql)
        assert m is not None
        name = m.group(1)
        if "." in name and _unq(name.split(".")[0]).lower() in ("temp", "temporary"):
            existed = self.conn._shadow.has_table(_unq(name.split(".")[-1]))
            self.conn._shadow.apply(sql)  # a probe: lives in the shadow only
            if not existed and re.search(r"\bUSING\s+fts5\s*\(", sql, re.IGNORECASE):
                self.conn._last_rowid = _FTS5_STRUCTURE_ROWID
            cursor._set_result(None, -1, self.conn._last_rowid)
            return True
        conn = self.conn
        conn._raise_sqlite_error(sql)
        existed = conn._shadow.has_table(_unq(name))
        module = m.group(2)
        if module.lower() != "fts5" and not existed:  # rtree, fts3/4, fts5vocab, ...: nothing would hold it
            raise errors.not_supported(f"the virtual table module {module}", conn._backend.dialect)

        def server() -> None:
            if existed:
                return
            self._epoch = -1
            self._refresh()
            spec = self.specs.get(_unq(name).lower())
            if spec is not None:
                self.storage(spec).create()
                conn._last_rowid = _FTS5_STRUCTURE_ROWID  # FTS5 wrote its structure record: SQLite's lastrowid

        self._ddl(cursor, sql, server)
        return True

    def _create_trigger(self, cursor: "Cursor", sql: str) -> bool:
        """Every trigger lives in the shadow catalog only; the shim runs it."""
        if triggers.parse(sql) is None:
            return False
        self.conn._raise_sqlite_error(sql)
        self._ddl(cursor, sql, lambda: None)
        return True

    def _drop(self, cursor: "Cursor", sql: str) -> bool:
        m = _DROP.match(sql)
        if m is None:
            return False
        kind, name = m.group(1).upper(), m.group(3)
        parts = name.split(".")
        if len(parts) > 1 and _unq(parts[0]).lower() in ("temp", "temporary"):
            with self.conn._shadow.lock:
                own = self.conn._shadow.db.execute(  # TEMP triggers and virtual tables live in the shadow only
                    "SELECT 1 FROM temp.sqlite_master WHERE name = ? COLLATE NOCASE "
                    "AND (type = 'trigger' OR sql LIKE 'CREATE VIRTUAL%')",
                    (_unq(parts[-1]),),
                ).fetchone()
            if own:
                self.conn._shadow.apply(sql)
                cursor._set_result(None, -1, self.conn._last_rowid)
                return True
            return False
        low = _unq(parts[-1]).lower()
        if kind == "TABLE" and low in self.specs:
            storage = self.storage(self.specs[low])
            self._ddl(cursor, sql, storage.drop)
            return True
        if kind == "TRIGGER":  # triggers live in the shadow catalog only
            self._ddl(cursor, sql, lambda: None)
            return True
        return False


def target_table(tree: exp.Expression) -> str:
    t = tree.this
    if isinstance(t, exp.Schema):
        t = t.this
    return t.name if isinstance(t, exp.Table) else ""


__all__ = ["FtsBridge", "statements"]
