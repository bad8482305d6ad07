"""Hermes Agent's SessionDB test suite, unchanged, through ``import hermes_dbapi as sqlite3``.

The mission's bar: Hermes' own tests (``hermes-agent`` from PyPI, see
``tests/hermes_suite/suite.py``) run once per backend with ``sqlite3`` swapped for
``hermes_dbapi``; each Hermes test that passes on the real ``sqlite3`` must
pass on every backend.  One case here per Hermes test and backend; the ids
are listed in ``tests/hermes_suite/test_ids.txt`` (regenerate with
``python tests/hermes_suite/suite.py --ids``).  Tests that inspect the SQLite file
itself are listed, with the reason, in ``tests/hermes_suite/file_bound.txt``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hermes_suite import suite

HERE = Path(__file__).resolve().parent / "hermes_suite"
IDS = [line.strip() for line in (HERE / "test_ids.txt").read_text().splitlines() if line.strip()]


def _file_bound() -> dict[str, str]:
    reasons: dict[str, str] = {}
    for line in (HERE / "file_bound.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            test_id, _, reason = line.partition("#")
            reasons[test_id.strip()] = reason.strip()
    return reasons


FILE_BOUND = _file_bound()
_RUNS: dict[str, tuple[dict[str, str], dict[str, str]]] = {}


def _suite_run(key: str, url: str | None, swap: bool, tmp_dir: Path) -> tuple[dict[str, str], dict[str, str]]:
    if key not in _RUNS:
        report = tmp_dir / f"hermes-{key}.xml"
        try:
            results = suite.run(url, swap=swap, report=report)
        except RuntimeError as exc:
            if os.environ.get("CI"):
                pytest.fail(f"Hermes suite unavailable: {exc}")
            pytest.skip(f"Hermes suite unavailable: {exc}")
        _RUNS[key] = (results, suite.failure_texts(report))
    return _RUNS[key]


@pytest.fixture(scope="session")
def hermes_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hermes-suite")


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("test_id", IDS, ids=[i.removeprefix("tests.") for i in IDS])
def test_hermes_case(backend, test_id: str, hermes_tmp: Path) -> None:
    reference, _ = _suite_run("reference", None, False, hermes_tmp)
    if reference.get(test_id) != "passed":
        pytest.skip(f"not passing on the real sqlite3 here: {reference.get(test_id, 'not collected')}")
    if backend.is_server and test_id in FILE_BOUND:
        pytest.skip(f"file-bound: {FILE_BOUND[test_id]}")
    results, texts = _suite_run(backend.name, backend.url if backend.is_server else None, True, hermes_tmp)
    assert results.get(test_id) == "passed", texts.get(test_id, results.get(test_id, "not collected"))
