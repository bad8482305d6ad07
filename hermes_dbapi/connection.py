"""``Connection`` for server backends, shaped like ``sqlite3.Connection``.

Every statement goes one way: classify it (transaction control never reaches
sqlglot), translate it (cached), bind its parameters, open sqlite3's implicit
transaction if the mode asks for one, and hand it to the backend.  DDL is also
applied to the shadow catalog, which then answers for SQLite's schema.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from typing import Any, Iterable, Iterator, Sequence

from . import binding, detect_types, errors, returning, returning_ids, statements, stdclass, tracing, upsert_rows
from .batch import plain_bindable
from .batch import profile as batch_profile
from ._stdlib import HAS_AUTOCOMMIT, LEGACY, sqlite3
from .backends.base import Backend
from .backends.postgres import NAMESPACE_OID
from .catalog import add_column, hidden_rowid, server_names, store
from .catalog.shadow import Shadow
from .cursor import Cursor
from .transactions import Transactions
from .translate import Translation, TranslationCache, conflict_clause, disk_cache, pg_names
from .translate import helpers as translate_helpers
from .translate.context import HIDDEN_ROWID


_BASE_CURSOR_FOR_EXECUTE = sys.version_info >= (3, 11)
_SHARED_CACHE = TranslationCache(4096)
_probe = sqlite3.connect(":memory:", check_same_thread=False)  # validates attribute values like sqlite3
_probe_lock = threading.Lock()


_DROP_TABLE = re.compile(r"\s*DROP\s+TABLE\s", re.IGNORECASE)
_RENAME = re.compile(r"\s*ALTER\s+TABLE\s.+\sRENAME\s", re.IGNORECASE | re.DOTALL)
_OR_ROLLBACK = re.compile(r"\s*(INSERT|UPDATE)\s+OR\s+ROLLBACK\b", re.IGNORECASE)
_OR_IGNORE = re.compile(r"\s*INSERT\s+OR\s+IGNORE\b", re.IGNORECASE)


def _ignored(sql: str, exc: BaseException) -> bool:
    """``INSERT OR IGNORE`` skips a row that breaks NOT NULL or CHECK too, not only
    UNIQUE (the servers' ON CONFLICT DO NOTHING / INSERT IGNORE do not, or not
    alike): for a one-row VALUES insert the failure means "nothing inserted"."""
    message = str(exc)
    if not _OR_IGNORE.match(sql) or not message.startswith(("NOT NULL constraint failed", "CHECK constraint failed")):
        return False
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except Exception:  # noqa: BLE001 - not ours to judge: keep the error
        return False
    values = tree.expression if isinstance(tree, exp.Insert) else None
    return isinstance(values, exp.Values) and len(values.expressions) == 1

class Connection(sqlite3.Connection, metaclass=stdclass.StdAware):
    """A connection to a server namespace that behaves like ``sqlite3.Connection``.

    A real subclass of it, built with sqlite3's constructor arguments; an
    instance for an embedded database (no server URL) is a plain
    ``sqlite3.Connection`` in behaviour (see :mod:`.stdclass`)."""

    _backend: Backend | None = None  # None: embedded, every method is sqlite3's own

    Error = sqlite3.Error
    Warning = sqlite3.Warning
    InterfaceError = sqlite3.InterfaceError
    DatabaseError = sqlite3.DatabaseError
    DataError = sqlite3.DataError
    OperationalError = sqlite3.OperationalError
    IntegrityError = sqlite3.IntegrityError
    InternalError = sqlite3.InternalError
    ProgrammingError = sqlite3.ProgrammingError
    NotSupportedError = sqlite3.NotSupportedError

    def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
        from . import url

        options = stdclass.connect_options((database, *args), kwargs)
        target = None if options is None else url.resolve(options["database"], bool(options["uri"]))
        if target is None:
            sqlite3.Connection.__init__(self, database, *args, **kwargs)
            return
        # sqlite3's own argument checks and messages, on a private database that
        # is closed at once: nothing may reach it by mistake (e.g. a backup()).
        sqlite3.Connection.__init__(self, ":memory:", *args, **kwargs)
        sqlite3.Connection.close(self)
        self._open_target(target, options)

    def _open_target(self, target: Any, options: dict[str, Any]) -> None:
        from . import namespace
        from .backends import open_backend

        timeout = float(options["timeout"])
        backend = open_backend(target, namespace.for_target(target), timeout=timeout)
        backend.file_path = os.path.abspath(target.path) if target.path else ""  # PRAGMA database_list
        extra = {} if options["autocommit"] is stdclass.MISSING else {"autocommit": options["autocommit"]}
        try:
            self._open(
                backend,
                timeout=timeout,
                detect_types=int(options["detect_types"]),
                isolation_level=options["isolation_level"],
                check_same_thread=bool(options["check_same_thread"]),
                cached_statements=int(options["cached_statements"]),
                drop_on_close=target.memory,
                **extra,
            )
        except BaseException:
            backend.close()
            raise

    def _open(
        self,
        backend: Backend,
        *,
        timeout: float = 5.0,
        detect_types: int = 0,
        isolation_level: str | None = "",
        check_same_thread: bool = True,
        cached_statements: int = 128,
        autocommit: Any = LEGACY,
        drop_on_close: bool = False,
    ) -> None:
        self._backend = backend
        self._lock = threading.RLock()
        self._thread = threading.get_ident()
        self._check_same_thread = check_same_thread
        self._closed = False
        self._drop_on_close = drop_on_close
        self._detect_types = detect_types  # sqlite3 keeps it private too
        self._trace: Any = None  # set_trace_callback (tracing.py)
        self._decltypes: dict[tuple[int, str], tuple[str | None, ...] | None] = {}  # (schema epoch, SQL)
        self.row_factory: Any = None
        self.text_factory: Any = str
        self._isolation_level: str | None = None
        self.isolation_level = isolation_level
        self._autocommit = LEGACY
        self._local_cache = TranslationCache(max(cached_statements, 16))
        self._names: dict[str, tuple[str, ...] | None] = {}
        self._rowid_sql: dict[tuple[str, str], str] = {}
        self._row_by_row: dict[str, bool] = {}  # driver SQL -> upsert_rows.wanted (per schema epoch)
        self._identities: dict[tuple[str, str], tuple[str | None, bool, bool]] = {}  # see _identity_of
        self._plans: dict[str, tuple[str, Translation]] = {}  # SQL text -> (keyword, translation), see _execute_on
        self._plan_hits = 0
        self._shadow = Shadow()
        self._shadow.rowid_probe = lambda table: hidden_rowid.on_server(backend, table)
        self._shadow.names_probe = lambda: server_names.on_server(backend)
        self._shadow.columns_probe = lambda: server_names.columns_on_server(backend)
        self._shadow.load(store.read(backend))
        installed = translate_helpers.install(backend)  # issue 3: server-side helpers (date/time) in the namespace
        self._ctx_epoch = self._shadow.epoch
        self._tx = Transactions(backend, self._shadow)  # issue 5: shadow reloaded if a lost transaction had DDL
        self._tx.rewind = self._rewind_identities
        self._total_changes = 0
        self._changes = 0  # sqlite3_changes(): rows of the last INSERT/UPDATE/DELETE
        self._last_rowid = 0
        self._progress: tuple[Any, int] | None = None
        self._identity_high: dict[str, int] = {}  # PostgreSQL: highest id the sequence is known past
        self._pragma_state: dict[str, Any] = {}
        backend.set_busy_timeout(timeout)
        # issue 8: the FTS/trigger bridge (and its ~30 modules) loads now, not inside the
        # first statement, which may hold the write lock (p99 latency of many writers)
        _fts(self).warm()
        if installed:  # a new namespace, or one of an earlier version whose FTS tables need counts
            from .fts.server.upgrade import add_counts

            add_counts(backend, _fts(self).storages())
            _fts(self).install_natives()  # FTS sync triggers made before this version: the server's too
        disk_cache.shared().ready()  # likewise the translations kept by earlier processes
        from .catalog import route  # noqa: F401  (statements that are not plain DML go through it)
        if autocommit is not LEGACY:
            self.autocommit = autocommit

    # -- guards ------------------------------------------------------------------

    def _check_thread(self) -> None:
        if self._check_same_thread and threading.get_ident() != self._thread:
            raise errors.programming(
                "SQLite objects created in a thread can only be used in that same thread. "
                f"The object was created in thread id {self._thread} and this is thread id {threading.get_ident()}."
            )

    def _check(self) -> None:
        self._check_thread()
        self._check_open()

    def _check_open(self) -> None:
        if self._closed:
            raise errors.programming("Cannot operate on a closed database.")

    # -- attributes that behave like sqlite3's ------------------------------------

    @property
    def isolation_level(self) -> str | None:
        self._check_open()  # sqlite3 does not check the thread here
        return self._isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        if getattr(self, "_tx", None) is not None:
            self._check()
        with _probe_lock:
            _probe.isolation_level = value  # raises sqlite3's own TypeError/ValueError
            value = _probe.isolation_level  # ... and stores it as sqlite3 does
            _probe.isolation_level = ""
        if value is None and getattr(self, "_tx", None) is not None:
            self.commit()
        self._isolation_level = value

    @property
    def autocommit(self) -> Any:
        if not HAS_AUTOCOMMIT:
            raise AttributeError("'sqlite3.Connection' object has no attribute 'autocommit'")
        self._check()
        return self._autocommit

    @autocommit.setter
    def autocommit(self, value: Any) -> None:
        if not HAS_AUTOCOMMIT:
            raise AttributeError("'sqlite3.Connection' object has no attribute 'autocommit'")
        with _probe_lock:
            _probe.autocommit = value  # same validation and messages as sqlite3
            _probe.autocommit = LEGACY
        self._check()
        if value is True and self.in_transaction:
            self._tx.commit()
            tracing.emit(self, "COMMIT")
        self._autocommit = value if value is LEGACY else bool(value)
        if self._autocommit is False and not self.in_transaction:
            self._tx.begin("DEFERRED")
            tracing.emit(self, "BEGIN")

    @property
    def in_transaction(self) -> bool:
        self._check_open()
        return self._backend.in_transaction

    @property
    def total_changes(self) -> int:
        self._check_open()
        return self._total_changes

    # -- cursors and statements -------------------------------------------------

    def cursor(self, factory: Any = Cursor) -> Cursor:
        self._check()
        cursor = stdclass.adapt_factory(factory, sqlite3.Cursor, Cursor)(self)
        if not isinstance(cursor, sqlite3.Cursor):
            raise TypeError("factory must return a cursor, not " + type(cursor).__name__)
        if getattr(cursor, "_connection", None) is not self:  # a sqlite3.Cursor made some other way
            raise errors.not_supported(f"cursor factory returning {type(cursor).__name__}", self._backend.dialect)
        return cursor

    def _statement_cursor(self) -> Cursor:
        """sqlite3 3.11+ gives execute() a base-class cursor without calling an
        overridden cursor(); 3.10 calls cursor()."""
        return Cursor(self) if _BASE_CURSOR_FOR_EXECUTE else self.cursor()

    def execute(self, *args: Any, **kwargs: Any) -> Cursor:
        check_call(_probe, "execute", args, kwargs, 1, 2)
        if _BASE_CURSOR_FOR_EXECUTE:  # issue 8: a plain Cursor: its server method, no dual hop
            return _cursor_execute(Cursor(self), *args)
        return self._statement_cursor().execute(*args)

    def executemany(self, *args: Any, **kwargs: Any) -> Cursor:
        check_call(_probe, "executemany", args, kwargs, 2, 2)
        return self._statement_cursor().executemany(*args)

    def executescript(self, *args: Any, **kwargs: Any) -> Cursor:
        check_call(_probe, "executescript", args, kwargs, 1, 1)
        return self._statement_cursor().executescript(*args)

    def commit(self) -> None:
        self._check()
        if self._autocommit is True:
            return  # sqlite3: commit() does nothing in autocommit mode
        with self._lock:
            if self._backend.in_transaction:
                self._tx.commit()
                self._after_transaction_end()
                tracing.emit(self, "COMMIT")
            if self._autocommit is False:
                self._tx.begin("DEFERRED")
                tracing.emit(self, "BEGIN")

    def rollback(self) -> None:
        self._check()
        if self._autocommit is True:
            return
        with self._lock:
            if self._backend.in_transaction:
                self._tx.rollback()
                self._after_transaction_end(rolled_back=True)
                tracing.emit(self, "ROLLBACK")
            if self._autocommit is False:
                self._tx.begin("DEFERRED")
                tracing.emit(self, "BEGIN")

    def _rollback_whole_transaction(self) -> None:
        """``INSERT/UPDATE OR ROLLBACK``: a constraint failure ends the transaction, as in SQLite."""
        if self._backend.in_transaction:
            self._tx.rollback()
            self._after_transaction_end(rolled_back=True)
            if self._autocommit is False:
                self._tx.begin("DEFERRED")

    def close(self) -> None:
        self._check_thread()
        if self._closed:
            return
        with self._lock:
            try:
                if self._backend.in_transaction and self._autocommit is False:
                    self._tx.rollback()
                    tracing.emit(self, "ROLLBACK")
                elif self._backend.in_transaction:
                    self._tx.rollback()
                if self._drop_on_close:
                    self._backend.drop_namespace()
            finally:
                self._closed = True
                self._backend.close()
                self._shadow.close()

    def __enter__(self) -> "Connection":
        self._check()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc_type is None:
            try:
                self.commit()
            except BaseException:
                self.rollback()
                raise
        else:
            self.rollback()
        return False

    def __getattr__(self, name: str) -> Any:
        raise stdclass.no_attribute(self, name, Connection)

    def __call__(self, sql: str) -> Any:
        raise errors.make(sqlite3.NotSupportedError, "compiled statement objects are not supported", None)

    # -- the statement path -----------------------------------------------------

    def _translation(self, sql: str, translation_params: Any = None) -> Translation:
        dialect = self._backend.dialect
        if self._shadow.epoch != self._ctx_epoch:
            self._local_cache.clear()
            self._names.clear()
            self._rowid_sql.clear()
            self._row_by_row.clear()
            self._identities.clear()
            self._plans.clear()
            self._backend.schema_changed()
            self._ctx_epoch = self._shadow.epoch
        found = _SHARED_CACHE.get(dialect, sql) or self._local_cache.get(dialect, sql)
        if found is not None:
            return found
        self._raise_sqlite_error(sql)
        try:
            result = disk_cache.translate_kept(sql, dialect, self._backend.server_version, self._shadow)
        except sqlite3.OperationalError as exc:
            if not str(exc).startswith("unsupported or malformed SQL"):
                raise
            # SQLite read it (_raise_sqlite_error): valid SQL the translator cannot read, not a syntax error
            detail = str(exc)[len("unsupported or malformed SQL"):].strip(" ()")
            raise errors.make(sqlite3.NotSupportedError,
                              f"SQLite syntax the translator cannot read for {dialect} ({detail})") from None
        (self._local_cache if result.schema_dependent else _SHARED_CACHE).put(dialect, sql, result)
        return result

    def _raise_sqlite_error(self, sql: str) -> None:
        """If SQLite itself refuses to compile the statement, raise its error.

        Missing tables and columns are left to the server: the shadow may not
        know objects another process created (it is reloaded once first)."""
        from sqlglot.errors import TokenError

        from .translate import check_parse_limits
        from .translate.params import scan

        check_parse_limits(sql)  # issue 9: a 10 MB statement past SQLite's limits fails in ms, before scan()
        try:
            params = scan(sql)
        except TokenError:  # SQLite's tokenizer words it better (e.g. unrecognized token)
            problem = self._shadow.check(sql, 0, ())
            raise problem if problem is not None else errors.operational("unrecognized token") from None
        problem = self._shadow.check(sql, params.count, params.names)
        if problem is not None and _names_missing_object(problem):
            self._shadow.load(store.read(self._backend))
            problem = self._shadow.check(sql, params.count, params.names)
        if problem is not None and not _names_missing_object(problem):
            raise problem

    def _declared_types(self, sql: str, width: int) -> tuple[str | None, ...] | None:
        """The declared types of a query's result columns (detect_types.py), per schema epoch."""
        key = (self._shadow.epoch, sql)
        if key not in self._decltypes:
            if len(self._decltypes) >= 512:
                self._decltypes.clear()
            self._decltypes[key] = detect_types.declared_types(self._shadow, sql, width)
        return self._decltypes[key]

    def _execute_on(self, cursor: Cursor, sql: str, parameters: Any) -> None:
        if not isinstance(sql, str):
            raise TypeError(f"execute() argument 1 must be str, not {type(sql).__name__}")
        if "\x00" in sql:
            raise errors.programming("the query contains a null character")
        with self._lock:
            cursor._set_result(None, -1, cursor._lastrowid)  # sqlite3 resets these first
            if self._progress is not None:
                self._check_progress()
            # issue 8 fast path: a statement seen before (same catalog epoch) that no hook
            # claimed skips the keyword scan, the hooks and the cache lookups
            plan = self._plans.get(sql) if self._shadow.epoch == self._ctx_epoch else None
            if plan is not None:
                keyword, translation = plan
                self._plan_hits += 1  # a cache hit too, for bench/ and doctor
            else:
                keyword = statements.leading_keyword(sql)
                if self._run_special(cursor, sql, keyword, parameters):
                    return
                if _fts(self).handle(cursor, sql, keyword, parameters):  # FTS5 tables and their sync triggers
                    return
                if returning.wanted(self, sql, keyword) and returning.run(self, cursor, sql, parameters):
                    return  # UPDATE … RETURNING on MariaDB (returning.py)
                translation = self._translation(sql)
                if keyword in _PLAN_KEYWORDS and not translation.is_ddl and self._shadow.epoch == self._ctx_epoch:
                    if len(self._plans) >= 512:
                        self._plans.clear()
                    self._plans[sql] = (keyword, translation)
            if translation.update_or in conflict_clause.ROW_BY_ROW:
                _fts(self).row_by_row(cursor, sql, keyword, parameters)  # UPDATE OR IGNORE/REPLACE/FAIL
                return
            if translation.rows > 1 and translation.conflict and upsert_rows.wanted(self, translation) \
                    and upsert_rows.run(self, cursor, sql, parameters, keyword):
                return  # a multi-row upsert row by row, for SQLite's ids (upsert_rows.py)
            params = self._bind(sql, translation, parameters)
            began = self._begin_implicitly(keyword)
            try:
                self._run(cursor, sql, translation, params, keyword)
            except sqlite3.IntegrityError as exc:  # issue 4 hook: SQLite's exact constraint text
                from .errors import refine

                if _OR_ROLLBACK.match(sql):
                    self._rollback_whole_transaction()
                self._changes = 0  # changes(): the failed statement's, none
                refined = refine.integrity(self, sql, parameters, exc)
                if _ignored(sql, refined):
                    cursor._set_result(None, 0, self._last_rowid)
                    return
                raise refined from None
            except sqlite3.Error as exc:
                if began and errors.compile_time(exc):
                    self._tx.rollback()  # sqlite3 prepares before BEGIN: no transaction then
                if str(exc) == _SERVER_MATCH:
                    from .errors import refine

                    raise refine.match_outside_fts(self, sql) from None
                raise

    def _run_special(self, cursor: Cursor, sql: str, keyword: str, parameters: Any) -> bool:
        """Statements that never reach the translator; True if handled."""
        if keyword == "":
            if not statements.is_empty(sql):
                self._raise_sqlite_error(sql)
                raise errors.operational("unrecognized statement")
            cursor._set_result(None, -1, cursor.lastrowid)
            return True
        control = statements.control(sql, keyword)
        if control is False:
            self._raise_sqlite_error(sql)
            raise errors.operational(f'near "{keyword}": syntax error')
        if control is not None:
            if self._autocommit is False and control.verb == "BEGIN":
                raise errors.operational("cannot start a transaction within a transaction")
            ended = self._tx.run(control)
            if ended:
                self._after_transaction_end(rolled_back=control.verb == "ROLLBACK")
            cursor._set_result(None, -1, self._last_rowid)
            return True
        if keyword == "PRAGMA":
            from .catalog import pragmas

            names, rows = pragmas.run(self, sql, parameters)
            cursor._raw_cursor().load(names, rows)
            cursor._set_result(names, -1, self._last_rowid)
            return True
        from .catalog import route  # issue 4 hook: VACUUM/ANALYZE/ATTACH..., queries on sqlite_master

        return route.run_special(self, cursor, sql, keyword, parameters)

    def _bind(self, sql: str, translation: Translation, parameters: Any) -> tuple:
        def warn_named() -> None:  # sqlite3 3.12+ warns, 3.14 refuses: let it say which
            self._shadow_explain("EXPLAIN " + sql, parameters)

        try:
            values = binding.bind(parameters, translation.count, translation.names, translation.order, warn_named)
        except binding.BindError:
            binding.raise_like_sqlite(sql, parameters, self._shadow_explain)
            raise  # unreachable: raise_like_sqlite always raises
        if translation.session:
            current = {"changes": self._changes, "total_changes": self._total_changes,
                       "last_insert_rowid": self._last_rowid}
            values = binding.with_session(values, translation.session, current)
        if translation.bound_rules:
            values = binding.apply_bound_rules(values, translation.bound_rules)
        if translation.refused_values:
            binding.refuse_values(values, translation.refused_values)
        return values

    def _shadow_explain(self, sql: str, parameters: Any) -> Any:
        with self._shadow.lock:
            return self._shadow.db.execute(sql, parameters)

    def _begin_implicitly(self, keyword: str) -> bool:
        """sqlite3's implicit BEGIN; True if this call opened the transaction."""
        if self._backend.in_transaction:
            return False
        if self._autocommit is False:
            self._tx.begin("DEFERRED")
            return True
        if self._autocommit is LEGACY and self._isolation_level is not None and statements.is_dml(keyword):
            self._tx.begin(self._isolation_level or "DEFERRED")
            return True
        return False

    def _run(self, cursor: Cursor, sql: str, translation: Translation, params: tuple, keyword: str) -> None:
        backend = self._backend
        raw = cursor._raw_cursor()
        if translation.is_ddl:
            self._run_ddl(cursor, sql, translation, params)
            return
        driver_sql, returning = self._with_rowid(translation)  # leaves a statement with RETURNING as it is
        rows_too = ids_too = False
        if translation.is_insert and translation.returns_rows:  # its rowids come as a last column (returning_ids.py)
            driver_sql, rows_too = self._returning_rowid_too(translation)
        elif translation.is_insert and backend.kind == "mysql":
            driver_sql, ids_too = self._returning_ids(translation)
        try:
            backend.execute(raw, driver_sql, params, returning_rowid=returning, table=translation.table)
        except sqlite3.Error:
            self._rewind_identity(translation)  # a failed INSERT uses up no id in SQLite
            raise
        if ids_too:
            returning_ids.take_ids(raw)
        if rows_too:
            returning_ids.take(raw)
            returning = backend.kind == "postgres"  # the identity upkeep below; MySQL's AUTO_INCREMENT moves itself
        if translation.sets_rowid:
            self._identity_past_updated(translation.table)
        if translation.conflict and (not translation.rows or (raw.inserted or 0) < translation.rows):
            self._rewind_identity(translation)  # skipped rows (OR IGNORE, upserts) neither
        raw.json_typed = translation.json_typed  # JSON1 values to decode (translate/passes/json.py)
        raw.tagged = translation.tagged  # values tagged with their storage class (passes/mixed_types.py)
        names = None
        if raw.names is not None:
            names = self._result_names(sql, translation, raw.names)
        elif translation.returns_rows:  # MariaDB answers "Impossible WHERE" with no result set at all
            names = self._result_names(sql, translation, ())
            names = names or None
        # sqlite3 counts rows only for statements that start with a DML keyword
        rowcount = raw.rowcount if keyword in _DML else -1  # DML … RETURNING: the rows returned
        if translation.table and (raw.names is None or translation.returns_rows):  # DML, with RETURNING too
            self._changes = max(raw.rowcount, 0)
            self._total_changes += self._changes
        if raw.lastrowid is not None:
            self._last_rowid = raw.lastrowid
            if returning:
                self._advance_identity(translation, raw)
        cursor._set_result(names, rowcount, self._last_rowid)

    def _advance_identity(self, translation: Translation, raw: Any) -> None:
        """PostgreSQL: an explicit id beyond the identity sequence moves it on, so the
        next automatic id is max + 1 as in SQLite (MySQL's AUTO_INCREMENT does this).
        The table is noted for a rollback (:meth:`_rewind_identities`)."""
        column, settable, autoincrement = self._identity_of(translation)
        if column is None:
            return
        floor: int | None = 0  # back to max(id), SQLite's next id less one
        if autoincrement:  # no lower than the sequence's value before this statement, when known
            lowest = getattr(raw, "min_rowid", None)
            floor = lowest - 1 if lowest is not None and not settable and not translation.conflict else None
        self._tx.drew_ids(translation.table, column, floor)
        highest = getattr(raw, "max_rowid", None)
        if not settable or highest is None or highest <= self._identity_high.get(translation.table, 0):
            return  # ids the sequence itself handed out: it is already past them (no round trip)
        self._backend.advance_identity(translation.table, column, highest)
        self._identity_high[translation.table] = highest

    def _identity_past_updated(self, table: str) -> None:
        """PostgreSQL: an UPDATE that set rowids (``Translation.sets_rowid``) may have set
        them past the identity sequence; SQLite's next automatic id is max + 1, so the
        sequence moves on to the table's highest id (and back on a rollback, as after
        an INSERT; an AUTOINCREMENT table's stays)."""
        column = self._rowid_target(table)
        if column is None:
            return
        self._tx.drew_ids(table, column, None if self._autoincrement(table) else 0)
        self._backend.advance_identity(table, column)
        self._identity_high.pop(table, None)

    def _identity_of(self, translation: Translation) -> tuple[str | None, bool, bool]:
        """(the table's rowid column, whether the INSERT may set it, AUTOINCREMENT),
        asked once per statement (issue 8: shadow queries), kept until the schema changes."""
        key = (translation.sql, translation.table)
        found = self._identities.get(key)
        if found is None:
            column = self._rowid_target(translation.table)
            settable = column is not None and _may_set_column(translation.sql, column)
            found = (column, settable, column is not None and self._autoincrement(translation.table))
            if len(self._identities) >= 1024:
                self._identities.clear()
            self._identities[key] = found
        return found

    def _rewind_identity(self, translation: Translation) -> None:
        """PostgreSQL: an INSERT that failed or skipped rows used up identity values
        SQLite would hand out next (max + 1): set the sequence back (backends/postgres.py).
        Not for AUTOINCREMENT tables (SQLite never reuses their ids: the high-water
        mark is not known here) nor when the INSERT gives the id (a listed id
        column, unless a NULL bound there may have drawn one)."""
        if not translation.is_insert or self._backend.kind != "postgres" or not translation.table:
            return
        column = self._rowid_target(translation.table)
        if column is None or translation.listed is None:
            return
        given = column.lower() in {name.lower() for name in translation.listed} and not translation.rowid_coalesced
        if given or self._autoincrement(translation.table):
            return
        self._backend.rewind_identity(translation.table, column)
        self._identity_high.pop(translation.table, None)

    def _rewind_identities(self, drawn: Sequence[tuple[str, str, int | None]]) -> None:
        """PostgreSQL: rows a ROLLBACK (TO) undid used up identity values that SQLite
        hands out again: set each table's sequence back to max(id), as
        :meth:`_rewind_identity` does for a failed INSERT, and an AUTOINCREMENT
        table's no lower than its value before the undone rows (SQLite's
        sqlite_sequence rolls back too), when known.  ``drawn``: (table, rowid
        column, that floor) per table and savepoint, noted while the schema was the
        one the rows were inserted under (a rolled-back DROP is not in the shadow yet)."""
        done: set[str] = set()
        for table, column, floor in drawn:
            if table in done:
                continue
            done.add(table)
            if floor is not None:
                self._backend.rewind_identity(table, column, floor)
            self._identity_high.pop(table, None)

    def _autoincrement(self, table: str) -> bool:
        return self._shadow.autoincrement(table)

    def _with_rowid(self, translation: Translation) -> tuple[str, bool]:
        """PostgreSQL reports inserted ids only through RETURNING."""
        if not translation.is_insert or translation.returns_rows or self._backend.kind != "postgres":
            return translation.sql, False
        key = (translation.sql, translation.table)
        cached = self._rowid_sql.get(key)
        if cached is None:
            column = self._rowid_target(translation.table)
            returned = pg_names.quote(column) if column is not None else ""
            if translation.upsert_update:  # an updated row is no insert: SQLite keeps lastrowid
                returned = f"CASE WHEN xmax = 0 THEN {returned} END"
            cached = translation.sql if column is None else f"{translation.sql} RETURNING {returned}"
            self._rowid_sql[key] = cached
        return cached, cached is not translation.sql

    def _returning_rowid_too(self, translation: Translation) -> tuple[str, bool]:
        """An INSERT … RETURNING's SQL with the rowid column returned last, and whether it is."""
        key = (translation.sql, translation.table, "rows")
        cached = self._rowid_sql.get(key)
        if cached is None:
            column = self._rowid_target(translation.table)
            found = returning_ids.with_rowid(translation, column, self._backend.kind) if column else None
            cached = self._rowid_sql[key] = found or translation.sql
        return cached, cached is not translation.sql

    def _returning_ids(self, translation: Translation) -> tuple[str, bool]:
        """MariaDB: the SQL of an INSERT of several rows (VALUES or a SELECT) that lists
        the rowid column, returning its rowids (then lastrowid is the last row's, as in
        SQLite), and whether it does; any other INSERT as it is."""
        if translation.rows == 1 or translation.conflict:
            return translation.sql, False  # one row: the OK packet names it; OR IGNORE/upserts: a counted no-op
        key = (translation.sql, translation.table, "ids")
        cached = self._rowid_sql.get(key)
        if cached is None:
            column = self._rowid_target(translation.table)
            listed = translation.listed
            given = column is not None and (listed is None or column.lower() in (c.lower() for c in listed))
            cached = self._rowid_sql[key] = returning_ids.ids_only(translation, column) if given else translation.sql
        return cached, cached is not translation.sql

    def _rowid_target(self, table: str) -> str | None:
        """The server column holding ``table``'s rowid: its alias or the hidden one."""
        column = self._shadow.rowid_column(table)
        if column is None and self._shadow.implicit_rowid(table):
            column = HIDDEN_ROWID
        return column

    def _result_names(self, sql: str, translation: Translation, server_names: tuple[str, ...]) -> tuple[str, ...]:
        names = self._names.get(sql, ())
        if names == ():
            names = self._shadow.result_names(sql, translation.count, translation.names)
            self._names[sql] = names
        if names is None or server_names and len(names) != len(server_names):
            return server_names
        return names

    def _run_ddl(self, cursor: Cursor, sql: str, translation: Translation, params: tuple) -> None:
        before = self._shadow.dump()
        versions = self._schema_versions()
        self._shadow.apply(sql)
        if self._schema_versions() == versions:  # IF [NOT] EXISTS on what is (not) there: a no-op, as in SQLite
            cursor._set_result(None, -1, self._last_rowid)
            return
        try:
            self._refuse_not_null_on_rows(sql)
            postgres = self._backend.kind == "postgres"
            if postgres and _DROP_TABLE.match(sql):
                self._drop_dependent_views(cursor, before)
            self._backend.execute(cursor._raw_cursor(), translation.sql, params, table=translation.table)
            for then in translation.after:
                self._backend.execute(cursor._raw_cursor(), then, (), table=translation.table)
            if self._backend.kind == "mysql" and _RENAME.match(sql):
                self._rewrite_views(cursor, before)
            if postgres:
                self._restore_views(cursor)
            store.write(self._backend, self._shadow.dump(), self._shadow.take_cookie())
            if postgres:
                _fts(self).after_table_ddl(statements.leading_keyword(sql))
            self._identity_high.clear()
        except sqlite3.IntegrityError as exc:
            message = self._new_index_conflict(before) if "UNIQUE" in str(exc) else None
            self._shadow.load(before)
            if message is None:
                raise
            raise errors.make(sqlite3.IntegrityError, message, "SQLITE_CONSTRAINT_UNIQUE") from None
        except BaseException:
            self._shadow.load(before)
            raise
        self._tx.note_ddl()
        cursor._set_result(None, -1, self._last_rowid)

    def _rewrite_views(self, cursor: Cursor, before: list) -> None:
        """ALTER TABLE … RENAME: SQLite rewrites the views that name the table or column;
        MariaDB keeps their old text (the view then "references invalid table(s) or
        column(s)"), so each view whose SQL changed is made again from the new text."""
        old = {(kind, name): text for kind, name, _table, text in before}
        for kind, name, _table, text in self._shadow.dump():
            if kind != "view" or not text or old.get((kind, name)) in (None, text):
                continue
            quoted = '"' + name.replace('"', '""') + '"'
            self._catalog_ddl(cursor, f"DROP VIEW IF EXISTS {quoted}")
            self._catalog_ddl(cursor, text)

    def _catalog_ddl(self, cursor: Cursor, text: str) -> None:
        """Run SQLite DDL the catalog already holds on the server alone (no shadow check:
        the object is there)."""
        done = disk_cache.translate_kept(text, self._backend.dialect, self._backend.server_version, self._shadow)
        self._backend.execute(cursor._raw_cursor(), done.sql, (), table="")

    def _drop_dependent_views(self, cursor: Cursor, before: list) -> None:
        """PostgreSQL: DROP TABLE of a table a view reads fails ("other objects depend on
        it"); SQLite drops it and keeps the view, broken until the table is back.  The
        server's views on the dropped table go (the catalog keeps them; _restore_views)."""
        after = {(kind, name) for kind, name, _t, _s in self._shadow.dump()}
        gone = [name.lower() for kind, name, _t, _s in before if kind == "table" and (kind, name) not in after]
        if not gone or not any(kind == "view" for kind, _n, _t, _s in before):
            return
        views = self._backend.query(
            "SELECT DISTINCT v.relname FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid "
            "JOIN pg_class v ON v.oid = r.ev_class JOIN pg_class t ON t.oid = d.refobjid "
            "WHERE d.classid = 'pg_rewrite'::regclass AND v.oid <> t.oid AND lower(t.relname) = ANY(%s) "
            f"AND t.relnamespace = {NAMESPACE_OID}", (gone,))
        for (view,) in views:
            quoted = '"' + view.replace('"', '""') + '"'
            self._backend.execute(cursor._raw_cursor(), f"DROP VIEW IF EXISTS {quoted} CASCADE", (), table="")

    def _restore_views(self, cursor: Cursor) -> None:
        """PostgreSQL: a view of the catalog the server lacks (its table was dropped) is
        made again once its tables are back, as SQLite's view works again then."""
        views = [(name, text) for kind, name, _t, text in self._shadow.dump() if kind == "view" and text]
        if not views:
            return
        present = {row[0].lower() for row in self._backend.query(
            "SELECT viewname FROM pg_views WHERE schemaname = current_schema()")}
        for name, text in views:
            if name.lower() in present:
                continue
            try:
                self._catalog_ddl(cursor, text)
            except sqlite3.Error:
                pass  # a table it reads is still missing: the view waits, as SQLite's does

    def _refuse_not_null_on_rows(self, sql: str) -> None:
        table = add_column.table_needing_empty(sql)
        if table is None:
            return
        probe = self._translation("SELECT 1 FROM " + '"' + table.replace('"', '""') + '" LIMIT 1')
        if self._backend.query(probe.sql):
            raise errors.make(sqlite3.OperationalError, add_column.MESSAGE)

    def _new_index_conflict(self, before: list) -> str | None:
        """SQLite's message when CREATE UNIQUE INDEX meets duplicates (the server's names hidden columns)."""
        known = {row[1] for row in before}
        for kind, name, table, _sql in self._shadow.dump():
            if kind == "index" and name not in known:
                columns = self._shadow.index_columns(name)
                if not columns or None in columns:
                    return f"UNIQUE constraint failed: index '{name}'"
                return "UNIQUE constraint failed: " + ", ".join(f"{table}.{c}" for c in columns)
        return None

    def _schema_versions(self) -> tuple[int, int]:
        with self._shadow.lock:
            db = self._shadow.db
            return (
                int(db.execute("PRAGMA main.schema_version").fetchone()[0]),
                int(db.execute("PRAGMA temp.schema_version").fetchone()[0]),
            )

    def _after_transaction_end(self, rolled_back: bool = False) -> None:
        if rolled_back and self._tx.take_ddl_flag():
            self._shadow.load(store.read(self._backend))

    def _executemany_on(self, cursor: Cursor, sql: str, seq_of_parameters: Iterable[Any]) -> None:
        if not isinstance(sql, str):
            raise TypeError(f"executemany() argument 1 must be str, not {type(sql).__name__}")
        if "\x00" in sql:
            raise errors.programming("the query contains a null character")
        with self._lock:
            cursor._set_result(None, -1, cursor.lastrowid)
            self._check_progress()
            keyword = statements.leading_keyword(sql)
            if keyword in _READ_ONLY_KEYWORDS:
                raise errors.programming("executemany() can only execute DML statements.")
            if _fts(self).many(cursor, sql, keyword, seq_of_parameters):  # FTS tables, tables with triggers
                return
            translation = self._translation(sql)
            if translation.returns_rows and not translation.table:
                raise errors.programming("executemany() can only execute DML statements.")
            items = iter(seq_of_parameters)  # a non-iterable fails here, before any BEGIN
            if translation.update_or in conflict_clause.ROW_BY_ROW:
                self._update_or_many(cursor, sql, keyword, items)
                return
            if translation.is_ddl:
                kept = cursor.lastrowid
                for parameters in items:
                    self._run(cursor, sql, translation, self._bind(sql, translation, parameters), keyword)
                cursor._set_result(None, -1, kept)
                return
            self._begin_implicitly(keyword)
            # sqlite3 binds and runs item by item: an item that fails to bind (or an
            # iterator that raises) leaves the earlier items done.
            pending: list = []
            stopped: BaseException | None = None
            try:
                pending.extend(items)  # keeps what the iterator gave before it raised
            except BaseException as exc:
                stopped = exc
            # issue 8: a batch of plain tuples is checked once per column, not bound per item
            profile = batch_profile(pending, translation.count) if plain_bindable(translation) else None
            if profile is not None and translation.refused_values \
                    and binding.refused_in_batch(profile, translation.refused_values):
                profile = None  # item by item: the items before the refused value still run, as in sqlite3
            batch: list[tuple] = pending if profile is not None else []
            if profile is None:
                try:
                    for parameters in pending:
                        batch.append(self._bind(sql, translation, parameters))
                except BaseException as exc:  # an item sqlite3 cannot bind: the earlier ones still run
                    stopped = exc
            rowcount = self._run_batch(cursor, translation, batch, profile) if batch else 0
            if rowcount > 0:  # changes() and total_changes() count the items run before a failure too
                self._total_changes += rowcount
                self._changes = rowcount // max(len(batch), 1)  # the last item's rows, as the items are alike
            if stopped is not None:
                raise stopped
            cursor._set_result(None, rowcount if statements.is_dml(keyword) else -1, cursor.lastrowid)

    def _update_or_many(self, cursor: Cursor, sql: str, keyword: str, items: Iterator[Any]) -> None:
        """executemany() of an UPDATE OR IGNORE/REPLACE/FAIL: item by item, row by row."""
        total, kept = 0, cursor.lastrowid
        for parameters in items:
            _fts(self).row_by_row(cursor, sql, keyword, parameters)
            total += max(cursor.rowcount, 0)
        cursor._set_result(None, total, kept)  # sqlite3: executemany() leaves lastrowid alone

    def _run_batch(self, cursor: Cursor, translation: Translation, batch: list[tuple], profile: Any = None) -> int:
        """Run a bound batch; on failure keep the items before the failing one."""
        raw = cursor._raw_cursor()
        driver_sql, returning = self._with_rowid(translation)
        if translation.is_insert and translation.returns_rows and self._backend.kind == "postgres":
            driver_sql, returning = self._returning_rowid_too(translation)  # executemany keeps the ids, not the rows
        try:
            self._backend.executemany(
                raw, driver_sql, batch, table=translation.table, returning_rowid=returning, profile=profile
            )
        except (sqlite3.Error, UnicodeEncodeError):  # a str the driver cannot send: sqlite3 fails at its item
            self._rewind_identity(translation)  # the undone batch used up ids
            if len(batch) == 1:
                raise
            done = 0
            for params in batch:  # redo one by one to stop exactly where SQLite stops
                try:
                    self._backend.execute(raw, driver_sql, params, returning_rowid=returning, table=translation.table)
                except sqlite3.Error:
                    self._rewind_identity(translation)
                    self._changes = 0  # the failing item ran: changes() counts it, 0
                    raise
                done += max(raw.rowcount, 0)
                self._total_changes += max(raw.rowcount, 0)
                self._changes = max(raw.rowcount, 0)  # changes(): the last item that ran
                if raw.lastrowid is not None:
                    self._last_rowid = raw.lastrowid
                    if returning:  # explicit ids the items stored move the sequence on, as in the batch path
                        self._advance_identity(translation, raw)
            return done  # not reached: the failing item raised
        if raw.lastrowid is not None:
            self._last_rowid = raw.lastrowid
            if returning:
                self._advance_identity(translation, raw)
        if translation.conflict:
            self._rewind_identity(translation)  # items that met a key used up ids
        return raw.rowcount

    def _executescript_on(self, cursor: Cursor, script: str) -> None:
        if not isinstance(script, str):
            raise TypeError(f"executescript() argument 1 must be str, not {type(script).__name__}")
        if "\x00" in script:
            raise ValueError("embedded null character")
        with self._lock:
            if self._autocommit is LEGACY and self._backend.in_transaction:
                self._tx.commit()
                tracing.emit(self, "COMMIT")
            kept = (cursor.rowcount, cursor.lastrowid)  # sqlite3 leaves these alone
            for statement in statements.split_script(script):
                if self._trace is None:
                    self._script_statement(cursor, statement)
                else:
                    tracing.reported(self, statement, (), lambda: self._script_statement(cursor, statement))
            cursor._set_result(None, *kept)

    def _script_statement(self, cursor: Cursor, statement: str) -> None:
        keyword = statements.leading_keyword(statement)
        if self._run_special(cursor, statement, keyword, ()):
            return
        if _fts(self).handle(cursor, statement, keyword, (), script=True):  # FTS5 tables and their sync triggers
            return
        translation = self._translation(statement)
        if translation.update_or in conflict_clause.ROW_BY_ROW:
            _fts(self).row_by_row(cursor, statement, keyword, (), script=True)
            return
        params = self._bind(statement, translation, ())
        self._run(cursor, statement, translation, params, keyword)

    def _check_progress(self) -> None:
        if self._progress is not None and self._progress[0]():
            raise errors.operational("interrupted", "SQLITE_INTERRUPT")

    # -- the rest of sqlite3.Connection ----------------------------------------------

    def set_progress_handler(self, progress_handler: Any, n: int) -> None:
        self._check()
        self._progress = None if progress_handler is None or n <= 0 else (progress_handler, n)

    def set_trace_callback(self, trace_callback: Any) -> None:
        self._check()
        self._trace = trace_callback

    def set_authorizer(self, authorizer_callback: Any) -> None:
        self._check()
        if authorizer_callback is not None:
            raise errors.not_supported("set_authorizer", self._backend.dialect)

    def create_function(self, name: str, narg: int, func: Any, *, deterministic: bool = False) -> None:
        self._check()
        raise errors.not_supported(f"create_function({name!r})", self._backend.dialect)

    def create_aggregate(self, name: str, n_arg: int, aggregate_class: Any) -> None:
        self._check()
        raise errors.not_supported(f"create_aggregate({name!r})", self._backend.dialect)

    def create_collation(self, name: str, callable: Any) -> None:
        self._check()
        raise errors.not_supported(f"create_collation({name!r})", self._backend.dialect)

    def enable_load_extension(self, enabled: bool, /) -> None:
        self._check()

    def load_extension(self, path: str, /, *, entrypoint: str | None = None) -> None:
        self._check()
        raise errors.operational(f"{path}: extensions cannot be loaded into a {self._backend.dialect} server")

    def interrupt(self) -> None:
        if self._closed:
            raise errors.programming("Cannot operate on a closed database.")

    def getlimit(self, category: int, /) -> int:
        self._check()
        with _probe_lock:
            return _probe.getlimit(category)

    def setlimit(self, category: int, limit: int, /) -> int:
        self._check()
        with _probe_lock:
            return _probe.getlimit(category)

    def _unsupported(self, method: str) -> Any:
        """The NotSupportedError of a sqlite3 method that needs a database file in this process."""
        self._check()
        raise errors.not_supported(f"Connection.{method}()", self._backend.dialect)

    def iterdump(self, *args: Any, **kwargs: Any) -> Any:
        """SQLite's dump text of the namespace (schema from the shadow catalog, rows from the server)."""
        self._check_open()
        if args or not set(kwargs) <= ({"filter"} if sys.version_info >= (3, 13) else set()):
            with _probe_lock:
                _probe.iterdump(*args, **kwargs)  # raises sqlite3's own TypeError
        from .dump import iterdump

        return iterdump(self, kwargs.get("filter"))

    def backup(self, *args: Any, **kwargs: Any) -> None:
        self._unsupported("backup")

    if hasattr(sqlite3.Connection, "serialize"):  # 3.11+, as in sqlite3

        def serialize(self, *args: Any, **kwargs: Any) -> bytes:
            return self._unsupported("serialize")

        def deserialize(self, *args: Any, **kwargs: Any) -> None:
            self._unsupported("deserialize")

    if hasattr(sqlite3.Connection, "blobopen"):

        def blobopen(self, *args: Any, **kwargs: Any) -> Any:
            return self._unsupported("blobopen")

    if hasattr(sqlite3.Connection, "create_window_function"):

        def create_window_function(self, *args: Any, **kwargs: Any) -> None:
            self._unsupported("create_window_function")

    if hasattr(sqlite3.Connection, "setconfig"):

        def setconfig(self, op: int, enable: bool = True, /) -> bool:
            self._check()
            return bool(enable)

        def getconfig(self, op: int, /) -> bool:
            self._check()
            return False


