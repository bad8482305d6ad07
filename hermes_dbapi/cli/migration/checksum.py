"""Order-independent row checksums, computed identically on SQLite and a server.

Each row is hashed from ``marshal`` format 2 of its tuple of Python values
(type-tagged, so 1, 1.0, '1' and b'1' differ; floats bit-exact, -0.0 too; no
object references, so it depends on values only) and the 128-bit digests are summed: the
result depends on the multiset of rows, not on their order, and partial sums
from a resumed copy add up."""

from __future__ import annotations

from dataclasses import dataclass
import marshal
from hashlib import blake2b
from typing import Iterable

_MOD = 1 << 128


def row_digest(row: tuple) -> int:
    return int.from_bytes(blake2b(marshal.dumps(tuple(row), 2), digest_size=16).digest(), "little")


@dataclass
class Checksum:
    rows: int = 0
    total: int = 0

    def add(self, row: tuple) -> int:
        """Count and hash one row; return its serialized size (a cheap memory measure)."""
        data = marshal.dumps(tuple(row), 2)
        self.rows += 1
        self.total = (self.total + int.from_bytes(blake2b(data, digest_size=16).digest(), "little")) % _MOD
        return len(data)

    def add_all(self, rows: Iterable[tuple]) -> None:
        for row in rows:
            self.add(row)

    def merge(self, other: "Checksum") -> None:
        self.rows += other.rows
        self.total = (self.total + other.total) % _MOD

    @property
    def hex(self) -> str:
        return f"{self.total:032x}"

    @classmethod
    def parse(cls, rows: int, hexdigest: str) -> "Checksum":
        return cls(rows, int(hexdigest or "0", 16))
