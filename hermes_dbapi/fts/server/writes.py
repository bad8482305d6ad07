"""INSERT, UPDATE and DELETE on an FTS table, and FTS5's command rows.

Values are computed the way SQLite would (constants in the shadow SQLite,
anything reading tables on the server), tokenized here, and written to the
server tables in the application's transaction.  UPDATE and DELETE find
their rows with the same query path as SELECT (so ``WHERE t MATCH ?`` works).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from ... import errors
from ..._stdlib import sqlite3
from ..sqlvalues import value_int
from . import integrity, sqlrun
from .select import ROWID_NAMES, constant
from .spec import FtsSpec
from .storage import Storage

if TYPE_CHECKING:
    from .bridge import FtsBridge

_NOOPS = {"optimize", "merge", "automerge", "crisismerge", "usermerge", "pgsz",
          "secure-delete", "deletemerge", "rank"}


def _logic_error() -> sqlite3.Error:
    return errors.operational("SQL logic error")


def source_rows(bridge: "FtsBridge", source: exp.Expression, values: Sequence[Any]) -> list[tuple]:
    """The rows of an INSERT's VALUES or SELECT, with SQLite's semantics."""
    conn = bridge.conn
    if isinstance(source, exp.Values):
        rows = []
        for tup in source.expressions:
            items = list(tup.expressions) if isinstance(tup, exp.Tuple) else [tup]
            if all(isinstance(e, (exp.Placeholder, exp.Literal, exp.Null)) for e in items):
                rows.append(tuple(constant(e, values, conn) for e in items))
            elif any(e.find(exp.Column, exp.Select) is not None for e in items):
                text = "SELECT " + ", ".join(e.sql(dialect="sqlite") for e in items)
                rows.extend(bridge.query(text, values))
            else:
                text = "SELECT " + ", ".join(e.sql(dialect="sqlite") for e in items)
                rows.extend(sqlrun.in_shadow(conn, text, values))
        return rows
    return bridge.query(source.sql(dialect="sqlite"), values)


def insert(bridge: "FtsBridge", tree: exp.Insert, spec: FtsSpec, values: Sequence[Any],
           rows: Sequence[tuple] | None = None) -> tuple[int, int | None]:
    """Index the INSERT's rows (``rows``: already computed, for executemany)."""
    storage = bridge.storage(spec)
    target = tree.this
    names = [i.name for i in target.expressions] if isinstance(target, exp.Schema) else list(spec.columns)
    replace = (tree.args.get("alternative") or "").upper() == "REPLACE"
    count, last = 0, None
    pending: list[tuple[int, list[Any]]] = []
    queued: set[int] = set()  # rowids in ``pending``
    top: int | None = None  # the table's largest rowid, read once, then kept up to date
    source = source_rows(bridge, tree.expression, values) if rows is None else rows
    rowid_at = next((i for i, n in enumerate(names) if n.lower() in ROWID_NAMES
                     and spec.column_index(n.lower()) is None), None)
    stored = _stored_rowids(storage, source, rowid_at) if spec.contentful and len(source) > 1 else None
    for row in source:
        command, rowid, rank, cols = None, None, None, [None] * len(spec.columns)
        for name, value in zip(names, row):
            low = name.lower()
            idx = spec.column_index(low)
            if idx is not None:
                cols[idx] = value
            elif low == spec.name.lower():
                command = value
            elif low in ROWID_NAMES:
                rowid = value
            elif low == "rank":
                rank = value
        if rowid is not None and not isinstance(rowid, int):
            try:
                rowid = int(str(rowid))
            except ValueError:
                raise errors.make(sqlite3.IntegrityError, "datatype mismatch", "SQLITE_MISMATCH") from None
        count += 1
        if command is not None:
            storage.insert_rows(pending)
            pending, queued, top, stored = [], set(), None, None
            _command(bridge, storage, str(command), rowid, rank, cols)
            last = 0
            continue
        if rowid is None:
            if top is None:
                top = max([storage.max_rowid(), *queued])
            rowid = top + 1
        if spec.contentful and (rowid in queued or (rowid in stored if stored is not None
                                                    else storage.has_rowid(rowid))):
            if not replace:
                raise errors.make(sqlite3.IntegrityError, "constraint failed", "SQLITE_CONSTRAINT")
            storage.insert_rows(pending)
            pending, queued = [], set()
            storage.delete_rows([rowid])
            if stored is not None:
                stored.discard(rowid)
        if top is not None:
            top = max(top, rowid)
        pending.append((rowid, cols))
        queued.add(rowid)
        last = rowid
    storage.insert_rows(pending)
    return count, last


