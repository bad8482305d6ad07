"""The target namespace: a shim connection to it plus its raw driver session.

Schema goes through the shim (``hermes_dbapi.connect``) so the shadow catalog
and the server types are exactly what the application will get; bulk rows go
through the same driver session (same sql_mode, collation, type loaders)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import hermes_dbapi

from ... import namespace as namespaces
from ... import url as urls
from ...catalog import store
from .progress import TABLE as PROGRESS_TABLE

INTERNAL = {store.TABLE, PROGRESS_TABLE}


def namespace_for(server: urls.ServerURL, source_path: str, pinned: str | None) -> str:
    """The namespace the shim uses for ``source_path`` (or ``pinned``)."""
    if pinned:
        return pinned
    if server.option("namespace"):
        return server.option("namespace")  # type: ignore[return-value]
    return namespaces.for_path(source_path, server.prefix)


def url_for(server: urls.ServerURL, name: str, password: str | None) -> str:
    """A URL string pinning ``namespace=name`` (the password re-inserted for the driver)."""
    options = [(k, v) for k, v in server.options if k != "namespace"] + [("namespace", name)]
    auth = ""
    if server.user:
        from urllib.parse import quote

        auth = quote(server.user, safe="") + (":" + quote(password, safe="") if password else "") + "@"
    host = (server.host or "") + (f":{server.port}" if server.port else "")
    return f"{server.scheme}://{auth}{host}/{server.dbname or ''}?{urlencode(options)}"


class TargetNamespace:
    def __init__(self, server: urls.ServerURL, name: str) -> None:
        self.server = server
        self.name = name
        self.conn: Any = hermes_dbapi.connect(url_for(server, name, server.password), isolation_level=None)
        self.backend = self.conn._backend  # the raw session; see the report: a public accessor would be nicer
        self.kind = self.backend.kind
        self.dialect = self.backend.dialect

    @property
    def raw(self) -> Any:
        """The driver connection (psycopg / PyMySQL), autocommit, in the namespace."""
        return self.backend.conn

    def describe(self) -> str:
        """Server kind and version, e.g. ``mariadb 10.11.6-MariaDB``."""
        version = self.backend.query("SHOW server_version" if self.kind == "postgres" else "SELECT VERSION()")[0][0]
        return f"{self.dialect} {str(version).split(' ')[0]}"

    def tables(self) -> list[str]:
        if self.kind == "postgres":
            sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = %s"
        else:
            sql = "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s"
        return sorted(str(r[0]) for r in self.backend.query(sql, (self.name,)))

    def user_tables(self) -> list[str]:
        return [t for t in self.tables() if t not in INTERNAL]

    def stored_schema(self) -> list[tuple[str, str, str, str]]:
        return store.read(self.backend)

    def reset(self) -> None:
        """Drop the namespace and reconnect (creating it empty)."""
        self.backend.drop_namespace()
        self.conn.close()
        self.__init__(self.server, self.name)  # type: ignore[misc]

    def quote(self, name: str) -> str:
        if self.kind == "postgres":
            return '"' + name.replace('"', '""') + '"'
        return "`" + name.replace("`", "``") + "`"

    def close(self) -> None:
        self.conn.close()
