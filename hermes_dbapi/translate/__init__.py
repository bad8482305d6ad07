"""SQLite SQL → driver SQL for one backend: parse, rewrite passes, generate.

``translate()`` is a pure function of the statement text and the backend
(plus the schema, for the few passes that consult it; those translations say so
in ``schema_dependent``).  :class:`TranslationCache` makes a repeated statement
cost one dictionary lookup.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from .. import errors
from . import conflict_clause, constraint_clauses, mysql_names
from .context import HIDDEN_ROWID, Context
from .generators import HermesSQLite, render
from .params import scan
from .passes import PASSES, ignore_rows, schema_names
from .typenames import normalize, tokenize

_DML = (exp.Insert, exp.Update, exp.Delete)


@dataclass(frozen=True)
class Translation:
    sql: str  # driver text, %s placeholders, literal % doubled
    order: tuple[int, ...]  # 0-based SQLite parameter index for each %s
    count: int  # number of SQLite parameters (sqlite3_bind_parameter_count)
    names: tuple[str | None, ...]  # SQLite parameter name per index (":a") or None for "?"
    is_ddl: bool
    is_insert: bool
    returns_rows: bool  # SELECT, VALUES, ... RETURNING
    table: str  # target table of INSERT/UPDATE/DELETE
    schema_dependent: bool
    bound_rules: tuple[tuple[int, str], ...] = ()  # (driver position, rule): binding.apply_bound_rules
    refused_values: tuple[tuple[int, tuple[tuple[str, str, str], ...]], ...] = ()  # (driver position, refusals): passes/kept_values.py
    session: tuple[tuple[int, str], ...] = ()  # (driver position, "changes"|...): see passes/functions.py
    json_typed: tuple[int, ...] = ()  # result columns holding JSON-encoded SQL values: see passes/json.py
    tagged: tuple[int, ...] = ()  # result columns holding class-tagged values: see passes/mixed_types.py
    after: tuple[str, ...] = ()  # driver statements to run right after this DDL: see passes/ddl.py
    upsert_update: bool = False  # PostgreSQL ON CONFLICT DO UPDATE of an SQLite upsert: see passes/conflicts.py
    listed: tuple[str, ...] | None = None  # INSERT: its column list (None: every column)
    rows: int = 0  # INSERT … VALUES: the number of rows (0: unknown); see Connection._rewind_identity
    conflict: bool = False  # INSERT with ON CONFLICT (OR IGNORE, upserts): rows may be skipped
    rowid_coalesced: bool = False  # PostgreSQL: a NULL bound to the rowid column draws the next id (passes/insert_defaults.py)
    sets_rowid: bool = False  # UPDATE whose SET assigns the rowid (PostgreSQL identity upkeep: Connection._identity_past_updated)
    update_or: str = ""  # UPDATE OR <algorithm>: the algorithm (translate/conflict_clause.py, update_conflicts.py)


def translate(sql: str, ctx: Context) -> Translation:
    """Translate one SQLite statement; raise the sqlite3 error SQLite would."""
    check_parse_limits(sql)
    try:
        return _translate(sql, ctx)
    except RecursionError:  # nesting deeper than Python's stack: SQLite's own word for it
        raise errors.operational("parser stack overflow") from None
    except (ParseError, TokenError) as exc:  # from the parameter scan or a pass re-parsing a fragment
        raise errors.operational(f"unsupported or malformed SQL ({_first_line(exc)})") from None
    except errors.sqlite3.Error:
        raise
    except Exception as exc:  # sqlglot read malformed SQL leniently and a pass tripped over it
        raise _not_translatable(sql, exc, ctx) from None


_SYNTAX = ("near ", "incomplete input", "unrecognized token")


def _not_translatable(sql: str, exc: Exception, ctx: Context) -> errors.sqlite3.Error:
    """SQLite's own syntax error when SQLite rejects ``sql`` too (the fuzzer's usual
    find), else NotSupportedError naming the internal failure: never a bare
    Python exception from ``execute`` (issue 9, item 4)."""
    scratch = errors.sqlite3.connect(":memory:")
    try:
        scratch.execute("EXPLAIN " + sql)
    except errors.sqlite3.Error as rejected:
        if str(rejected).startswith(_SYNTAX + _PARSE_LIMITS):
            return errors.operational(str(rejected))
    finally:
        scratch.close()
    where = f"{type(exc).__name__}: {_first_line(exc)}"
    return errors.make(
        errors.sqlite3.NotSupportedError, f"statement could not be translated for {ctx.dialect} ({where})"
    )


# Statements at least this long are parsed by SQLite first (milliseconds even for
# 10 MB), so that one over SQLite's parse-time limits (expression depth 1000,
# parser stack, compound terms) fails at once with SQLite's message instead of
# keeping the Python parser busy for minutes (issue 9, item 6).
_LONG = 10_000
_PARSE_LIMITS = (
    "parser stack overflow",
    "Expression tree is too large",
    "too many terms in compound SELECT",
    "too many columns",
    "too many arguments on function",
    "string or blob too big",
)


def check_parse_limits(sql: str) -> None:
    """Raise SQLite's error for a long statement beyond its parse-time limits."""
    if len(sql) < _LONG:
        return
    scratch = errors.sqlite3.connect(":memory:")
    try:
        scratch.execute("EXPLAIN " + sql)
    except errors.sqlite3.Error as exc:  # anything else (no such table, bindings) is not ours to say
        if str(exc).startswith(_PARSE_LIMITS):
            raise errors.operational(str(exc)) from None
    finally:
        scratch.close()


