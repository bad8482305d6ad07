"""Queries that read FTS tables: MATCH, rank, bm25/snippet/highlight, scans.

Each FTS table reference becomes a derived table.  With a MATCH constraint the
Python engine evaluates the query over postings fetched for its terms only,
and the matching rows (rowid, rank, one column per auxiliary-function call)
go to a per-connection temporary table that the derived table joins with the
row values (``<t>_content`` or the external content table).  Without MATCH it
is a plain scan of the content.  The rest of the statement (joins, filters,
ORDER BY, LIMIT) is the application's own SQL, translated as usual.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ... import errors
from ...backends import pg_array
from ...translate.params import MARKER, marker_index
from ...translate.passes._walk import reached
from ...translate.passes.fts_hits import HITS
from ..engine import Evaluation, search_all
from ..errors import FtsCorrupt, FtsError
from ..ranking import Bm25
from ..snippets import highlight, snippet
from . import ranked, sqlrun
from .index import ServerIndex
from .spec import FtsSpec
from .storage import Storage
from .undecodable import Stash

if TYPE_CHECKING:
    from ...connection import Connection

ROWID_NAMES = {"rowid", "oid", "_rowid_"}
AUX = {"snippet", "highlight", "bm25"}
_TEMP = "hermes_fts_hits"
_RENEW_AFTER = 5_000  # rows (a renewal costs about as much as deleting a few thousand)
_INDEX_FROM = 500  # hits from which a rank-ordered search's hits table is indexed by rank (_fill_temp)
_CUT_MIN = 256  # the fewest best hits a rank-ordered search with a LIMIT sends first (_best_hits)
_CUT_PAUSE = 16  # runs of a plan without the cut after its best hits fell short


@dataclass
class Ref:
    table: exp.Table
    spec: FtsSpec
    alias: str
    match: list[tuple[exp.Expression, int | None]] = field(default_factory=list)
    aux: list[tuple[str, list[exp.Expression]]] = field(default_factory=list)
    uses_rank: bool = False
    deferred: dict[int, int] = field(default_factory=dict)  # aux number -> output column (see ``defer``)
    by_rank: bool = False  # its SELECT orders by its rank first (see ``_order_like_fts5``)


@dataclass
class Deferred:
    """snippet()/highlight() calls computed after the query, for the rows it returns only.

    Ranking needs every match, but texts and snippets only the rows that
    survive the statement's joins, filters and LIMIT, as in SQLite."""

    index: ServerIndex
    ev: Evaluation
    calls: list[tuple[int, str, list[Any]]]  # (output column, function, arguments)

    def fill(self, rows: list[tuple], stash: Stash) -> list[tuple]:
        columns = [c for c, _n, _a in self.calls]
        wanted = sorted({r[c] for r in rows for c in columns if r[c] is not None})
        if not wanted:
            return rows
        self.index.prefetch(wanted, texts=True)
        out = []
        try:
            for row in rows:
                values = list(row)
                for col, name, args in self.calls:
                    if values[col] is not None:
                        values[col] = stash.put(_aux(self.ev, None, int(values[col]), name, args))
                out.append(tuple(values))
        except FtsError as exc:
            raise _sqlite_error(exc) from None
        return out


@dataclass
class RankedDeferred:
    """The snippet()/highlight() calls of a search the server ranked (``ranked.py``):
    evaluated after the query over the best rows' postings, fetched with their ranks."""

    conn: "Connection"
    storage: Storage
    constraints: list[tuple[str, int | None]]
    term: str
    postings: dict[int, list[int]]
    calls: list[tuple[int, str, list[Any]]]

    def fill(self, rows: list[tuple], stash: Stash) -> list[tuple]:
        index = ServerIndex(self.storage, text_source(self.conn, self.storage))
        index.seed(self.term, self.postings)
        try:
            ev = search_all(index, self.constraints)
        except FtsError as exc:
            raise _sqlite_error(exc) from None
        return Deferred(index, ev, self.calls).fill(rows, stash)


