"""Where a ``connect()`` call goes: the embedded SQLite default or a server.

The rule, in one place:

* ``HERMES_DB_URL`` unset, empty, ``sqlite:`` or ``sqlite://`` and no URL passed
  as ``database``: the standard ``sqlite3``, unchanged.
* ``postgresql://user[:pw]@host[:port]/db`` (also ``postgres://``) or
  ``mysql://…`` / ``mariadb://…``: that server.  The ``database`` argument of
  ``connect()`` then names a *namespace* (see :mod:`hermes_dbapi.namespace`).
* A URL passed directly as ``database`` wins over the environment.

Query options of the URL that hermes_dbapi itself reads (all others go to the
driver, e.g. ``sslmode``): ``namespace`` pins the namespace, ``prefix`` changes
the prefix of generated namespace names, ``memory=server`` puts ``:memory:``
databases on the server, ``lock`` picks the ``BEGIN IMMEDIATE`` strategy.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote, urlsplit

from ._stdlib import sqlite3

ENV_VAR = "HERMES_DB_URL"
DEFAULT_PREFIX = "hermes_"

_SCHEMES = {
    "postgresql": "postgres",
    "postgres": "postgres",
    "mysql": "mysql",
    "mariadb": "mysql",
}
_OWN_OPTIONS = {"namespace", "prefix", "memory", "lock"}
_PREFIX_RE = re.compile(r"^[a-z][a-z0-9_]{0,19}$")
_NAMESPACE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


@dataclass(frozen=True)
class ServerURL:
    """A parsed server URL.  ``repr`` and ``masked()`` never show the password."""

    kind: str  # "postgres" | "mysql"
    scheme: str
    user: str | None
    password: str | None = field(repr=False)
    host: str | None
    port: int | None
    dbname: str | None
    options: tuple[tuple[str, str], ...] = ()

    def option(self, name: str, default: str | None = None) -> str | None:
        for key, value in self.options:
            if key == name:
                return value
        return default

    @property
    def driver_options(self) -> dict[str, str]:
        return {k: v for k, v in self.options if k not in _OWN_OPTIONS}

    @property
    def prefix(self) -> str:
        return self.option("prefix", DEFAULT_PREFIX) or DEFAULT_PREFIX

    def masked(self) -> str:
        auth = ""
        if self.user:
            auth = self.user + (":***" if self.password else "") + "@"
        host = self.host or ""
        if self.port:
            host += f":{self.port}"
        query = "&".join(f"{k}={v}" for k, v in self.options)
        return f"{self.scheme}://{auth}{host}/{self.dbname or ''}" + (f"?{query}" if query else "")

    def __str__(self) -> str:
        return self.masked()


def _fail(message: str) -> sqlite3.OperationalError:
    err = sqlite3.OperationalError(message)
    err.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN
    err.sqlite_errorname = "SQLITE_CANTOPEN"
    return err


def is_server_url(text: object) -> bool:
    if not isinstance(text, str) or "://" not in text:
        return False
    return text.split("://", 1)[0].lower() in _SCHEMES


def is_sqlite_url(text: str) -> bool:
    return text.strip().lower() in ("", "sqlite:", "sqlite://", "sqlite")


def parse(text: str) -> ServerURL:
    """Parse a server URL or raise ``OperationalError`` naming the problem."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        raise _fail(f"malformed database URL {_mask_raw(text)!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        raise _fail(
            f"unknown database URL scheme {scheme!r} in {_mask_raw(text)!r}: "
            "expected postgresql://, mysql://, mariadb:// or sqlite:"
        )
    if not parts.hostname and scheme != "postgresql" and scheme != "postgres":
        raise _fail(f"malformed database URL {_mask_raw(text)!r}: no host")
    options = tuple(parse_qsl(parts.query, keep_blank_values=True))
    url = ServerURL(
        kind=_SCHEMES[scheme],
        scheme=scheme,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        host=parts.hostname,
        port=port,
        dbname=unquote(parts.path.lstrip("/")) or None,
        options=options,
    )
    _validate(url, text)
    return url


def _validate(url: ServerURL, text: str) -> None:
    prefix = url.option("prefix")
    if prefix is not None and not _PREFIX_RE.match(prefix):
        raise _fail(f"invalid prefix option {prefix!r} in {_mask_raw(text)!r}: use [a-z][a-z0-9_]{{0,19}}")
    namespace = url.option("namespace")
    if namespace is not None and not _NAMESPACE_RE.match(namespace):
        raise _fail(f"invalid namespace option {namespace!r} in {_mask_raw(text)!r}: use [A-Za-z_][A-Za-z0-9_]*")
    memory = url.option("memory")
    if memory is not None and memory not in ("sqlite", "server"):
        raise _fail(f"invalid memory option {memory!r} in {_mask_raw(text)!r}: use memory=sqlite or memory=server")
    lock = url.option("lock")
    if lock is not None and lock not in ("advisory", "table"):
        raise _fail(f"invalid lock option {lock!r} in {_mask_raw(text)!r}: use lock=advisory or lock=table")


def _mask_raw(text: str) -> str:
    """Mask the password of a URL that may not even parse."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)


def from_environment() -> ServerURL | None:
    """The server URL configured in ``HERMES_DB_URL``, or None for SQLite."""
    raw = os.environ.get(ENV_VAR, "")
    if is_sqlite_url(raw):
        return None
    return parse(raw)


@dataclass(frozen=True)
class Target:
    """What one ``connect()`` call opens on a server."""

    url: ServerURL
    path: str | None  # None: the URL itself was the database argument
    memory: bool = False
    read_only: bool = False


def resolve(database: object, uri: bool) -> Target | None:
    """Decide where ``connect(database, uri=uri)`` goes; None means real SQLite."""
    if isinstance(database, str) and is_server_url(database):
        return Target(url=parse(database), path=None)
    url = from_environment()
    if url is None:
        return None
    path = os.fspath(database) if isinstance(database, (str, os.PathLike)) else database
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return None  # let sqlite3 raise its own TypeError
    read_only = False
    memory = path in (":memory:", "")
    if uri and path.startswith("file:"):
        path, params = _split_file_uri(path)
        mode = params.get("mode", "rwc")
        read_only = mode == "ro"
        memory = memory or mode == "memory" or path in (":memory:", "")
    if memory and url.option("memory", "sqlite") != "server":
        return None
    return Target(url=url, path=None if memory else path, memory=memory, read_only=read_only)


def _split_file_uri(text: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(text)
    path = unquote(parts.path)
    if parts.netloc not in ("", "localhost"):
        raise _fail(f"invalid uri authority: {parts.netloc}")
    return path, dict(parse_qsl(parts.query, keep_blank_values=True))
