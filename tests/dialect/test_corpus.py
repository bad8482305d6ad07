"""Differential + golden tests over the dialect corpus in ``dialects/corpus``.

* ``test_corpus[case-backend]``: each case runs on the real ``sqlite3`` and through
  hermes_dbapi on the backend (its own namespace); rows with Python types, column
  names, rowcount, lastrowid and error classes must be identical.
* ``test_golden[case-dialect]``: the translation text must equal the golden one.
  Regenerate with ``HERMES_UPDATE_GOLDEN=1 pytest tests/dialect -k golden``.

Adding a case is adding an entry to a JSON file; see ``dialect_corpus.py``.
"""

from __future__ import annotations

import os
import sqlite3 as std_sqlite3

import pytest
from dialect_corpus import BACKEND_DIALECT, GOLDEN_DIALECTS, differences, load_cases, run, translation_text, update_goldens

CASES = load_cases()
UPDATE = bool(os.environ.get("HERMES_UPDATE_GOLDEN"))


@pytest.fixture(scope="module", autouse=True)
def _regenerate() -> None:
    if UPDATE:
        update_goldens(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus(case, backend, request) -> None:
    if backend.name == "sqlite":
        pytest.skip("the reference itself")
    dialect = BACKEND_DIALECT[backend.name]
    reason = (case.data.get("xfail") or {}).get(dialect)
    if reason:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=False))
    reference = std_sqlite3.connect(":memory:")
    try:
        ref = run(reference, case)
    finally:
        reference.close()
    shim = backend.connect(backend.path("case.db"))
    got = run(shim, case)
    unsupported = (case.data.get("not_supported") or {}).get(dialect)
    if unsupported:
        assert got.error == "NotSupportedError", f"expected NotSupportedError ({unsupported}), got {got}"
        return
    problems = differences(case, ref, got)
    assert not problems, f"{case.id} on {backend.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("dialect", list(GOLDEN_DIALECTS))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden(case, dialect: str) -> None:
    if UPDATE:
        pytest.skip("goldens regenerated")
    text = translation_text(case, dialect)
    expected = case.data.get(dialect)
    assert expected is not None, f"{case.id}: no golden for {dialect}; run with HERMES_UPDATE_GOLDEN=1"
    assert text == expected
