"""BLOB values written to columns whose server type cannot hold one.

SQLite stores a blob in any column of an ordinary table: TEXT, INTEGER, REAL
and NUMERIC affinity leave blobs alone, and a column declared without a type
keeps every value's class.  On the servers only a BLOB column is binary
(``bytea``, ``LONGBLOB``): PostgreSQL turns a blob assigned to a ``text`` column
into its ``\\x78`` escape text, MariaDB into the text of its bytes (or refuses
them), and both refuse one for a number column in their own words.  So the
shim refuses the blob, before anything is written, with

* SQLite's own error where SQLite refuses it too: "datatype mismatch" for the
  rowid, "cannot store BLOB value in INTEGER column t.n" in a STRICT table;
* NotSupportedError naming the column where SQLite would keep it.

A blob the statement spells (``X'78'``, ``zeroblob(n)``, ``CAST(… AS BLOB)``) is
refused when translated; a bound parameter once its value is known
(``ctx.facts["blob_refused"]``: SQLite parameter index -> (result code name,
message); :func:`refused` makes the error, ``binding.refuse_blobs`` raises it).
Only a value written straight into a column is looked at: a VALUES cell, a SET
assignment, an upsert's DO UPDATE SET.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ..params import marker_index
from ..typenames import canonical

Refusal = tuple[str, str]  # (SQLite result code name, message)
_MISMATCH: Refusal = ("SQLITE_MISMATCH", "datatype mismatch")  # a blob as the rowid
_BLOB_CALLS = ("zeroblob", "randomblob")
_ROWID_NAMES = ("rowid", "oid", "_rowid_")
_BLOB_CASTS = (exp.DataType.Type.VARBINARY, exp.DataType.Type.BINARY, exp.DataType.Type.BLOB)


def blob_targets(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(tree, exp.Insert):
        target = tree.this
        table = target.this if isinstance(target, exp.Schema) else target
        if not isinstance(table, exp.Table):
            return tree
        refusals, columns = _refusals(table.name, ctx)
        listed = [c.name.lower() for c in target.expressions] if isinstance(target, exp.Schema) else columns
        source = tree.expression
        if isinstance(source, exp.Values):
            for row in source.expressions:
                cells = row.expressions if isinstance(row, exp.Tuple) else [row]
                if len(cells) == len(listed):
                    for column, cell in zip(listed, cells):
                        _check(cell, refusals.get(column), ctx)
        conflict = tree.args.get("conflict")
        if isinstance(conflict, exp.OnConflict):
            _assignments(conflict.expressions, refusals, ctx)
    elif isinstance(tree, exp.Update) and isinstance(tree.this, exp.Table):
        _assignments(tree.expressions, _refusals(tree.this.name, ctx)[0], ctx)
    return tree


def _assignments(assignments: list[exp.Expression], refusals: dict[str, Refusal | None], ctx: Context) -> None:
    for assignment in assignments:
        if isinstance(assignment, exp.EQ) and isinstance(assignment.this, exp.Column):
            _check(assignment.expression, refusals.get(assignment.this.name.lower()), ctx)


def _check(value: exp.Expression, refusal: Refusal | None, ctx: Context) -> None:
    if refusal is None:
        return
    if _spelled_blob(value):
        raise refused(*refusal)
    index = marker_index(value.name) if isinstance(value, exp.Placeholder) else None
    if index is not None:
        ctx.facts.setdefault("blob_refused", {})[index] = refusal


def refused(code_name: str, message: str) -> errors.sqlite3.Error:
    """The error of a refusal: SQLite's own (IntegrityError), or NotSupportedError."""
    cls = errors.sqlite3.NotSupportedError if code_name == "SQLITE_ERROR" else errors.sqlite3.IntegrityError
    return errors.make(cls, message, code_name)


def _refusals(table: str, ctx: Context) -> tuple[dict[str, Refusal | None], list[str]]:
    """Per column of ``table`` (lower name) the refusal of a blob there, None where its
    server column is binary; and the columns in order.  Nothing for a view or an FTS
    table (the writes of their triggers and engine are looked at)."""
    ctx.schema_dependent = True
    kind = ctx.schema.relation_kind(table)
    if kind not in ("table", "without_rowid"):
        return {}, []
    alias = (ctx.schema.rowid_column(table) or "").lower()
    strict = ctx.schema.is_strict(table)
    out: dict[str, Refusal | None] = {}
    for name, declared, _keyed in ctx.schema.columns(table):
        upper = declared.strip().upper()
        if name.lower() == alias:
            out[alias] = _MISMATCH
        elif upper and canonical(upper) == "BLOB":
            out[name.lower()] = None
        elif strict and upper != "ANY":
            out[name.lower()] = ("SQLITE_CONSTRAINT_DATATYPE", f"cannot store BLOB value in {upper} column {table}.{name}")
        else:
            what = f"column {table}.{name}, declared without a type" if not upper else f"{declared} column {table}.{name}"
            out[name.lower()] = ("SQLITE_ERROR", str(errors.not_supported(f"a BLOB value in {what}", ctx.dialect)))
    columns = list(out)
    if kind == "table":
        for name in _ROWID_NAMES:
            out.setdefault(name, _MISMATCH)  # the rowid by its own name, unless a column has it
    return out, columns


def _spelled_blob(value: exp.Expression) -> bool:
    while isinstance(value, exp.Paren):
        value = value.this
    if isinstance(value, exp.HexString):
        return True
    if isinstance(value, exp.Cast) and value.to.is_type(*_BLOB_CASTS):
        return True
    return isinstance(value, exp.Anonymous) and value.name.lower() in _BLOB_CALLS
