"""See schema changes other connections made (a trigger, say) at each BEGIN.

SQLite rereads its schema cookie before every statement.  On a server that
is a round trip, so the shim reads the stored cookie once per transaction,
right after BEGIN, and reloads the shadow catalog only when it moved.
"""

from __future__ import annotations

from typing import Any

from ..catalog import meta, store

_UNSEEN = object()


class Freshness:
    def __init__(self) -> None:
        self.seen: Any = _UNSEEN
        self.has_meta = False

    def check(self, backend: Any, shadow: Any) -> None:
        """Reload ``shadow`` if the stored schema changed since the last check."""
        if shadow is None:
            return
        if not self.has_meta:
            self.has_meta = backend.has_table(meta.TABLE)
            if not self.has_meta:
                return
        rows = backend.query(f"SELECT value FROM {meta.TABLE} WHERE name = 'schema_version'")
        stamp = rows[0][0] if rows else None
        if stamp == self.seen:
            return
        first = self.seen is _UNSEEN
        self.seen = stamp
        if first or stamp is not None:
            shadow.load(store.read(backend))
