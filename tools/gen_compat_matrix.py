#!/usr/bin/env python3
"""Write compat_matrix.md from the JUnit XML of a test run.

    python -m pytest --junitxml=/tmp/junit.xml
    python tools/gen_compat_matrix.py /tmp/junit.xml [-o compat_matrix.md]

Rows are test functions (``module::test`` or ``module::Class::test``), grouped by
feature: the first line of the test module's docstring, else the module name.
Columns are the backends sqlite / postgres / mysql, read from the ``[...]`` id of
each case (``test_x[postgres]``, ``test_x[mysql-3]``); tests without a backend
id go to a column "any".  A cell counts the cases of one row on one backend:

* ✅ n/n   every case passed
* ❌ p/n   at least one case failed or errored (p passed)
* NotSupported p/n   no failure, and every skipped case was skipped with a
  message starting "NotSupportedError"
* ⏭ p/n   no failure, some case skipped (or xfailed)

See tools/compat.sh for the one-step version.
"""

from __future__ import annotations

import argparse
import ast
import datetime as _dt
import re
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compat_sections  # noqa: E402

BACKENDS = ("sqlite", "postgres", "mysql")
ANY = "any"
ROOT = Path(__file__).resolve().parent.parent
_ID_RE = re.compile(r"^(?P<base>[^\[]+)(?:\[(?P<params>.*)\])?$", re.S)

PASS, FAIL, SKIP, NOTSUP = "pass", "fail", "skip", "notsupported"


@dataclass
class Cell:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    notsupported: int = 0  # skipped with a "NotSupportedError..." message

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped + self.notsupported

    def add(self, outcome: str) -> None:
        if outcome == PASS:
            self.passed += 1
        elif outcome == FAIL:
            self.failed += 1
        elif outcome == NOTSUP:
            self.notsupported += 1
        else:
            self.skipped += 1

    def merge(self, other: Cell) -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.notsupported += other.notsupported

    def render(self) -> str:
        if not self.total:
            return ""
        counts = f"{self.passed}/{self.total}"
        if self.failed:
            return f"❌ {counts}"
        if self.skipped:
            return f"⏭ {counts}"
        if self.notsupported:
            return f"NotSupported {counts}"
        return f"✅ {counts}"


@dataclass
class Row:
    module: str
    test: str  # "test_x" or "Class::test_x"
    cells: dict[str, Cell] = field(default_factory=dict)


def outcome_of(case: ET.Element) -> str:
    if case.find("failure") is not None or case.find("error") is not None:
        return FAIL
    skipped = case.find("skipped")
    if skipped is not None:
        message = skipped.get("message", "") or (skipped.text or "")
        return NOTSUP if message.lstrip().startswith("NotSupportedError") else SKIP
    return PASS


def split_name(name: str) -> tuple[str, str]:
    """``test_x[postgres-3]`` -> (``test_x``, backend or ANY)."""
    match = _ID_RE.match(name)
    if not match:
        return name, ANY
    base, params = match.group("base"), match.group("params")
    if not params:
        return base, ANY
    for token in params.split("-"):
        if token in BACKENDS:
            return base, token
    return base, ANY


def resolve_module(classname: str, root: Path) -> tuple[str, Path | None, str]:
    """``tests.test_x.TestC`` -> (``tests/test_x.py``, its path or None, ``TestC``)."""
    parts = classname.split(".")
    for i in range(len(parts), 0, -1):
        candidate = root.joinpath(*parts[:i]).with_suffix(".py")
        if candidate.is_file():
            return "/".join(parts[:i]) + ".py", candidate, "::".join(parts[i:])
    # not found on disk: a class name starts with an upper-case letter by convention
    i = len(parts)
    while i > 1 and parts[i - 1][:1].isupper():
        i -= 1
    return "/".join(parts[:i]) + ".py", None, "::".join(parts[i:])


_feature_cache: dict[Path | None, str | None] = {}


def module_feature(path: Path | None) -> str | None:
    if path not in _feature_cache:
        feature = None
        if path is not None:
            try:
                doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            except (OSError, SyntaxError, ValueError):
                doc = None
            if doc and doc.strip():
                feature = doc.strip().splitlines()[0].strip()
        _feature_cache[path] = feature
    return _feature_cache[path]


def read_report(xml_path: Path) -> tuple[list[ET.Element], dict[str, str], str | None]:
    tree = ET.parse(xml_path)
    top = tree.getroot()
    suites = [top] if top.tag == "testsuite" else list(top.iter("testsuite"))
    cases: list[ET.Element] = []
    props: dict[str, str] = {}
    timestamp = None
    for suite in suites:
        timestamp = timestamp or suite.get("timestamp")
        for prop in suite.iter("property"):
            if prop.get("name"):
                props[prop.get("name")] = prop.get("value", "")
        cases.extend(suite.iter("testcase"))
    return cases, props, timestamp


