"""The one error type of the FTS core.

The message text is exactly what SQLite reports (``fts5: syntax error near
"x"``, ``no such column: x`` ...); the DB-API layer re-raises it as
``sqlite3.OperationalError`` so applications that match on the text work.
"""

from __future__ import annotations


class FtsError(Exception):
    """An FTS5 error carrying SQLite's exact message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class FtsCorrupt(FtsError):
    """The index contradicts itself (FTS5's SQLITE_CORRUPT_VTAB, a DatabaseError)."""

    def __init__(self) -> None:
        super().__init__("database disk image is malformed")
