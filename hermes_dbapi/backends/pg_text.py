"""NUL characters in PostgreSQL text, which cannot hold them.

SQLite text may contain U+0000 (Hermes marks structured content with a leading
NUL).  On the way in, a string containing NUL or our escape character U+FFFF
(a Unicode noncharacter, never meaningful in interchange) is rewritten as
U+FFFF followed by ``0`` (for NUL) or ``1`` (for U+FFFF itself); on the way out
the text loader reverses it.  Strings with neither character, i.e. virtually
all of them, pass through untouched.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.string import TextLoader

ESCAPE = "\uffff"
_NUL_PAIR = ESCAPE + "0"
_ESCAPE_PAIR = ESCAPE + "1"


def encode(value: str) -> str:
    # str.replace runs in C: a 50 MB value full of NULs takes milliseconds, not seconds
    if ESCAPE in value:
        value = value.replace(ESCAPE, _ESCAPE_PAIR)
    if "\x00" in value:
        value = value.replace("\x00", _NUL_PAIR)
    return value


def decode(value: str) -> str:
    """The reverse of :func:`encode`.  Every ESCAPE in encoded text starts a pair
    whose second character is '0' or '1', so ESCAPE+'0' can only be a NUL pair and
    replacing NUL pairs first, then escape pairs, is exact; an ESCAPE followed by
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
