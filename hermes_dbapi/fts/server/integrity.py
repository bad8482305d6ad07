"""FTS5's 'integrity-check' command on the server tables.

SQLite 3.40 compares the index with the table's content for tables that keep
their content, and for external content tables when asked with
``INSERT INTO t(t, rank) VALUES('integrity-check', 1)``; otherwise it checks
the index's own consistency.  Here the same two checks read the server
tables: the stored postings and sizes must equal what tokenizing the content
gives, and the running row and token counts what the sizes add up to; or
(internal check) every posting must belong to a sized row and, with
``detail=full``, each row's positions must add up to its column sizes.  A
failure is SQLite's ``database disk image is malformed`` (SQLITE_CORRUPT_VTAB).
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import errors
from .storage import Storage, encode, read_varints, varints


def check(storage: Storage, content: Sequence[tuple[int, Sequence[object]]] | None) -> None:
    """Raise SQLite's corruption error unless the index is consistent
    (with ``content``, the ``(rowid, values)`` of every content row, when given)."""
    postings = storage.all_postings()
    sizes = storage.all_sizes()
    if content is not None:
        want_postings: dict[tuple[bytes, int], str] = {}
        want_sizes: dict[int, bytes] = {}
        for rowid, values in content:
            row_sizes, terms = storage.tokenize_row(values)
            want_sizes[rowid] = varints(row_sizes)
            for term, plist in terms.items():
                want_postings[(encode(term), rowid)] = ",".join(map(str, plist))
        if want_sizes != sizes or want_postings != postings:
            raise errors.malformed()
        if storage.counted():  # FTS5 checks its running counts against the sizes too
            counted = storage.stats()
            if counted != (len(sizes), sum(sum(read_varints(blob)) for blob in sizes.values())):
                raise errors.malformed()
        return
    ncol = len(storage.spec.columns)
    counts: dict[int, list[int]] = {}
    for (_term, rowid), pos in postings.items():
        if rowid not in sizes:
            raise errors.malformed()
        if storage.spec.detail == "full":
            per_col = counts.setdefault(rowid, [0] * ncol)
            for p in pos.split(","):
                if p:
                    col = int(p) >> 32
                    if col >= ncol:
                        raise errors.malformed()
                    per_col[col] += 1
    if storage.spec.detail == "full":
        for rowid, blob in sizes.items():
            got = counts.get(rowid, [0] * ncol)
            want = read_varints(blob)
            if [w for i, w in enumerate(want) if i not in storage.spec.unindexed] != \
                    [g for i, g in enumerate(got[: len(want)]) if i not in storage.spec.unindexed]:
                raise errors.malformed()
