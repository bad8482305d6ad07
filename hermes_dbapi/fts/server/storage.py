"""The server tables behind one FTS5 table, and every statement on them.

Per FTS table ``t`` (names SQLite itself reserves for FTS5's shadow tables,
so they cannot collide with application tables):

* ``t_idx (term, id, full_term, pos)``: one row per (term, row); ``term`` is
  the token's UTF-8 bytes (binary order, so a prefix is a range scan), cut to
  480 bytes plus a SHA-1 when longer (index key limits), ``full_term`` then
  holds the whole token; ``pos`` the encoded positions, comma-separated.
* ``t_docsize (id, sz, total)``: FTS5's varint size blob plus the row's token
  count.
* ``t_content (id, c0, c1, ...)``: the values of a table that keeps its content.
* ``t_data (id, nrow, ntoken)``: one row (id 1), FTS5's running row and token
  counts for bm25 (SQLite keeps them in its ``%_data`` averages record): they
  move by the rows inserted and deleted, as SQLite's do, so a search reads them
  in one probe instead of summing every size row.

Everything runs through ``Backend.query`` on the connection's own session,
so it is inside the application's transaction and rolls back with it.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Iterable, Sequence

from ... import errors
from .. import ranking
from ..._stdlib import sqlite3
from ...backends import pg_array
from ...backends.base import Backend
from ..query import MAX_TOKEN_BYTES, clip_token
from ..sqlvalues import sql_text
from .spec import FtsSpec

_KEY_BYTES = 480
_CHUNK = 400

_TYPES = {
    "postgres": {"bin": "BYTEA", "text": "TEXT", "suffix": ""},
    "mysql": {"bin": "VARBINARY(500)", "text": "LONGTEXT", "suffix": " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"},
}


# A lone term's best rows ranked by the server (``Storage.best_by_bm25``): the
# frequency is the count of distinct positions (a rowid indexed twice repeats
# some, as the engine's set() drops them), the length the row's token total, each
# row's size by a probe of its own (a join may be planned as a scan of every size
# row); parameters: IDF, k1 + 1, k1, 1 - b, b, average length, the term's key, wanted.
_BM25 = "%s{d} * ((f * %s{d}) / (f + %s{d} * (%s{d} + (%s{d} * total) / %s{d})))"
_BEST_BY_BM25 = {
    # OFFSET 0 keeps the frequency a column, counted once per row
    "postgres": (
        "SELECT term, full_term, id, pos, r FROM (SELECT *, rank() OVER (ORDER BY r) AS k FROM ("
        "SELECT term, full_term, id, pos, -(" + _BM25.format(d="::float8") + ") AS r FROM (SELECT i.*, "
        "(CASE WHEN strpos(i.pos, ',') = 0 THEN 1 ELSE "
        "(SELECT count(DISTINCT x) FROM unnest(string_to_array(i.pos, ',')) AS x) END)::float8 AS f, "
        "COALESCE((SELECT d.total FROM {docsize} AS d WHERE d.id = i.id), 0)::float8 AS total "
        "FROM {idx} AS i WHERE {where} AND i.pos <> '' OFFSET 0) AS i) AS s) AS t WHERE k <= %s ORDER BY id"
    ),
    # PyMySQL writes a float parameter as a DOUBLE literal (1.5e0), never a DECIMAL
    "mysql": (
        "SELECT term, full_term, id, pos, r FROM (SELECT s.*, RANK() OVER (ORDER BY r) AS k FROM ("
        "SELECT term, full_term, id, pos, -(" + _BM25.format(d="") + ") AS r FROM (SELECT i.*, "
        "CAST(CASE WHEN LOCATE(',', i.pos) = 0 THEN 1 ELSE (SELECT COUNT(DISTINCT j.x) FROM "
        "JSON_TABLE(CONCAT('[', i.pos, ']'), '$[*]' COLUMNS (x BIGINT PATH '$')) AS j) END AS DOUBLE) AS f, "
        "CAST(COALESCE((SELECT d.total FROM {docsize} AS d WHERE d.id = i.id), 0) AS DOUBLE) AS total "
        "FROM {idx} AS i WHERE {where} AND i.pos <> '') AS i) AS s) AS t WHERE k <= %s ORDER BY id"
    ),
}


def encode(term: str) -> bytes:
    return term.encode("utf-8", "surrogatepass")


def term_key(raw: bytes) -> bytes:
    """The indexed key of a term: its bytes, or a cut plus a digest when long."""
    if len(raw) <= _KEY_BYTES:
        return raw
    return raw[:_KEY_BYTES] + hashlib.sha1(raw).digest()


def keyed_whole(term: str) -> bool:
    """Whether ``term``'s indexed key is its bytes themselves (not cut and digested):
    the server can then find, count and rank its rows alone."""
    return len(encode(term)) <= _KEY_BYTES


def successor(raw: bytes) -> bytes | None:
    """Smallest byte string greater than every string starting with ``raw``."""
    trimmed = raw.rstrip(b"\xff")
    if not trimmed:
        return None
    return trimmed[:-1] + bytes([trimmed[-1] + 1])


def varints(sizes: Sequence[int]) -> bytes:
    """FTS5's docsize blob: SQLite varints, one per column."""
    out = bytearray()
    for v in sizes:
        if v < 0x80:
            out.append(v)
            continue
        groups = []
        while v:
            groups.append(v & 0x7F)
            v >>= 7
        groups.reverse()
        out.extend([g | 0x80 for g in groups[:-1]] + [groups[-1]])
    return bytes(out)


