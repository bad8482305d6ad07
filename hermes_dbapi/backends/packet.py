"""MySQL/MariaDB refuse a statement larger than ``max_allowed_packet``.

The server answers an oversized packet by closing the connection, which would
surface as a lost connection.  Before sending a statement with large values we
compare its size with the server's limit and raise a clear ``OperationalError``
naming ``max_allowed_packet`` instead; the connection stays usable.  Small
statements (virtually all) cost one pass over the parameter lengths.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .. import errors

# Below this many bytes of str/bytes parameters no statement can reach any
# max_allowed_packet a server accepts (the minimum is 1024, the default 16 MB;
# PyMySQL's client-side default is 16 MB too): skip the exact check.
_QUICK = 1 << 20


def raw_size(params: Sequence[Any]) -> int:
    """An upper bound of the characters/bytes the values add, before escaping."""
    total = 0
    for value in params:
        if type(value) is str or type(value) is bytes:
            total += len(value)
    return total


def check(sql: str, params: Sequence[Any], limit: Callable[[], int], render: Callable[[], bytes]) -> None:
    """Raise ``OperationalError`` when ``sql`` with ``params`` would exceed the limit.

    ``limit()`` reads the server's ``max_allowed_packet`` (asked only for big
    statements); ``render()`` builds the exact statement bytes the driver sends.
    """
    if raw_size(params) * 4 + len(sql) < _QUICK:
        return
    maximum = limit()
    least = raw_size(params) + len(sql)  # escaping and UTF-8 only make it longer
    if least * 4 < maximum:
        return
    size = least if least >= maximum else len(render())
    if size + 1 > maximum:  # +1: the command byte of COM_QUERY
        raise errors.operational(
            f"string or blob too big: the statement is {'at least ' if size == least else ''}{size} bytes, over the server's "
            f"max_allowed_packet of {maximum} bytes (raise max_allowed_packet on the server "
            "to store values this large)",
            "SQLITE_TOOBIG",
        )
