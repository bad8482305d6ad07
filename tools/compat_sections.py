"""Extra sections of compat_matrix.md: dialect constructs and server errors.

* **Dialect constructs**: the corpus cases (``dialects/corpus/*.json``, one
  file per construct family) with each backend's outcome in the test run, and
  every case that is not identical with the reason the corpus gives.
* **Server errors**: each PostgreSQL SQLSTATE and MariaDB error number the
  error registry maps (``hermes_dbapi/errors``), and the sqlite3 exception it
  becomes, produced by running the registry's own rule on a sample error.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
CORPUS_ID = re.compile(r"^test_corpus\[(?P<backend>sqlite|postgres|mysql)-(?P<case>[^\]]+)\]$")
_SHOWN = {"pass": "✅", "fail": "❌", "skip": "⏭", "notsupported": "NotSupported"}
_DIALECT = {"postgres": "postgres", "mysql": "mariadb"}


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def corpus_section(outcomes: dict[tuple[str, str], str]) -> list[str]:
    """``outcomes``: (backend, "file:case") -> pass/fail/skip/notsupported."""
    cases = {}
    for path in sorted((ROOT / "dialects" / "corpus").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            cases[f"{path.stem}:{entry['id']}"] = entry
    if not cases:
        return []
    family: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    odd: list[str] = []
    for case_id, entry in cases.items():
        stem = case_id.split(":", 1)[0]
        notes = []
        for backend in ("postgres", "mysql"):
            outcome = outcomes.get((backend, case_id))
            if outcome is None:
                continue
            cell = family[stem][backend]
            cell[1] += 1
            cell[0] += outcome == "pass"
            dialect = _DIALECT[backend]
            reason = (entry.get("not_supported") or {}).get(dialect) or (entry.get("xfail") or {}).get(dialect)
            if outcome != "pass" or reason:
                notes.append(f"{backend}: {_SHOWN[outcome]} {reason or ''}".rstrip())
        if notes:
            odd.append(f"| `{case_id}` | {_md('; '.join(notes))} |")
    out = [
        "",
        "## Dialect constructs",
        "",
        "The golden corpus (`dialects/corpus/`, one file per construct family), each case run on real SQLite and "
        "through hermes_dbapi: identical results / cases.",
        "",
        "| Construct family | postgres | mysql |",
        "|---|---|---|",
    ]
    for stem in sorted(family):
        cells = [f"{family[stem][b][0]}/{family[stem][b][1]}" for b in ("postgres", "mysql")]
        out.append(f"| `{stem}` | " + " | ".join(cells) + " |")
    out += ["", "Cases that are not identical, or are declared `not_supported` / `xfail` in the corpus:", ""]
    out += ["| Case | Status |", "|---|---|", *odd] if odd else ["None."]
    return out


class _PgDiag(SimpleNamespace):
    pass


_PG_SAMPLE = {
    "42P01": 'relation "t" does not exist',
    "42703": 'column "c" does not exist',
    "42P07": 'relation "t" already exists',
    "42701": 'column "c" of relation "t" already exists',
    "42601": 'syntax error at or near "x"',
    "42883": "function f(integer) does not exist",
}
_MY_SAMPLE = {
    1062: "Duplicate entry 'v' for key 'PRIMARY'",
    1586: "Duplicate entry 'v' for key 'PRIMARY'",
    1048: "Column 'c' cannot be null",
    1364: "Field 'c' doesn't have a default value",
    3819: "Check constraint 't_chk_1' is violated",
    4025: "CONSTRAINT `t_chk_1` failed for `db`.`t`",
    1146: "Table 'db.t' doesn't exist",
    1051: "Unknown table 'db.t'",
    1054: "Unknown column 'c' in 'field list'",
    1050: "Table 't' already exists",
    1061: "Duplicate key name 'i'",
    1060: "Duplicate column name 'c'",
    1064: "You have an error in your SQL syntax; check the manual near 'x' at line 1",
    1149: "You have an error in your SQL syntax; check the manual near 'x' at line 1",
    1305: "FUNCTION db.f does not exist",
    1690: "BIGINT value is out of range in 'abs(x)'",
}


def _describe(exc: BaseException) -> tuple[str, str, str]:
    return type(exc).__name__, str(exc), getattr(exc, "sqlite_errorname", "") or ""


def errors_section() -> list[str]:
    sys.path.insert(0, str(ROOT))
    try:
        import psycopg.errors
        from pymysql.constants import ER

        from hermes_dbapi.errors import mysql, postgres
    except ImportError as exc:  # the drivers are dependencies; say so rather than omit silently
        return ["", "## Server errors", "", f"(not generated: {exc})"]
    out = [
        "",
        "## Server errors",
        "",
        "Each server condition the error registry (`hermes_dbapi/errors/`) maps, and the sqlite3 exception it "
        "becomes: produced by running the registry's rule on a sample error for table `t`, column `c`. "
        "Conditions not listed keep the server's message as `OperationalError` (`IntegrityError` for class 23).",
        "",
        "| Server | Condition | sqlite3 class | Message | sqlite_errorname |",
        "|---|---|---|---|---|",
    ]

    def pg_lookup(sql: str, params: tuple) -> list:
        return ["c"]

    for code, rule in postgres.TABLE.items():
        try:
            name = psycopg.errors.lookup(code).__name__ if len(code) == 5 else f"class {code}"
        except KeyError:
            name = code
        diag = _PgDiag(table_name="t", column_name="c", constraint_name="t_c_key",
                       message_primary=_PG_SAMPLE.get(code, "server message"))
        cls, message, errorname = _describe(rule(SimpleNamespace(sqlstate=code, diag=diag), pg_lookup))
        out.append(f"| PostgreSQL | `{code}` {name} | {cls} | {_md(message)} | {errorname} |")
    names = {v: k for k, v in vars(ER).items() if isinstance(v, int)}

    def my_lookup(sql: str, params: tuple) -> list:
        return ["c\x01\x01"]

    for number, rule in mysql.TABLE.items():
        cls, message, errorname = _describe(rule(_MY_SAMPLE.get(number, "server message"), my_lookup, "t"))
        label = names.get(number, "")
        out.append(f"| MariaDB | `{number}` {label} | {cls} | {_md(message)} | {errorname} |")
    return out
