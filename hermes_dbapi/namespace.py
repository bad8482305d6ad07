"""The rule that maps a SQLite file path to a server namespace.

A namespace is a PostgreSQL schema or a MySQL/MariaDB database.  Its name is
``<prefix><stem>_<hash>``: the prefix (``hermes_`` unless the URL option
``prefix`` says otherwise) lets operators and test runs list and drop them, the
stem is the file name for humans, and the hash of the absolute, symlink-resolved
path keeps two different paths apart.  ``namespace=NAME`` in the URL pins it.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets

from .url import Target

_STEM_RE = re.compile(r"[^a-z0-9]+")


def for_path(path: str, prefix: str) -> str:
    absolute = os.path.realpath(path)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    stem = os.path.basename(absolute).rsplit(".", 1)[0].lower()
    stem = _STEM_RE.sub("_", stem).strip("_")[:24] or "db"
    return f"{prefix}{stem}_{digest}"


def for_memory(prefix: str) -> str:
    return f"{prefix}mem_{secrets.token_hex(6)}"


def for_target(target: Target) -> str:
    pinned = target.url.option("namespace")
    if pinned:
        return pinned
    if target.memory:
        return for_memory(target.url.prefix)
    if target.path is None:
        return f"{target.url.prefix}default"
    return for_path(target.path, target.url.prefix)
