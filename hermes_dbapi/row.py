"""Real ``sqlite3.Row`` objects for rows that came from a server.

``hermes_dbapi.Row`` *is* ``sqlite3.Row``, so ``isinstance`` checks, equality,
hashing, name lookup and ``keys()`` behave exactly as the standard module's on
every backend.  ``sqlite3.Row`` can only be built from a ``sqlite3.Cursor``
whose ``description`` names the columns, so we keep, per tuple of column
names, a template cursor on a private in-memory database that has run a
``SELECT NULL AS "name", …`` and so carries that description.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ._stdlib import sqlite3

Row = sqlite3.Row

_MAX_TEMPLATES = 256


class _Templates:
    def __init__(self) -> None:
        self._db: sqlite3.Connection | None = None
        self._cursors: OrderedDict[tuple[str, ...], sqlite3.Cursor] = OrderedDict()
        self._lock = threading.Lock()

    def cursor_for(self, names: tuple[str, ...]) -> sqlite3.Cursor:
        cursor = self._cursors.get(names)
        if cursor is not None:
            return cursor
        with self._lock:
            if self._db is None:
                self._db = sqlite3.connect(":memory:", check_same_thread=False)
            columns = ", ".join('NULL AS "' + name.replace('"', '""') + '"' for name in names)
            cursor = self._db.execute("SELECT " + columns)
            cursor.fetchall()
            self._cursors[names] = cursor
            if len(self._cursors) > _MAX_TEMPLATES:
                self._cursors.popitem(last=False)
        return cursor


_TEMPLATES = _Templates()


def row_builder(factory: type, names: tuple[str, ...]):
    """A one-argument callable that turns a value tuple into ``factory`` rows."""
    template = _TEMPLATES.cursor_for(names)
    return lambda values: factory(template, values)


def is_row_class(factory: object) -> bool:
    return isinstance(factory, type) and issubclass(factory, sqlite3.Row)
