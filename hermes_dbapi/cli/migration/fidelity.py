"""Pre-flight: will every source value come back from its server column unchanged?

SQLite columns hold any storage class; a server column holds one type.  From
the source's per-column storage classes (one GROUP BY scan) and the server
column types the shim created, list the values that would not round-trip."""

from __future__ import annotations

_INTS = {"bigint", "integer", "int", "smallint", "tinyint", "mediumint"}
_FLOATS = {"double precision", "double", "real", "float"}
_TEXTS = {"text", "longtext", "mediumtext", "varchar", "char", "character varying", "tinytext"}
_BINARY = {"bytea", "longblob", "blob", "mediumblob", "varbinary", "binary", "tinyblob"}


def allowed(kind: str, server: str) -> set[str]:
    """Storage classes a server column type returns unchanged (None: not checked)."""
    if kind in _INTS:
        return {"integer", "null"}
    if kind in _FLOATS:
        return {"real", "null"}
    if kind == "numeric":
        return {"integer", "real", "null"}
    if kind in _TEXTS:
        return {"text", "null", "text+nul"}  # PostgreSQL: NUL escaped as the shim stores it (pg_text)
    if kind in _BINARY:
        return {"blob", "null"}
    return {"integer", "real", "text", "text+nul", "blob", "null"}


_WHY = {
    "text+nul": "text containing NUL characters",
    "integer": "INTEGER values",
    "real": "REAL values",
    "text": "TEXT values",
    "blob": "BLOB values",
}


def problems(table: str, classes: dict[str, dict[str, int]], types: dict[str, str], server: str) -> list[str]:
    """Human-readable reasons why values of ``table`` would not round-trip."""
    found = []
    for column, counts in classes.items():
        kind = types.get(column, "")
        for storage, n in sorted(counts.items()):
            if storage not in allowed(kind, server):
                found.append(
                    f"{table}.{column}: {n} {_WHY.get(storage, storage)} cannot be stored unchanged "
                    f"in a {server} {kind.upper()} column"
                )
    return found