def build(cases: list[ET.Element], root: Path) -> tuple[OrderedDict[str, list[Row]], list[str]]:
    outcomes: dict[tuple[str, str], str] = {}
    for case in cases:
        key = (case.get("classname", ""), case.get("name", ""))
        outcome = outcome_of(case)
        # one case reported twice (e.g. passed, then a teardown error): a failure wins
        if key not in outcomes or outcome == FAIL:
            outcomes[key] = outcome
    rows: dict[tuple[str, str], Row] = {}
    features: dict[tuple[str, str], str] = {}
    for (classname, name), outcome in outcomes.items():
        base, backend = split_name(name)
        module, path, cls = resolve_module(classname, root)
        test = f"{cls}::{base}" if cls else base
        row = rows.setdefault((module, test), Row(module, test))
        row.cells.setdefault(backend, Cell()).add(outcome)
        features.setdefault((module, test), module_feature(path) or module.removesuffix(".py").replace("/", "."))
    grouped: OrderedDict[str, list[Row]] = OrderedDict()
    for key in sorted(rows, key=lambda k: (features[k].lower(), k[0], k[1])):
        grouped.setdefault(features[key], []).append(rows[key])
    columns = list(BACKENDS)
    if any(ANY in row.cells for row in rows.values()):
        columns.append(ANY)
    return grouped, columns


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def corpus_outcomes(cases: list[ET.Element]) -> dict[tuple[str, str], str]:
    """(backend, corpus case id) -> outcome, for the Dialect constructs section."""
    found: dict[tuple[str, str], str] = {}
    for case in cases:
        match = compat_sections.CORPUS_ID.match(case.get("name", ""))
        if match and "test_corpus" in case.get("classname", ""):
            key = (match.group("backend"), match.group("case"))
            if key not in found or outcome_of(case) == FAIL:
                found[key] = outcome_of(case)
    return found


def render(grouped: OrderedDict[str, list[Row]], columns: list[str], props: dict[str, str], when: str,
           extra: list[str] = ()) -> str:
    python = props.get("python_version") or sys.version.split()[0]
    versions = [f"Python {python}"]
    if props.get("sqlite_version"):
        versions.append(f"SQLite {props['sqlite_version']}")
    if props.get("postgres_version"):
        versions.append(f"PostgreSQL {props['postgres_version'].split()[0]}")
    if props.get("mysql_version"):
        versions.append(f"MySQL/MariaDB {props['mysql_version']}")
    out = [
        "<!-- GENERATED FILE: do not edit by hand. Regenerate with tools/compat.sh"
        " (tools/gen_compat_matrix.py over a pytest --junitxml report). -->",
        "",
        "# hermes_dbapi compatibility matrix",
        "",
        f"Generated by `tools/gen_compat_matrix.py` from a test run on {when}, with {', '.join(versions)}."
        " Do not edit by hand: run `tools/compat.sh` (or `tox -e compat`) to regenerate.",
        "",
        "Cells count test cases as passed/total: ✅ all passed, ❌ some failed, "
        "⏭ some skipped, NotSupported = skipped with `NotSupportedError`.",
        "",
        "## Summary",
        "",
        "| Feature | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    totals = {c: Cell() for c in columns}
    for feature, rows in grouped.items():
        agg = {c: Cell() for c in columns}
        for row in rows:
            for c in columns:
                if c in row.cells:
                    agg[c].merge(row.cells[c])
                    totals[c].merge(row.cells[c])
        out.append(f"| {_md(feature)} | " + " | ".join(agg[c].render() for c in columns) + " |")
    out.append("| **all** | " + " | ".join(totals[c].render() for c in columns) + " |")
    out += ["", "## Tests", "", "| Feature | Test | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for feature, rows in grouped.items():
        for i, row in enumerate(rows):
            label = _md(feature) if i == 0 else ""
            cells = " | ".join(row.cells[c].render() if c in row.cells else "" for c in columns)
            out.append(f"| {label} | `{row.module}::{row.test}` | {cells} |")
    return "\n".join([*out, *extra]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junit_xml", type=Path, nargs="+", help="report(s) written by pytest --junitxml=PATH")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "compat_matrix.md")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root the test modules are under")
    args = parser.parse_args(argv)
    cases: list[ET.Element] = []
    props: dict[str, str] = {}
    timestamp = None
    for report in args.junit_xml:  # one per backend when tools/test.sh ran them in parallel
        if not report.is_file():
            parser.error(f"no such report: {report}")
        more, more_props, stamp = read_report(report)
        cases += more
        props = {**more_props, **props}
        timestamp = timestamp or stamp
    if not cases:
        print(f"gen_compat_matrix: {', '.join(map(str, args.junit_xml))} hold no test cases", file=sys.stderr)
        return 1
    when = (timestamp or _dt.datetime.now(_dt.timezone.utc).isoformat())[:10]
    grouped, columns = build(cases, args.root.resolve())
    extra = compat_sections.corpus_section(corpus_outcomes(cases)) + compat_sections.errors_section()
    args.output.write_text(render(grouped, columns, props, when, extra), encoding="utf-8")
    print(f"gen_compat_matrix: wrote {args.output} ({len(cases)} cases, {sum(map(len, grouped.values()))} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
