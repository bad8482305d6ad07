r"""substr(), LIKE, trim() and replace() with SQLite's semantics.

* ``trim/ltrim/rtrim(x, chars)`` remove any of a *set* of characters; MySQL's
  TRIM removes a whole *string*: there a literal set becomes
  ``REGEXP_REPLACE(x, '^[set]+|[set]+$', '')`` (case-sensitive, each character
  as a ``\x{hex}`` escape); a set that is not a literal raises NotSupportedError.
* MariaDB's ``REPLACE(x, y, NULL)`` returns x when y does not occur; SQLite NULL.

* ``substr(x, y[, n])``: a negative ``y`` counts from the end.  PG counts it
  before the start (``substr('hello', -3)`` is 'hello'), MySQL returns '' for a
  start of 0 or before the string.  We compute SQLite's start and clamp it.
* ``LIKE`` is ASCII-case-insensitive in SQLite and has no default escape.
  Both sides are folded by :func:`ascii_case` (ILIKE would also fold non-ASCII
  letters); PG gets ``ESCAPE ''`` when SQLite had none (its default escape is
  backslash).  MariaDB reads ``ESCAPE ''`` as backslash (its default), so a
  pattern without ESCAPE keeps backslash as the escape and has every backslash
  in it doubled: each one then matches itself, as in SQLite.  On a TEXT column
  MariaDB first runs a case-insensitive LIKE (a superset), so that the folds
  run only on the rows it keeps.
* ``upper()``/``lower()`` (and the folds of LIKE and COLLATE NOCASE) change the
  26 ASCII letters only, as SQLite's do; the servers' UPPER/LOWER change every
  letter ('é' -> 'É', 'Привет' -> 'ПРИВЕТ').  PG: ``LOWER(x COLLATE "C")``, whose
  case mapping is ASCII's (and faster than translate(), 20x on 1.5 kB texts);
  MariaDB has no such collation: one ``REPLACE`` per letter (case-sensitive).
"""

from __future__ import annotations

import string

from sqlglot import exp

from ... import errors
from ..context import Context
from ._build import call
from ._walk import bottom_up
from .value_classes import column_affinity
from .text_arguments import as_text
from .blobs import BLOB, is_blob
from .c_strings import cstr, reencode


def _int(node: exp.Expression) -> int | None:
    if isinstance(node, exp.Literal) and not node.is_string and node.this.lstrip("-").isdigit():
        return int(node.this)
    if isinstance(node, exp.Neg) and (inner := _int(node.this)) is not None:
        return -inner
    return None


def _length(x: exp.Expression, ctx: Context) -> exp.Expression:
    return exp.Length(this=x.copy()) if not ctx.is_mysql else exp.Anonymous(this="CHAR_LENGTH", expressions=[x.copy()])


def _case(*branches: tuple[exp.Expression, exp.Expression], default: exp.Expression) -> exp.Expression:
    return exp.Case(ifs=[exp.If(this=c, true=v) for c, v in branches], default=default)


def _num(n: int) -> exp.Expression:
    return exp.Literal.number(n) if n >= 0 else exp.Neg(this=exp.Literal.number(-n))


