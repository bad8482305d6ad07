"""FTS5 sync triggers run by PostgreSQL itself (issue 8).

The triggers an application writes to keep an external-content FTS5 table in
step with its table (``AFTER INSERT ON messages BEGIN INSERT INTO
messages_fts(rowid, content) VALUES (new.id, new.content); END`` and the
'delete' ones) cost the shim a statement's worth of work per row: the row read
back, the text tokenized, three index writes sent.  Where a trigger is only
such writes, and its FTS table and columns are ones the server can index
exactly as the shim does (the default ``unicode61`` tokenizer, ``detail=full``,
external content, text or integer columns), it is also made a PostgreSQL
trigger whose function writes the same rows (``helpers/pg_fts_index.py``);
the shim then leaves the table's statements to the server.

* Every trigger on a table is native or none is (their order and the row
  reads stay the shim's otherwise), and a table has one per event at most.
* A native trigger acts only for a connection that says so
  (``hdb.native_triggers`` = :data:`GENERATION`, which this version sets at
  connect): one of another version, which runs the trigger itself, is left alone.
* A statement that resolves conflicts by REPLACE deletes rows without firing
  delete triggers in SQLite; the shim runs it with the native triggers off
  (:func:`off`) and its own engine on.
* Which triggers are native is the server's catalog (``pg_trigger``): the shim
  reads it when its catalog changes, and :func:`sync` makes it match the
  triggers after each DDL that can change them.  The names carry a digest of
  the code, so a renamed column or table makes a new trigger.

The native writes are not counted in ``total_changes`` (FTS5 counts its own
shadow-table rows there, which neither the shim nor the server has).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ...backends.postgres import NAMESPACE_OID, NATIVE_TRIGGERS
from .spec import FtsSpec
from .storage import Storage
from .triggers import Trigger

if TYPE_CHECKING:
    from .bridge import FtsBridge

PREFIX = "hdb_native_"
SETTING, GENERATION = NATIVE_TRIGGERS  # GENERATION: the value this version's native triggers act for
_ROWID_NAMES = ("rowid", "oid", "_rowid_")
_TEXT_TYPES = ("text",)
_INTEGER_TYPES = ("bigint", "integer", "smallint")
_PRESENT_SQL = (
    "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    f"WHERE c.relnamespace = {NAMESPACE_OID} AND t.tgname LIKE 'hdb\\_native\\_%%'"
)
_FUNCTIONS_SQL = (
    f"SELECT proname FROM pg_proc WHERE pronamespace = {NAMESPACE_OID} "
    "AND proname LIKE 'hdb\\_native\\_%%'"
)
_COLUMNS_SQL = (
    "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_class c "
    "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
    f"WHERE c.relnamespace = {NAMESPACE_OID} AND c.relkind = 'r' AND lower(c.relname) = lower(%s)"
)


@dataclass(frozen=True)
class Write:
    """One statement of a trigger body: index (or, ``delete``, unindex) a row of
    ``storage``'s FTS table; ``rowid`` and ``values`` are server expressions
    (``NEW."id"``; a value per FTS column, None for one not given)."""

    storage: Storage
    delete: bool
    rowid: str
    values: tuple[str | None, ...]


@dataclass(frozen=True)
class Native:
    """A trigger made native: its server name and the DDL that makes it."""

    trigger: str  # the SQLite trigger's name
    name: str
    table: str  # the server's name of its table
    ddl: tuple[str, ...]


def eligible_spec(spec: FtsSpec, storage: Storage) -> bool:
    """An FTS table whose rows the server indexes exactly as the shim does."""
    tokenize = (spec.tokenize or "unicode61").split()
    return (
        spec.content not in (None, "")
        and spec.detail == "full"
        and tokenize in (["unicode61"], ["unicode61", "remove_diacritics", "1"])
        and storage.counted()
    )


def plan(bridge: "FtsBridge", trigger: Trigger, columns: dict[str, tuple[str, str]]) -> list[Write] | None:
    """The writes of ``trigger``'s body, or None when it is not only FTS writes the
    server can make (``columns``: the table's columns, lower name -> (server name, type))."""
    if trigger.timing != "AFTER" or trigger.when:
        return None
    rowid_column = bridge.conn._shadow.rowid_column(trigger.table)
    out = []
    for text in trigger.body:
        try:
            tree = sqlglot.parse_one(text, read="sqlite")
        except sqlglot.errors.ParseError:
            return None
        write = _write(bridge, trigger, tree, columns, rowid_column)
        if write is None:
            return None
        out.append(write)
    return out or None


def _write(bridge: "FtsBridge", trigger: Trigger, tree: exp.Expression, columns: dict[str, tuple[str, str]],
           rowid_column: str | None) -> Write | None:
    if not isinstance(tree, exp.Insert) or tree.args.get("alternative") or tree.args.get("conflict") \
            or tree.args.get("returning") or not isinstance(tree.this, exp.Schema):
        return None
    spec = bridge.specs.get(tree.this.this.name.lower())
    source = tree.expression
    if spec is None or not isinstance(source, exp.Values) or len(source.expressions) != 1:
        return None
    storage = bridge.storage(spec)
    if not eligible_spec(spec, storage):
        return None
    names = [c.name.lower() for c in tree.this.expressions]
    row = source.expressions[0]
    cells = list(row.expressions) if isinstance(row, exp.Tuple) else [row]
    if len(names) != len(cells) or len(set(names)) != len(names):
        return None
    delete = bool(names) and names[0] == spec.name.lower()
    if delete:
        command = cells[0]
        if not (isinstance(command, exp.Literal) and command.is_string and command.this == "delete"):
            return None
        names, cells = names[1:], cells[1:]
    if not names or names[0] not in _ROWID_NAMES:
        return None
    side = "old" if delete else "new"
    rowid = _reference(trigger, cells[0], columns, rowid_column, _INTEGER_TYPES, side, as_text=False)
    values: list[str | None] = [None] * len(spec.columns)
    for name, cell in zip(names[1:], cells[1:]):
        at = spec.column_index(name)
        if at is None:
            return None
        values[at] = _reference(trigger, cell, columns, rowid_column, _TEXT_TYPES + _INTEGER_TYPES, side,
                                as_text=True)
        if values[at] is None:
            return None
    if rowid is None:
        return None
    return Write(storage, delete, rowid, tuple(values))


def _reference(trigger: Trigger, cell: exp.Expression, columns: dict[str, tuple[str, str]],
               rowid_column: str | None, types: tuple[str, ...], side: str, as_text: bool) -> str | None:
    """``new.x`` / ``old.x`` (the side a write of that kind reads) as a server expression
    (``as_text``: cast to text unless it is), or None."""
    if not isinstance(cell, exp.Column) or cell.table.lower() != side:
        return None
    if (side == "new" and trigger.event == "DELETE") or (side == "old" and trigger.event == "INSERT"):
        return None
    name = cell.name.lower()
    if name in _ROWID_NAMES and name not in columns:
        if rowid_column is None:
            return None
        name = rowid_column.lower()
    found = columns.get(name)
    if found is None or found[1] not in types:
        return None
    ref = f'{side.upper()}.{_quote(found[0])}'
    return f"{ref}::text" if as_text and found[1] != "text" else ref


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _body(write: Write) -> str:
    """The plpgsql of one write: the rows ``storage`` writes for it (``Storage.insert_rows``,
    ``Storage.delete_values``), the tokens of column ``i`` in ``w<i>``."""
    s = write.storage
    indexed = [i for i, v in enumerate(write.values) if v is not None and i not in s.spec.unindexed]
    setup = "".join(f"  w{i} := hdb_u61_terms({write.values[i]});\n" if i in indexed else f"  w{i} := '{{}}';\n"
                    for i in range(len(write.values)))
    setup += "  sizes := ARRAY[" + ", ".join(f"cardinality(w{i})" for i in range(len(write.values))) + "];\n"
    setup += "  total := " + " + ".join(f"sizes[{i + 1}]" for i in range(len(write.values))) + ";\n"
    tokens = " UNION ALL ".join(
        f"SELECT tok, ({i}::bigint << 32) + o - 1 AS p FROM unnest(w{i}) WITH ORDINALITY AS u(tok, o)" for i in indexed
    ) or "SELECT NULL::text AS tok, 0::bigint AS p WHERE false"
    # a token's bytes: hdb_fts_raw only for one that may pass FTS5's 32,768 bytes
    raw = "CASE WHEN length(tok) <= 8192 THEN convert_to(tok, 'UTF8') ELSE hdb_fts_raw(tok) END"
    keyed = f"SELECT {raw} AS raw, p FROM ({tokens}) AS s"
    key = "CASE WHEN octet_length(raw) <= 480 THEN raw ELSE substring(raw FROM 1 FOR 480) || hdb_sha1(raw) END"
    if write.delete:
        return setup + (
            f"  DELETE FROM {s.idx} WHERE id = {write.rowid} AND term = ANY(ARRAY(SELECT DISTINCT {key} FROM ({keyed}) AS k));\n"
            f"  DELETE FROM {s.docsize} WHERE id = {write.rowid};\n"
            f"  IF EXISTS (SELECT 1 FROM {s.data} WHERE id = 1 AND (nrow < 1 OR ntoken < total)) THEN\n"
            f"    RAISE EXCEPTION 'database disk image is malformed' USING ERRCODE = 'XX001';\n"
            f"  END IF;\n"
            f"  UPDATE {s.data} SET nrow = nrow - 1, ntoken = ntoken - total WHERE id = 1;\n"
        )
    one_byte = " || ".join(f"set_byte('\\x00'::bytea, 0, sizes[{i + 1}])" for i in range(len(write.values)))
    sizes = f"CASE WHEN total < 128 THEN {one_byte} ELSE hdb_varints(sizes) END"
    postings = (f"INSERT INTO {s.idx} AS x (term, id, full_term, pos)\n"
                f"      SELECT {key}, {write.rowid}, CASE WHEN octet_length(raw) > 480 THEN raw END,\n"
                f"             string_agg(p::text, ',' ORDER BY p) FROM ({keyed}) AS k GROUP BY raw")
    size = f"INSERT INTO {s.docsize} (id, sz, total) VALUES ({write.rowid}, {sizes}, total)"
    # a rowid indexed before (external content may index one twice): FTS5 keeps both, as the
    # shim's upserts do; a new one, the usual, is plain INSERTs (no speculative insertion)
    return setup + (
        f"  IF EXISTS (SELECT 1 FROM {s.idx} WHERE id = {write.rowid}) OR EXISTS (SELECT 1 FROM {s.docsize} WHERE id = {write.rowid}) THEN\n"
        f"    {postings}\n      ON CONFLICT (term, id) DO UPDATE SET pos = x.pos || ',' || EXCLUDED.pos;\n"
        f"    {size}\n      ON CONFLICT (id) DO UPDATE SET sz = EXCLUDED.sz, total = EXCLUDED.total;\n"
        f"  ELSE\n    {postings};\n    {size};\n  END IF;\n"
        f"  UPDATE {s.data} SET nrow = nrow + 1, ntoken = ntoken + total WHERE id = 1;\n"
    )


def native(trigger: Trigger, table: str, of: Sequence[str], writes: Sequence[Write]) -> Native:
    """The server trigger (and its function) doing ``writes`` for each row of ``table``
    (``of``: the server names of an UPDATE OF's columns)."""
    width = max(len(w.values) for w in writes)
    declare = "".join(f"  w{i} text[];\n" for i in range(width)) + "  sizes int[];\n  total bigint;\n"
    event = trigger.event + (" OF " + ", ".join(_quote(c) for c in of) if of else "")
    function = (
        "CREATE OR REPLACE FUNCTION @NAME@() RETURNS trigger LANGUAGE plpgsql AS $hdb$\n"
        f"DECLARE\n{declare}BEGIN\n"
        f"  IF current_setting('{SETTING}', true) IS DISTINCT FROM '{GENERATION}' THEN\n    RETURN NULL;\n  END IF;\n"
        + "".join(_body(w) for w in writes) + "  RETURN NULL;\nEND $hdb$"
    )
    make = f"CREATE OR REPLACE TRIGGER @NAME@ AFTER {event} ON {_quote(table)} FOR EACH ROW EXECUTE FUNCTION @NAME@()"
    name = PREFIX + hashlib.sha1((function + make).encode()).hexdigest()[:24]
    return Native(trigger.name, name, table, (function.replace("@NAME@", name), make.replace("@NAME@", name)))


def wanted(bridge: "FtsBridge", main: Sequence[Trigger]) -> dict[str, Native]:
    """The native form of each of ``main`` (the main schema's triggers) that has one,
    by trigger name (lower case): every trigger of its table qualifies, one per event."""
    by_table: dict[str, list[Trigger]] = {}
    for trigger in main:
        by_table.setdefault(trigger.table.lower(), []).append(trigger)
    out: dict[str, Native] = {}
    for table, triggers in by_table.items():
        if not any(set(t.targets) & set(bridge.specs) for t in triggers):
            continue
        if len({t.event for t in triggers}) != len(triggers):
            continue
        columns = _columns(bridge, table)
        if columns is None:
            continue
        made = []
        for trigger in triggers:
            writes = plan(bridge, trigger, columns[1])
            if writes is None or not set(trigger.of) <= set(columns[1]):
                break
            of = [columns[1][c][0] for c in trigger.of]
            made.append(native(trigger, columns[0], of, writes))
        else:
            out.update({n.trigger.lower(): n for n in made})
    return out


def _columns(bridge: "FtsBridge", table: str) -> tuple[str, dict[str, tuple[str, str]]] | None:
    """The server's name of ``table`` and its columns (lower name -> (name, type)), or None."""
    rows = bridge.conn._backend.query(_COLUMNS_SQL, (table,))
    if len({r[0] for r in rows}) != 1:
        return None
    return rows[0][0], {r[1].lower(): (r[1], r[2]) for r in rows}


def present(backend: Any) -> set[str]:
    """The native triggers the server has."""
    return {row[0] for row in backend.query(_PRESENT_SQL)}


def usable(backend: Any) -> bool:
    """A backend whose server can run native triggers: PostgreSQL 14+ (CREATE OR REPLACE
    TRIGGER) with this version's helpers, in a UTF-8 database (the tokenizer's classes)."""
    return (backend.kind == "postgres" and backend.helpers_current and backend.server_version >= (14,)
            and backend.conn.info.parameter_status("server_encoding") == "UTF8")


def sync(bridge: "FtsBridge", main: Sequence[Trigger]) -> None:
    """Make the server's native triggers those of ``main`` (inside the caller's
    transaction): new ones made, gone or changed ones dropped with their functions."""
    backend = bridge.conn._backend
    if not usable(backend) or getattr(backend, "read_only", False):
        return
    want = {n.name: n for n in wanted(bridge, main).values()}
    have = present(backend)
    functions = {row[0] for row in backend.query(_FUNCTIONS_SQL)}
    for name in have - set(want):
        table = backend.query("SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                              f"WHERE t.tgname = %s AND c.relnamespace = {NAMESPACE_OID}", (name,))
        for (relname,) in table:
            backend.query(f"DROP TRIGGER IF EXISTS {name} ON {_quote(relname)}")
    for name in functions - set(want):
        backend.query(f"DROP FUNCTION IF EXISTS {name}()")
    for name, made in want.items():
        if name not in have:
            for ddl in made.ddl:
                backend.query(ddl)


@contextmanager
def off(backend: Any) -> Iterator[None]:
    """The native triggers off for this connection meanwhile (the shim runs them)."""
    backend.query(f"SELECT set_config('{SETTING}', 'off', false)")
    try:
        yield
    finally:
        try:
            backend.query(f"SELECT set_config('{SETTING}', '{GENERATION}', false)")
        except Exception:  # noqa: BLE001 - a failed transaction: its rollback sets it back
            pass
