"""Python floats as float8 literals under client-side binding.

psycopg's ClientCursor writes a float as a bare literal (``1e+308``), which
PostgreSQL reads as an exact NUMERIC: ``SELECT ? + ?`` of 0.1 and 0.2 gave 0.3
and 1e308 came back as a 309-digit integer.  SQLite computes with doubles, so
the literal is typed: ``'1e+308'::float8``.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.numeric import FloatDumper


class Float8LiteralDumper(FloatDumper):
    def quote(self, obj: Any) -> bytes:
        return b"'" + str(obj).encode() + b"'::float8"


def install(adapters: Any) -> None:
    adapters.register_dumper(float, Float8LiteralDumper)
