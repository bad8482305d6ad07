"""issue 8: ``executemany()`` of a plain INSERT on PostgreSQL as one COPY.

COPY stores rows several times faster than INSERT statements, but it is not an
INSERT: no conflict clause, no RETURNING, and values arrive as text for the
column's input function rather than as typed literals.  So a batch takes this
path only when the result is provably the same as the INSERTs':

* the driver SQL is ``INSERT INTO t [(cols)] VALUES (%s, ...)`` (optionally
  ``RETURNING "rowid column"``, which we answer ourselves), nothing else;
* ``t`` is an ordinary table without user triggers or rules, the target
  columns are neither generated nor ``GENERATED ALWAYS`` identities;
* every value's Python type reads the same through the column's input function
  as through psycopg's client-side literal (``_SAME``): str for any
  column (both go through the input function), int for numbers and text, float
  for float8, bytes for bytea; None anywhere;
* no str needs the NUL escape of :mod:`pg_text`.

Anything else, and any COPY that fails, goes the INSERT way; a failure is then
replayed item by item by the caller, so errors are exactly the INSERTs'.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

_IDENT = r'(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)'
# a parameter, or one bound to the rowid column: NULL there is the next id (translate/passes/insert_defaults.py)
_SLOT = r"(?:%s|COALESCE\(%s, NEXTVAL\(PG_GET_SERIAL_SEQUENCE\('(?:[^']|'')*', '(?:[^']|'')*'\)\)\))"
_INSERT = re.compile(
    rf"INSERT INTO ({_IDENT})(?: \(({_IDENT}(?:, {_IDENT})*)\))? VALUES \({_SLOT}(?:, {_SLOT})*\)"
    r'(?: RETURNING "((?:[^"]|"")+)")?'
)
_NEXT_ID_OF = re.compile(r"PG_GET_SERIAL_SEQUENCE\('(?:[^']|'')*', '((?:[^']|'')*)'\)")
_NONE = type(None)
_TEXT = frozenset({"text", "varchar"})
_NUMBERS = frozenset({"int2", "int4", "int8", "float8", "numeric"})
# Python type -> column types whose input function reads its COPY text as the
# INSERT's typed literal would be assigned (str: any type, handled apart)
_SAME = {
    int: _NUMBERS | _TEXT,
    float: frozenset({"float8"}),
    bytes: frozenset({"bytea"}),
}

_CATALOG = """
SELECT c.relkind::text, c.relhasrules,
       EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal),
       a.attname::text, ty.typname::text, a.attidentity::text, a.attgenerated::text,
       pg_get_serial_sequence(c.oid::regclass::text, a.attname::text)
FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type ty ON ty.oid = a.atttypid
WHERE c.oid = to_regclass(%s)
ORDER BY a.attnum
"""


class Column(NamedTuple):
    name: str
    type: str
    insertable: bool  # not generated, not GENERATED ALWAYS
    sequence: str | None


class Plan(NamedTuple):
    sql: str  # the COPY statement
    columns: tuple[Column, ...]  # per parameter position
    rowid: int  # parameter position of the RETURNING column, -1 if not copied
    sequence: str | None  # its sequence when the server makes the ids


def _unquote(ident: str) -> str:
    return ident[1:-1].replace('""', '"') if ident.startswith('"') else ident.lower()


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_columns(query: Any, table: str) -> tuple[Column, ...] | None:
    """The columns of an ordinary table COPY may fill like INSERT, else None."""
    rows = query(_CATALOG, (table,))
    if not rows or rows[0][0] != "r" or rows[0][1] or rows[0][2]:
        return None
    return tuple(Column(r[3], r[4], r[5] != "a" and not r[6], r[7]) for r in rows)


def plan(sql: str, count: int, columns_of: Any) -> Plan | None:
    """How to COPY ``sql``'s rows, or None when its shape rules COPY out.
    ``columns_of(table)`` is :func:`table_columns`, cached by the caller."""
    match = _INSERT.fullmatch(sql)
    if match is None:
        return None
    table, listed, returning = match.groups()
    if sql.count("%s") != count:
        return None
    found = columns_of(table)
    if found is None:
        return None
    by_name = {c.name: c for c in found}
    if listed is None:
        if count > len(found):
            return None
        columns = found[:count]
    else:
        names = [_unquote(n) for n in re.findall(_IDENT, listed)]
        if len(names) != count or len(set(names)) != count or not all(n in by_name for n in names):
            return None
        columns = tuple(by_name[n] for n in names)
    if not all(c.insertable for c in columns):
        return None
    rowid, sequence = -1, None
    if returning is not None:
        name = returning.replace('""', '"')
        positions = [i for i, c in enumerate(columns) if c.name == name]
        if positions:
            rowid = positions[0]
        elif name in by_name and by_name[name].sequence:
            sequence = by_name[name].sequence
        else:
            return None
    coalesced = [name.replace("''", "'") for name in _NEXT_ID_OF.findall(sql)]
    if coalesced and (rowid < 0 or coalesced != [columns[rowid].name]):
        return None  # a NULL there is the sequence's to fill: only where fits() can turn it away
    copy = f"COPY {table} ({', '.join(_quote(c.name) for c in columns)}) FROM STDIN"
    return Plan(copy, columns, rowid, sequence)


def fits(plan: Plan, kinds: tuple[frozenset, ...]) -> bool:
    """Whether every column's values read the same through COPY as through INSERT."""
    for index, (column, found) in enumerate(zip(plan.columns, kinds)):
        for kind in found:
            if kind is str or kind is _NONE:
                continue
            if column.type not in _SAME[kind]:
                return False
        if index == plan.rowid and found != {int}:
            return False  # a NULL id is the sequence's to fill: INSERT's business
    return True


# -- the rows as COPY text ------------------------------------------------------

#: rows per chunk of COPY data (a few hundred KB for Hermes-sized rows)
CHUNK_ROWS = 5000
_SPECIAL = ("\\", "\t", "\n", "\r")
_STR = frozenset({str})
_INT = frozenset({int})


def escape(text: str) -> str:
    """A str as a value of COPY's text format: backslash, tab, newline and CR escaped."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _value(value: Any) -> str:
    """One plain value (see batch.profile) as psycopg's text dumpers write it."""
    kind = type(value)
    if value is None:
        return "\\N"
    if kind is str:
        return escape(value)
    if kind is int:
        return str(value)
    if kind is float:  # never NaN here: it binds as NULL, item by item (batch.profile)
        return repr(value) if math.isfinite(value) else ("Infinity" if value > 0 else "-Infinity")
    return bytea(value)


def bytea(raw: bytes) -> str:
    """bytes as a COPY text value: bytea's hex form, its backslash escaped."""
    return "\\\\x" + raw.hex()


def _column(values: tuple, kinds: frozenset) -> Any:
    """A column's values as COPY text; the common all-str and all-int columns at C speed."""
    if kinds == _STR:
        joined = "".join(values)
        return [escape(v) for v in values] if any(c in joined for c in _SPECIAL) else values
    if kinds == _INT:
        return list(map(str, values))
    return [_value(v) for v in values]


def text_chunks(columns: list[tuple], kinds: tuple[frozenset, ...], encoding: str) -> list[bytes]:
    """Rows given by column (``batch.Profile``: plain values, their kinds) as COPY text
    data, encoded, in chunks; raises UnicodeEncodeError before anything is sent when
    a str cannot be encoded."""
    out = []
    for start in range(0, len(columns[0]), CHUNK_ROWS):
        end = start + CHUNK_ROWS
        texts = [_column(values[start:end] if start or end < len(values) else values, kind)
                 for values, kind in zip(columns, kinds)]
        out.append(("\n".join(map("\t".join, zip(*texts))) + "\n").encode(encoding))
    return out
