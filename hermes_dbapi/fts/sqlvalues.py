"""SQLite's value conversions, for arguments of the auxiliary functions.

``snippet(t, '3', ...)`` or ``bm25(t, 'x')`` are legal SQL; FTS5 reads them
with ``sqlite3_value_int``/``_double``/``_text``.  These helpers convert
Python values the same way so results match for odd arguments too.
"""

from __future__ import annotations

import math
import re

_NUM_PREFIX = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_INT_PREFIX = re.compile(r"\s*([+-]?\d+)")


def _text_of(value: object) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "surrogateescape")
    if isinstance(value, float):
        return real_to_text(value)
    return str(value)


def sql_text(value: object) -> str | None:
    """A column value as FTS5 indexes it: ``sqlite3_value_text`` in full.

    NULL stays None; integers, reals and blobs become their SQLite text.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(int(value))
    return _text_of(value)


def _clamp64(v: int) -> int:
    return max(-(1 << 63), min((1 << 63) - 1, v))


def value_int64(value: object) -> int:
    """``sqlite3_value_int64``: integer prefix of text, truncation of reals."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return _clamp64(value)
    if isinstance(value, float):
        if math.isnan(value):
            return 0
        if value >= 9.223372036854775807e18:
            return (1 << 63) - 1
        if value <= -9.223372036854775808e18:
            return -(1 << 63)
        return int(value)
    m = _INT_PREFIX.match(_text_of(value))  # text: its integer prefix only
    return _clamp64(int(m.group(1))) if m else 0


def value_int(value: object) -> int:
    """``sqlite3_value_int``: the low 32 bits of the 64-bit value, signed."""
    v = value_int64(value) & 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def value_double(value: object) -> float:
    """``sqlite3_value_double``: numeric prefix of text, 0.0 for NULL/junk."""
    if value is None:
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    m = _NUM_PREFIX.match(_text_of(value))
    return float(m.group(1)) if m else 0.0


def value_text(value: object) -> str | None:
    """``sqlite3_value_text`` read as a C string (cut at the first NUL)."""
    text = sql_text(value)
    return None if text is None else text.split("\0", 1)[0]


def real_to_text(v: float) -> str:
    """SQLite's rendering of a REAL as text (``%!.15g``)."""
    if math.isnan(v):
        return ""
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    if v == 0:
        return "0.0"
    s = f"{v:.15g}"
    if "e" in s:
        mant, exp = s.split("e")
        if "." not in mant:
            mant += ".0"
        return f"{mant}e{exp}"
    if "." not in s:
        s += ".0"
    return s
