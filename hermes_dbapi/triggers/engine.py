"""Run one DML statement row by row with the triggers SQLite would fire.

SQLite collects the keys of the rows an UPDATE or DELETE touches, then per
row runs the BEFORE triggers, the change and the AFTER triggers; an INSERT
does the same per inserted row.  This module does that on the server: one
single-row statement per row, ``new.x``/``old.x`` bound as parameters, the
most recently created trigger first, and a trigger never fires while it is
already running (``recursive_triggers`` off).  Changes count in
``total_changes`` when their statement completes, as in SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from .. import errors
from ..catalog import maintenance
from .._stdlib import sqlite3
from ..fts.server import sqlrun, writes
from ..fts.server import triggers as parsing
from ..translate import conflict_clause
from ..translate.passes import row_assignments
from ..translate.passes.conflicts import unique_keys_of
from . import raising
from .raising import IgnoreRow

_RETURNED: dict[str, str] = {}  # a read statement's server SQL -> its select list
_RAISES_IN_DML = "hdb_raises_in_dml"  # tree.meta key: a RAISE() call inside INSERT/UPDATE/DELETE


@lru_cache(maxsize=512)
def _parse(text: str) -> exp.Expression:
    """issue 8: a trigger statement's tree, parsed once per text (row values are
    bound as parameters, so the text repeats).  The cached tree itself: callers
    that rewrite it copy it first (the DML paths below only read a statement)."""
    plain, update_or = conflict_clause.split(text)
    tree = sqlglot.parse_one(plain, read="sqlite")
    tree.meta[sqlrun.SQLITE_TEXT] = plain
    if update_or:
        tree.meta[conflict_clause.META] = update_or
    tree.meta[_RAISES_IN_DML] = isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) and any(
        str(a.this).upper() == "RAISE" for a in tree.find_all(exp.Anonymous))
    return tree

if TYPE_CHECKING:
    from ..fts.server.bridge import FtsBridge

_EVENTS = {exp.Insert: "INSERT", exp.Update: "UPDATE", exp.Delete: "DELETE"}
_ROWID = ("rowid", "oid", "_rowid_")


def qi(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def target_table(tree: exp.Expression) -> str:
    t = tree.this
    if isinstance(t, exp.Schema):
        t = t.this
    return t.name if isinstance(t, exp.Table) else ""


def _marker(n: int) -> exp.Placeholder:
    return exp.Placeholder(this=f"__hdb_p{n}")


class Runner:
    """One top-level statement's run: the stack of triggers now running."""

    def __init__(self, bridge: "FtsBridge") -> None:
        self.bridge = bridge
        self.conn = bridge.conn
        self.stack: list[str] = []
        self.done: list[int] = []  # rows changed so far, per statement being run
        self.first_done = 0  # ... by the top-level statement (RAISE(FAIL) keeps them)

    # -- which triggers -----------------------------------------------------

    def fired(self, tree: exp.Expression) -> list[parsing.Trigger]:
        """Triggers ``tree`` fires, in creation order (none already running)."""
        event = _EVENTS.get(type(tree))
        found = self.bridge.triggers.get(target_table(tree).lower(), [])
        fired = [t for t in found if t.event == event and t.name.lower() not in self.stack]
        if event == "UPDATE":
            touched = set(row_assignments.assigned_columns(tree))
            fired = [t for t in fired if not t.of or touched & set(t.of)]
        return fired

    # -- statements -----------------------------------------------------------

    def statement(self, tree: exp.Expression, values: Sequence[Any]) -> tuple[int, int | None]:
        """Run a DML statement (SQLite text as a tree, marker-numbered ``values``);
        (rows it changed, rowid of its last inserted row)."""
        table = target_table(tree)
        spec = self.bridge.specs.get(table.lower())
        if spec is not None:
            if isinstance(tree, exp.Insert):
                count, last = writes.insert(self.bridge, tree, spec, values)
            elif isinstance(tree, exp.Delete):
                count, last = writes.delete(self.bridge, tree, spec, values), None
            else:
                count, last = writes.update(self.bridge, tree, spec, values), None
            self.conn._total_changes += count
            return count, last
        fired = self.fired(tree)
        if not fired and not resolves_row_by_row(tree):
            count, last = self.execute(tree.sql(dialect="sqlite"), values)
            count = max(count, 0)
            if isinstance(tree, exp.Insert) and count and last is not None:
                self.conn._last_rowid = last
            self.conn._total_changes += count
            return count, last if isinstance(tree, exp.Insert) else None
        self.done.append(0)
        if len(self.done) == 1:
            self.first_done = 0
        try:
            count, last = self._with_triggers(tree, table, values, fired)
        finally:
            if len(self.done) == 1:
                self.first_done = self.done[0]
            self.done.pop()
        self.conn._total_changes += count
        return count, last

    def _with_triggers(self, tree: exp.Expression, table: str, values: Sequence[Any],
                       fired: list[parsing.Trigger]) -> tuple[int, int | None]:
        dialect = self.conn._backend.dialect
        if self.conn._shadow.relation_kind(table) == "view":
            return self._instead_of(tree, table, values, fired), None
        where = "on a table with triggers" if fired else f"with OR {tree.meta.get(conflict_clause.META)}"
        if tree.args.get("returning") is not None:
            raise errors.not_supported(f"RETURNING {where}", dialect)
        if isinstance(tree, exp.Insert):
            count, last = _Table(self, table).insert(tree, values, fired)
        elif isinstance(tree, exp.Update):
            if tree.args.get("from_") is not None or tree.args.get("from") is not None:
                raise errors.not_supported(f"UPDATE ... FROM {where}", dialect)
            count, last = _Table(self, table).update(tree, values, fired), None
        else:
            count, last = _Table(self, table).delete(tree, values, fired), None
        return count, last

    def _instead_of(self, tree: exp.Expression, view: str, values: Sequence[Any],
                    fired: list[parsing.Trigger]) -> int:
        """A statement on a view: per row it would change, the INSTEAD OF triggers run in
        the change's place (the view changes nothing; SQLite counts 0 rows)."""
        fired = [t for t in fired if t.timing == "INSTEAD"]
        if not fired:
            raise errors.operational(f"cannot modify {view} because it is a view")
        columns = [c[0] for c in self.conn._shadow.columns(view)]
        bridge = self.bridge
        if isinstance(tree, exp.Insert):
            target = tree.this
            names = [i.name for i in target.expressions] if isinstance(target, exp.Schema) else columns
            source = tree.expression
            rows = writes.source_rows(bridge, source, values) if source is not None else [()]
            for row in rows:
                given = {n.lower(): v for n, v in zip(names, row)}
                self.fire(fired, "INSTEAD", {f"new.{c.lower()}": given.get(c.lower()) for c in columns})
            return 0
        olds = [f"{qi(tree.this.alias or view)}.{qi(c)}" for c in columns]
        news = []
        if isinstance(tree, exp.Update):
            sets = {e.this.name.lower(): e.expression.sql(dialect="sqlite") for e in tree.expressions
                    if isinstance(e, exp.EQ)}
            news = [sets.get(c.lower(), old) for c, old in zip(columns, olds)]
        rows, _src = selected_rows(bridge, tree, view, ", ".join(olds + news), values)
        for row in rows:
            got = {f"old.{c.lower()}": v for c, v in zip(columns, row)}
            got.update({f"new.{c.lower()}": v for c, v in zip(columns, row[len(columns):])})
            self.fire(fired, "INSTEAD", got)
        return 0

    def execute(self, text: str, values: Sequence[Any]) -> tuple[int, int | None]:
        """Run marker SQL that changes rows on the server; (rowcount, lastrowid)."""
        conn = self.conn
        tr = sqlrun.translation(conn, text)
        driver_sql, returning = conn._with_rowid(tr)
        backend = conn._backend
        raw = backend.cursor()
        try:
            backend.execute(raw, driver_sql, sqlrun.driver_params(tr, values), returning_rowid=returning,
                            table=tr.table)
            if returning and raw.lastrowid is not None:
                conn._advance_identity(tr, raw)
            if tr.sets_rowid:
                conn._identity_past_updated(tr.table)
            return raw.rowcount, raw.lastrowid
        except sqlite3.IntegrityError as exc:
            raise self._integrity_error(text, values, exc) from None
        finally:
            raw.close()

    def insert_reading(self, text: str, values: Sequence[Any], table: "_Table") -> tuple[int, int | None, Any]:
        """issue 8: a one-row INSERT that also returns the row as :meth:`_Table.read`
        would read it (PostgreSQL: RETURNING, no second round trip); (rowcount,
        lastrowid, the row or ``None`` when it is to be read)."""
        conn = self.conn
        tr = sqlrun.translation(conn, text)
        driver_sql, returning = conn._with_rowid(tr)  # PostgreSQL: RETURNING gives the ids
        if not returning and tr.is_insert and not tr.returns_rows:
            returning = conn._backend.returns_inserted(tr.sql)
        listed = table.returned() if returning and not tr.upsert_update else None
        if listed is None:
            done, rowid = self.execute(text, values)
            return done, rowid, None
        backend = conn._backend
        raw = backend.cursor()
        try:
            backend.execute(raw, f"{tr.sql} RETURNING {listed}", sqlrun.driver_params(tr, values), table=tr.table)
            rows = raw.fetchall()
            if not rows:
                return 0, None, None
            row = rows[-1]
            rowid = row[table.rid_at]
            raw.lastrowid = raw.max_rowid = raw.min_rowid = rowid
            if backend.kind == "postgres":  # MySQL's AUTO_INCREMENT moves on by itself
                conn._advance_identity(tr, raw)
            return len(rows), rowid, row
        except sqlite3.IntegrityError as exc:
            raise self._integrity_error(text, values, exc) from None
        finally:
            raw.close()

    def _integrity_error(self, text: str, values: Sequence[Any], exc: Exception) -> Exception:
        """The constraint error of marker SQL as SQLite words it (errors/refine.py)."""
        from ..errors import refine

        named = {f"__hdb_p{i + 1}": v for i, v in enumerate(values)}
        return refine.integrity(self.conn, text, named, exc)

    def query(self, text: str, values: Sequence[Any]) -> list[tuple]:
        """Rows of marker SQL: in the shadow when it reads no table (SQLite's own
        expression semantics), else on the server."""
        tree = _parse(text)
        if tree.find(exp.Table) is None:
            return sqlrun.in_shadow(self.conn, text, values)
        return self.bridge.query(text, values)

    # -- firing -----------------------------------------------------------------

    def fire(self, fired: list[parsing.Trigger], timing: str, row: dict[str, object]) -> None:
        """Run the ``timing`` triggers for one row, newest first."""
        for trig in reversed(fired):
            if trig.timing != timing:
                continue
            self.stack.append(trig.name.lower())
            saved = self.conn._last_rowid
            try:
                if trig.when and not self._when(trig.when, row):
                    continue
                for stmt in trig.body:
                    self._body(stmt, row)
            finally:
                self.stack.pop()
                self.conn._last_rowid = saved

    def _when(self, when: str, row: dict[str, object]) -> bool:
        vals: list[object] = []
        text = parsing.bind_row(f"SELECT CASE WHEN ({when}) THEN 1 ELSE 0 END", row, vals)
        return bool(self.query(text, vals)[0][0])

    def _body(self, stmt: str, row: dict[str, object]) -> None:
        vals: list[object] = []
        text = parsing.bind_row(raising.quote_kinds(stmt), row, vals)
        tree = _parse(text)
        if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)):
            if tree.meta[_RAISES_IN_DML]:
                raise errors.not_supported("RAISE() inside INSERT/UPDATE/DELETE of a trigger body",
                                           self.conn._backend.dialect)
            self.statement(tree, vals)
            return
        marked, found = raising.mark(tree)  # transform() copies
        rows = self.query(marked.sql(dialect="sqlite"), vals)
        raising.check(rows, found)