def _stored_rowids(storage: Storage, rows: Sequence[tuple], at: int | None) -> set[int]:
    """Which of the rows' explicit rowids the table already holds (one query)."""
    wanted = set()
    for row in rows:
        value = row[at] if at is not None and at < len(row) else None
        try:
            wanted.add(int(value if isinstance(value, int) else str(value)))
        except (TypeError, ValueError):
            continue
    return storage.existing(sorted(wanted)) if wanted and at is not None else set()


def _command(bridge: "FtsBridge", storage: Storage, command: str, rowid: int | None, rank: Any = None,
             values: Sequence[Any] = ()) -> None:
    spec = storage.spec
    name = command.lower()
    if name == "delete":
        if spec.contentful or rowid is None:
            raise _logic_error()
        storage.delete_values(rowid, values)
    elif name == "delete-all":
        if spec.contentful:
            raise errors.operational("'delete-all' may only be used with a contentless or external content fts5 table")
        storage.delete_all()
    elif name == "rebuild":
        if spec.content == "":
            raise errors.operational("'rebuild' may not be used with a contentless fts5 table")
        rebuild(bridge, storage)
    elif name == "integrity-check":
        with_content = spec.contentful or (bool(spec.content) and value_int(rank) == 1)
        integrity.check(storage, content_rows(bridge, storage) if with_content else None)
    elif name == "flush":
        if not bridge.conn._backend.in_transaction:
            raise _logic_error()
    elif name not in _NOOPS:
        raise _logic_error()


def rebuild(bridge: "FtsBridge", storage: Storage) -> None:
    """Re-index every row of the content (FTS5's 'rebuild')."""
    rows = content_rows(bridge, storage)
    storage.delete_all()
    for start in range(0, len(rows), 200):
        storage.insert_rows(rows[start : start + 200])


def content_rows(bridge: "FtsBridge", storage: Storage) -> list[tuple[int, list[Any]]]:
    """``(rowid, values)`` of every row of the table's content (own or external)."""
    spec = storage.spec
    if spec.contentful:
        return [(r, list(v)) for r, v in storage.contents(None).items()]
    key = spec.content_rowid if spec.content_rowid.lower() in ROWID_NAMES else _qi(spec.content_rowid)
    cols = ", ".join(_qi(c) for c in spec.columns)
    text = f"SELECT {key}, {cols} FROM {_qi(spec.content)}"
    return [(int(r[0]), list(r[1:])) for r in bridge.query(text, ())]


def _qi(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _where_sql(tree: exp.Expression) -> str:
    where = tree.args.get("where")
    return f" WHERE {where.this.sql(dialect='sqlite')}" if where is not None else ""


def delete(bridge: "FtsBridge", tree: exp.Delete, spec: FtsSpec, values: Sequence[Any]) -> int:
    alias = tree.this.alias or spec.name
    text = f"SELECT {_qi(alias)}.rowid FROM {_qi(spec.name)} AS {_qi(alias)}{_where_sql(tree)}"
    rowids = [int(r[0]) for r in bridge.query(text, values)]
    bridge.storage(spec).delete_rows(rowids)
    return len(rowids)


def update(bridge: "FtsBridge", tree: exp.Update, spec: FtsSpec, values: Sequence[Any]) -> tuple[int, int | None]:
    """Re-index the rows the UPDATE selects; (rows, the last one's rowid: FTS5 re-inserts
    each, which sets the connection's last insert rowid as an INSERT does)."""
    alias = tree.this.alias or spec.name
    sets: dict[str, exp.Expression] = {}
    for eq in tree.expressions:
        sets[eq.this.name.lower()] = eq.expression
    exprs = ["rowid"]
    new_rowid = next((sets[n] for n in ROWID_NAMES if n in sets), None)
    exprs.append(new_rowid.sql(dialect="sqlite") if new_rowid is not None else "rowid")
    for col in spec.columns:
        e = sets.get(col.lower())
        exprs.append(e.sql(dialect="sqlite") if e is not None else _qi(col))
    text = f"SELECT {', '.join(exprs)} FROM {_qi(spec.name)} AS {_qi(alias)}{_where_sql(tree)}"
    rows = bridge.query(text, values)
    storage = bridge.storage(spec)
    storage.delete_rows([int(r[0]) for r in rows])
    storage.insert_rows([(int(r[1]), list(r[2:])) for r in rows])
    return len(rows), (int(rows[-1][1]) if rows else None)
