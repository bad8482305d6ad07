"""Bring a connection's shadow catalog up to date with the server's schema.

Catalog reads (``sqlite_master``, schema PRAGMAs) must see tables another
connection created since this one loaded its shadow.  Reading the stored schema
and reconstructing foreign objects costs several catalog queries, so one cheap
query first takes a fingerprint of the namespace's schema (the stored schema's
cookie plus a digest of the server catalog: relations, columns, indexes,
triggers); when it is unchanged since the last load, nothing is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..backends.postgres import NAMESPACE_OID
from . import meta, store

if TYPE_CHECKING:
    from ..backends.base import Backend
    from ..connection import Connection

_FINGERPRINT = {
    "postgres": (  # one scan of pg_class (it has no index on the namespace alone)
        "WITH c AS MATERIALIZED (SELECT oid, relname::text || relkind::text || oid::text AS tag FROM pg_class"
        f"                        WHERE relnamespace = {NAMESPACE_OID})"
        " SELECT (SELECT count(*) || ':' || coalesce(sum(hashtext(tag)), 0) FROM c),"
        "        (SELECT count(*) || ':' || coalesce(sum(hashtext(c.tag || a.attname::text || a.atttypid::text"
        "                  || a.attnotnull::text || a.attnum::text)), 0)"
        "           FROM c JOIN pg_attribute a ON a.attrelid = c.oid WHERE a.attnum > 0 AND NOT a.attisdropped),"
        "        (SELECT count(*) || ':' || coalesce(sum(hashtext(t.tgname::text || c.tag)), 0)"
        "           FROM c JOIN pg_trigger t ON t.tgrelid = c.oid),"
        f"        (SELECT max(value) FROM {meta.TABLE} WHERE name = 'schema_version')"
    ),
    "mysql": (
        "SELECT (SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('.', TABLE_NAME, COLUMN_NAME,"
        "          COLUMN_TYPE, IS_NULLABLE, ORDINAL_POSITION))), 0))"
        "          FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()),"
        "       (SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('.', TABLE_NAME, INDEX_NAME,"
        "          COLUMN_NAME, SEQ_IN_INDEX))), 0))"
        "          FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()),"
        "       (SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('.', TABLE_NAME, TABLE_TYPE))), 0))"
        "          FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()),"
        "       (SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(TRIGGER_NAME)), 0))"
        "          FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE())"
    ),
}


def fingerprint(backend: "Backend") -> Any:
    """A value that changes whenever the namespace's schema does (None if unknown)."""
    sql = _FINGERPRINT.get(backend.kind)
    if sql is None:
        return None
    try:
        if backend.kind == "postgres" and not backend.has_table(meta.TABLE):
            sql = sql.replace(f"(SELECT max(value) FROM {meta.TABLE} WHERE name = 'schema_version')", "NULL")
        if backend.kind == "mysql" and backend.has_table(meta.TABLE):
            sql += f", (SELECT MAX(value) FROM {meta.TABLE} WHERE name = 'schema_version')"
        return tuple(backend.query(sql)[0])
    except Exception:  # the catalog cannot be read here: always reload
        return None


def shadow(conn: "Connection") -> None:
    stamp = fingerprint(conn._backend)
    if stamp is not None and stamp == getattr(conn, "_catalog_stamp", None):
        return
    conn._shadow.load(store.read(conn._backend))
    conn._catalog_stamp = stamp