def _substr(node: exp.Substring, ctx: Context) -> exp.Expression:
    """SQLite's substrFunc, step by step: 0-based start ``p`` and count ``c``.

    y < 0: p = max(y + L, 0), c = max(|z| + min(y + L, 0), 0);  y > 0: p = y - 1, c = |z|;
    y = 0: p = 0, c = max(|z| - 1, 0); then a negative z takes the ``c`` characters
    *before* p: p' = max(p - c, 0), c' = min(c, p).  NULL start or count: NULL.
    """
    start, count = node.args.get("start"), node.args.get("length")
    if start is None:
        return node
    y, z = _int(start), (_int(count) if count is not None else None)
    if y is not None and y > 0 and (count is None or (z is not None and z >= 0)):
        return node  # the common case means the same everywhere
    x = node.this
    zero, one = _num(0), _num(1)
    yl = exp.Add(this=start.copy(), expression=_length(x, ctx))
    p0 = _case(
        (exp.LT(this=start.copy(), expression=zero.copy()), call("GREATEST", yl, zero.copy())),
        (exp.GT(this=start.copy(), expression=zero.copy()), exp.Sub(this=start.copy(), expression=one.copy())),
        default=zero.copy(),
    )
    if count is None:
        out_start, out_count = p0, None
    else:
        a = exp.Abs(this=count.copy())
        c0 = _case(
            (exp.LT(this=start.copy(), expression=zero.copy()),
             call("GREATEST", exp.Add(this=a.copy(), expression=call("LEAST", yl.copy(), zero.copy())), zero.copy())),
            (exp.GT(this=start.copy(), expression=zero.copy()), a.copy()),
            default=call("GREATEST", exp.Sub(this=a.copy(), expression=one.copy()), zero.copy()),
        )
        if z is not None and z >= 0:
            out_start, out_count = p0, c0
        else:
            negative = exp.LT(this=count.copy(), expression=zero.copy())
            out_start = _case((negative, call("GREATEST", exp.Sub(this=p0.copy(), expression=c0.copy()), zero.copy())),
                              default=p0.copy())
            out_count = _case((negative.copy(), call("LEAST", c0.copy(), p0.copy())), default=c0.copy())
    out_start = exp.Add(this=out_start, expression=one.copy())
    if not ctx.is_mysql:
        out_start = exp.Cast(this=out_start, to=exp.DataType.build("INT"))
        if out_count is not None:
            out_count = exp.Cast(this=out_count, to=exp.DataType.build("INT"))
    result: exp.Expression = exp.Substring(this=x, start=out_start, length=out_count)
    unknown = [e for e, v in ((start, y), (count, z)) if e is not None and v is None]
    if unknown:  # PG's GREATEST/LEAST skip NULLs: SQLite's substr returns NULL for a NULL start or count
        nulls = exp.or_(*[exp.Is(this=e.copy(), expression=exp.Null()) for e in unknown])
        result = _case((nulls, exp.Null()), default=result)
    return result


def _blob_substr(node: exp.Substring, ctx: Context) -> exp.Expression:
    """SQLite's substr() of a zero-length BLOB is NULL (the servers give b''):
    known statically for a column declared BLOB and the blobs ``passes/blobs.py`` makes."""
    x = node.this
    blob = is_blob(x, ctx)  # before x leaves the tree
    if not blob:
        x = as_text(x, ctx)  # PostgreSQL has no substring of a number
        text = cstr(x, ctx)  # SQLite's substr of text stops at the first NUL
        node.set("this", text)
        return reencode(_substr(node, ctx), text, ctx)
    result = _substr(node, ctx)
    empty = exp.EQ(this=exp.Length(this=x.copy()), expression=exp.Literal.number(0))
    out = exp.Case(ifs=[exp.If(this=empty, true=exp.Null())], default=result)
    out.meta[BLOB] = True  # a blob's substr is a blob: length() and the like read it whole
    return out


def sqlite_substr(tree: exp.Expression, ctx: Context) -> exp.Expression:
    return bottom_up(tree, lambda n: _blob_substr(n, ctx) if isinstance(n, exp.Substring) else n)


def _trim_set(node: exp.Trim, ctx: Context) -> exp.Expression:
    chars = node.args.get("expression")
    if chars is None or isinstance(chars, exp.Null):
        return node
    if not (isinstance(chars, exp.Literal) and chars.is_string):
        raise errors.not_supported("trim()/ltrim()/rtrim() with a character set that is not a literal", ctx.dialect)
    if chars.this == "":
        return node.this
    cls = "[" + "".join(f"\\x{{{ord(c):x}}}" for c in dict.fromkeys(chars.this)) + "]+"
    position = str(node.args.get("position") or "").upper()
    pattern = {"LEADING": f"^{cls}", "TRAILING": f"{cls}$"}.get(position, f"^{cls}|{cls}$")
    return exp.Anonymous(
        this="REGEXP_REPLACE",
        expressions=[node.this, exp.Literal.string("(?-i)" + pattern), exp.Literal.string("")],
    )


