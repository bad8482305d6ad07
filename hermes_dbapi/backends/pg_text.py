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
_ESCAPE_BYTES = ESCAPE.encode()
_ENCODE = str.maketrans({"\x00": ESCAPE + "0", ESCAPE: ESCAPE + "1"})


def encode(value: str) -> str:
    if "\x00" in value or ESCAPE in value:
        return value.translate(_ENCODE)
    return value


def decode(value: str) -> str:
    out: list[str] = []
    start = 0
    at = value.find(ESCAPE)
    while at != -1:
        out.append(value[start:at])
        code = value[at + 1 : at + 2]
        out.append("\x00" if code == "0" else ESCAPE if code == "1" else ESCAPE + code)
        start = at + 2
        at = value.find(ESCAPE, start)
    out.append(value[start:])
    return "".join(out)


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
