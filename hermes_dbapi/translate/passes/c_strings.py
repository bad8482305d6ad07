r"""SQLite's view of text holding NUL, for the passes that rewrite text functions.

SQLite's ``length``, ``substr``, ``LIKE``, ``GLOB``, ``quote`` and ``printf('%s')``
read text as a C string: they stop at the first NUL (``length('a' || char(0) ||
'b')`` is 1, ``'a' || char(0) || 'b' LIKE 'a'`` is true).  ``=``, ``<``, ``||``,
``instr``, ``replace``, ``hex``, ``upper``/``lower`` see the whole value.

* MariaDB stores NUL as it is: :func:`cstr` is ``SUBSTRING_INDEX(x, '\0', 1)``,
  which returns x itself when it holds no NUL.
* PostgreSQL stores NUL escaped (``backends/pg_text.py``): :func:`cstr` is
  ``hdb_cstr(x)`` / ``hdb_cstr1(x)`` (cut and decoded, ``translate/helpers/pg_text.py``) and a text
  result built from it is encoded again by :func:`reencode`; ``instr``,
  ``replace``, ``hex`` and ``char`` have helpers of their own (:func:`pg_instr` …).

Arguments that cannot hold NUL are left alone: numbers, string literals (sqlite3
refuses SQL text with NUL), BLOB columns and the blobs ``passes/blobs.py`` makes
(byte-wise in SQLite too).
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context
from ._build import call
from .value_classes import column_affinity

_NUL = "\x00"
_PG_ESCAPE = "\x01"  # backends/pg_text.py
BLOB = "hdb_blob"  # meta: this expression's value is a blob (set by passes/blobs.py), read whole


def can_hold_nul(x: exp.Expression, ctx: Context) -> bool:
    """Whether the text SQLite reads from ``x`` may hold NUL (or, on PostgreSQL, the escape)."""
    if isinstance(x, exp.Literal):
        return x.is_string and (_NUL in x.this or (not ctx.is_mysql and _PG_ESCAPE in x.this))
    if isinstance(x, (exp.Null, exp.Neg, exp.HexString, exp.Boolean)) or x.meta.get(BLOB):
        return False
    if isinstance(x, exp.Cast) and (x.to.is_type("blob", "varbinary", "binary", "bytea", "int", "bigint", "double")
                                    or isinstance(x.this, (exp.Neg, exp.Literal)) and not x.this.is_string):
        return False
    if isinstance(x, exp.Column):
        return column_affinity(x, ctx) not in ("BLOB", "INTEGER", "REAL", "NUMERIC")
    if isinstance(x, exp.Anonymous) and str(x.this).lower() in ("hdb_dt", "hdb_real_text"):  # never NUL
        return False
    return not isinstance(x, (exp.Length, exp.Count, exp.Sum, exp.Avg, exp.StrPosition))


_CSTR_NAMES = ("hdb_cstr", "hdb_cstr1", "substring_index")


_CSTR_META = "hdb_cstr"


def _is_cstr(x: exp.Expression) -> bool:
    return bool(x.meta.get(_CSTR_META)) or isinstance(x, exp.Anonymous) and str(x.this).lower() in _CSTR_NAMES


def _simple(x: exp.Expression) -> bool:
    """A column or parameter (maybe cast): cheap to read twice in an inlined helper."""
    while isinstance(x, (exp.Cast, exp.Paren)):
        x = x.this
    return isinstance(x, (exp.Column, exp.Placeholder, exp.Literal))


def cstr(x: exp.Expression, ctx: Context) -> exp.Expression:
    """``x`` as the C string SQLite's length/substr/LIKE/GLOB read (decoded on PostgreSQL)."""
    if _is_cstr(x) or not can_hold_nul(x, ctx):
        return x
    if ctx.is_mysql:
        cut = call("SUBSTRING_INDEX", x, exp.Literal.string(_NUL), exp.Literal.number(1))
        if not _simple(x):
            return cut
        # a BLOB (a bytes parameter, a blob in a column without a type) is read whole, as
        # SQLite reads blobs; numbers have the binary charset too and hold no NUL
        binary = exp.EQ(this=call("CHARSET", x.copy()), expression=exp.Literal.string("binary"))
        out = exp.If(this=binary, true=x.copy(), false=cut)
        out.meta[_CSTR_META] = True
        return out
    return call("hdb_cstr" if _simple(x) else "hdb_cstr1", x)


def reencode(result: exp.Expression, arg: exp.Expression, ctx: Context) -> exp.Expression:
    """A text ``result`` computed from :func:`cstr` of ``arg``, in the stored encoding again."""
    if ctx.is_mysql or not isinstance(arg, exp.Anonymous) or str(arg.this).lower() not in _CSTR_NAMES:
        return result
    return call("hdb_enc", result)


def pg_instr(node: exp.StrPosition, ctx: Context) -> exp.Expression:
    """instr(h, n) counts characters of the whole text: the escape pairs must count as one."""
    haystack, needle = node.this, node.args.get("substr")
    if ctx.is_mysql or needle is None or node.args.get("position") is not None:
        return node
    if not can_hold_nul(haystack, ctx):
        return node
    return call("hdb_instr", haystack, needle)


def pg_replace(node: exp.Replace, ctx: Context) -> exp.Expression:
    """replace() on encoded text is exact unless the pattern starts with U+0001/U+0002
    (it could then match the second half of a pair): hdb_replace checks at run time."""
    pattern = node.expression
    if ctx.is_mysql or not can_hold_nul(node.this, ctx):
        return node
    if isinstance(pattern, exp.Literal) and pattern.is_string and pattern.this[:1] not in ("\x00", "\x01", "\x02"):
        return node
    replacement = node.args.get("replacement")
    if replacement is None:
        return node
    return call("hdb_replace", node.this, pattern, replacement)
