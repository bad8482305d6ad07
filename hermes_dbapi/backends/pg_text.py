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


class NulSafeTextLoader(TextLoader):
    """psycopg's text loader, plus the reverse of :func:`encode`."""

    def load(self, data: Any) -> str:
        text = super().load(data)
        if ESCAPE in text:
            return decode(text)
        return text


def install(adapters: Any) -> None:
    for name in ("text", "varchar", "bpchar"):
        adapters.register_loader(name, NulSafeTextLoader)