def qi(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def find_refs(tree: exp.Expression, specs: dict[str, FtsSpec]) -> list[Ref]:
    refs = []
    for table in list(tree.find_all(exp.Table)):
        fn = table.this if isinstance(table.this, exp.Anonymous) else None
        name = fn.name if fn is not None else table.name
        if table.db and table.db.lower() not in ("main",):
            continue
        spec = specs.get(name.lower())
        if spec is None:
            continue
        ref = Ref(table, spec, table.alias or name)
        if fn is not None and fn.expressions:
            ref.match.append((fn.expressions[0], None))
        refs.append(ref)
    return refs


def _conjuncts(node: exp.Expression | None) -> list[exp.Expression]:
    if node is None:
        return []
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    if isinstance(node, exp.Paren) and isinstance(node.this, (exp.And, exp.Paren, exp.Match, exp.EQ)):
        return _conjuncts(node.this)
    return [node]


def _owner(col: exp.Column, refs: list[Ref], select: exp.Select) -> Ref | None:
    """The FTS reference a column names (qualified, or the only FTS source)."""
    mine = [r for r in refs if r.table.find_ancestor(exp.Select) is select]
    if col.table:
        return next((r for r in mine if r.alias.lower() == col.table.lower()), None)
    return mine[0] if len(mine) == 1 else None


def take_matches(tree: exp.Expression, refs: list[Ref]) -> None:
    """Move ``t MATCH x`` / ``t = x`` / ``col MATCH x`` conjuncts of a WHERE, or of a
    join's ON, onto their refs; a MATCH left anywhere else has SQLite's error."""
    for select in {id(r.table.find_ancestor(exp.Select)): r.table.find_ancestor(exp.Select) for r in refs}.values():
        if select is None:
            continue
        clauses = [(select.args.get("where"), None)] + [(j.args.get("on"), j) for j in select.args.get("joins") or []]
        for clause, join in clauses:
            if clause is None:
                continue
            keep = []
            terms = _conjuncts(clause.this if isinstance(clause, exp.Where) else clause)
            for c in terms:
                target = _match_target(c, refs, select)
                if target is None:
                    keep.append(c)
                elif not _constrains(target[0], select, join):
                    raise MisplacedMatch()
                else:
                    target[0].match.append((c.expression, target[1]))
            if len(keep) == len(terms):
                continue
            rest = exp.and_(*keep, copy=False) if keep else None
            if join is not None:
                join.set("on", rest if rest is not None else exp.true())
            else:
                select.set("where", exp.Where(this=rest) if rest is not None else None)
    left = tree.find(exp.Match)
    if left is not None:
        select = left.find_ancestor(exp.Select)
        if select is not None and _disjunct(left) and _match_target(left, refs, select) is not None:
            raise errors.not_supported("a MATCH on an FTS5 table inside OR", "server")
        raise MisplacedMatch()


def _disjunct(node: exp.Expression) -> bool:
    """Whether ``node`` is a term of an OR of a WHERE or ON, only AND/OR above it
    (which SQLite plans as a union of index scans)."""
    parent, seen_or = node.parent, False
    while isinstance(parent, (exp.And, exp.Or, exp.Paren)):
        seen_or = seen_or or isinstance(parent, exp.Or)
        parent = parent.parent
    return seen_or and isinstance(parent, (exp.Where, exp.Join))


def _match_target(c: exp.Expression, refs: list[Ref], select: exp.Select) -> tuple[Ref, int | None] | None:
    """The reference (and column filter) a conjunct is a MATCH on, if it is one."""
    if not isinstance(c, (exp.Match, exp.EQ)) or not isinstance(c.this, exp.Column):
        return None
    ref = _owner(c.this, refs, select)
    if ref is None:
        return None
    name = c.this.name.lower()
    col = ref.spec.column_index(name)
    if col is not None:
        return (ref, col) if isinstance(c, exp.Match) else None
    if name == ref.spec.name.lower():
        return ref, None
    if name == ref.alias.lower():  # the hidden column is named after the table, not its alias
        if isinstance(c, exp.Match):
            raise errors.operational(f"no such column: {c.this.sql(dialect='sqlite')}")
        return None
    if isinstance(c, exp.Match) and name == "rank":
        raise errors.not_supported("rank MATCH (custom rank functions)", "server")
    return None


def _constrains(ref: Ref, select: exp.Select, join: exp.Join | None) -> bool:
    """Whether a MATCH in this clause (``join``'s ON, or the WHERE) can select ``ref``'s
    rows as SQLite's planner does: in the ON of the join that brings ``ref`` in, or
    in a WHERE or an inner join's ON when ``ref`` is on no outer join's optional side."""
    joins = select.args.get("joins") or []
    if any(j.side in ("RIGHT", "FULL") for j in joins):
        return False
    own = ref.table.parent if isinstance(ref.table.parent, exp.Join) else None
    if join is not None and join is own:
        return True
    return not (own is not None and own.side) and not (join is not None and join.side)


class MisplacedMatch(Exception):
    """A MATCH SQLite's planner cannot give to its FTS5 table: SQLite's compile error
    for the statement if it has one, else "unable to use function MATCH in the
    requested context" (``refine.match_outside_fts``)."""


def take_columns(tree: exp.Expression, refs: list[Ref]) -> None:
    """rank, rowid and auxiliary calls become columns of the derived table."""
    for fn in list(tree.find_all(exp.Anonymous)):
        if fn.name.lower() not in AUX or not fn.expressions or not isinstance(fn.expressions[0], exp.Column):
            continue
        first = fn.expressions[0]
        ref = next((r for r in refs if not first.table and first.name.lower() == r.alias.lower()), None)
        if ref is None:
            continue
        ref.aux.append((fn.name.lower(), list(fn.expressions[1:])))
        fn.replace(exp.column(f"hermes_aux_{len(ref.aux) - 1}", table=exp.to_identifier(ref.alias, quoted=True), quoted=True))
    for col in list(tree.find_all(exp.Column)):
        if col.this.args.get("quoted") or isinstance(col.this, exp.Star):
            continue
        select = col.find_ancestor(exp.Select)
        name = col.name.lower()
        if name not in ROWID_NAMES and name != "rank":
            continue
        ref = _owner(col, refs, select) if select is not None else None
        if ref is None or ref.spec.column_index(name) is not None:
            continue
        if not col.table and len(_sources(select)) > 1 and name in ROWID_NAMES:
            continue
        if name == "rank":
            ref.uses_rank = True
        new = "hermes_rank" if name == "rank" else "hermes_rowid"
        col.replace(exp.column(new, table=exp.to_identifier(ref.alias, quoted=True), quoted=True))


def _sources(select: exp.Select) -> list[exp.Expression]:
    out = []
    if select.args.get("from_") is not None:
        out.append(select.args["from_"].this)
    out.extend(j.this for j in select.args.get("joins") or [])
    return out


def expand_stars(tree: exp.Expression, refs: list[Ref], shadow: Any) -> None:
    """``*`` must not show the derived table's hidden columns."""
    by_table = {id(r.table): r for r in refs}
    for select in list(tree.find_all(exp.Select)):
        stars = [e for e in select.expressions if isinstance(e, exp.Star)
                 or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))]
        if not stars:
            continue
        listing: dict[str, list[exp.Expression]] = {}
        order: list[str] = []
        ok = True
        for src in _sources(select):
            ref = by_table.get(id(src))
            if ref is not None:
                alias, cols = ref.alias, list(ref.spec.columns)
            elif isinstance(src, exp.Table) and isinstance(src.this, exp.Identifier):
                alias = src.alias or src.name
                cols = [c[0] for c in shadow.columns(src.name)]
                ok = ok and bool(cols)
            else:
                ok = False
                break
            order.append(alias.lower())
            listing[alias.lower()] = [
                exp.column(c, table=exp.to_identifier(alias, quoted=True), quoted=True) for c in cols
            ]
        if not ok and not any(r.table.find_ancestor(exp.Select) is select for r in refs):
            continue
        new: list[exp.Expression] = []
        for e in select.expressions:
            if isinstance(e, exp.Star):
                new.extend(c.copy() for a in order for c in listing[a])
            elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star) and e.table.lower() in listing:
                new.extend(c.copy() for c in listing[e.table.lower()])
            else:
                new.append(e)
        select.set("expressions", new)


