"""``hermes-dbapi translate --check PATH``: an assessment of a code base's SQL.

Every SQL literal found by :mod:`.sqlscan` is translated for each target.  The
schema comes from the literals themselves: CREATE statements are applied to a
shadow catalog first, so queries see the tables the application defines."""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import asdict, dataclass

from .. import statements
from .._stdlib import sqlite3
from ..catalog.shadow import Shadow
from .explain import Translator
from .sqlscan import Literal, literals, python_files


@dataclass
class Finding:
    file: str
    line: int
    target: str
    status: str
    reason: str
    sql: str
    approximate: bool


def _schema(found: list[Literal]) -> Shadow:
    shadow = Shadow()
    pending = [s for lit in found for s in statements.split_script(lit.text)
               if statements.leading_keyword(s) == "CREATE"]
    for _round in range(3):  # a few rounds, so creation order across files does not matter
        left = []
        for sql in pending:
            try:
                shadow.apply(sql)
            except sqlite3.Error:
                left.append(sql)
        pending = left
    return shadow


def assess(root: str, targets: list[str]) -> tuple[list[Finding], int, list[str]]:
    found: list[Literal] = []
    unreadable: list[str] = []
    files = 0
    for path in python_files(root):
        files += 1
        try:
            with open(path, encoding="utf-8") as handle:
                found.extend(literals(path, handle.read()))
        except (SyntaxError, UnicodeDecodeError, OSError) as exc:
            unreadable.append(f"{path}: {type(exc).__name__}: {exc}")
    findings: list[Finding] = []
    for target in targets:
        translator = Translator(target, _schema(found))
        for lit in found:
            for outcome in translator.script(lit.text):
                reason = outcome.output if not outcome.ok else (outcome.note or "")
                findings.append(
                    Finding(lit.path, lit.line, target, outcome.status, reason, outcome.sql, lit.approximate)
                )
    return findings, files, unreadable


def run(root: str, targets: list[str], fmt: str, strict: bool) -> int:
    findings, files, unreadable = assess(root, targets)
    counts = {t: Counter(f.status for f in findings if f.target == t) for t in targets}
    if fmt == "json":
        print(json.dumps({
            "root": root, "files": files, "unreadable": unreadable,
            "targets": {t: {k: counts[t].get(k, 0) for k in ("translated", "shim", "not_supported", "error")}
                        for t in targets},
            "findings": [asdict(f) for f in findings],
        }, indent=2))
    else:
        _print_text(root, files, unreadable, targets, counts, findings)
    bad = sum(c["not_supported"] + c["error"] for c in counts.values())
    return 1 if strict and bad else 0


def _print_text(root, files, unreadable, targets, counts, findings) -> None:
    statements_n = len(findings) // max(len(targets), 1)
    print(f"hermes-dbapi translate --check {root}: {files} Python files, {statements_n} SQL statements")
    for target in targets:
        c = counts[target]
        print(f"  {target:<9} translate {c['translated'] + c['shim']:>5}   NotSupported {c['not_supported']:>4}   "
              f"error {c['error']:>4}")
    problems = [f for f in findings if f.status in ("not_supported", "error")]
    if problems:
        print("\nproblems:")
    for f in problems:
        flag = " (f-string, approximate)" if f.approximate else ""
        print(f"  {f.file}:{f.line} [{f.target}] {f.status}: {f.reason}{flag}")
        print(f"      {' '.join(f.sql.split())[:110]}")
    for line in unreadable:
        print(f"  skipped {line}", file=sys.stderr)
