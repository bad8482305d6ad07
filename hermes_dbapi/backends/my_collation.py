"""Which collation makes MySQL/MariaDB text compare like SQLite's BINARY: bytes, NO PAD.

``utf8mb4_bin`` is a PAD SPACE collation: ``'a' = 'a '`` is true and ``''`` sorts
after ``'\\x01'``, also in UNIQUE keys, ``GROUP BY``, ``DISTINCT`` and ``min``/``max``.
MariaDB's ``utf8mb4_nopad_bin`` and MySQL 8's ``utf8mb4_0900_bin`` compare the
UTF-8 bytes with nothing padded.  Generated DDL names MariaDB's collation (the
translation does not know the server); :func:`for_namespace` puts the session's
own collation in its place.  Namespaces created before this change keep
``utf8mb4_bin`` throughout (mixing it with a NO PAD collation is an error).
"""

from __future__ import annotations

NOPAD = "utf8mb4_nopad_bin"  # what generated DDL names
LEGACY = "utf8mb4_bin"
_SUFFIX = "COLLATE=" + NOPAD


def text_collation(is_mariadb: bool, version: tuple[int, ...]) -> str:
    """The NO PAD binary collation this server has (utf8mb4_bin on a MySQL without one)."""
    if is_mariadb:
        return NOPAD if version >= (10, 2) else LEGACY
    return "utf8mb4_0900_bin" if version >= (8, 0, 17) else LEGACY


def for_namespace(sql: str, collation: str) -> str:
    """Swap the table collation ending a generated CREATE TABLE for ``collation``.

    Only the statement's last words are looked at, so no string literal is touched."""
    if collation != NOPAD and sql.endswith(_SUFFIX):
        return sql[: -len(NOPAD)] + collation
    return sql