def constant(node: exp.Expression, values: Sequence[Any], conn: "Connection") -> Any:
    """The value of a constant argument (parameter, literal or expression)."""
    if isinstance(node, exp.Placeholder):
        index = marker_index(node.name)
        return values[index] if index is not None else None
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Literal):
        return node.this if node.is_string else _number(node.this)
    if node.find(exp.Column, exp.Select) is not None:
        raise errors.not_supported("a MATCH or auxiliary-function argument that reads a column", "server")
    return sqlrun.in_shadow(conn, "SELECT " + node.sql(dialect="sqlite"), values)[0][0]


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def text_source(conn: "Connection", storage: Storage):
    spec = storage.spec

    def fetch(rowids: Sequence[int]) -> dict[int, Sequence[object]]:
        if spec.contentful:
            return storage.contents(rowids)
        if spec.content == "":
            return {}
        out: dict[int, Sequence[object]] = {}
        cols = ", ".join(qi(c) for c in spec.columns)
        for start in range(0, len(rowids), 400):
            chunk = list(rowids[start : start + 400])
            marks = ", ".join(f":__hdb_p{i + 1}" for i in range(len(chunk)))
            key = spec.content_rowid if spec.content_rowid.lower() in ROWID_NAMES else qi(spec.content_rowid)
            sql = f"SELECT {key}, {cols} FROM {qi(spec.content)} WHERE {key} IN ({marks})"
            for row in sqlrun.run(conn, sql, chunk)[1]:
                out[int(row[0])] = row[1:]
        return out

    return fetch


def evaluate(conn: "Connection", ref: Ref, storage: Storage, values: Sequence[Any],
             stash: Stash | None = None, seed: tuple[str, ranked.Ranked] | None = None) -> list[tuple]:
    """(rowid, rank, aux values...) of every row the MATCH selects (``stash``: see ``undecodable``;
    ``seed``: a lone term and its rows, fetched already).

    Deferred calls (``ref.deferred``) get None here and a ``Deferred`` on the stash."""
    scored = ref.uses_rank or any(n == "bm25" for n, _a in ref.aux)
    index = ServerIndex(storage, text_source(conn, storage), sizes=ref.uses_rank or bool(ref.aux), stats=scored)
    if seed is not None:
        index.seed(seed[0], seed[1].postings, seed[1].sizes, seed[1].stats)
    from ..sqlvalues import sql_text

    constraints = [(sql_text(constant(node, values, conn)) or "", column) for node, column in ref.match]
    try:
        ev = search_all(index, constraints)
        rowids = ev.rowids()
        args = [[constant(a, values, conn) for a in arguments] for _n, arguments in ref.aux]
        eager = [(i, n, a) for i, ((n, _x), a) in enumerate(zip(ref.aux, args)) if i not in ref.deferred]
        needs_texts = any(n != "bm25" for _i, n, _a in eager) or (
            spec_detail_needs_texts(ref.spec) and (ref.uses_rank or ref.aux)
        )
        if ref.uses_rank or ref.aux:
            index.prefetch(rowids, texts=needs_texts, stats=scored)
        scorer = Bm25(ev) if scored and rowids else None
        ranks = scorer.scores(rowids) if scorer is not None and not ev.special else [None] * len(rowids)
        if not eager:  # issue 8: no per-row work left (deferred snippets are filled later)
            rows = list(zip(rowids, ranks, *([[None] * len(rowids)] * len(ref.aux))))
        else:
            rows = []
            for r, rank in zip(rowids, ranks):
                aux: list[Any] = [None] * len(ref.aux)
                for i, n, a in eager:
                    aux[i] = _aux(ev, scorer, r, n, a)
                    if stash is not None:
                        aux[i] = stash.put(aux[i])
                rows.append((r, rank, *aux))
        if ref.deferred and stash is not None:
            stash.deferred.append(Deferred(index, ev, [(col, ref.aux[i][0], args[i]) for i, col in ref.deferred.items()]))
        return rows
    except FtsError as exc:
        raise _sqlite_error(exc) from None


