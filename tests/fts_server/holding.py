"""Another session holding a shim table, for tests of what the shim does meanwhile."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def held(backend: Any, shim: Any, table: str) -> Iterator[None]:
    """A raw PostgreSQL session holds ``table`` of ``shim``'s namespace (ACCESS
    EXCLUSIVE) until the block ends."""
    raw = backend.raw_connect()
    try:
        raw.execute(f'SET search_path = "{shim._backend.namespace}"')
        raw.execute("BEGIN")
        raw.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield
    finally:
        raw.execute("ROLLBACK")
        raw.close()