# as in this Python's sqlite3: autocommit is 3.12+, extension loading a build option
stdclass.drop_missing(Connection, sqlite3.Connection, ("autocommit", "enable_load_extension", "load_extension"))
stdclass.dual(Connection, sqlite3.Connection, "_backend")


def check_call(probe: Any, method: str, args: tuple, kwargs: dict, least: int, most: int) -> None:
    """Wrong arguments get the TypeError sqlite3's own method raises for them."""
    if kwargs or not least <= len(args) <= most or not isinstance(args[0], str):
        with _probe_lock:
            getattr(probe, method)(*args, **kwargs)  # raises; the probe never runs SQL here


_cursor_execute = Cursor.execute.__wrapped__  # the server implementation behind stdclass.dual's wrapper
_DML = statements._DML  # statements.is_dml() without the call, on the per-statement path

# statements whose (keyword, translation) _execute_on remembers once no hook claimed them
_PLAN_KEYWORDS = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "VALUES"})

# sqlite3_stmt_readonly() is true for these, so executemany() refuses them
_READ_ONLY_KEYWORDS = {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "EXPLAIN", "SELECT", "VALUES"}


_INSERT_COLUMNS = re.compile(r'\s*INSERT\s+INTO\s+(?:"(?:[^"]|"")+"|[^\s("]+)\s*\(([^()"]*)\)\s*VALUES\b', re.I)


