"""The ``diff`` fixture: a :class:`~.harness.Differ` for the test's backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Differ


@pytest.fixture
def diff(backend: Any, std: Any, tmp_path: Path) -> Iterator[Differ]:
    differ = Differ(backend, std, tmp_path)
    try:
        yield differ
    finally:
        differ.close()
