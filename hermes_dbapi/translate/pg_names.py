"""PostgreSQL names: every identifier in ASCII lower case, as SQLite compares them.

SQLite matches names without regard to ASCII case, quoted or not; PostgreSQL
folds a bare name to lower case and keeps a quoted one as written, so
``CREATE TABLE items (ID INTEGER PRIMARY KEY)`` made a column ``id`` that the
shim's own quoted ``"ID"`` (read from SQLite's catalog) did not find.  The
driver SQL therefore writes each identifier folded (quoted ones too), and the
shim's own SQL quotes names with :func:`quote`; SQLite's spelling stays the
application's (result names come from the shadow catalog).  A name the server
holds in another spelling (made quoted by an earlier version) is marked
:data:`EXACT` by ``passes/identifier_case.py`` and printed as it is.
"""

from __future__ import annotations

import string

EXACT = "hdb_exact"  # Identifier.meta: the server's own spelling, printed unfolded
_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def fold(name: str) -> str:
    """``name`` with its ASCII letters in lower case (others as they are, as in SQLite)."""
    return name.translate(_FOLD)


def quote(name: str) -> str:
    """``name`` as a quoted PostgreSQL identifier, folded."""
    return '"' + fold(name).replace('"', '""') + '"'
