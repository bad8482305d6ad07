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
from .cursor import Cursor as Cursor  # noqa: E402
from .row import Row as Row  # noqa: E402  (the standard sqlite3.Row itself)

from . import stdclass as _stdclass  # noqa: E402


def connect(*args: Any, **kwargs: Any) -> Any:
    """Open a connection like ``sqlite3.connect``; where to is decided by
    :func:`hermes_dbapi.url.resolve` (``HERMES_DB_URL`` or a URL ``database``).

    On a server the ``factory`` is called as sqlite3 calls it, with all the
    arguments: ``Connection`` (the default) and its subclasses open the server
    connection themselves; a subclass of the standard ``sqlite3.Connection`` is
    combined with ``Connection`` (see :func:`hermes_dbapi.stdclass.on_server`)."""
    options = _stdclass.connect_options(args, kwargs)
    if options is None:
        return _std.connect(*args, **kwargs)  # let sqlite3 word the error
    target = _url.resolve(options["database"], bool(options["uri"]))
    if target is None:
        return _std.connect(*args, **kwargs)
    factory = Connection if options["factory"] is _stdclass.MISSING else options["factory"]
    conn = _stdclass.adapt_factory(factory, _std.Connection, Connection)(*args, **kwargs)
    if isinstance(conn, _std.Connection) and getattr(conn, "_backend", None) is None:
        conn.close()  # the factory opened a SQLite file by itself: never a silent fallback
        raise _std.NotSupportedError(
            f"factory {getattr(factory, '__qualname__', factory)!r} returned a SQLite connection for a server URL"
        )
    return conn


def __getattr__(name: str) -> Any:
    # Names the standard module serves lazily (deprecated ones, with their warnings).
    return getattr(_std, name)


def backend_name() -> str:
    """The backend ``HERMES_DB_URL`` selects: ``sqlite``, ``postgres`` or ``mysql``."""
    configured = _url.from_environment()
    return "sqlite" if configured is None else configured.kind


__all__ = [n for n in dir(_std) if not n.startswith("_")] + ["backend_name"]