def _sqlite_error(exc: FtsError) -> Exception:
    return errors.malformed() if isinstance(exc, FtsCorrupt) else errors.operational(exc.message)


def spec_detail_needs_texts(spec: FtsSpec) -> bool:
    return spec.detail != "full"


def _aux(ev: Evaluation, scorer: Bm25 | None, rowid: int, name: str, args: list[Any]) -> Any:
    if name == "bm25":
        return scorer.score(rowid, args) if scorer is not None else None
    if name == "snippet":
        if len(args) != 5:
            raise FtsError("wrong number of arguments to function snippet()")
        return snippet(ev, rowid, *args)
    if len(args) != 3:
        raise FtsError("wrong number of arguments to function highlight()")
    return highlight(ev, rowid, *args)


def derived(ref: Ref, number: int, present: set[str] | None = None) -> exp.Expression:
    """The SQLite text of the derived table that replaces ``ref`` (its hits: ``_temp_name``).
    ``present``: the external content table's columns (lower case), when known: one
    the FTS table names but that table lacks (renamed or dropped since) is left out,
    so a query that reads no column still runs, as in SQLite, and one that reads it
    fails ("no such column")."""
    spec = ref.spec
    if spec.contentful:
        source, key = qi(spec.name + "_content"), "id"
        cols = [f"c.c{i} AS {qi(c)}" for i, c in enumerate(spec.columns)]
    elif spec.content:
        source = qi(spec.content)
        key = spec.content_rowid if spec.content_rowid.lower() in ROWID_NAMES else qi(spec.content_rowid)
        cols = [f"c.{qi(c)} AS {qi(c)}" for c in spec.columns if not present or c.lower() in present]
    else:
        source, key = qi(spec.name + "_docsize"), "id"
        cols = [f"NULL AS {qi(c)}" for c in spec.columns]
    if not ref.match:
        body = f"SELECT c.{key} AS hermes_rowid, NULL AS hermes_rank{''.join(', ' + c for c in cols)} FROM {source} AS c"
    else:
        temp = _temp_name(ref, number)
        aux = "".join(f", h.{'rid' if i in ref.deferred else f'a{i}'} AS hermes_aux_{i}" for i in range(len(ref.aux)))
        body = (
            f"SELECT h.rid AS hermes_rowid, h.rnk AS hermes_rank{aux}{''.join(', ' + c for c in cols)} "
            f"FROM {temp} AS h LEFT JOIN {source} AS c ON c.{key} = h.rid"
        )
    sub = sqlglot.parse_one(f"SELECT * FROM ({body}) AS {qi(ref.alias)}", read="sqlite")
    return sub.args["from_"].this


def _kinds(ref: Ref) -> str:
    return "".join("f" if n == "bm25" else "t" for n, _a in ref.aux)


def _temp_name(ref: Ref, number: int) -> str:
    """The per-connection temporary table holding one reference's hits (one per shape;
    ``_r``: indexed by rank, see :func:`_order_like_fts5`)."""
    return f"{_TEMP}_{number}_{_kinds(ref)}" + ("_r" if ref.by_rank else "")


def _fill_temp(conn: "Connection", ref: Ref, number: int, hits: list[tuple]) -> str:
    backend = conn._backend
    kinds = _kinds(ref)
    name = _temp_name(ref, number)
    pg = backend.kind == "postgres"
    real, text = ("DOUBLE PRECISION", "TEXT") if pg else ("DOUBLE", "LONGTEXT")
    aux_cols = "".join(f", a{i} {real if k == 'f' else text}" for i, k in enumerate(kinds))
    suffix = "" if pg else " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"
    # DDL as (what it makes, or None; the statement)
    ddl = [(name, f"CREATE TEMPORARY TABLE IF NOT EXISTS {name} (rid BIGINT, rnk {real}{aux_cols}){suffix}")]
    if pg and ref.by_rank and len(hits) >= _INDEX_FROM:
        # the order of ``rank NULLS FIRST, rowid``: PostgreSQL reads the first hits in it and
        # stops at the LIMIT instead of joining every hit (MariaDB already joins hit by hit).
        # Asked for by the searches with many hits only (few are joined fast without it);
        # once made it stays with the table, and smaller searches keep it up to date
        ddl.append((f"{name}_by_rank", f"CREATE INDEX IF NOT EXISTS {name}_by_rank ON {name} (rnk NULLS FIRST, rid)"))
    renew = _renewing(conn, name, len(hits))
    if renew and pg:
        ddl.append((None, f"TRUNCATE {name}"))
    elif renew:  # MariaDB's TRUNCATE commits the transaction; DROP TEMPORARY TABLE does not
        ddl.insert(0, (None, f"DROP TEMPORARY TABLE IF EXISTS {name}"))
    writes = _ready(conn, name, ddl, renew)
    if pg and hits:  # one statement, a few array parameters: no per-value placeholders to parse
        # issue 8: a deferred call's column stays NULL (the derived table reads the rowid there)
        filled = [0, 1] + [2 + i for i in range(len(kinds)) if i not in ref.deferred]
        names = ["rid", "rnk"] + [f"a{i - 2}" for i in filled[2:]]
        types = ["bigint", "float8"] + ["float8" if kinds[i - 2] == "f" else "text" for i in filled[2:]]
        arrays, params = pg_array.unnest(types, [list(map(itemgetter(i), hits)) for i in filled])
        writes.append((f"INSERT INTO {name} ({', '.join(names)}) SELECT * FROM {arrays}", params))
        backend.write_all(writes)  # issue 8: one round trip on PostgreSQL
        return name
    if not kinds:  # rowid and rank only: numbers written as literals, no driver escaping per value
        for start in range(0, len(hits), 2000):
            chunk = hits[start : start + 2000]
            writes.append((f"INSERT INTO {name} VALUES " + ", ".join(f"({_number_sql(r)}, {_number_sql(k)})"
                                                                     for r, k in chunk), ()))
    else:
        one = "(" + ", ".join(["%s"] * (2 + len(kinds))) + ")"
        for start in range(0, len(hits), 500):
            chunk = hits[start : start + 500]
            writes.append((f"INSERT INTO {name} VALUES " + ", ".join([one] * len(chunk)), [v for r in chunk for v in r]))
    backend.write_all(writes)  # issue 8: one round trip on MySQL too, while under max_allowed_packet
    return name


