"""What a rewrite pass may know besides the statement itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

# The server column holding SQLite's implicit rowid of an ordinary table without
# an INTEGER PRIMARY KEY (translate/passes/rowid.py): never shown as a column.
HIDDEN_ROWID = "hdb_rowid"


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

    def relation_kind(self, table: str) -> str | None:
        """"table", "without_rowid", "view", "virtual", "shadow", or None if unknown."""
        ...

    def is_strict(self, table: str) -> bool:
        """True for a STRICT table."""
        ...

    def is_temp(self, table: str) -> bool:
        """True when ``table`` names a TEMP table."""
        ...

    def index_table(self, index: str) -> str | None:
        """The table ``index`` is on (a TEMP index first); None if there is no such index."""
        ...

    def implicit_rowid(self, table: str) -> bool:
        """True for an ordinary rowid table without a rowid alias (it has HIDDEN_ROWID)."""
        ...

    def star_columns(self, table: str) -> list[tuple[str, bool, bool]]:
        """(name, generated, quoted in its DDL) per column ``SELECT *`` shows, in order; [] if unknown."""
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
