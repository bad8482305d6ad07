"""Real SQLite FTS5 as the oracle: build a table, run MATCH and aux functions."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import pytest


def _has_fts5() -> bool:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE p USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    return True


HAS_FTS5 = _has_fts5()
#: mark for tests that need the real SQLite FTS5 (with trigram) as oracle
needs_oracle = pytest.mark.skipif(not HAS_FTS5, reason="sqlite3 lacks FTS5/trigram")


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _quote_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class OracleTable:
    """An FTS5 table in an in-memory SQLite database."""

    def __init__(
        self,
        columns: Sequence[str],
        tokenize: str | None = None,
        detail: str = "full",
        rows: Sequence[tuple[int, Sequence[str | None]]] = (),
        prefix: Sequence[int] = (),
        unindexed: Sequence[str] = (),
    ) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
        self.columns = list(columns)
        self.detail = detail
        args = [_quote_ident(c) + (" UNINDEXED" if c in unindexed else "") for c in columns]
        if tokenize is not None:
            args.append("tokenize=" + _quote_str(tokenize))
        args.append(f"detail={detail}")
        if prefix:
            args.append("prefix=" + _quote_str(" ".join(map(str, prefix))))
        self.conn.execute(f"CREATE VIRTUAL TABLE t USING fts5({', '.join(args)})")
        cols = ", ".join(["rowid"] + [_quote_ident(c) for c in columns])
        marks = ", ".join("?" * (len(columns) + 1))
        self.conn.executemany(
            f"INSERT INTO t({cols}) VALUES ({marks})",
            [(rowid, *vals) for rowid, vals in rows],
        )

    def delete(self, rowid: int) -> None:
        self.conn.execute("DELETE FROM t WHERE rowid = ?", (rowid,))

    def match(self, query: str) -> list[int] | str:
        """Matching rowids in scan order, or the error message."""
        try:
            return [r for (r,) in self.conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,))]
        except sqlite3.OperationalError as exc:
            return f"ERROR: {exc}"

    def ranked(self, query: str, weights: Sequence[float] = ()) -> list[tuple[int, float]]:
        """(rowid, bm25) ordered like ``ORDER BY rank``.

        With detail=column/none SQLite 3.40 can crash in its ORDER BY rank
        path (empty phrases), so there we sort live bm25() values instead.
        """
        w = "".join(f", {x!r}" for x in weights)
        if self.detail != "full":
            rows = list(self.conn.execute(f"SELECT rowid, bm25(t{w}) FROM t WHERE t MATCH ?", (query,)))
            return sorted(rows, key=lambda r: (r[1] is not None, r[1]))
        sql = f"SELECT rowid, bm25(t{w}) AS s FROM t WHERE t MATCH ? ORDER BY s"
        if not weights:
            sql = "SELECT rowid, rank FROM t WHERE t MATCH ? ORDER BY rank"
        return list(self.conn.execute(sql, (query,)))

    def aux(self, query: str, sql_expr: str, params: Sequence[object] = ()) -> list[tuple[int, object]]:
        """(rowid, expr) for each match in rowid order."""
        sql = f"SELECT rowid, {sql_expr} FROM t WHERE t MATCH ? ORDER BY rowid"
        return list(self.conn.execute(sql, (*params, query)))

    def tokens(self, texts: Sequence[str]) -> list[list[str]]:
        """Tokens of each text via fts5vocab (a scratch table, same tokenizer)."""
        ddl = self.conn.execute("SELECT sql FROM sqlite_master WHERE name = 't'").fetchone()[0]
        self.conn.execute("DROP TABLE IF EXISTS tok_scratch")
        self.conn.execute("DROP TABLE IF EXISTS tok_vocab")
        ddl = ddl.replace("CREATE VIRTUAL TABLE t ", "CREATE VIRTUAL TABLE tok_scratch ", 1)
        self.conn.execute(ddl)
        self.conn.execute("CREATE VIRTUAL TABLE tok_vocab USING fts5vocab(tok_scratch, instance)")
        first = _quote_ident(self.columns[0])
        self.conn.executemany(
            f"INSERT INTO tok_scratch(rowid, {first}) VALUES (?, ?)", list(enumerate(texts))
        )
        out: list[list[tuple[int, str]]] = [[] for _ in texts]
        for term, doc, off in self.conn.execute("SELECT term, doc, offset FROM tok_vocab"):
            out[doc].append((off, term if term is not None else ""))
        return [[t for _o, t in sorted(x)] for x in out]
