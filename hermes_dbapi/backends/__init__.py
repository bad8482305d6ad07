"""Server backends behind one small interface (see :mod:`.base`)."""

from __future__ import annotations

from ..url import Target
from .base import Backend


def open_backend(target: Target, namespace: str, *, timeout: float) -> Backend:
    """Connect to the server ``target`` names, inside ``namespace``."""
    if target.url.kind == "postgres":
        from .postgres import PostgresBackend

        return PostgresBackend.open(target, namespace, timeout=timeout)
    from .mysql import MySQLBackend

    return MySQLBackend.open(target, namespace, timeout=timeout)