def read_varints(blob: bytes) -> list[int]:
    if blob.isascii():  # issue 8: every value below 128 (one byte each), the usual size row
        return list(blob)
    out, v = [], 0
    for b in blob:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            out.append(v)
            v = 0
    return out


_by_key = operator.itemgetter(0, 1)


def _totals(rows: Sequence[Sequence]) -> tuple[int, int]:
    """(rows, tokens) from the one row of a counts read (server numerics to int)."""
    return int(rows[0][0]), int(rows[0][1])


class Storage:
    """Reads and writes one FTS table's server tables."""

    def __init__(self, backend: Backend, spec: FtsSpec) -> None:
        self.backend = backend
        self.spec = spec
        self.kind = backend.kind
        base = spec.name.lower() if self.kind == "postgres" else spec.name
        self.idx = self._quote(base + "_idx")
        self.docsize = self._quote(base + "_docsize")
        self.content = self._quote(base + "_content")
        self._data_name = base + "_data"
        self.data = self._quote(self._data_name)
        self._counted: bool | None = None  # whether ``t_data`` exists (None: not asked yet)

    def _quote(self, name: str) -> str:
        if self.kind == "postgres":
            return '"' + name.replace('"', '""') + '"'
        return "`" + name.replace("`", "``") + "`"

    def _q(self, sql: str, params: Sequence[object] = ()) -> list[tuple]:
        return self.backend.query(sql, params)

    # -- DDL ----------------------------------------------------------------

    def create(self) -> None:
        t = _TYPES[self.kind]
        self._q(
            f"CREATE TABLE IF NOT EXISTS {self.idx} (term {t['bin']} NOT NULL, id BIGINT NOT NULL, "
            f"full_term {'BYTEA' if self.kind == 'postgres' else 'LONGBLOB'}, pos {t['text']} NOT NULL, "
            f"PRIMARY KEY (term, id)){t['suffix']}"
        )
        self._q(f"CREATE INDEX IF NOT EXISTS {self._quote(self.spec.name.lower() + '_idx_id')} ON {self.idx} (id)")
        blob = "BYTEA" if self.kind == "postgres" else "BLOB"
        self._q(
            f"CREATE TABLE IF NOT EXISTS {self.docsize} (id BIGINT PRIMARY KEY, sz {blob}, total BIGINT NOT NULL)"
            f"{t['suffix']}"
        )
        if self.spec.contentful:
            cols = ", ".join(f"c{i} {t['text']}" for i in range(len(self.spec.columns)))
            self._q(f"CREATE TABLE IF NOT EXISTS {self.content} (id BIGINT PRIMARY KEY, {cols}){t['suffix']}")
        self.create_counts("SELECT 1, 0, 0")

    def create_counts(self, fill: str) -> None:
        """``t_data`` and its one row, from ``fill`` (a SELECT of id 1, rows, tokens)
        unless the row is there."""
        self._q(f"CREATE TABLE IF NOT EXISTS {self.data} (id BIGINT PRIMARY KEY, nrow BIGINT NOT NULL, "
                f"ntoken BIGINT NOT NULL, CHECK (nrow >= 0 AND ntoken >= 0)){_TYPES[self.kind]['suffix']}")
        skip = " ON CONFLICT (id) DO NOTHING" if self.kind == "postgres" else ""
        self._q(f"INSERT {'' if skip else 'IGNORE '}INTO {self.data} (id, nrow, ntoken) {fill}{skip}")
        self._counted = True

    def counted(self) -> bool:
        """Whether the table keeps running counts (``t_data``): tables made before it
        get it when a connection of this version first opens the namespace
        (:func:`..upgrade.add_counts`); until then they are summed from the sizes."""
        if self._counted is None:
            self._counted = self.backend.has_table(self._data_name)
        return self._counted

    def forget_counted(self) -> None:
        self._counted = None

    def drop(self) -> None:
        for table in (self.idx, self.docsize, self.content, self.data):
            self._q(f"DROP TABLE IF EXISTS {table}")

    # -- writes -------------------------------------------------------------

    def tokenize_row(self, values: Sequence[object]) -> tuple[list[int], dict[str, list[int]]]:
        """Column sizes and term -> encoded positions, as FTS5 indexes a row."""
        spec = self.spec
        detail = spec.detail
        terms_of = spec.tokenizer.terms
        sizes: list[int] = []
        terms: dict[str, list[int]] = {}
        get = terms.get
        for col, value in enumerate(values):
            text = sql_text(value)
            if text is None or col in spec.unindexed:
                sizes.append(0)
                continue
            toks = terms_of(text)
            sizes.append(len(toks))
            if toks and max(map(len, toks)) * 4 > MAX_TOKEN_BYTES:
                toks = [clip_token(t) for t in toks]
            base = col << 32
            if detail == "full":
                for off, tok in enumerate(toks, base):  # the hot loop of indexing: no calls but append
                    plist = get(tok)
                    if plist is None:
                        terms[tok] = [off]
                    else:
                        plist.append(off)
            elif detail == "column":
                for tok in toks:
                    plist = terms.setdefault(tok, [])
                    if not plist or plist[-1] != base:
                        plist.append(base)
            else:
                for tok in toks:
                    terms.setdefault(tok, [])
        return sizes, terms

    def encode_rows(self, rows: Iterable[tuple[int, Sequence[object]]]) -> tuple[list[tuple], list[tuple], list[tuple]]:
        """The server rows that index ``(rowid, values)`` rows: (postings, docsizes, contents)."""
        postings: list[tuple] = []
        docs: list[tuple] = []
        contents: list[tuple] = []
        contentful = self.spec.contentful
        add = postings.append
        for rowid, values in rows:
            sizes, terms = self.tokenize_row(values)
            for term, plist in terms.items():
                raw = encode(term)
                key = term_key(raw) if len(raw) > _KEY_BYTES else raw
                add((key, rowid, raw if key is not raw else None,
                     str(plist[0]) if len(plist) == 1 else ",".join(map(str, plist))))
            docs.append((rowid, varints(sizes), sum(sizes)))
            if contentful:
                contents.append((rowid, *[None if v is None else sql_text(v) for v in values]))
        return postings, docs, contents

    def insert_rows(self, rows: Iterable[tuple[int, Sequence[object]]]) -> None:
        """Index ``(rowid, values)`` rows (and store the values if contentful)."""
        postings, docs, contents = self.encode_rows(rows)
        if self.kind == "postgres":  # a term's postings on shared pages (InnoDB keeps key order itself)
            postings.sort(key=_by_key)
        writes = self._inserts(self.idx, "(term, id, full_term, pos)", ("bytea", "bigint", "bytea", "text"),
                               postings, merge="pos")
        writes += self._inserts(self.docsize, "(id, sz, total)", ("bigint", "bytea", "bigint"), docs, merge="sz")
        if docs and self.counted():  # every inserted row counts, even a rowid indexed twice, as in FTS5
            writes.append((self._count_sql("+"), [len(docs), sum(d[2] for d in docs)]))
        if contents:
            cols = ", ".join(f"c{i}" for i in range(len(self.spec.columns)))
            types = ("bigint",) + ("text",) * len(self.spec.columns)
            writes += self._inserts(self.content, f"(id, {cols})", types, contents)
        # issue 8: on PostgreSQL each statement prepared from its second run, and the index
        # writes (upserts: no data makes them fail) sent with the next statement; a
        # content row may clash with another transaction's: written at once
        self.backend.write_all(writes, prepare=self.kind == "postgres", defer=not contents)

    def _inserts(self, table: str, cols: str, types: tuple[str, ...], rows: list[tuple],
                 merge: str = "") -> list[tuple[str, list]]:
        """INSERTs of ``rows`` in chunks; ``types``: the columns' PostgreSQL types
        (issue 8: there one array parameter per column, the same text for any number
        of rows, prepared once)."""
        out = []
        for start in range(0, len(rows), _CHUNK):
            chunk = rows[start : start + _CHUNK]
            if self.kind == "postgres":
                arrays, params = pg_array.unnest(types, list(zip(*chunk)))
                sql = f"INSERT INTO {table} {cols} SELECT * FROM {arrays}"
            else:
                one = "(" + ", ".join(["%s"] * len(chunk[0])) + ")"
                sql = f"INSERT INTO {table} {cols} VALUES " + ", ".join([one] * len(chunk))
                params = [v for row in chunk for v in row]
            out.append((sql + self._merge_clause(table, merge), params))
        return out

    def _merge_clause(self, table: str, merge: str) -> str:
        """A row inserted twice (external content) keeps both, as FTS5's index does."""
        if merge == "pos":
            if self.kind == "postgres":
                return f" ON CONFLICT (term, id) DO UPDATE SET pos = {table}.pos || ',' || EXCLUDED.pos"
            return " ON DUPLICATE KEY UPDATE pos = CONCAT(pos, ',', VALUES(pos))"
        if merge == "sz":
            if self.kind == "postgres":
                return " ON CONFLICT (id) DO UPDATE SET sz = EXCLUDED.sz, total = EXCLUDED.total"
            return " ON DUPLICATE KEY UPDATE sz = VALUES(sz), total = VALUES(total)"
        return ""

    def _count_sql(self, sign: str) -> str:
        return f"UPDATE {self.data} SET nrow = nrow {sign} %s, ntoken = ntoken {sign} %s WHERE id = 1"

    def delete_rows(self, rowids: Sequence[int]) -> None:
        """Unindex rows by rowid (the counts lose the rows and tokens their sizes say)."""
        tables = [self.idx, self.docsize] + ([self.content] if self.spec.contentful else [])
        counted = self.counted()
        for start in range(0, len(rowids), _CHUNK):
            chunk = list(rowids[start : start + _CHUNK])
            marks = ", ".join(["%s"] * len(chunk))
            writes: list[tuple[str, Sequence[object]]] = []
            if counted:
                sized = f"FROM {self.docsize} WHERE id IN ({marks})"
                writes.append((f"UPDATE {self.data} SET nrow = nrow - (SELECT COUNT(*) {sized}), "
                               f"ntoken = ntoken - (SELECT COALESCE(SUM(total), 0) {sized}) WHERE id = 1",
                               chunk + chunk))
            writes += [(f"DELETE FROM {table} WHERE id IN ({marks})", chunk) for table in tables]
            self._uncounting(writes)

    def delete_values(self, rowid: int, values: Sequence[object]) -> None:
        """FTS5's 'delete' command: unindex ``rowid``, which held ``values``.  As in FTS5,
        what goes is what ``values`` say: the row's entries for their terms (others
        stay), its size row, and from the counts one row and their tokens."""
        sizes, terms = self.tokenize_row(values)
        keys = [term_key(encode(t)) for t in terms]
        writes: list[tuple[str, Sequence[object]]] = []
        if keys and self.kind == "postgres":
            writes.append((f"DELETE FROM {self.idx} WHERE id = %s AND term = ANY(%s::bytea[])",
                           [rowid, pg_array.byteas(keys)]))
        elif keys:
            writes.append((f"DELETE FROM {self.idx} WHERE id = %s AND term IN ({', '.join(['%s'] * len(keys))})",
                           [rowid, *keys]))
        writes.append((f"DELETE FROM {self.docsize} WHERE id = %s", [rowid]))
        if self.counted():
            writes.append((self._count_sql("-"), [1, sum(sizes)]))
        self._uncounting(writes)

    def _uncounting(self, writes: Sequence[tuple[str, Sequence[object]]]) -> None:
        """Deletes and the counts they lower, in one round trip; counts below zero (more
        rows or tokens deleted than were inserted) are FTS5's corruption error, as
        SQLite refuses such a delete."""
        try:
            self.backend.write_all(writes)
        except sqlite3.IntegrityError:
            raise errors.malformed() from None

    def delete_all(self) -> None:
        for table in (self.idx, self.docsize) + ((self.content,) if self.spec.contentful else ()):
            self._q(f"DELETE FROM {table}")
        if self.counted():
            self._q(f"UPDATE {self.data} SET nrow = 0, ntoken = 0 WHERE id = 1")

    def add_counts(self, rows: int, tokens: int) -> None:
        """Rows indexed by other means (the migration's bulk load) join the counts."""
        if self.counted():
            self._q(self._count_sql("+"), (rows, tokens))

    # -- reads --------------------------------------------------------------

    def postings(self, term: str, prefix: bool, among: Sequence[tuple[str, bool]] = ()) -> dict[int, list[int]]:
        """rowid -> positions of ``term``; ``among``: only in rows that also hold each of
        these (term, prefix) pairs, the server keeping the others back (a conjunctive
        query's matches hold every one of its terms: only those rows cross the wire)."""
        sql, params = self._postings_read(term, prefix, sizes=False)
        for other, other_prefix in among:
            where, more = self._term_condition("j", other, other_prefix)
            sql += f" AND i.id IN (SELECT j.id FROM {self.idx} AS j WHERE {where})"
            params += more
        return self._merged(term, prefix, self._q(sql, params))

    def first_postings(self, term: str, limit: int) -> tuple[
            tuple[int, int], dict[int, list[int]] | None, dict[int, list[int]]]:
        """The table's (row count, token total) and the postings and sizes of the rows
        holding ``term`` (one :func:`keyed_whole`) when at most ``limit`` do
        (None when more), in one round trip: a lone term's search decides here whether
        the engine ranks them all or the server ranks the best (``ranked.py``)."""
        read, params = self._postings_read(term, False, sizes=True)
        stats, rows = self.backend.query_all([(self._stats_sql(), ()), (read + f" LIMIT {int(limit) + 1}", params)])
        if len(rows) > limit:
            return _totals(stats), None, {}
        postings, sizes = self._postings_and_sizes(term, False, rows)
        return _totals(stats), postings, sizes

    def best_by_bm25(self, term: str, idf: float, avgdl: float, wanted: int) -> tuple[
            list[tuple[int, float]], dict[int, list[int]]]:
        """The ``wanted`` best rows holding ``term`` and every row tying the last of them,
        ranked by the server: (rowid, rank) in rowid order, and their positions.  bm25 of
        a lone term with ``ranking.Bm25``'s operation order in IEEE doubles (float8,
        DOUBLE), as FTS5's C, from each row's count of distinct positions and its token
        total (issue 8: only the best rows cross the wire, not every posting with its size)."""
        where, params = self._term_condition("i", term, False)
        sql = _BEST_BY_BM25[self.kind].format(idx=self.idx, docsize=self.docsize, where=where)
        k1, b = ranking.K1, ranking.B
        rows = self._q(sql, (idf, k1 + 1.0, k1, 1 - b, b, avgdl, *params, wanted))
        return [(int(row[2]), float(row[4])) for row in rows], self._merged(term, False, [row[:4] for row in rows])

    def row_frequency(self, term: str, prefix: bool) -> int | None:
        """How many rows hold ``term`` (or a term starting with it), counted by the
        server; None when only the client can tell (a term past the key's bytes)."""
        if not keyed_whole(term):
            return None
        where, params = self._term_condition("i", term, prefix)
        counted = "COUNT(DISTINCT i.id)" if prefix else "COUNT(*)"
        return int(self._q(f"SELECT {counted} FROM {self.idx} AS i WHERE {where}", params)[0][0])

    def postings_with_sizes(self, term: str, prefix: bool, stats: bool) -> tuple[
            dict[int, list[int]], dict[int, list[int]], tuple[int, int] | None]:
        """:meth:`postings` with the sizes of their rows (and :meth:`stats` when
        ``stats``), for a term whose rows are the query's matches: what ranking
        and snippets need, in one round trip (issue 8)."""
        reads = [self._postings_read(term, prefix, sizes=True)] + ([(self._stats_sql(), ())] if stats else [])
        rows, *stat = self.backend.query_all(reads)
        postings, sizes = self._postings_and_sizes(term, prefix, rows)
        return postings, sizes, _totals(stat[0]) if stat else None

    def _postings_and_sizes(self, term: str, prefix: bool, rows: Sequence[tuple]) -> tuple[
            dict[int, list[int]], dict[int, list[int]]]:
        """The rows of a :meth:`_postings_read` with sizes, decoded: rowid -> positions,
        rowid -> column sizes."""
        sizes = {int(row[2]): read_varints(bytes(row[4])) for row in rows if row[4] is not None}
        return self._merged(term, prefix, [row[:4] for row in rows]), sizes

    def _postings_read(self, term: str, prefix: bool, sizes: bool) -> tuple[str, tuple]:
        """The read of a term's index rows (a range of keys for a prefix); ``sizes``:
        each row's docsize blob as a fifth column (a subquery per row, so one index
        probe each: a join may be planned as a scan of every size row)."""
        select = "SELECT i.term, i.full_term, i.id, i.pos"
        source = f" FROM {self.idx} AS i"
        if sizes:
            select += f", (SELECT d.sz FROM {self.docsize} AS d WHERE d.id = i.id)"
        where, params = self._term_condition("i", term, prefix)
        return select + source + " WHERE " + where, params

    @staticmethod
    def _term_condition(alias: str, term: str, prefix: bool) -> tuple[str, tuple]:
        """The index rows of ``term`` (a range of keys for a prefix), as a condition on ``alias``."""
        raw = encode(term)
        if not prefix:
            return f"{alias}.term = %s", (term_key(raw),)
        low = raw[:_KEY_BYTES]
        high = successor(low)
        if high is None:
            return f"{alias}.term >= %s", (low,)
        return f"{alias}.term >= %s AND {alias}.term < %s", (low, high)

    def _merged(self, term: str, prefix: bool, rows: Sequence[Sequence]) -> dict[int, list[int]]:
        """rowid -> sorted positions, from index rows of ``term`` (the keys a cut term
        shares with others, or a prefix scan's other terms, filtered out)."""
        raw = encode(term)
        # issue 8: a prefix of at most _KEY_BYTES bytes starts every key in its range
        # (each key starts with its term's first _KEY_BYTES bytes): nothing to filter
        filtering = not prefix or len(raw) > _KEY_BYTES
        merged: dict[int, list[int]] = {}
        for key, full, rowid, pos in rows:
            if filtering and (full is not None or prefix):
                actual = bytes(full) if full is not None else bytes(key)
                if (actual != raw) if not prefix else not actual.startswith(raw):
                    continue
            if not pos:
                plist = []
            elif "," in pos:
                plist = sorted(set(map(int, pos.split(","))))
            else:  # issue 8: one position, the usual posting
                plist = [int(pos)]
            rid = int(rowid)
            if rid in merged:  # the same row under several index keys (prefix scans)
                plist = sorted(set(merged[rid]) | set(plist))
            merged[rid] = plist
        return {r: merged[r] for r in sorted(merged)}

    def all_postings(self) -> dict[tuple[bytes, int], str]:
        """Every stored posting: (term bytes, rowid) -> encoded positions."""
        rows = self._q(f"SELECT term, full_term, id, pos FROM {self.idx}")
        return {(bytes(full) if full is not None else bytes(key), int(rowid)): str(pos)
                for key, full, rowid, pos in rows}

    def all_sizes(self) -> dict[int, bytes]:
        """Every row's stored docsize blob."""
        return {int(rowid): bytes(sz) for rowid, sz in self._q(f"SELECT id, sz FROM {self.docsize}")}

    def _stats_sql(self) -> str:
        if self.counted():
            return f"SELECT COALESCE(SUM(nrow), 0), COALESCE(SUM(ntoken), 0) FROM {self.data}"
        return self._summed_sql()

    def _summed_sql(self) -> str:
        return f"SELECT COUNT(*), COALESCE(SUM(total), 0) FROM {self.docsize}"

    def stats(self) -> tuple[int, int]:
        """FTS5's row count and token total (what bm25 reads)."""
        return _totals(self._q(self._stats_sql()))

    def summed_stats(self) -> tuple[int, int]:
        """The rows and tokens the size rows hold (what a fresh index would count)."""
        return _totals(self._q(self._summed_sql()))

    def sizes_and_stats(self, rowids: Sequence[int]) -> tuple[dict[int, list[int]], tuple[int, int]]:
        """:meth:`sizes` and :meth:`stats` together (issue 8: one round trip)."""
        *sized, stat = self.backend.query_all([*self._size_reads(rowids), (self._stats_sql(), ())])
        sizes = {int(rowid): read_varints(bytes(sz)) for rows in sized for rowid, sz in rows}
        return sizes, _totals(stat)

    def _size_reads(self, rowids: Sequence[int]) -> list[tuple[str, Sequence]]:
        """PostgreSQL: one array parameter; MySQL: chunks of rowids as literals (ints:
        no escaping per value)."""
        if self.kind == "postgres":
            return [(f"SELECT id, sz FROM {self.docsize} WHERE id = ANY(%s::bigint[])", [pg_array.integers(rowids)])]
        return [(f"SELECT id, sz FROM {self.docsize} WHERE id IN ({', '.join(str(int(r)) for r in rowids[at : at + 2000])})",
                 ()) for at in range(0, len(rowids), 2000)]

    def sizes(self, rowids: Sequence[int]) -> dict[int, list[int]]:
        rows = self.backend.query_all(self._size_reads(rowids))
        return {int(rowid): read_varints(bytes(sz)) for part in rows for rowid, sz in part}

    def contents(self, rowids: Sequence[int] | None) -> dict[int, tuple]:
        """Stored values of a contentful table (all rows when ``rowids`` is None)."""
        cols = ", ".join(f"c{i}" for i in range(len(self.spec.columns)))
        if rowids is None:
            rows = self._q(f"SELECT id, {cols} FROM {self.content} ORDER BY id")
            return {int(r[0]): tuple(r[1:]) for r in rows}
        out: dict[int, tuple] = {}
        for start in range(0, len(rowids), _CHUNK):
            chunk = list(rowids[start : start + _CHUNK])
            marks = ", ".join(["%s"] * len(chunk))
            for row in self._q(f"SELECT id, {cols} FROM {self.content} WHERE id IN ({marks})", chunk):
                out[int(row[0])] = tuple(row[1:])
        return out

    def indexed_rowids(self) -> list[int]:
        return [int(r[0]) for r in self._q(f"SELECT id FROM {self.docsize} ORDER BY id")]

    def max_rowid(self) -> int:
        table = self.content if self.spec.contentful else self.docsize
        got = self._q(f"SELECT MAX(id) FROM {table}")[0][0]
        return int(got) if got is not None else 0

    def existing(self, rowids: Sequence[int]) -> set[int]:
        """The subset of ``rowids`` the table holds."""
        table = self.content if self.spec.contentful else self.docsize
        out: set[int] = set()
        for start in range(0, len(rowids), _CHUNK):
            chunk = list(rowids[start : start + _CHUNK])
            marks = ", ".join(["%s"] * len(chunk))
            out.update(int(r[0]) for r in self._q(f"SELECT id FROM {table} WHERE id IN ({marks})", chunk))
        return out

    def has_rowid(self, rowid: int) -> bool:
        table = self.content if self.spec.contentful else self.docsize
        return bool(self._q(f"SELECT 1 FROM {table} WHERE id = %s", (rowid,)))