def _ready(conn: "Connection", name: str, ddl: list[tuple[str | None, str]],
           renew: bool) -> list[tuple[str, Sequence[Any]]]:
    """The statements that empty the hits table ``name`` (and make it: ``ddl``, each
    with what it makes) before its rows go in.  A read-only connection runs the DDL
    apart, now, where its server allows that (``Backend.temp_ddl``: outside a
    transaction), leaving out what its session already made (no round trip when
    nothing is left), and inside a transaction only empties a table its session
    already has (DELETE is allowed there, DDL not)."""
    emptied = [] if renew else [(f"DELETE FROM {name}", ())]
    backend = conn._backend
    if not getattr(backend, "read_only", False):
        return [(sql, ()) for _made, sql in ddl] + emptied
    bridge = conn._fts_bridge
    if bridge.temp_session is not backend.conn:  # a new server session (reconnect) has none yet
        bridge.temp_made.clear()
        bridge.temp_session = backend.conn
    if not backend.in_transaction:
        todo = [sql for made, sql in ddl if renew or made not in bridge.temp_made]
        if todo:
            backend.temp_ddl(todo)
        bridge.temp_made.update(made for made, _sql in ddl if made is not None)
        return emptied
    if name in bridge.temp_made:
        return [(f"DELETE FROM {name}", ())]
    return [(sql, ()) for _made, sql in ddl] + emptied  # refused: "attempt to write a readonly database"


def _renewing(conn: "Connection", name: str, adding: int) -> bool:
    """Whether the hits table is to be emptied by a fresh start (TRUNCATE, or DROP
    and CREATE) rather than DELETE before ``adding`` rows: once the rows deleted
    since its last renewal reach ``_RENEW_AFTER``.  Nothing vacuums or purges a
    temporary table on either server, so DELETE alone let it (and every search
    reading it) grow with each search over the life of a connection."""
    written = conn._fts_bridge.temp_rows
    if written.get(name, 0) >= _RENEW_AFTER:
        written[name] = adding
        return True
    written[name] = written.get(name, 0) + adding
    return False


def _number_sql(value: int | float | None) -> str:
    """An SQL literal for a rowid or a bm25 score (repr: the shortest text that reads back exactly)."""
    if value is None:
        return "NULL"
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"not a finite score: {value!r}")
    return repr(int(value)) if isinstance(value, int) else repr(float(value))


@dataclass
class Plan:
    """A statement over FTS tables, rewritten once per text and catalog epoch: the
    SQLite text to run, and the references whose MATCH each run evaluates."""

    text: str
    matched: list[tuple[int, Ref]]
    inline: str | None = None  # the text reading the hits from parameters instead (see ``_inline``)
    cut: Cut | None = None  # its LIMIT, when only the best hits need go first (see ``_cut_of``)
    paused: int = 0  # runs left without the cut (its best hits fell short lately)


@dataclass
class Cut:
    """The LIMIT and OFFSET of a SELECT whose rows are ordered by its one MATCH's rank first."""

    limit: exp.Expression
    offset: exp.Expression | None


@dataclass
class Fallback:
    """A run that sent only the best hits: exact when the statement returns ``needed``
    rows; otherwise ``complete()`` gives the text and values with every hit."""

    needed: int
    complete: Callable[[], tuple[str, Sequence[Any]]]


