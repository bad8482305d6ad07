"""See schema changes other connections made (a trigger, say) at each BEGIN.

SQLite rereads its schema cookie before every statement.  On a server that
is a round trip, so the shim reads the stored cookie once per transaction,
right after BEGIN; only when it moved does it compare the stored schema with
the shadow catalog, and reload the shadow when a stored object is missing
from it or a trigger it has is no longer stored.
"""

from __future__ import annotations

from typing import Any

from ..catalog import meta, store


_STAMP = f"SELECT value FROM {meta.TABLE} WHERE name = 'schema_version'"


class Freshness:
    def __init__(self) -> None:
        self.seen: Any = None
        self.has_meta = False

    def _stamp(self, backend: Any) -> Any:
        if not self.has_meta:
            self.has_meta = backend.has_table(meta.TABLE)
            if not self.has_meta:
                return None
        rows = backend.query(_STAMP)
        return rows[0][0] if rows else None

    def prime(self, backend: Any) -> None:
        """The cookie of the schema the connection just loaded."""
        try:
            self.seen = self._stamp(backend)
        except Exception:  # a catalog we cannot read must never stop a connection
            self.seen = None

    def probe(self, backend: Any, shadow: Any) -> str | None:
        """issue 8: the query :meth:`check` needs, for the backend to send with BEGIN."""
        if shadow is None:
            return None
        if not self.has_meta:
            self.has_meta = backend.has_table(meta.TABLE)
        return _STAMP if self.has_meta else None

    def check(self, backend: Any, shadow: Any, rows: list | None = None) -> None:
        """Reload ``shadow`` if the stored schema changed in a way it has not seen.
        ``rows``: what :meth:`probe`'s query returned, if it ran already."""
        if shadow is None:
            return
        if rows is not None:
            stamp = rows[0][0] if rows else None
        else:
            stamp = self._stamp(backend)
        if stamp == self.seen:
            return
        self.seen = stamp
        if not backend.has_table(store.TABLE):
            return
        column = "`sql`" if backend.kind == "mysql" else "sql"
        stored = {tuple(r) for r in backend.query(f"SELECT type, name, tbl_name, {column} FROM {store.TABLE}")}
        have = set(shadow.dump())
        if stored <= have and all(r in stored for r in have if r[0] == "trigger"):
            return
        shadow.load(store.read(backend))
