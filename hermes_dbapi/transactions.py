"""SQLite's transaction verbs on a server: BEGIN modes, COMMIT, savepoints.

SQLite's rules, reproduced with its messages: a SAVEPOINT outside a
transaction starts one, and RELEASE of that outermost savepoint commits it;
RELEASE and ROLLBACK TO name a savepoint or fail with ``no such savepoint``.
"""

from __future__ import annotations

from . import errors
from typing import Any

from .backends.base import Backend
from .statements import Control, savepoint_identifier


class Transactions:
    def __init__(self, backend: Backend, shadow: Any = None) -> None:
        self.backend = backend
        self.shadow = shadow  # reloaded when a transaction with DDL dies with its connection
        self.savepoints: list[str] = []  # SQLite names, innermost last (case-folded)
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
        self.backend.rollback()
        self._sync()

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
            return False
        self.backend.savepoint("ROLLBACK TO SAVEPOINT", savepoint_identifier(name))
        del self.savepoints[depth + 1 :]
        return False
