"""The real standard-library ``sqlite3`` module, whatever ``sys.modules`` says.

A test harness may install ``hermes_dbapi`` as ``sys.modules["sqlite3"]``; a
lazy ``import sqlite3`` would then return this package itself.  We resolve the
genuine module once, at import time, and everything else imports it from here.
"""

from __future__ import annotations

import importlib
import sys
import types


def _is_stdlib_sqlite3(module: object) -> bool:
    return isinstance(module, types.ModuleType) and getattr(module, "__name__", "") == "sqlite3" and hasattr(
        module, "complete_statement"
    ) and not hasattr(module, "__hermes_dbapi__")


def _load() -> types.ModuleType:
    current = sys.modules.get("sqlite3")
    if _is_stdlib_sqlite3(current):
        return current  # type: ignore[return-value]
    # Someone (or nothing) sits at sys.modules["sqlite3"]: import the real one
    # under its own name, then put back whatever was there.
    saved = {name: sys.modules.pop(name) for name in ("sqlite3", "sqlite3.dbapi2") if name in sys.modules}
    try:
        module = importlib.import_module("sqlite3")
    finally:
        sys.modules.update(saved)
    return module


sqlite3 = _load()

#: sqlite3.LEGACY_TRANSACTION_CONTROL (Python 3.12+; a stand-in before): the
#: ``autocommit`` value that keeps isolation_level's implicit transactions
LEGACY = getattr(sqlite3, "LEGACY_TRANSACTION_CONTROL", -1)
HAS_AUTOCOMMIT = hasattr(sqlite3, "LEGACY_TRANSACTION_CONTROL")
