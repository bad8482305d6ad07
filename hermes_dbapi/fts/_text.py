"""Small text helpers shared by the FTS modules."""

from __future__ import annotations

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def ascii_lower(s: str) -> str:
    """Lower-case ASCII letters only, like ``sqlite3_stricmp`` compares."""
    return s.translate(_ASCII_LOWER)