def _replace_null(node: exp.Replace, ctx: Context) -> exp.Expression:
    replacement = node.args.get("replacement")
    if replacement is None or (isinstance(replacement, exp.Literal) and replacement.is_string):
        return node
    nulls = exp.Is(this=replacement.copy(), expression=exp.Null())
    return exp.Case(ifs=[exp.If(this=nulls, true=exp.Null())], default=node)


def mysql_strings(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql:
        return tree

    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Trim):
            return _trim_set(n, ctx)
        if isinstance(n, exp.Replace):
            return _replace_null(n, ctx)
        return n

    return bottom_up(tree, rewrite)


_UPPER, _LOWER = string.ascii_uppercase, string.ascii_lowercase


def ascii_case(x: exp.Expression, ctx: Context, *, lower: bool = True) -> exp.Expression:
    """``x`` with its ASCII letters (only) in lower or upper case, as SQLite folds."""
    source, target = (_UPPER, _LOWER) if lower else (_LOWER, _UPPER)
    if isinstance(x, exp.Literal) and x.is_string:
        return exp.Literal.string(x.this.translate(str.maketrans(source, target)))
    if isinstance(x, exp.Literal):  # a number: its text, as SQLite's upper(5) reads it
        return exp.Literal.string(x.this)
    if isinstance(x, exp.HexString) or isinstance(x, exp.Column) and column_affinity(x, ctx) == "BLOB":
        raise errors.not_supported("upper()/lower()/LIKE/NOCASE of a BLOB", ctx.dialect)
    if not ctx.is_mysql:  # the "C" collation's LOWER/UPPER change ASCII letters only
        text = x if not _numeric(x, ctx) else exp.Cast(this=x, to=exp.DataType.build("TEXT"))
        in_c = exp.Collate(this=text, expression=exp.Identifier(this="C", quoted=True))
        return exp.Anonymous(this="LOWER" if lower else "UPPER", expressions=[in_c])
    for old, new in zip(source, target):
        x = exp.Anonymous(this="REPLACE", expressions=[x, exp.Literal.string(old), exp.Literal.string(new)])
    return x


def _numeric(x: exp.Expression, ctx: Context) -> bool:
    """A number, which PostgreSQL cannot collate (SQLite folds its text)."""
    if isinstance(x, exp.Column):
        return column_affinity(x, ctx) in ("INTEGER", "REAL")
    return isinstance(x, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.Neg, exp.Count, exp.Length))


def sqlite_case(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """upper()/lower() (and LOWER folds made by earlier passes) change ASCII letters only."""
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, (exp.Upper, exp.Lower)):
            return ascii_case(n.this, ctx, lower=isinstance(n, exp.Lower))
        return n

    return bottom_up(tree, rewrite)


_PREFILTER_COLLATION = "utf8mb4_general_nopad_ci"


