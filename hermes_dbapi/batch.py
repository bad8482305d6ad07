"""issue 8: one look at a whole ``executemany()`` batch instead of one per item.

sqlite3 binds every item on its own; for the common batch (tuples of plain
values for ``?`` parameters in order) that per-item work is the same check
repeated.  :func:`profile` makes it once per *column*, with C-speed builtins
(``zip``, ``map``, ``set``, ``min``/``max``), and tells the backends what kinds
of values each column holds, so they can pick a bulk path (PostgreSQL COPY,
MariaDB multi-row INSERT).  Anything unusual answers None: the caller then
binds item by item exactly as before.
"""

from __future__ import annotations

from typing import Any, NamedTuple

_NONE = type(None)
_PLAIN = frozenset({int, float, str, bytes, _NONE})
_LOW, _HIGH = -(2**63), 2**63 - 1
_ESCAPES = ("\x00", "\x01")  # what pg_text rewrites on the way to PostgreSQL


class Profile(NamedTuple):
    kinds: tuple[frozenset, ...]  # value types per parameter position
    escaped: bool  # some str holds NUL or U+0001 (PostgreSQL's NUL escape applies)
    columns: list[tuple]  # the values per parameter position (PostgreSQL's COPY text is built by column)


def profile(items: list, count: int) -> Profile | None:
    """The per-column value kinds of ``items`` if every item is a tuple of
    ``count`` plain values sqlite3 would bind as they are, else None."""
    if not items or count >= 64:
        return None
    if set(map(type, items)) != {tuple} or set(map(len, items)) != {count}:
        return None
    kinds: list[frozenset] = []
    escaped = False
    columns = list(zip(*items))
    for column in columns:
        found = frozenset(map(type, column))
        if not found <= _PLAIN:
            return None
        if int in found:
            ints = column if len(found) == 1 else [v for v in column if type(v) is int]
            if min(ints) < _LOW or max(ints) > _HIGH:
                return None  # sqlite3's OverflowError comes from the item-by-item path
        if str in found:
            text = "".join(column) if len(found) == 1 else "".join([v for v in column if type(v) is str])
            if not text.isascii() and not _encodable(text):
                return None  # sqlite3 binds the items before the bad one: item by item
            escaped = escaped or _ESCAPES[0] in text or _ESCAPES[1] in text
        if float in found and any(v != v for v in column):
            return None  # NaN binds as NULL: item by item (binding.adapt)
        kinds.append(found)
    return Profile(tuple(kinds), escaped, columns)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plain_bindable(translation: Any) -> bool:
    """Whether bound values are the item itself: ``?`` parameters in order, nothing added."""
    count = translation.count
    return (
        not translation.session
        and not translation.bound_rules
        and translation.order == tuple(range(count))
        and translation.names.count(None) == count
    )
