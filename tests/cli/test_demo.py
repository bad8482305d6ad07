"""``hermes-dbapi demo``: the example SessionDB on the configured backend (issue 7, item 4)."""

from __future__ import annotations

import re


def test_demo_runs_and_reports_what_it_did(backend, cli):
    result = cli("demo", "--path", backend.path("demo.db"))
    assert result.code == 0, result.err
    assert f"backend: {backend.name}" in result.out
    assert len(re.findall(r"^created session demo-", result.out, re.M)) == 2
    assert len(re.findall(r"^  appended message \d+ ", result.out, re.M)) == 4
    assert "search 'search sessions' (FTS5, best first): 2 hit(s)" in result.out
    assert result.out.count(">>>search<<<") == 2
    assert len(re.findall(r"^  session demo-\w+ \[cli\] 'Demo session \d'", result.out, re.M)) == 2