def plan(conn: "Connection", tree: exp.Expression, specs: dict[str, FtsSpec], deferring: bool,
         count: int | None = None) -> Plan:
    """Rewrite ``tree`` (consumed) with every FTS reference replaced by its derived table.
    ``deferring``: snippet()/highlight() result columns are filled after the query;
    ``count``: the statement's number of parameters, when known (see ``_inline``)."""
    refs = find_refs(tree, specs)
    take_matches(tree, refs)
    take_columns(tree, refs)
    expand_stars(tree, refs, conn._shadow)
    matched = []
    cuts: list[Cut | None] = []
    for number, ref in enumerate(refs):
        if deferring:
            ref.deferred = defer(tree, ref)
        if not ref.match and ref.aux:
            raise errors.operational(f"unable to use function {ref.aux[0][0]} in the requested context")
        if ref.match:
            matched.append((number, ref))
        _order_like_fts5(ref)
        cuts.append(_cut_of(ref) if ref.match else None)
        present = _content_columns(conn, tree, refs, ref)
        ref.table.replace(derived(ref, number, present))
    text = tree.sql(dialect="sqlite")
    inline = _inline(conn, tree, matched, count)
    cut = cuts[matched[0][0]] if inline is not None and len(matched) == 1 else None
    return Plan(text, matched, inline, cut)


def _cut_of(ref: Ref) -> Cut | None:
    """The LIMIT of a statement that needs only the best of its hits: one SELECT
    (not inside another statement) ordered by ``ref``'s rank first, ascending, with
    a LIMIT, that makes each row from one hit at most (no GROUP BY, DISTINCT,
    aggregate or window) and only from hits (``ref`` not on the optional side of an
    outer join).  Every row made from a hit ranked past the cut sorts after every row
    made from one before it, so when the best hits alone fill the LIMIT, those are
    the statement's rows (issue 8: ``_best_hits``)."""
    select = ref.table.find_ancestor(exp.Select)
    if select is None or select.parent is not None or not ref.by_rank:
        return None
    limit = select.args.get("limit")
    if limit is None or select.args["order"].expressions[0].args.get("desc"):
        return None
    if any(select.args.get(k) for k in ("group", "having", "distinct")) or _own(select, exp.AggFunc, exp.Window):
        return None
    joins = select.args.get("joins") or []
    if any(j.side in ("RIGHT", "FULL") for j in joins):
        return None
    if isinstance(ref.table.parent, exp.Join) and ref.table.parent.side:
        return None
    offset = select.args.get("offset")
    bounds = [limit.expression] + ([offset.expression] if offset is not None else [])
    if not all(isinstance(b, exp.Placeholder) or isinstance(b, exp.Literal) and not b.is_string for b in bounds):
        return None  # an expression: left to the server to evaluate
    return Cut(limit.expression.copy(), offset.expression.copy() if offset is not None else None)


def _own(select: exp.Select, *kinds: type) -> bool:
    """Whether ``select`` itself (not a query nested in it) has a node of ``kinds``."""
    return any(reached(node, select, (exp.Select,)) for node in select.find_all(*kinds))


def _cut_size(conn: "Connection", cut: Cut, values: Sequence[Any]) -> tuple[int, int] | None:
    """How many best hits go first (at least _CUT_MIN, four times LIMIT + OFFSET) and the
    rows the statement must return for them to suffice (its LIMIT); None when the cut
    cannot be sure: a LIMIT or OFFSET that is not a plain integer, no LIMIT (negative)."""
    limit = constant(cut.limit, values, conn)
    offset = constant(cut.offset, values, conn) if cut.offset is not None else 0
    if type(limit) is not int or type(offset) is not int or limit < 0 or offset < 0:
        return None
    return max(_CUT_MIN, 4 * (limit + offset)), limit


def _best_hits(conn: "Connection", cut: Cut, values: Sequence[Any], hits: list[tuple]) -> tuple[list[tuple], int] | None:
    """The hits ranked up to the cut, with every hit that ties the last of them (the
    statement breaks ties by other keys), and the rows the statement must return for
    them to suffice; None when the cut saves nothing or cannot be sure (_cut_size, or a
    rank NULL)."""
    size = _cut_size(conn, cut, values)
    if size is None:
        return None
    wanted, limit = size
    if len(hits) <= 2 * wanted or any(h[1] is None for h in hits):
        return None
    last = heapq.nsmallest(wanted, [h[1] for h in hits])[-1]
    return [h for h in hits if h[1] <= last], limit


def _ranked_by_server(conn: "Connection", planned: Plan, number: int, ref: Ref, storage: Storage,
                      values: Sequence[Any], stash: Stash | None
                      ) -> tuple[tuple[str, Sequence[Any], Fallback] | None, tuple[str, ranked.Ranked] | None]:
    """The run of a cut statement whose MATCH is a lone term, its best hits ranked by
    the server (``ranked``), inline, snippets and highlights made afterwards from the
    returned rows' postings alone; or None and, when few rows hold the term, the term
    and those rows for the engine to rank (fetched while deciding).  (None, None), with
    nothing sent, where the engine serves (MySQL, other auxiliary calls, other queries)."""
    if (not ranked.ranks_here(conn._backend) or planned.inline is None or len(planned.matched) != 1
            or len(ref.match) != 1 or any(i not in ref.deferred for i in range(len(ref.aux)))
            or (ref.deferred and stash is None)):
        return None, None
    from ..sqlvalues import sql_text

    node, column = ref.match[0]
    text = sql_text(constant(node, values, conn)) or ""
    term = ranked.lone_term(ref.spec, text, column)
    size = _cut_size(conn, planned.cut, values) if term is not None and planned.cut is not None else None
    if term is None or size is None:
        return None, None
    got = ranked.best(storage, term, size[0])
    given = _hit_values(conn._backend, got.hits) if got.hits is not None else None
    if given is None:
        return None, ((term, got) if got.every else None)
    later = None
    if ref.deferred:
        args = [[constant(a, values, conn) for a in arguments] for _n, arguments in ref.aux]
        calls = [(col, ref.aux[i][0], args[i]) for i, col in ref.deferred.items()]
        later = RankedDeferred(conn, storage, [(text, column)], term, got.postings, calls)
        stash.deferred.append(later)  # type: ignore[union-attr]  # checked above

    def complete() -> tuple[str, Sequence[Any]]:
        if later is not None:
            stash.deferred.remove(later)  # type: ignore[union-attr]  # the full evaluation defers its own
        return _fell_short(conn, planned, values, evaluate(conn, ref, storage, values, stash), number, ref)

    return (planned.inline, (*values, *given), Fallback(size[1], complete)), None


