"""snippet()/highlight() text that is not valid UTF-8, carried through the server.

SQLite's snippet() can end inside a multi-byte character (trigram token
offsets), and sqlite3 then refuses to fetch that value: ``OperationalError:
Could not decode to UTF-8 column '...' with text '...'`` when the row is
fetched (and again on every later fetch).  Server text cannot hold those
bytes, so the server gets a per-statement key instead and the bridge puts
the value back (given to a non-``str`` ``text_factory`` as the raw bytes, or
raising sqlite3's error when the row is fetched).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from ... import errors

_ESCAPED = re.compile("[\udc80-\udcff]")  # bytes kept by decode("utf-8", "surrogateescape")
_MESSAGE_BYTES = 198  # sqlite3 formats the message into a 200-byte buffer


def undecodable(value: object) -> bool:
    return isinstance(value, str) and _ESCAPED.search(value) is not None


class Stash:
    """Undecodable values of one statement, by the key the server saw."""

    def __init__(self) -> None:
        self.prefix = f"\ufffehdb-{secrets.token_hex(8)}-"
        self.values: dict[str, str] = {}
        self.deferred: list[Any] = []  # select.Deferred: snippet()/highlight() of the returned rows

    def put(self, value: Any) -> Any:
        if not undecodable(value):
            return value
        key = f"{self.prefix}{len(self.values)}"
        self.values[key] = value
        return key

    def restore(self, names: Sequence[str] | None, rows: list[tuple],
                conn: Any) -> tuple[list[tuple], Callable[[tuple], None] | None]:
        """(rows with the values back, the per-row check to give the raw cursor).

        The check raises sqlite3's error while ``conn.text_factory`` is ``str``
        as the row is fetched; another factory gets the raw bytes (cursor.py)."""
        if not self.values or names is None:
            return rows, None
        values = self.values
        out = []
        for row in rows:
            if any(type(v) is str and v in values for v in row):
                row = tuple(values[v] if type(v) is str and v in values else v for v in row)
            out.append(row)

        def check(row: tuple) -> None:
            if conn.text_factory is not str:
                return
            for i, v in enumerate(row):
                if undecodable(v):
                    raise errors.operational(message(names[i], v))

        return out, check


def message(column: str, value: str) -> str:
    """sqlite3's text for a value it cannot decode (a C string: cut at NUL and 198 bytes, read as ASCII)."""
    name = column.encode("utf-8", "surrogateescape").split(b"\0")[0]
    raw = value.encode("utf-8", "surrogateescape").split(b"\0")[0]
    text = b"Could not decode to UTF-8 column '" + name + b"' with text '" + raw + b"'"
    return text[:_MESSAGE_BYTES].decode("ascii", "replace")
