"""issue 8: PyMySQL with column descriptions remembered.

For every result set PyMySQL parses one column-definition packet per column
into objects and works out each column's decoder; for a point SELECT that is
a large share of its client time, and the packets are byte for byte the same
each time a statement runs again.  This connection class keeps the parsed
form keyed by those bytes (a bounded table), so a repeated statement reads
the packets and reuses what was worked out.  Anything but a plain buffered
result takes PyMySQL's own path.
"""

from __future__ import annotations

from typing import Any

from pymysql import converters
from pymysql.connections import Connection as _Connection
from pymysql.connections import TEXT_TYPES, MySQLResult
from pymysql.constants import FIELD_TYPE
from pymysql.protocol import FieldDescriptorPacket

_BINARY_CHARSET = 63
_MAX_REMEMBERED = 512


def _decoding(conn: Any, field: FieldDescriptorPacket) -> tuple[str | None, Any]:
    """(text encoding, converter) of one column, as PyMySQL decides them."""
    kind = field.type_code
    if not conn.use_unicode:
        encoding = None
    elif kind == FIELD_TYPE.JSON:
        encoding = conn.encoding
    elif kind in TEXT_TYPES:
        encoding = None if field.charsetnr == _BINARY_CHARSET else conn.encoding
    else:
        encoding = "ascii"
    converter = conn.decoders.get(kind)
    return encoding, None if converter is converters.through else converter


class _RememberingResult(MySQLResult):
    def _get_descriptions(self) -> None:
        conn = self.connection
        key = tuple([conn._read_packet().get_all_data() for _ in range(self.field_count)])
        eof = conn._read_packet()
        if not eof.is_eof_packet():
            raise conn._protocol_error("expecting EOF after the column definitions")
        known = conn.remembered.get(key)
        if known is None:
            fields = [FieldDescriptorPacket(data, conn.encoding) for data in key]
            known = (
                fields,
                [_decoding(conn, f) for f in fields],
                tuple([f.description() for f in fields]),
            )
            if len(conn.remembered) >= _MAX_REMEMBERED:
                conn.remembered.clear()
            conn.remembered[key] = known
        self.fields, self.converters, self.description = list(known[0]), list(known[1]), known[2]


class Connection(_Connection):
    """A PyMySQL connection whose buffered results remember column descriptions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.remembered: dict[tuple[bytes, ...], tuple] = {}
        super().__init__(*args, **kwargs)

    def _protocol_error(self, what: str) -> Exception:
        from pymysql import err

        return err.InternalError(f"protocol error: {what}")

    def _read_query_result(self, unbuffered: bool = False) -> int:
        if unbuffered:
            return super()._read_query_result(unbuffered)
        self._result = None
        result = _RememberingResult(self)
        result.read()
        self._result = result
        if result.server_status is not None:
            self.server_status = result.server_status
        return result.affected_rows
