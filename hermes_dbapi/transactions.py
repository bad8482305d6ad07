"""SQLite's transaction verbs on a server: BEGIN modes, COMMIT, savepoints.

SQLite's rules, reproduced with its messages: a SAVEPOINT outside a
transaction starts one, and RELEASE of that outermost savepoint commits it;
RELEASE and ROLLBACK TO name a savepoint or fail with ``no such savepoint``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from . import errors

from .backends.base import Backend
from .statements import Control, savepoint_identifier


class Transactions:
    def __init__(self, backend: Backend, shadow: Any = None) -> None:
        self.backend = backend
        self.shadow = shadow  # reloaded when a transaction with DDL dies with its connection
        self.savepoints: list[str] = []  # SQLite names, innermost last (case-folded)
        # Tables whose sequences handed out ids in this transaction, in order (the first
        # INSERT per table and savepoint), and how many entries each savepoint saw: a
        # rollback hands them to ``rewind`` (SQLite reuses the ids of rolled-back rows;
        # a server sequence is not transactional).
        self.drawn: list[tuple[str, str, int | None]] = []  # (table, rowid column, floor: see connection.py)
        self._marks: list[int] = []
        self.rewind: Callable[[Sequence[tuple[str, str, int | None]]], None] = lambda drawn: None
        self.started_by_savepoint = False
        self._ddl_in_transaction = False
        self._lost_seen = getattr(backend, "lost_transactions", 0)
        self._schema_stale = False
        from .triggers.fresh import Freshness

        self._fresh = Freshness()
        if shadow is not None:
            self._fresh.prime(backend)

    def _sync(self) -> None:
        """Forget our savepoints if the server ended the transaction (MySQL DDL,
        or a lost connection: see ``backends/faults.py``)."""
        if not self.backend.in_transaction:
            self.savepoints.clear()
            self._marks.clear()
            self.drawn.clear()
            self.started_by_savepoint = False
            lost = getattr(self.backend, "lost_transactions", 0)
            if lost != self._lost_seen:  # issue 5: the server rolled our transaction back
                self._lost_seen = lost
                if self._ddl_in_transaction:
                    self._ddl_in_transaction = False
                    self._schema_stale = True
            if self._schema_stale:
                self._reload_schema()

    def _reload_schema(self) -> None:
        """The shadow catalog again as the server has it (the lost transaction's DDL
        was rolled back); best effort: a stale shadow also heals on a missing object."""
        if self.shadow is None:
            self._schema_stale = False
            return
        from .catalog import store

        try:
            self.shadow.load(store.read(self.backend))
        except Exception:
            return  # the server is still away: try again at the next transaction
        self._schema_stale = False

    def begin(self, mode: str) -> None:
        self._sync()
        mode = mode.upper() or "DEFERRED"
        probe = self._fresh.probe(self.backend, self.shadow)  # DDL of other connections (e.g. triggers)
        if probe is None:
            self.backend.begin(mode)
            self._fresh.check(self.backend, self.shadow)
        else:
            self._fresh.check(self.backend, self.shadow, self.backend.begin_and_query(mode, probe))

    def commit(self) -> None:
        self.backend.commit()
        self._sync()

    def rollback(self) -> None:
        drawn, self.drawn = self.drawn, []
        self.backend.rollback()
        self._sync()
        self._rewind(drawn)

    def drew_ids(self, table: str, column: str, floor: int | None) -> None:
        """An INSERT in this transaction took ids from ``table``'s sequence; on a rollback
        it goes back to ``floor`` or max(column), whichever is higher (None: it stays)."""
        if not self.backend.in_transaction:
            return
        since = self._marks[-1] if self._marks else 0  # one entry per table and savepoint: the first
        for i in range(since, len(self.drawn)):
            if self.drawn[i][0] == table:
                return
        self.drawn.append((table, column, floor))

    def _rewind(self, drawn: Sequence[tuple[str, str, int | None]]) -> None:
        if drawn:
            self.rewind(drawn)

    def note_ddl(self) -> None:
        if self.backend.in_transaction:
            self._ddl_in_transaction = True

    def take_ddl_flag(self) -> bool:
        flag, self._ddl_in_transaction = self._ddl_in_transaction, False
        return flag

    def run(self, control: Control) -> bool:
        """Run one control statement; True when it ended the transaction."""
        self._sync()
        verb = control.verb
        active = self.backend.in_transaction
        if verb == "BEGIN":
            if active:
                raise errors.operational("cannot start a transaction within a transaction")
            self.begin(control.mode)
            return False
        if verb == "COMMIT":
            if not active:
                raise errors.operational("cannot commit - no transaction is active")
            self.commit()
            return True
        if verb == "ROLLBACK" and control.savepoint is None:
            if not active:
                raise errors.operational("cannot rollback - no transaction is active")
            self.rollback()
            return True
        name = (control.savepoint or "").lower()
        if verb == "SAVEPOINT":
            if not active:
                self.begin("DEFERRED")
                self.started_by_savepoint = True
            self.backend.savepoint("SAVEPOINT", savepoint_identifier(name))
            self.savepoints.append(name)
            self._marks.append(len(self.drawn))
            return False
        if name not in self.savepoints:
            raise errors.operational(f"no such savepoint: {control.savepoint}")
        depth = len(self.savepoints) - 1 - self.savepoints[::-1].index(name)
        if verb == "RELEASE":
            if depth == 0 and self.started_by_savepoint:
                self.commit()
                return True
            self.backend.savepoint("RELEASE SAVEPOINT", savepoint_identifier(name))
            del self.savepoints[depth:]
            del self._marks[depth:]
            return False
        self.backend.savepoint("ROLLBACK TO SAVEPOINT", savepoint_identifier(name))
        del self.savepoints[depth + 1 :]
        del self._marks[depth + 1 :]
        undone = self.drawn[self._marks[depth]:]
        del self.drawn[self._marks[depth]:]
        self._rewind(undone)
        return False