def _like(node: exp.Expression, ctx: Context) -> exp.Expression:
    like = node.this if isinstance(node, exp.Escape) else node
    pattern = like.expression
    # a literal pattern without letters matches a letter only by a wildcard: no folding
    folding = not (isinstance(pattern, exp.Literal) and pattern.is_string
                   and not any(c in _LOWER or c in _UPPER for c in pattern.this))
    fold = ascii_case if folding else lambda x, _ctx: x
    column = _prefiltered(like.this, ctx) if folding and not _letter_escape(node) else None
    value, pattern = cstr(like.this, ctx), cstr(like.expression, ctx)  # SQLite's LIKE stops at a NUL
    like.set("this", fold(value.copy(), ctx))
    like.set("expression", fold(pattern.copy(), ctx))
    if isinstance(node, exp.Escape):
        escape = node.expression
        if isinstance(escape, exp.Literal) and escape.is_string and escape.this in _UPPER:
            node.set("expression", exp.Literal.string(escape.this.lower()))
        out = node
    elif ctx.is_mysql:
        like.set("expression", _literal_backslashes(like.expression))
        pattern = _literal_backslashes(pattern)
        out = exp.Escape(this=like, expression=exp.Literal.string("\\"))
    else:
        return exp.Escape(this=like, expression=exp.Literal.string(""))
    if column is None:
        return out
    # MariaDB: the REPLACE folds cost a scan twice LOWER's; a case-insensitive LIKE
    # first (a superset: it folds every letter) leaves them to the rows it keeps
    negated = bool(like.args.get("negate"))  # NOT LIKE: NOT (both)
    like.set("negate", None)
    loose = exp.Like(this=cstr(column.copy(), ctx), expression=exp.Collate(
        this=pattern, expression=exp.Var(this=_PREFILTER_COLLATION)))
    both = exp.Paren(this=exp.And(this=exp.Escape(this=loose, expression=out.expression.copy()), expression=out))
    return exp.Not(this=both) if negated else both


def _letter_escape(node: exp.Expression) -> bool:
    """An ESCAPE letter: the unfolded prefilter would not read it as the escape."""
    escape = node.expression if isinstance(node, exp.Escape) else None
    return isinstance(escape, exp.Literal) and escape.this.isalpha()


def _prefiltered(value: exp.Expression, ctx: Context) -> exp.Column | None:
    """MariaDB, a TEXT column (or its upper/lower): the column a case-insensitive
    prefilter reads."""
    while isinstance(value, (exp.Upper, exp.Lower)):
        value = value.this
    if ctx.dialect == "mariadb" and isinstance(value, exp.Column) and column_affinity(value, ctx) == "TEXT":
        return value
    return None


def _literal_backslashes(pattern: exp.Expression) -> exp.Expression:
    """The pattern with each backslash doubled, so that it escapes nothing."""
    if isinstance(pattern, exp.Literal) and pattern.is_string:
        return exp.Literal.string(pattern.this.replace("\\", "\\\\"))
    return exp.Anonymous(
        this="REPLACE", expressions=[pattern, exp.Literal.string("\\"), exp.Literal.string("\\\\")]
    )


def sqlite_like(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Escape) and isinstance(n.this, exp.Like):
            return _like(n, ctx)
        if isinstance(n, exp.Like) and not isinstance(n.parent, exp.Escape):
            return _like(n, ctx)
        return n

    return bottom_up(tree, rewrite)


_PG_ESCAPE = "\x01"  # backends/pg_text.py: NUL is stored as U+0001 U+0001, U+0001 as U+0001 U+0002


def _is_dt_format(node: exp.Literal) -> bool:
    parent = node.parent
    return (isinstance(parent, exp.Anonymous) and str(parent.this).lower() == "hdb_dt"
            and bool(parent.expressions) and parent.expressions[0] is node)


def pg_escaped_literals(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """String literals hold U+0001 (and NUL, from ``char(0)``: sqlite3 refuses SQL
    text containing it) the way bound text does on PostgreSQL (pg_text.py), so a
    literal and a parameter with the same text compare equal.  The format of
    hdb_dt() is the helper's own (U+0001/U+0002 are its markers, passes/datetime.py)."""
    for node in tree.find_all(exp.Literal):
        if _is_dt_format(node):
            continue
        if node.is_string and (_PG_ESCAPE in node.this or "\x00" in node.this):
            text = node.this.replace(_PG_ESCAPE, _PG_ESCAPE + "\x02").replace("\x00", _PG_ESCAPE + _PG_ESCAPE)
            node.set("this", text)
    return tree
