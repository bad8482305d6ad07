"""FTS tables made by an earlier version, brought up to this one's server tables.

Every FTS table now keeps FTS5's running row and token counts (``<t>_data``,
see ``storage``); one made before has none, and its searches sum the size
rows instead (correct, but a scan of the whole table).  The first connection
of this version to open a namespace adds the counts, filled from the size
rows under the namespace's write lock, so no writer moves the sizes while
they are summed.  Failure (read-only, no privilege, the lock busy) leaves the
table as it was: still correct, still summed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...backends.base import Backend
from .storage import Storage


def add_counts(backend: Backend, storages: Sequence[Storage]) -> None:
    """Give each of the catalog's FTS tables (``storages``) its counts (outside a transaction)."""
    if getattr(backend, "read_only", False) or all(s.counted() for s in storages):
        return
    try:
        backend.begin("IMMEDIATE")
        try:
            for storage in storages:
                storage.forget_counted()  # another connection may have added them meanwhile
                if not storage.counted():
                    storage.create_counts(f"SELECT 1, COUNT(*), COALESCE(SUM(total), 0) FROM {storage.docsize}")
        except BaseException:
            backend.rollback()
            for storage in storages:
                storage.forget_counted()  # what the rollback undid is asked again on use
            raise
        backend.commit()
    except Exception:  # noqa: BLE001 - see the module docstring: the summing fallback stays
        return
