"""Bring a connection's shadow catalog up to date with the server's schema.

Catalog reads (``sqlite_master``, schema PRAGMAs) must see tables another
connection created since this one loaded its shadow; reloading is skipped when
nothing changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import store

if TYPE_CHECKING:
    from ..connection import Connection


def shadow(conn: "Connection") -> None:
    conn._shadow.load(store.read(conn._backend))