def _content_columns(conn: "Connection", tree: exp.Expression, refs: list[Ref], ref: Ref) -> set[str] | None:
    """The external content table's columns (lower case; None: not external content,
    or the table is not there).  A column the FTS table names that is gone (renamed
    or dropped since) fails, as in SQLite, every statement that reads the content:
    a scan without MATCH, a column, snippet() or highlight()."""
    spec = ref.spec
    if not spec.content or spec.contentful:
        return None
    present = {name.lower() for name, _type, _key in conn._shadow.columns(spec.content)}
    missing = [c for c in spec.columns if present and c.lower() not in present]
    if missing and (not ref.match or _reads_content(tree, refs, ref)):
        raise errors.operational(f"no such column: T.{missing[0]}")
    return present or None


def _reads_content(tree: exp.Expression, refs: list[Ref], ref: Ref) -> bool:
    if any(name in ("snippet", "highlight") for name, _args in ref.aux):
        return True
    names = {c.lower() for c in ref.spec.columns}
    for col in tree.find_all(exp.Column):
        select = col.find_ancestor(exp.Select)
        if col.name.lower() in names and select is not None and _owner(col, refs, select) is ref:
            return True
    return False


def _inline(conn: "Connection", tree: exp.Expression, matched: list[tuple[int, Ref]],
            count: int | None) -> str | None:
    """The planned ``tree``'s text with its one hits table read from parameters
    numbered after the statement's own (``hdb_fts_hits``: two arrays for
    helpers/pg_fts.py on PostgreSQL, one JSON array of pairs for a JSON_TABLE on
    MariaDB 10.6+ and MySQL 8, passes/fts_hits.py): no round trip to fill a table,
    and no DDL a read-only transaction refuses.  None where the hits table stays:
    several MATCHes, a hits column other than rowid and rank (a bm25() or snippet()
    computed for every hit), helpers of an older version, older servers.  ``tree``
    is consumed."""
    if count is None or len(matched) != 1 or not _reads_hits_inline(conn._backend):
        return None
    number, ref = matched[0]
    if any(i not in ref.deferred for i in range(len(ref.aux))):
        return None
    temp = _temp_name(ref, number)
    tables = [t for t in tree.find_all(exp.Table) if t.name == temp and t.alias == "h"]
    if len(tables) != 1:
        return None
    given = range(count + 1, count + (3 if conn._backend.kind == "postgres" else 2))
    call = exp.Anonymous(this=HITS, expressions=[exp.Placeholder(this=f"{MARKER}{i}") for i in given])
    tables[0].set("this", call)
    return tree.sql(dialect="sqlite")


def _reads_hits_inline(backend: Any) -> bool:
    if backend.kind == "postgres":
        return backend.helpers_current
    return backend.server_version >= ((10, 6) if backend.dialect == "mariadb" else (8, 0))


def _hit_values(backend: Any, hits: list[tuple]) -> tuple[str, ...] | None:
    """The parameters of ``hdb_fts_hits`` for ``hits``: PostgreSQL's arrays of rowids
    and of ranks, or one JSON array of [rowid, rank] pairs (None when a rank is no JSON
    number: NaN, Inf)."""
    if backend.kind == "postgres":
        return pg_array.integers([h[0] for h in hits]), pg_array.floats([h[1] for h in hits])
    try:  # JSON numbers are written as SQL's are; JSON's null is spelled differently
        pairs = [f"[{_number_sql(h[0])},{'null' if h[1] is None else _number_sql(h[1])}]" for h in hits]
    except ValueError:
        return None
    return ("[" + ",".join(pairs) + "]",)


def run(conn: "Connection", planned: Plan, values: Sequence[Any], storages: dict[str, Storage],
        stash: Stash | None = None, cut: bool = False) -> tuple[str, Sequence[Any], Fallback | None]:
    """Evaluate each MATCH for ``values`` (into its temporary table, or as parameters
    of the inline text); the text to run and its values.  ``cut``: a statement that
    needs only its best hits (``Plan.cut``) gets those inline and a :class:`Fallback`
    (None otherwise: the text holds every hit)."""
    for number, ref in planned.matched:
        storage = storages[ref.spec.name.lower()]
        cutting = False
        if cut and planned.cut is not None:
            if planned.paused:
                planned.paused -= 1
            else:
                cutting = True
        seed = None
        if cutting:
            served, seed = _ranked_by_server(conn, planned, number, ref, storage, values, stash)
            if served is not None:
                return served
        hits = evaluate(conn, ref, storage, values, stash, seed)
        best = _best_hits(conn, planned.cut, values, hits) if cutting else None
        given = _hit_values(conn._backend, best[0]) if best is not None else None
        if given is not None:
            def complete(hits: list[tuple] = hits, number: int = number, ref: Ref = ref) -> tuple[str, Sequence[Any]]:
                return _fell_short(conn, planned, values, hits, number, ref)

            return planned.inline, (*values, *given), Fallback(best[1], complete)
        done = _every_hit(conn, planned, values, hits, number, ref)
        if done is not None:
            return (*done, None)
    return planned.text, values, None


