"""NUL characters in PostgreSQL text, which cannot hold them.

SQLite text may contain U+0000 (Hermes marks structured content with a leading
NUL).  On the way in, a string containing NUL or our escape character U+0001 is
rewritten with NUL as U+0001 U+0001 and U+0001 itself as U+0001 U+0002; on the
way out rows are decoded.  Strings with neither character, i.e. virtually all
of them, pass through untouched.

The escape keeps SQLite's order (byte order = code point order, the C.UTF-8
collation of the PostgreSQL database): both pairs sort below every other
character, NUL's below U+0001's, and no encoded string is a proper prefix of
another one that its original is not a prefix of; so ``ORDER BY``, ``min``,
``<``, ``=``, ``UNIQUE``, ``GROUP BY`` and ``DISTINCT`` on encoded text give
SQLite's answers.  ``||``, ``upper``/``lower`` and ``replace`` of a pattern not
starting with U+0001/U+0002 work on the encoding as they are; functions that
count characters or stop at a NUL go through the helpers of
``translate/helpers/pg_text.py``.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.string import TextLoader

ESCAPE = "\x01"
NUL_PAIR = ESCAPE + "\x01"
ESCAPE_PAIR = ESCAPE + "\x02"
_NUL_PAIR, _ESCAPE_PAIR = NUL_PAIR, ESCAPE_PAIR


def encode(value: str) -> str:
    # str.replace runs in C: a 50 MB value full of NULs takes milliseconds, not seconds
    if ESCAPE in value:
        value = value.replace(ESCAPE, _ESCAPE_PAIR)
    if "\x00" in value:
        value = value.replace("\x00", _NUL_PAIR)
    return value


def decode(value: str) -> str:
    """The reverse of :func:`encode`.  Every ESCAPE in encoded text starts a pair;
    the leftmost ESCAPE ESCAPE is always a NUL pair (an ESCAPE that is the second
    half of a pair belongs to a NUL pair that starts one earlier), so replacing NUL
    pairs first, left to right, then escape pairs, is exact; an ESCAPE followed by
    anything else (text written by another client) is left as it is."""
    if _NUL_PAIR in value:
        value = value.replace(_NUL_PAIR, "\x00")
    if _ESCAPE_PAIR in value:
        value = value.replace(_ESCAPE_PAIR, ESCAPE)
    return value


def encode_params(params: Any) -> Any:
    """The parameters with every NUL-bearing string escaped (a copy only if needed)."""
    for value in params:
        if type(value) is str and ("\x00" in value or ESCAPE in value):
            return [encode(v) if type(v) is str else v for v in params]
    return params


# text, varchar, bpchar: the result columns that may carry encoded text
TEXT_OIDS = frozenset({25, 1043, 1042})


def text_columns(result: Any) -> tuple[int, ...]:
    """Indexes of a psycopg PGresult's columns of the types :data:`TEXT_OIDS`."""
    if result is None:
        return ()
    return tuple([i for i in range(result.nfields) if result.ftype(i) in TEXT_OIDS])


def decode_rows(rows: list, columns: tuple[int, ...]) -> list:
    """``rows`` with the text in ``columns`` decoded (:func:`decode`); the same
    list when no value holds the escape character, i.e. virtually always.

    issue 8: this replaces a Python text loader, which cost a Python call per
    text value and a loader object per query; the check here is a C substring
    search per text value."""
    if not columns:
        return rows
    for row in rows:
        for i in columns:
            value = row[i]
            if value is not None and ESCAPE in value:
                return [decode_row(r, columns) for r in rows]
    return rows


def decode_row(row: tuple, columns: tuple[int, ...]) -> tuple:
    for i in columns:
        value = row[i]
        if value is not None and ESCAPE in value:
            values = list(row)
            for j in columns:
                if values[j] is not None:
                    values[j] = decode(values[j])
            return tuple(values)
    return row


class NulSafeTextLoader(TextLoader):
    """psycopg's text loader, plus the reverse of :func:`encode`."""

    def load(self, data: Any) -> str:
        text = super().load(data)
        if ESCAPE in text:
            return decode(text)
        return text


def install(adapters: Any) -> None:
    """Kept for connections whose rows do not pass :func:`decode_rows` (the
    backend's own cursors decode rows instead: psycopg's C loader is faster)."""
    for name in ("text", "varchar", "bpchar"):
        adapters.register_loader(name, NulSafeTextLoader)