def selected_rows(bridge: Any, tree: exp.Expression, relation: str, items: str, values: Sequence[Any],
                  order: bool = False) -> tuple[list[tuple], str]:
    """``items`` (SQLite text) of each row of ``relation`` an UPDATE's or DELETE's WITH
    and WHERE select (``order``: in the order of the items); (rows, the FROM source)."""
    alias = tree.this.alias
    src = qi(relation) + (f" AS {qi(alias)}" if alias else "")
    where = tree.args.get("where")
    cond = f" WHERE {where.this.sql(dialect='sqlite')}" if where is not None else ""
    ctes = tree.args.get("with_") or tree.args.get("with")
    head = ctes.sql(dialect="sqlite") + " " if ctes is not None else ""
    tail = f" ORDER BY {items}" if order else ""
    return bridge.query(f"{head}SELECT {items} FROM {src}{cond}{tail}", values), src

def _shape(shadow: Any, table: str) -> tuple[tuple[str, ...], str | None, bool, tuple[str, ...]]:
    """A table's columns (the hidden rowid last, if it has one), its rowid column,
    whether that rowid is the hidden one, and its key columns: from the shadow catalog."""
    cols = [c[0] for c in shadow.columns(table)]
    rid = shadow.rowid_column(table)
    implicit = rid is None and shadow.implicit_rowid(table)
    if implicit:  # the hidden rowid, read and written as SQLite's unquoted rowid
        rid = "rowid"
        cols.append(rid)
    if rid is not None:
        keys = [rid]
    else:
        with shadow.lock:
            keys = [r[0] for r in shadow.db.execute(
                "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (table,))]
    return tuple(cols), rid, implicit, tuple(keys)


class _Table:
    """Row-by-row DML on one table with triggers."""

    def __init__(self, runner: Runner, table: str) -> None:
        self.runner = runner
        self.conn = runner.conn
        self.table = table
        shadow = self.conn._shadow
        shapes = runner.bridge.table_shapes  # issue 8: the catalog asked once per table and schema
        key = (shadow.epoch, table.lower())
        shape = shapes.get(key)
        if shape is None:
            shape = _shape(shadow, table)
            if shape[1] is not None:  # no rowid may be a server probe's "cannot tell now": asked again
                if len(shapes) >= 256:
                    shapes.clear()
                shapes[key] = shape
        self.cols, self.rid, self.implicit, self.keys = shape
        if not self.keys:
            raise errors.not_supported(f"triggers or UPDATE OR … on table {table} (it has no rowid or PRIMARY KEY)",
                                       self.conn._backend.dialect)

    # -- rows -------------------------------------------------------------------

    def _q(self, column: str) -> str:
        """A column name as SQL text (the implicit rowid unquoted: see translate/passes/rowid.py)."""
        return column if self.implicit and column == self.rid else qi(column)

    def _key_where(self, qualifier: str, first: int) -> str:
        return " AND ".join(f"{qi(qualifier)}.{self._q(k)} = :__hdb_p{first + i}" for i, k in enumerate(self.keys))

    def _list_text(self) -> str:
        return f"SELECT {', '.join(self._q(c) for c in self.cols)} FROM {qi(self.table)}"

    def _read_text(self) -> str:
        return f"{self._list_text()} WHERE {self._key_where(self.table, 1)}"

    def read(self, key: Sequence[Any]) -> tuple | None:
        rows = sqlrun.run(self.conn, self._read_text(), list(key))[1]
        return rows[0] if rows else None

    @property
    def rid_at(self) -> int:
        return [c.lower() for c in self.cols].index(self.rid.lower())  # type: ignore[union-attr]

    def returned(self) -> str | None:
        """The server select list of :meth:`read`, for an INSERT's RETURNING (issue 8:
        once per read statement); None when the table has no rowid."""
        if self.rid is None:
            return None
        dialect = "postgres" if self.conn._backend.kind == "postgres" else "mysql"
        # MySQL: the select list alone (sqlglot's MySQL reader takes no %s markers)
        text = self._read_text() if dialect == "postgres" else self._list_text()
        read_sql = sqlrun.translation(self.conn, text).sql
        listed = _RETURNED.get(read_sql)
        if listed is None:
            tree = sqlglot.parse_one(read_sql, read=dialect)
            listed = ", ".join(e.sql(dialect=dialect) for e in tree.expressions)
            if len(_RETURNED) >= 256:
                _RETURNED.clear()
            _RETURNED[read_sql] = listed
        return listed

    def row(self, prefix: str, values: Sequence[Any]) -> dict[str, object]:
        out: dict[str, object] = {f"{prefix}.{c.lower()}": v for c, v in zip(self.cols, values)}
        if self.rid is not None:
            for name in _ROWID:
                out.setdefault(f"{prefix}.{name}", out[f"{prefix}.{self.rid.lower()}"])
        return out

    def key_of(self, values: Sequence[Any]) -> list[Any]:
        low = [c.lower() for c in self.cols]
        return [values[low.index(k.lower())] for k in self.keys]

    def _keys(self, tree: exp.Expression, values: Sequence[Any]) -> tuple[list[tuple], str]:
        qual = tree.this.alias or self.table
        keysel = ", ".join(f"{qi(qual)}.{self._q(k)}" for k in self.keys)
        return selected_rows(self.runner.bridge, tree, self.table, keysel, values, order=True)

    def _one_row(self, tree: exp.Expression, values: Sequence[Any], key: Sequence[Any]) -> tuple[str, list[Any]]:
        """``tree`` restricted to the row with ``key``: its text and values."""
        per = tree.copy()
        qual = tree.this.alias or self.table
        cond = sqlglot.parse_one(self._key_where(qual, len(values) + 1), read="sqlite")
        per.set("where", exp.Where(this=cond))
        ctes = per.args.get("with_")
        if ctes is not None:  # the CTEs chose the rows; keep them only if the SET reads them
            names = {c.alias_or_name.lower() for c in ctes.expressions}
            used = {t.name.lower() for e in per.expressions for t in e.find_all(exp.Table)}
            if not names & used:
                per.set("with_", None)
        per.set("order", None)
        per.set("limit", None)
        return per.sql(dialect="sqlite"), list(values) + list(key)

    # -- DELETE -------------------------------------------------------------------

    def delete(self, tree: exp.Delete, values: Sequence[Any], fired: list[parsing.Trigger]) -> int:
        runner = self.runner
        keys, _src = self._keys(tree, values)
        count = 0
        for key in keys:
            old = self.read(key)
            if old is None:
                continue  # a trigger already deleted it
            row = self.row("old", old)
            try:
                runner.fire(fired, "BEFORE", row)
            except IgnoreRow:
                continue
            text = f"DELETE FROM {qi(self.table)} WHERE {self._key_where(self.table, 1)}"
            done, _ = runner.execute(text, list(key))
            if done <= 0:
                continue
            count += 1
            runner.done[-1] += 1
            try:
                runner.fire(fired, "AFTER", row)
            except IgnoreRow:
                pass
        return count

    # -- UPDATE -------------------------------------------------------------------

    def update(self, tree: exp.Update, values: Sequence[Any], fired: list[parsing.Trigger]) -> int:
        runner = self.runner
        if any(isinstance(e.this, (exp.Tuple, exp.Paren)) for e in tree.expressions):
            tree = tree.copy()  # the cached parse stays as written
            row_assignments.split(tree)  # SET (a, b) = (x, y): a = x, b = y, as read below
        keys, src = self._keys(tree, values)
        if keys:
            tree, values = self._once(tree, values)
        sets = {e.this.name.lower(): e.expression for e in tree.expressions if isinstance(e, exp.EQ)}
        qual = tree.this.alias or self.table
        exprs = [sets[c.lower()].sql(dialect="sqlite") if c.lower() in sets else f"{qi(qual)}.{self._q(c)}"
                 for c in self.cols]
        key_moves = any(k.lower() in sets for k in self.keys) or (
            self.rid is not None and any(n in sets for n in _ROWID))
        if self.rid is not None:
            for name in _ROWID:
                if name in sets:
                    exprs[[c.lower() for c in self.cols].index(self.rid.lower())] = sets[name].sql(dialect="sqlite")
        before = any(t.timing == "BEFORE" for t in fired)
        algorithm = tree.meta.get(conflict_clause.META) if resolves_row_by_row(tree) else ""
        count = 0
        for key in keys:
            old = self.read(key)
            if old is None:
                continue
            row = self.row("old", old)
            new_key = list(key)
            if before or key_moves:
                where = self._key_where(qual, len(values) + 1)
                got = runner.bridge.query(f"SELECT {', '.join(exprs)} FROM {src} WHERE {where}",
                                          list(values) + list(key))
                if not got:
                    continue
                new_key = self.key_of(got[0])
                if before:
                    try:
                        runner.fire(fired, "BEFORE", {**row, **self.row("new", got[0])})
                    except IgnoreRow:
                        continue
                    if self.read(key) is None:
                        continue  # a BEFORE trigger deleted the row
            if algorithm:
                if not self._resolving(algorithm, tree, values, key, exprs, src):
                    continue  # UPDATE OR IGNORE skipped it
            else:
                text, vals = self._one_row(tree, values, key)
                done, _ = runner.execute(text, vals)
                if done <= 0 and self.read(new_key) is None:
                    continue
            count += 1
            runner.done[-1] += 1
            new = self.read(new_key)
            if new is None:
                continue
            try:
                runner.fire(fired, "AFTER", {**row, **self.row("new", new)})
            except IgnoreRow:
                pass
        return count

    def _once(self, tree: exp.Update, values: Sequence[Any]) -> tuple[exp.Update, Sequence[Any]]:
        """SQLite evaluates a SET's uncorrelated subquery once, before the first row
        changes; run row by row it would see the rows changed before it, so its value
        is taken now and bound as a parameter."""
        found = [q for e in tree.expressions for q in e.find_all(exp.Subquery)
                 if not isinstance(q.parent, exp.In) and self._uncorrelated(q)]
        if not found:
            return tree, values
        tree = tree.copy()
        found = [q for e in tree.expressions for q in e.find_all(exp.Subquery)
                 if not isinstance(q.parent, exp.In) and self._uncorrelated(q)]
        values = list(values)
        taken: list[exp.Expression] = []
        for query in found:
            if any(query is not t and t in _ancestors(query) for t in taken):
                continue  # inside one already taken
            rows = self.runner.bridge.query(f"SELECT {query.sql(dialect='sqlite')}", values)
            values.append(rows[0][0] if rows else None)
            query.replace(_marker(len(values)))
            taken.append(query)
        tree.meta.pop(sqlrun.SQLITE_TEXT, None)
        return tree, values

    def _uncorrelated(self, query: exp.Subquery) -> bool:
        """Whether ``query`` reads nothing of the row being updated: every column names
        one of its own tables (known to the catalog) or a column they have."""
        shadow = self.conn._shadow
        names = {t.name.lower() for t in query.find_all(exp.Table)}
        inner = {t.alias_or_name.lower() for t in query.find_all(exp.Table)}  # what its columns may name
        columns: set[str] = set(_ROWID)
        for name in names:
            if not shadow.has_table(name):
                return False  # a CTE or a view's columns: row by row, as before
            columns |= {c[0].lower() for c in shadow.columns(name)}
        for column in query.find_all(exp.Column):
            if (column.table.lower() not in inner) if column.table else (column.name.lower() not in columns):
                return False
        return True

    def _resolving(self, algorithm: str, tree: exp.Update, values: Sequence[Any], key: Sequence[Any],
                   exprs: list[str], src: str) -> bool:
        """One row's change under UPDATE OR <algorithm>, resolving a UNIQUE, NOT NULL
        or CHECK failure as SQLite does; False when IGNORE skipped the row.  (A failed
        attempt undid itself: on PostgreSQL each statement has its own savepoint.)"""
        for _attempt in range(_MAX_RESOLUTIONS):
            text, vals = self._one_row(tree, values, key)
            try:
                self.runner.execute(text, vals)
                return True
            except sqlite3.IntegrityError as exc:
                constraint = _resolvable(exc)
                if constraint is None:
                    raise
                if algorithm == "IGNORE":
                    return False
                if algorithm == "FAIL":
                    raise raising.failing(exc) from None
                if constraint == "UNIQUE" and self._delete_conflicts(tree, values, key, exprs, src):
                    continue  # REPLACE: the rows in the way are gone; try again
                patched = self._null_to_default(tree, exc) if constraint == "NOT NULL" else None
                if patched is None:
                    raise  # REPLACE acts as ABORT for CHECK, and for NOT NULL without a default
                tree = patched
        raise errors.operational(f"UPDATE OR {algorithm}: conflicts kept coming back")

    def _delete_conflicts(self, tree: exp.Update, values: Sequence[Any], key: Sequence[Any], exprs: list[str],
                          src: str) -> int:
        """REPLACE: delete the other rows holding the new row's value of a unique key
        (no DELETE triggers fire, as with recursive_triggers off); how many went."""
        runner = self.runner
        where = self._key_where(tree.this.alias or self.table, len(values) + 1)
        got = runner.bridge.query(f"SELECT {', '.join(exprs)} FROM {src} WHERE {where}", list(values) + list(key))
        if not got:
            return 0
        new = {c.lower(): v for c, v in zip(self.cols, got[0])}
        deleted = 0
        for cols, predicate, _pk in unique_keys_of(self.conn._shadow, self.table):
            if any(c is None or c.lower() not in new or new[c.lower()] is None for c in cols):
                continue  # an expression index, or a NULL (never equal to another)
            cond = [f"{qi(c)} = :__hdb_p{i + 1}" for i, c in enumerate(cols)]
            if predicate is not None:
                cond.append(f"({predicate.sql(dialect='sqlite')})")
            cond.append(f"NOT ({self._key_where(self.table, len(cols) + 1)})")
            done, _ = runner.execute(f"DELETE FROM {qi(self.table)} WHERE {' AND '.join(cond)}",
                                     [new[c.lower()] for c in cols] + list(key))
            deleted += max(done, 0)
        return deleted

    def _null_to_default(self, tree: exp.Update, exc: Exception) -> exp.Update | None:
        """REPLACE on NOT NULL: the column's DEFAULT where its new value is NULL (None:
        no default, or not a column this UPDATE sets)."""
        column = str(exc).rsplit(".", 1)[-1].lower()
        with self.conn._shadow.lock:
            found = self.conn._shadow.db.execute(
                "SELECT dflt_value FROM pragma_table_info(?) WHERE lower(name) = ?", (self.table, column)).fetchone()
        if found is None or found[0] is None:
            return None
        patched = tree.copy()
        for eq in patched.expressions:
            if isinstance(eq, exp.EQ) and eq.this.name.lower() == column:
                default = sqlglot.parse_one(found[0], read="sqlite")
                eq.set("expression", exp.Coalesce(this=eq.expression, expressions=[default]))
                patched.meta.pop(sqlrun.SQLITE_TEXT, None)
                return patched
        return None

    # -- INSERT -------------------------------------------------------------------

    def _defaults(self) -> dict[str, object]:
        """Each column's DEFAULT as SQLite evaluates it (for BEFORE INSERT's new.x)."""
        shadow = self.conn._shadow
        out: dict[str, object] = {}
        with shadow.lock:
            for name, default in shadow.db.execute(
                "SELECT name, dflt_value FROM pragma_table_info(?)", (self.table,)
            ).fetchall():
                value = None
                if default is not None:
                    try:
                        value = shadow.db.execute(f"SELECT {default}").fetchone()[0]
                    except sqlite3.Error:
                        value = None
                out[name.lower()] = value
        return out

    def insert(self, tree: exp.Insert, values: Sequence[Any], fired: list[parsing.Trigger]) -> tuple[int, int | None]:
        runner = self.runner
        conflict = tree.args.get("conflict")
        if conflict is not None and conflict.args.get("action") is not None and \
                "UPDATE" in str(conflict.args.get("action")).upper():
            raise errors.not_supported("UPSERT (ON CONFLICT DO UPDATE) on a table with triggers",
                                       self.conn._backend.dialect)
        target = tree.this
        names = [i.name.lower() for i in target.expressions] if isinstance(target, exp.Schema) else \
            [c.lower() for c in self.cols if not (self.implicit and c == self.rid)]
        source = tree.expression
        before = any(t.timing == "BEFORE" for t in fired)
        need_values = before or self.rid is None
        # (tree for one row, its values, its source values if known)
        rows: list[tuple[exp.Insert, list[Any], tuple | None]] = []
        if isinstance(source, exp.Values) and len(source.expressions) == 1:
            rows.append((tree, list(values), None))  # issue 8: the statement as parsed, no copy
        elif isinstance(source, exp.Values):
            for tup in source.expressions:
                per = tree.copy()
                per.set("expression", exp.Values(expressions=[tup.copy()]))
                rows.append((per, list(values), None))
        elif source is None:
            rows.append((tree, list(values), ()))
        else:
            got = runner.bridge.query(source.sql(dialect="sqlite"), values)
            for src_row in got:
                per = tree.copy()
                marks = [_marker(len(values) + 1 + i) for i in range(len(src_row))]
                per.set("expression", exp.Values(expressions=[exp.Tuple(expressions=marks)]))
                rows.append((per, list(values) + list(src_row), tuple(src_row)))
        defaults = self._defaults() if need_values else {}
        count, last = 0, None
        for per, vals, src_row in rows:
            new_row: dict[str, object] | None = None
            if need_values:
                if src_row is None:
                    src_row = tuple(writes.source_rows(runner.bridge, per.expression, vals)[0])
                given = dict(zip(names, src_row))
                full = [given[c.lower()] if c.lower() in given else defaults.get(c.lower()) for c in self.cols]
                if self.rid is not None:
                    ri = [c.lower() for c in self.cols].index(self.rid.lower())
                    explicit = next((given[n] for n in (self.rid.lower(), *_ROWID) if n in given), None)
                    full[ri] = explicit if explicit is not None else -1
                new_row = self.row("new", full)
                if before:
                    try:
                        runner.fire(fired, "BEFORE", new_row)
                    except IgnoreRow:
                        continue
            text = per.meta.get(sqlrun.SQLITE_TEXT) if per is tree else None  # issue 8: not generated again
            text = text or per.sql(dialect="sqlite")
            new = None
            if self.rid is not None and not tree.this.alias:
                done, rowid, new = runner.insert_reading(text, vals, self)
            else:
                done, rowid = runner.execute(text, vals)
            if done <= 0:
                continue  # INSERT OR IGNORE skipped it
            count += 1
            runner.done[-1] += 1
            if self.rid is not None:
                key = [rowid]
                last = rowid
                self.conn._last_rowid = rowid
            else:
                assert new_row is not None
                key = [new_row[f"new.{k.lower()}"] for k in self.keys]
            if new is None:
                new = self.read(key)
            if new is None:
                continue
            try:
                runner.fire(fired, "AFTER", self.row("new", new))
            except IgnoreRow:
                pass
        return count, last


def _ancestors(node: exp.Expression) -> list[exp.Expression]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


_MAX_RESOLUTIONS = 16  # REPLACE: one retry per unique key in the way (and one per NOT NULL column)


def resolves_row_by_row(tree: exp.Expression) -> bool:
    """An UPDATE OR IGNORE / REPLACE / FAIL: run row by row, each conflict resolved."""
    return isinstance(tree, exp.Update) and tree.meta.get(conflict_clause.META) in conflict_clause.ROW_BY_ROW


def _resolvable(exc: Exception) -> str | None:
    """The constraint an UPDATE OR <algorithm> resolves (a FOREIGN KEY failure it does not)."""
    text = str(exc)
    for constraint in ("UNIQUE", "NOT NULL", "CHECK"):
        if text.startswith(constraint + " constraint failed"):
            return constraint
    return None


def _rolls_back(tree: exp.Expression) -> bool:
    if isinstance(tree, exp.Insert):
        return (tree.args.get("alternative") or "").upper() == "ROLLBACK"
    return tree.meta.get(conflict_clause.META) == "ROLLBACK"


def check_compiles(bridge: "FtsBridge", sql: str, tree: exp.Expression) -> None:
    """SQLite compiles the triggers a statement fires when it prepares it: a body
    naming a table that is gone fails the statement, whether or not a row fires
    them, with SQLite's message ("no such table: main.u"; unqualified in a TEMP
    trigger).  The schema's SQLite copy compiles ``sql`` (``tree`` read) once per
    text and schema, before the implicit BEGIN (sqlite3 prepares first: a failed
    statement opens no transaction)."""
    shadow = bridge.conn._shadow
    key = (shadow.epoch, sql)
    if key in bridge.compiled or not Runner(bridge).fired(tree):
        return
    problem = maintenance.compile_error(bridge.conn, sql)
    if problem is not None and str(problem).startswith("no such table"):
        raise errors.operational(str(problem))
    if len(bridge.compiled) > 512:  # statements with literals in them: keep it small
        bridge.compiled.clear()
    bridge.compiled.add(key)


def run_statement(bridge: "FtsBridge", tree: exp.Expression, values: Sequence[Any]) -> tuple[int, int | None]:
    """A top-level statement with its triggers, atomic as in SQLite: an error undoes
    the whole statement (RAISE(FAIL) keeps the rows done before it; RAISE(ROLLBACK)
    ends the transaction)."""
    conn = bridge.conn
    backend = conn._backend
    own = not backend.in_transaction
    if own:
        backend.begin("DEFERRED")
    else:
        backend.savepoint("SAVEPOINT", "hermes_trg", lazy=True)  # issue 8: sent with the first statement
    runner = Runner(bridge)
    try:
        result = runner.statement(tree, values)
        backend.statement_done(result[1])  # deferred writes settle while the savepoint can undo them
    except BaseException as exc:
        kind = exc.kind if isinstance(exc, raising.TriggerRaise) else "ABORT"
        if kind == "ABORT" and isinstance(exc, sqlite3.IntegrityError) and _rolls_back(tree):
            kind = "ROLLBACK"  # INSERT/UPDATE OR ROLLBACK: the transaction ends with the statement
        conn._changes = 0  # changes(): a failed statement changed nothing, as SQLite counts it
        if kind == "FAIL":
            conn._total_changes += runner.first_done
            conn._changes = runner.first_done  # OR FAIL / RAISE(FAIL): the rows before it stay, and count
            backend.commit() if own else backend.savepoint("RELEASE SAVEPOINT", "hermes_trg")
        elif kind == "ROLLBACK" and not own:
            conn._tx.rollback()
            conn._after_transaction_end(rolled_back=True)
        elif own:
            backend.rollback()
        else:
            backend.savepoint("ROLLBACK TO SAVEPOINT", "hermes_trg")
            backend.savepoint("RELEASE SAVEPOINT", "hermes_trg")
        if isinstance(exc, raising.TriggerRaise):
            raise exc.error from None
        raise
    if own:
        backend.commit()
    else:
        backend.savepoint("RELEASE SAVEPOINT", "hermes_trg", lazy=True)  # issue 8: sent with the next one
    return result