def _fell_short(conn: "Connection", planned: Plan, values: Sequence[Any], hits: list[tuple], number: int,
                ref: Ref) -> tuple[str, Sequence[Any]]:
    """A cut's :class:`Fallback`: the statement again with every hit, and the plan's
    next runs without the cut for a while."""
    planned.paused = _CUT_PAUSE
    return _every_hit(conn, planned, values, hits, number, ref) or (planned.text, values)


def _every_hit(conn: "Connection", planned: Plan, values: Sequence[Any], hits: list[tuple], number: int,
               ref: Ref) -> tuple[str, Sequence[Any]] | None:
    """The inline text and values with all of a MATCH's ``hits``, or None when they
    went to its table instead (a search with many hits ordered by rank keeps the
    table, indexed by rank: _fill_temp), which the planned text reads."""
    inline = planned.inline is not None and not (ref.by_rank and len(hits) >= _INDEX_FROM)
    given = _hit_values(conn._backend, hits) if inline else None
    if given is not None:
        return planned.inline, (*values, *given)
    _fill_temp(conn, ref, number, hits)
    return None


def rewrite(conn: "Connection", tree: exp.Expression, specs: dict[str, FtsSpec], values: Sequence[Any],
            storages: dict[str, Storage], stash: Stash | None = None) -> str:
    """The statement with every FTS reference replaced; SQLite text with markers."""
    try:
        planned = plan(conn, tree, specs, stash is not None)
    except MisplacedMatch:
        raise errors.operational("unable to use function MATCH in the requested context") from None
    return run(conn, planned, values, storages, stash)[0]


def defer(tree: exp.Expression, ref: Ref) -> dict[int, int]:
    """snippet()/highlight() calls that can wait for the result: aux number -> output column.

    Only calls that are whole result columns of the statement's own SELECT
    (no DISTINCT/GROUP BY, no other use of the value or its alias); the
    derived table then carries the rowid there and ``Deferred.fill`` swaps it."""
    if not isinstance(tree, exp.Select) or tree.args.get("distinct") or tree.args.get("group"):
        return {}
    alias = ref.alias.lower()

    def aux_number(node: exp.Expression) -> int | None:
        if isinstance(node, exp.Column) and node.table.lower() == alias and node.name.startswith("hermes_aux_"):
            return int(node.name[len("hermes_aux_"):])
        return None

    out: dict[int, int] = {}
    names: set[str] = set()
    for pos, e in enumerate(tree.expressions):
        number = aux_number(e.this if isinstance(e, exp.Alias) else e)
        if number is not None and ref.aux[number][0] != "bm25" and number not in out:
            out[number] = pos
            if isinstance(e, exp.Alias):
                names.add(e.alias.lower())
    uses = [aux_number(c) for c in tree.find_all(exp.Column)]
    if any(uses.count(n) != 1 for n in out):
        return {}
    if any(not c.table and c.name.lower() in names for c in tree.find_all(exp.Column)):
        return {}
    return out


def _order_like_fts5(ref: Ref) -> None:
    """FTS5 scans in rowid order and sorts rank ties by rowid: say so to the server.
    A SELECT ordered by the rank first marks ``ref.by_rank``: on PostgreSQL its hits
    table gets an index in that order, so ``ORDER BY rank LIMIT n`` reads n hits, not all."""
    select = ref.table.find_ancestor(exp.Select)
    if select is None:
        return
    key = exp.column("hermes_rowid", table=exp.to_identifier(ref.alias, quoted=True), quoted=True)
    order = select.args.get("order")
    if order is None:  # the scan's order: rows of one FTS table, each from one hit
        scanned = len(_sources(select)) == 1 and not select.args.get("group") \
            and not select.args.get("distinct") and not _own(select, exp.AggFunc)
        if scanned and isinstance(select.parent, (type(None), exp.Subquery)):
            select.set("order", exp.Order(expressions=[exp.Ordered(this=key)]))
        return
    # rows are hits (not groups; under DISTINCT, rows that show the rowid): ties by rowid
    per_hit = not select.args.get("group") and not _own(select, exp.AggFunc) and (
        not select.args.get("distinct") or any(c.name == "hermes_rowid" for e in select.expressions
                                               for c in e.find_all(exp.Column)))
    if per_hit and any(c.name == "hermes_rank" for c in order.find_all(exp.Column)):
        order.append("expressions", exp.Ordered(this=key))
    first = order.expressions[0].this
    if isinstance(first, exp.Column) and first.name == "hermes_rank":  # an index only: rows are the same
        ref.by_rank = first.table.lower() == ref.alias.lower() or not first.table and len(_sources(select)) == 1
