"""Fixtures of the catalog tests: the ``diff`` harness and the data files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api.harness import Differ

DATA = Path(__file__).resolve().parents[2] / "dialects" / "catalog"


def sections(path: Path, marker: str) -> dict[str, str]:
    """``-- <marker>: NAME`` headed blocks of a data file, by name ("" for the preamble)."""
    found: dict[str, str] = {}
    name = ""
    lines: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith(f"-- {marker}:"):
            found[name] = "\n".join(lines).strip()
            name, lines = line.split(":", 1)[1].strip(), []
        else:
            lines.append(line)
    found[name] = "\n".join(lines).strip()
    return found


def schemas() -> dict[str, str]:
    found = sections(DATA / "schemas.sql", "schema")
    found.pop("", None)
    return found


def error_cases() -> tuple[list[str], dict[str, list[Any]]]:
    """(setup statements, case name -> steps) from errors.sql."""
    found = sections(DATA / "errors.sql", "case")
    preamble = found.pop("")
    setup_text = preamble.split("-- setup", 1)[1]
    setup = [s.strip() for s in setup_text.split(";\n") if s.strip() and not s.strip().startswith("--")]
    cases: dict[str, list[Any]] = {}
    for name, text in found.items():
        steps: list[Any] = []
        for part in text.split("; "):
            sql, _, params = part.partition("|")
            steps.append(("sql", sql.strip(), tuple(json.loads(params))) if params else sql.strip())
        cases[name] = steps
    return setup, cases


@pytest.fixture
def diff(backend: Any, std: Any, tmp_path: Path) -> Iterator[Differ]:
    differ = Differ(backend, std, tmp_path)
    try:
        yield differ
    finally:
        differ.close()
