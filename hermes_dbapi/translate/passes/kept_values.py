"""Values a server column would not keep as SQLite does: refused, not changed.

SQLite keeps a value of another class than its column's affinity when it cannot
convert it without loss: a blob in any column, a REAL with a fraction (2.5, or
beyond 64 bits: 1e20, inf) in an INTEGER column.  A server column holds one
type: PostgreSQL turns a blob assigned to a ``text`` column into its ``\\x78``
escape text and 2.5 assigned to a ``bigint`` into 3, MariaDB the same but for
the escape.  Those values are lost; this pass refuses them.  So the shim refuses
such a value before anything is written, with

* SQLite's own error where SQLite refuses it too: "datatype mismatch" for the
  rowid, "cannot store BLOB value in INT column s.n" in a STRICT table;
* NotSupportedError naming the value and the column where SQLite keeps it.

Covered are the values the statement writes straight into a column (a VALUES
cell, a SET assignment, an upsert's DO UPDATE SET): one it spells (``X'78'``,
``zeroblob(n)``, ``CAST(… AS BLOB)``, ``2.5``) is refused when translated, a
bound parameter once its value is known (``ctx.facts["refused_values"]``:
SQLite parameter index -> its :data:`Refusal` s; ``binding.refuse_values``).
A computed value (``? + 0.5``) is not: the server converts it.  Nor is a value
the server keeps as another class without loss (7 in an untyped or DATETIME
column reads back as '7'): README, "Known differences".
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from ... import errors
from ..context import Context
from ..params import marker_index
from ..typenames import canonical

Refusal = tuple[str, str, str]  # (kind of value: BLOB_KIND | FRACTION_KIND, SQLite result code name, message)
BLOB_KIND, FRACTION_KIND = "blob", "fraction"
_MISMATCH = ("SQLITE_MISMATCH", "datatype mismatch")  # SQLite's answer for either as the rowid
_BLOB_TYPES = (bytes, bytearray, memoryview)
_BLOB_CALLS = ("zeroblob", "randomblob")
_BLOB_CASTS = (exp.DataType.Type.VARBINARY, exp.DataType.Type.BINARY, exp.DataType.Type.BLOB)
_ROWID_NAMES = ("rowid", "oid", "_rowid_")
_LOW, _HIGH = -(2.0**63), 2.0**63


def kept_values(tree: exp.Expression, ctx: Context) -> exp.Expression:
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
                        _check(cell, refusals.get(column, ()), ctx)
        conflict = tree.args.get("conflict")
        if isinstance(conflict, exp.OnConflict):
            _assignments(conflict.expressions, refusals, ctx)
    elif isinstance(tree, exp.Update) and isinstance(tree.this, exp.Table):
        _assignments(tree.expressions, _refusals(tree.this.name, ctx)[0], ctx)
    return tree


def refused_by(value: Any, kind: str) -> bool:
    """Whether a bound value is of the kind a refusal names."""
    if kind == BLOB_KIND:
        return isinstance(value, _BLOB_TYPES)
    return isinstance(value, float) and not (value.is_integer() and _LOW <= value < _HIGH)


def refused(code_name: str, message: str) -> errors.sqlite3.Error:
    """The error of a refusal: SQLite's own (IntegrityError), or NotSupportedError."""
    cls = errors.sqlite3.NotSupportedError if code_name == "SQLITE_ERROR" else errors.sqlite3.IntegrityError
    return errors.make(cls, message, code_name)


def _assignments(assignments: list[exp.Expression], refusals: dict[str, tuple[Refusal, ...]], ctx: Context) -> None:
    for assignment in assignments:
        if isinstance(assignment, exp.EQ) and isinstance(assignment.this, exp.Column):
            _check(assignment.expression, refusals.get(assignment.this.name.lower(), ()), ctx)


def _check(value: exp.Expression, refusals: tuple[Refusal, ...], ctx: Context) -> None:
    if not refusals:
        return
    spelled = _spelled_kinds(value)
    for kind, code_name, message in refusals:
        if kind in spelled:
            raise refused(code_name, message)
    index = marker_index(value.name) if isinstance(value, exp.Placeholder) else None
    if index is not None:
        ctx.facts.setdefault("refused_values", {})[index] = refusals


def _refusals(table: str, ctx: Context) -> tuple[dict[str, tuple[Refusal, ...]], list[str]]:
    """Per column of ``table`` (lower name) the values refused there, and the columns
    in order.  Nothing for a view or an FTS table (the writes of their triggers and
    engine are looked at)."""
    ctx.schema_dependent = True
    kind = ctx.schema.relation_kind(table)
    if kind not in ("table", "without_rowid"):
        return {}, []
    alias = (ctx.schema.rowid_column(table) or "").lower()
    strict = ctx.schema.is_strict(table)
    out: dict[str, tuple[Refusal, ...]] = {}
    for name, declared, _keyed in ctx.schema.columns(table):
        upper = declared.strip().upper()
        server = canonical(upper) if upper else "TEXT"
        if name.lower() == alias:
            out[alias] = ((BLOB_KIND, *_MISMATCH), (FRACTION_KIND, *_MISMATCH))
            continue
        found = []
        if server != "BLOB":
            found.append(_refusal(BLOB_KIND, "BLOB value", table, name, upper, strict, ctx))
        if server in ("BIGINT", "INTEGER"):
            found.append(_refusal(FRACTION_KIND, "REAL value", table, name, upper, strict, ctx))
        out[name.lower()] = tuple(found)
    columns = list(out)
    if kind == "table":
        for name in _ROWID_NAMES:  # the rowid by its own name, unless a column has it
            out.setdefault(name, ((BLOB_KIND, *_MISMATCH), (FRACTION_KIND, *_MISMATCH)))
    return out, columns


def _refusal(kind: str, value: str, table: str, name: str, declared: str, strict: bool, ctx: Context) -> Refusal:
    if strict and declared != "ANY":  # SQLite refuses it too, in these words
        return kind, "SQLITE_CONSTRAINT_DATATYPE", f"cannot store {value} in {declared} column {table}.{name}"
    what = f"a {value} other than a 64-bit integer" if kind == FRACTION_KIND else f"a {value}"
    where = f"{declared or 'untyped'} column {table}.{name}"
    return kind, "SQLITE_ERROR", str(errors.not_supported(f"{what} in {where}", ctx.dialect))


def _spelled_kinds(value: exp.Expression) -> tuple[str, ...]:
    """The kinds of a value the statement spells: a blob, or a number that is no
    64-bit integer."""
    while isinstance(value, exp.Paren):
        value = value.this
    if isinstance(value, exp.HexString) or (isinstance(value, exp.Cast) and value.to.is_type(*_BLOB_CASTS)):
        return (BLOB_KIND,)
    if isinstance(value, exp.Anonymous) and value.name.lower() in _BLOB_CALLS:
        return (BLOB_KIND,)
    negated = isinstance(value, exp.Neg)
    number = value.this if negated else value
    if not isinstance(number, exp.Literal) or number.is_string:
        return ()
    text = number.this
    if text.isdigit():
        whole = -int(text) if negated else int(text)
        return () if -(2**63) <= whole < 2**63 else (FRACTION_KIND,)
    try:
        real = -float(text) if negated else float(text)
    except ValueError:
        return ()  # a hex integer literal
    return (FRACTION_KIND,) if refused_by(real, FRACTION_KIND) else ()
