"""hermes_dbapi: the ``sqlite3`` module, on SQLite, PostgreSQL or MySQL/MariaDB.

``import hermes_dbapi as sqlite3`` and set ``HERMES_DB_URL``.  Unset, every
call is the standard ``sqlite3`` module's own.  Set to a ``postgresql://`` or
``mysql://`` URL, ``connect(path)`` opens the namespace that path maps to on
that server and the application's SQLite SQL is translated for it.

Everything the standard module exports is exported here too; the exception
classes and ``Row`` are the standard module's very objects, so code written
against either module catches and recognises the other's.
"""

from __future__ import annotations

import inspect
import os as _os
from typing import Any

from ._stdlib import sqlite3 as _std

__hermes_dbapi__ = True

# Re-export the standard module's public surface (constants, exceptions, Row,
# adapters, converters, complete_statement, version info ...).
for _name, _value in vars(_std).items():
    if not _name.startswith("_"):
        globals()[_name] = _value
del _name, _value

from . import url as _url  # noqa: E402
from .connection import Connection  # noqa: E402
from .cursor import Cursor  # noqa: E402
from .row import Row as Row  # noqa: E402  (the standard sqlite3.Row itself)

Cursor.register(_std.Cursor)

_MISSING = object()
_SIGNATURE = inspect.Signature(
    [
        inspect.Parameter("database", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("timeout", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=5.0),
        inspect.Parameter("detect_types", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0),
        inspect.Parameter("isolation_level", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=""),
        inspect.Parameter("check_same_thread", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=True),
        inspect.Parameter("factory", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
        inspect.Parameter("cached_statements", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=128),
        inspect.Parameter("uri", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=False),
        inspect.Parameter("autocommit", inspect.Parameter.KEYWORD_ONLY, default=_MISSING),
    ]
)


def connect(*args: Any, **kwargs: Any) -> Any:
    """Open a connection like ``sqlite3.connect``; where to is decided by
    :func:`hermes_dbapi.url.resolve` (``HERMES_DB_URL`` or a URL ``database``)."""
    try:
        bound = _SIGNATURE.bind(*args, **kwargs)
    except TypeError:
        return _std.connect(*args, **kwargs)  # let sqlite3 word the error
    options = {**{k: p.default for k, p in _SIGNATURE.parameters.items()}, **bound.arguments}
    target = _url.resolve(options["database"], bool(options["uri"]))
    if target is None:
        return _std.connect(*args, **kwargs)
    if options["autocommit"] is not _MISSING and not hasattr(_std, "LEGACY_TRANSACTION_CONTROL"):
        raise TypeError("'autocommit' is an invalid keyword argument for this function")
    return _open_server(target, options)


def _open_server(target: "_url.Target", options: dict[str, Any]) -> Connection:
    from . import namespace
    from .backends import open_backend

    factory = options["factory"]
    if factory is None or factory is _std.Connection:
        factory = Connection
    elif not (isinstance(factory, type) and issubclass(factory, Connection)):
        raise _std.NotSupportedError(
            f"factory {getattr(factory, '__name__', factory)!r} must subclass hermes_dbapi.Connection on a server"
        )
    timeout = float(options["timeout"])
    backend = open_backend(target, namespace.for_target(target), timeout=timeout)
    backend.file_path = _os.path.abspath(target.path) if target.path else ""  # PRAGMA database_list
    extra = {} if options["autocommit"] is _MISSING else {"autocommit": options["autocommit"]}
    try:
        return factory(
            backend,
            timeout=timeout,
            detect_types=int(options["detect_types"]),
            isolation_level=options["isolation_level"],
            check_same_thread=bool(options["check_same_thread"]),
            cached_statements=int(options["cached_statements"]),
            drop_on_close=target.memory,
            **extra,
        )
    except BaseException:
        backend.close()
        raise


def __getattr__(name: str) -> Any:
    # Names the standard module serves lazily (deprecated ones, with their warnings).
    return getattr(_std, name)


def backend_name() -> str:
    """The backend ``HERMES_DB_URL`` selects: ``sqlite``, ``postgres`` or ``mysql``."""
    configured = _url.from_environment()
    return "sqlite" if configured is None else configured.kind


__all__ = [n for n in dir(_std) if not n.startswith("_")] + ["backend_name"]
