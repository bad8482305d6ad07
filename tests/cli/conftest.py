"""Helpers for the CLI tests: run ``hermes_dbapi.cli.main`` and capture its output."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hermes_dbapi.cli import main


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    def run(*argv: str) -> Result:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run