def _translate(sql: str, ctx: Context) -> Translation:
    # SQLite's REPLACE INTO is INSERT OR REPLACE INTO (sqlglot reads it as an opaque Command)
    params = scan(conflict_clause.replace_into(sql))
    text, update_or = conflict_clause.split(schema_names.unqualified_index(params.sql))
    head = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
    if head in ("CREATE", "ALTER"):
        tokens = tokenize(text)  # one token list for both (strip keeps every offset)
        if head == "CREATE":
            text = constraint_clauses.strip(text, tokens, ctx.dialect)
        text = normalize(text, tokens)
    tree = _parse_one(text)
    for rewrite in PASSES[ctx.dialect]:
        tree = rewrite(tree, ctx)
    driver_sql, marks = render(tree, ctx.dialect)
    after = tuple(ctx.facts.get("after", ()))  # type: ignore[arg-type]
    if ctx.is_mysql:
        driver_sql, after = mysql_names.encode(driver_sql), tuple(mysql_names.encode(a) for a in after)
    order = tuple(mark for mark in marks if isinstance(mark, int))
    table = tree.this if isinstance(tree, _DML) else None
    if isinstance(table, exp.Schema):
        table = table.this
    return Translation(
        sql=driver_sql,
        order=order,
        count=params.count,
        names=params.names,
        is_ddl=isinstance(tree, (exp.Create, exp.Drop, exp.Alter)),
        is_insert=isinstance(tree, exp.Insert),
        returns_rows=_returns_rows(tree),
        table=table.name if isinstance(table, exp.Table) else "",
        schema_dependent=ctx.schema_dependent,
        bound_rules=_bound_rules(marks, ctx.facts.get("bound_rules")),
        refused_values=_bound_rules(marks, ctx.facts.get("refused_values")),
        session=tuple((position, mark) for position, mark in enumerate(marks) if isinstance(mark, str)),
        json_typed=ctx.facts.get("json_typed", ()),  # type: ignore[arg-type]
        tagged=ctx.facts.get("tagged", ()),  # type: ignore[arg-type]
        upsert_update=bool(ctx.facts.get("upsert_update")),
        rowid_coalesced=bool(ctx.facts.get("rowid_coalesced")),
        after=after,
        sets_rowid=_sets_rowid(tree, ctx),
        update_or=update_or,
        **_insert_facts(tree),
    )


def _sets_rowid(tree: exp.Expression, ctx: Context) -> bool:
    """PostgreSQL: whether an UPDATE assigns its table's rowid (``SET id = …``, or
    ``SET rowid = …``, by now the hidden rowid column's name)."""
    if ctx.is_mysql or not isinstance(tree, exp.Update) or not isinstance(tree.this, exp.Table):
        return False  # MySQL's AUTO_INCREMENT follows an updated id by itself
    assigned = {e.this.name.lower() for e in tree.expressions if isinstance(e, exp.EQ) and isinstance(e.this, exp.Column)}
    if HIDDEN_ROWID.lower() in assigned:
        return True
    ctx.schema_dependent = True
    alias = ctx.schema.rowid_column(tree.this.name)
    return alias is not None and alias.lower() in assigned


def _insert_facts(tree: exp.Expression) -> dict:
    """Column list, VALUES row count and ON CONFLICT of an INSERT (identity upkeep on PostgreSQL)."""
    if not isinstance(tree, exp.Insert):
        return {}
    target = tree.this
    listed = tuple(e.name for e in target.expressions) if isinstance(target, exp.Schema) else None
    source = tree.expression
    if isinstance(source, exp.Select) and isinstance(source.args.get("from_"), exp.From):
        source = source.args["from_"].this  # passes/ignore_rows.py: SELECT * FROM (VALUES …) WHERE …
    typed = ignore_rows.typed_row_values(source)  # … or its PostgreSQL form
    rows = len(source.expressions) if isinstance(source, exp.Values) else len(typed) if typed else 0
    return {"listed": listed, "rows": rows, "conflict": tree.args.get("conflict") is not None}


def _bound_rules(marks: tuple[int | str, ...], by_index: object) -> tuple[tuple[int, str], ...]:
    if not by_index:
        return ()
    assert isinstance(by_index, dict)
    return tuple((position, by_index[index]) for position, index in enumerate(marks) if index in by_index)


def _returns_rows(tree: exp.Expression) -> bool:
    if isinstance(tree, _DML):
        return tree.args.get("returning") is not None
    return isinstance(tree, (exp.Query, exp.Values))


def _parse_one(text: str) -> exp.Expression:
    try:
        # a trailing comment after the last ';' parses as an empty Semicolon: sqlite3 ignores it
        trees = [t for t in sqlglot.parse(text, read=HermesSQLite) if t is not None and not isinstance(t, exp.Semicolon)]
    except (ParseError, TokenError) as exc:
        raise errors.operational(f"unsupported or malformed SQL ({_first_line(exc)})") from None
    if len(trees) > 1:
        raise errors.programming("You can only execute one statement at a time.")
    if not trees:
        raise errors.operational("empty statement")
    tree = trees[0]
    if isinstance(tree, exp.Command):
        raise errors.make(
            errors.sqlite3.NotSupportedError, f"statement {tree.name.upper()} … is not supported on this backend"
        )
    return tree


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


class TranslationCache:
    """A bounded LRU of translations keyed by (dialect, SQL text)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = max(size, 1)
        self._entries: OrderedDict[tuple[str, str], Translation] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, dialect: str, sql: str) -> Translation | None:
        entry = self._entries.get((dialect, sql))
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end((dialect, sql))
        return entry

    def put(self, dialect: str, sql: str, translation: Translation) -> None:
        self._entries[(dialect, sql)] = translation
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()
