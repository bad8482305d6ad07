"""Run SQLite SQL the shim builds itself, on the server or in the shadow.

Statements keep the parameter markers ``:__hdb_pN`` of
``translate.params.scan`` (N = the application's parameter number), so a
rewritten statement binds the application's own values by number, however
many parameters the rewrite dropped or repeated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ... import binding
from ...translate import Translation, disk_cache
from ...translate.params import MARKER, marker_index

if TYPE_CHECKING:
    from ...connection import Connection

SQLITE_TEXT = "hdb_sqlite_text"  # tree.meta: the SQLite text a cached parse came from (issue 8)


def translation(conn: "Connection", text: str) -> Translation:
    dialect = conn._backend.dialect
    found = conn._local_cache.get(dialect, text)
    if found is None:  # issue 8: or kept on file by an earlier process
        found = disk_cache.translate_kept(text, dialect, conn._backend.server_version, conn._shadow)
        conn._local_cache.put(dialect, text, found)
    return found


def driver_params(tr: Translation, values: Sequence[Any]) -> tuple:
    """The values for each %s of ``tr``, taken from the application's numbering."""
    out = []
    for i in tr.order:
        name = tr.names[i] if i < len(tr.names) else None
        index = marker_index(name[1:]) if name else None
        out.append(values[index] if index is not None else None)
    bound = tuple(out)
    if tr.bound_rules:  # bound LIMIT/OFFSET and GLOB patterns, as the connection binds them
        bound = binding.apply_bound_rules(bound, tr.bound_rules)
    if tr.refused_values:
        binding.refuse_values(bound, tr.refused_values)
    return bound


def run(conn: "Connection", text: str, values: Sequence[Any]) -> tuple[tuple[str, ...] | None, list[tuple]]:
    """Execute marker SQL on the server; (column names, rows)."""
    tr = translation(conn, text)
    backend = conn._backend
    raw = backend.cursor()
    try:
        backend.execute(raw, tr.sql, driver_params(tr, values), table=tr.table)
        raw.json_typed, raw.tagged = tr.json_typed, tr.tagged  # values typed per row, as the connection decodes them
        return raw.names, raw.fetchall() if raw.names is not None else []
    finally:
        raw.close()


def in_shadow(conn: "Connection", text: str, values: Sequence[Any]) -> list[tuple]:
    """Evaluate marker SQL in the shadow SQLite (exact SQLite expression semantics)."""
    named = {f"{MARKER}{i + 1}": v for i, v in enumerate(values)}
    with conn._shadow.lock:
        return conn._shadow.db.execute(text, named).fetchall()
