"""A one-line progress bar (rows, rows/s, ETA) on a terminal; silent otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Meter:
    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = max(total, 0)
        self.done = 0
        self.started = time.monotonic()
        self._shown = 0.0
        self.label = ""

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def advance(self, rows: int, label: str = "") -> None:
        self.done += rows
        self.label = label or self.label
        now = time.monotonic()
        if self.enabled and now - self._shown >= 0.2:
            self._shown = now
            self._draw()

    def _draw(self) -> None:
        rate = self.rate
        eta = (self.total - self.done) / rate if rate > 0 and self.total > self.done else 0
        share = self.done / self.total if self.total else 1.0
        bar = "#" * int(share * 24)
        line = (
            f"\r[{bar:<24}] {share:6.1%} {self.done:,}/{self.total:,} rows  {rate:,.0f} rows/s  "
            f"ETA {int(eta) // 60}:{int(eta) % 60:02d}  {self.label[:30]:<30}"
        )
        self.stream.write(line)
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
