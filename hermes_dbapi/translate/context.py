"""What a rewrite pass may know besides the statement itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class SchemaView(Protocol):
    """Read-only questions about the namespace's SQLite schema (the shadow catalog)."""

    def columns(self, table: str) -> list[tuple[str, str, bool]]:
        """(name, declared type, part of a key) per column; [] if unknown."""
        ...

    def key_widths(self, table: str) -> dict[str, int]:
        """Per keyed column, the column count of the narrowest unique key holding it."""
        ...

    def rowid_column(self, table: str) -> str | None:
        """The INTEGER PRIMARY KEY column of a rowid table, if it has one."""
        ...


@dataclass
class Context:
    dialect: str  # "postgres" | "mysql" | "mariadb"
    version: tuple[int, ...]
    schema: SchemaView
    schema_dependent: bool = False  # a pass consulted the schema: cache per schema epoch
    table: str = ""  # target table of INSERT/UPDATE/DELETE, for error messages and lastrowid
    facts: dict[str, object] = field(default_factory=dict)

    @property
    def is_mysql(self) -> bool:
        return self.dialect in ("mysql", "mariadb")