def _may_set_column(driver_sql: str, column: str) -> bool:
    """False only when ``driver_sql`` is ``INSERT INTO t (cols) VALUES`` whose plain
    column list leaves out ``column`` (then the identity sequence made every id)."""
    match = _INSERT_COLUMNS.match(driver_sql)
    if match is None:
        return True
    return column.lower() in {name.strip().lower() for name in match.group(1).split(",")}


_SERVER_MATCH = 'near "MATCH": syntax error'  # a MATCH without an FTS5 table reached the server


def _names_missing_object(exc: sqlite3.Error) -> bool:
    """Errors a stale or partial shadow can cause; the server has the last word."""
    if not isinstance(exc, sqlite3.OperationalError):
        return isinstance(exc, sqlite3.ProgrammingError) and "one statement at a time" not in str(exc)
    text = str(exc)
    return text.startswith(("no such table", "no such column", "no such module", "no such index")) or (
        "no such function" in text and any(f in text for f in ("snippet", "highlight", "bm25"))
    )


def _fts(conn: Connection) -> Any:
    """The connection's FTS5 bridge (``fts/server/bridge.py``), made on first use."""
    bridge = conn.__dict__.get("_fts_bridge")
    if bridge is None:
        from .fts.server.bridge import FtsBridge

        bridge = conn.__dict__["_fts_bridge"] = FtsBridge(conn)
    return bridge
