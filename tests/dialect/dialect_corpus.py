"""Loading, running and translating the golden dialect corpus (``dialects/corpus/*.json``).

A corpus file is a JSON list of cases; a case is data only:

``id``        unique name (file stem is prefixed automatically)
``setup``     list of SQLite statements run first (DDL and inserts)
``sql``       the SQLite statement under test
``params``    optional list (or dict for named parameters)
``after``     optional SELECT run afterwards on both sides (state check after DML)
``unordered`` optional: compare result rows as a multiset
``approx``    optional: compare floats to 1e-9 relative
``not_supported`` optional ``{"postgres"|"mariadb": reason}``: that backend must raise NotSupportedError
``xfail``     optional ``{"postgres"|"mariadb": reason}``: known mismatch (xfail, strict=False)
``postgres`` / ``mariadb``  golden translation text of ``sql``; an error is "!ClassName: message"

Regenerate the goldens with ``HERMES_UPDATE_GOLDEN=1 pytest tests/dialect -k golden``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).resolve().parents[2] / "dialects" / "corpus"
GOLDEN_DIALECTS = {"postgres": (15, 0), "mariadb": (10, 11)}
BACKEND_DIALECT = {"postgres": "postgres", "mysql": "mariadb"}


@dataclass
class Case:
    file: Path
    id: str
    data: dict[str, Any]

    @property
    def sql(self) -> str:
        return self.data["sql"]

    @property
    def setup(self) -> list[str]:
        return list(self.data.get("setup") or [])

    @property
    def params(self) -> Any:
        p = self.data.get("params")
        return p if p is not None else ()


def load_cases() -> list[Case]:
    cases: list[Case] = []
    seen: set[str] = set()
    for path in sorted(CORPUS_DIR.glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            case_id = f"{path.stem}:{entry['id']}"
            if case_id in seen:
                raise ValueError(f"duplicate corpus case id {case_id}")
            seen.add(case_id)
            cases.append(Case(path, case_id, entry))
    return cases


def _decode(value: Any) -> Any:
    """JSON params: {"blob": "hex"} stands for bytes."""
    if isinstance(value, dict) and set(value) == {"blob"}:
        return bytes.fromhex(value["blob"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    return value


@dataclass
class Outcome:
    names: tuple[str, ...] | None = None
    rows: list[tuple[Any, ...]] | None = None
    rowcount: int | None = None
    lastrowid: Any = None
    error: str | None = None
    after: list[tuple[Any, ...]] | None = None
    setup_error: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


def _typed(row: Any) -> tuple[Any, ...]:
    return tuple((type(v).__name__, v) for v in row)


def run(conn: Any, case: Case) -> Outcome:
    """Run a case on an sqlite3-shaped connection; never raises for SQL errors."""
    out = Outcome()
    for statement in case.setup:
        try:
            conn.execute(statement)
        except Exception as exc:
            out.setup_error = f"{statement!r}: {type(exc).__name__}: {exc}"
            return out
    try:
        cur = conn.execute(case.sql, _decode(case.params))
        out.names = tuple(d[0] for d in cur.description) if cur.description else None
        out.rows = [_typed(r) for r in cur.fetchall()] if cur.description else None
        out.rowcount = cur.rowcount
        out.lastrowid = cur.lastrowid
    except Exception as exc:
        out.error = type(exc).__name__
        out.detail["message"] = str(exc)
    out.detail["rowid_tables"] = _all_rowid_aliased(conn)
    if case.data.get("after"):
        try:
            out.after = [_typed(r) for r in conn.execute(case.data["after"]).fetchall()]
        except Exception as exc:
            out.after = [("error", f"{type(exc).__name__}: {exc}")]
    return out


def _all_rowid_aliased(conn: Any) -> bool:
    """lastrowid is comparable only if no table has an implicit rowid (servers have none)."""
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
        for table in tables:
            pk = conn.execute("SELECT type FROM pragma_table_info(?) WHERE pk > 0", (table,)).fetchall()
            if len(pk) != 1 or pk[0][0].upper() != "INTEGER":
                return False
    except Exception:
        return True
    return True


def _approx(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(_approx(x, y) for x, y in zip(a, b))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return all(_approx(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def differences(case: Case, ref: Outcome, got: Outcome) -> list[str]:
    """Human-readable list of the ways ``got`` differs from the sqlite3 reference."""
    problems: list[str] = []
    if ref.setup_error:
        raise AssertionError(f"corpus case {case.id}: setup fails on sqlite3: {ref.setup_error}")
    if got.setup_error:
        return [f"setup: {got.setup_error}"]
    if ref.error or got.error:
        if ref.error != got.error:
            problems.append(f"error: sqlite3 {ref.error} vs {got.error} ({got.detail.get('message')})")
    else:
        same = _approx if case.data.get("approx") else (lambda a, b: a == b)
        ref_rows, got_rows = ref.rows, got.rows
        if case.data.get("unordered") and ref_rows is not None and got_rows is not None:
            ref_rows, got_rows = sorted(ref_rows, key=repr), sorted(got_rows, key=repr)
            if Counter(map(repr, ref_rows)) != Counter(map(repr, got_rows)):
                problems.append(f"rows: sqlite3 {ref.rows!r} vs {got.rows!r}")
        elif not same(ref_rows, got_rows):
            problems.append(f"rows: sqlite3 {ref.rows!r} vs {got.rows!r}")
        if ref.names != got.names:
            problems.append(f"names: sqlite3 {ref.names!r} vs {got.names!r}")
        if ref.rowcount != got.rowcount:
            problems.append(f"rowcount: sqlite3 {ref.rowcount!r} vs {got.rowcount!r}")
        if ref.detail.get("rowid_tables", True) and ref.lastrowid != got.lastrowid:
            problems.append(f"lastrowid: sqlite3 {ref.lastrowid!r} vs {got.lastrowid!r}")
    if ref.after != got.after:
        problems.append(f"after: sqlite3 {ref.after!r} vs {got.after!r}")
    return problems


def translation_text(case: Case, dialect: str) -> str:
    """The golden text: what the translator makes of ``case.sql`` for ``dialect``."""
    from hermes_dbapi.catalog.shadow import Shadow
    from hermes_dbapi.translate import translate
    from hermes_dbapi.translate.context import Context

    shadow = Shadow()
    try:
        for statement in case.setup:
            if statement.lstrip().split(None, 1)[0].upper() in ("CREATE", "ALTER", "DROP"):
                shadow.apply(statement)
        ctx = Context(dialect=dialect, version=GOLDEN_DIALECTS[dialect], schema=shadow)
        try:
            return translate(case.sql, ctx).sql
        except Exception as exc:
            return f"!{type(exc).__name__}: {exc}"
    finally:
        shadow.close()


def update_goldens(cases: list[Case]) -> None:
    by_file: dict[Path, list[dict[str, Any]]] = {}
    for path in sorted(CORPUS_DIR.glob("*.json")):
        by_file[path] = json.loads(path.read_text(encoding="utf-8"))
    index = {(c.file, c.data["id"]): c for c in cases}
    for path, entries in by_file.items():
        for entry in entries:
            case = index[(path, entry["id"])]
            for dialect in GOLDEN_DIALECTS:
                entry[dialect] = translation_text(case, dialect)
        path.write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
