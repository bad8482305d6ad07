"""The server differential corpus: tables, documents and queries from dialects/fts/.

Documents and generated queries come from ``tests/fts/fts_corpus.py`` (seeded,
so every run and every backend sees the same data); the table list, the
hand-written queries and the snippet/highlight arguments are data in
``dialects/fts/server_corpus.json``.
"""

from __future__ import annotations

import json
import sys
import zlib
from functools import cache
from pathlib import Path

_FTS_TESTS = Path(__file__).resolve().parents[1] / "fts"
if str(_FTS_TESTS) not in sys.path:
    sys.path.insert(0, str(_FTS_TESTS))

from fts_corpus import COLUMNS, Doc, documents, queries  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "dialects" / "fts" / "server_corpus.json"
CORPUS: dict = json.loads(DATA.read_text(encoding="utf-8"))
TABLES: dict[str, dict] = {t["name"]: t for t in CORPUS["tables"]}

__all__ = ["COLUMNS", "CORPUS", "TABLES", "corpus_documents", "ddl", "table_queries"]


@cache
def corpus_documents() -> tuple[Doc, ...]:
    """The seeded documents; rows holding NUL are left out (PostgreSQL text cannot store NUL)."""
    spec = CORPUS["documents"]
    return tuple(
        (rowid, vals) for rowid, vals in documents(spec["count"], spec["seed"])
        if not any("\x00" in (v or "") for v in vals)
    )


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def ddl(name: str) -> list[str]:
    """Statements creating table ``name`` (plus its content table when external)."""
    table = TABLES[name]
    opts = f", tokenize={_sql_str(table['tokenize'])}"
    cols = ", ".join(COLUMNS)
    if table.get("content") == "external":
        return [
            f"CREATE TABLE {name}_src (id INTEGER PRIMARY KEY, {', '.join(c + ' TEXT' for c in COLUMNS)})",
            f"CREATE VIRTUAL TABLE {name} USING fts5({cols}, content={name}_src, content_rowid=id{opts})",
        ]
    return [f"CREATE VIRTUAL TABLE {name} USING fts5({cols}{opts})"]


def table_queries(name: str) -> list[str]:
    """The hand-written queries plus this table's seeded generated ones."""
    table = TABLES[name]
    mode = "trigram" if table["tokenize"].startswith("trigram") else "full"
    docs = list(corpus_documents())
    generated = queries(docs, table["generated"], seed=zlib.crc32(name.encode()), mode=mode)
    return list(CORPUS["queries"]) + generated
