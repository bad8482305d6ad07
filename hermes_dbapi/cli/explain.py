"""Translate SQLite statements offline, as a server connection would, and say
what happens to each: the driver SQL, the shim handling it itself, or the
sqlite3 error / ``NotSupportedError`` the application would get."""

from __future__ import annotations

from dataclasses import dataclass

from .. import statements
from .._stdlib import sqlite3
from ..catalog.shadow import Shadow
from ..translate import translate
from ..translate.context import Context
from ..translate.params import scan

TARGETS = {"postgres": ("postgres", (15, 0)), "mysql": ("mysql", (8, 0, 0)), "mariadb": ("mariadb", (10, 11, 0))}


@dataclass(frozen=True)
class Outcome:
    sql: str  # the SQLite statement
    status: str  # "translated" | "shim" | "not_supported" | "error"
    output: str  # driver SQL, what the shim does, or the error text
    note: str = ""  # e.g. a table the input never created

    @property
    def ok(self) -> bool:
        return self.status in ("translated", "shim")


def _missing_object(exc: sqlite3.Error) -> bool:
    text = str(exc)
    return text.startswith(("no such table", "no such column", "no such index", "no such module")) or (
        "already exists" in text
    )


class Translator:
    """Statements in order against one schema view, for one target."""

    def __init__(self, target: str = "postgres", shadow: Shadow | None = None) -> None:
        self.dialect, self.version = TARGETS[target]
        self.shadow = shadow or Shadow()

    def script(self, text: str) -> list[Outcome]:
        return [self.statement(s) for s in statements.split_script(text)]

    def statement(self, sql: str) -> Outcome:
        keyword = statements.leading_keyword(sql)
        shown = sql.strip()
        control = statements.control(sql, keyword) if keyword else None
        if control:
            how = f"transaction control, run by the shim ({control.verb}"
            how += f" {control.mode})" if control.verb == "BEGIN" else ")"
            if control.verb == "BEGIN" and control.mode != "DEFERRED":
                how += " + the namespace write lock"
            return Outcome(shown, "shim", how)
        if keyword == "PRAGMA":
            return Outcome(shown, "shim", "PRAGMA: answered by the shim from its shadow catalog")
        note = ""
        params = scan(sql)
        problem = self.shadow.check(sql, params.count, params.names)
        if problem is not None:
            if not _missing_object(problem):
                return Outcome(shown, "error", f"{type(problem).__name__}: {problem}")
            note = f"{problem} (left to the server)"
        try:
            result = translate(sql, Context(dialect=self.dialect, version=self.version, schema=self.shadow))
        except sqlite3.NotSupportedError as exc:
            return Outcome(shown, "not_supported", f"NotSupportedError: {exc}", note)
        except sqlite3.Error as exc:
            return Outcome(shown, "error", f"{type(exc).__name__}: {exc}", note)
        except Exception as exc:  # a translator bug must not hide the other statements
            return Outcome(shown, "error", f"internal error: {type(exc).__name__}: {exc}", note)
        if result.is_ddl:
            try:
                self.shadow.apply(sql)
            except sqlite3.Error as exc:
                note = note or f"{exc} (not applied to the schema)"
        return Outcome(shown, "translated", result.sql, note)
