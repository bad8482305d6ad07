"""SQLite scalar/aggregate functions whose server spelling or NULL rules differ.

Each function below rewrites one SQLite function; they are composed by
:func:`sqlite_functions` in one walk of the tree.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ..generators import SESSION_MARKER
from ._walk import bottom_up
from .value_classes import column_affinity, is_call, is_text, storage_class
from .blobs import BLOB
from .c_strings import can_hold_nul, cstr, pg_instr, pg_replace

_TEXT_FUNCS = (exp.Replace, exp.DPipe, exp.Concat, exp.StrPosition, exp.Trim, exp.Like, exp.EQ, exp.NEQ)


def _null_propagating(node: exp.Expression) -> exp.Expression:
    """PG GREATEST/LEAST ignore NULLs; SQLite's 2+-arg max()/min() return NULL if any arg is NULL."""
    args = [node.this, *node.expressions]
    if any(isinstance(a, exp.Null) for a in args):
        return exp.Null()
    any_null = exp.or_(*[exp.Is(this=a.copy(), expression=exp.Null()) for a in args])
    return exp.Case(ifs=[exp.If(this=any_null, true=exp.Null())], default=node)


def _total(node: exp.Anonymous, ctx: Context) -> exp.Expression:
    """total(x) = sum as REAL, 0.0 on no rows."""
    summed = exp.Sum(this=node.expressions[0])
    kind = "DOUBLE" if ctx.is_mysql else "DOUBLE PRECISION"
    return exp.Cast(this=exp.Coalesce(this=summed, expressions=[exp.Literal.number(0)]), to=exp.DataType.build(kind))


_CLASS_OF_AFFINITY = {"INTEGER": "integer", "REAL": "real", "TEXT": "text", "BLOB": "blob"}


def _static_class(arg: exp.Expression, ctx: Context) -> str | None:
    """The storage class every non-NULL value of ``arg`` has on the server, where its
    kind says it: a typed column (a server column holds one type), a cast, a literal."""
    if isinstance(arg, exp.Column):
        return _CLASS_OF_AFFINITY.get(column_affinity(arg, ctx) or "")
    if arg.meta.get(BLOB):  # zeroblob(), randomblob(), CAST(… AS BLOB): passes/blobs.py
        return "blob"
    if isinstance(arg, exp.Cast):
        if arg.to.is_type(*exp.DataType.INTEGER_TYPES):
            return "integer"
        if arg.to.is_type(exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT):
            return "real"
        if arg.to.is_type(*exp.DataType.TEXT_TYPES):
            return "text"
        return None
    if isinstance(arg, exp.HexString):
        return "blob"
    if isinstance(arg, exp.Literal):
        return "text" if arg.is_string else "integer" if arg.this.isdigit() else "real"
    return None


_CLASS = "hdb_class"  # meta of a Typeof node: its argument's storage class, read before the rewrites


def _expression_class(arg: exp.Expression, ctx: Context) -> str | None:
    """The storage class SQLite gives every non-NULL value of an expression, where its
    form says it (integer arithmetic, comparisons, count/length; REAL arithmetic,
    avg/round; concatenation and the case/trim/hex functions), else None."""
    while isinstance(arg, exp.Paren):
        arg = arg.this
    if isinstance(arg, (exp.Column, exp.Literal, exp.Cast, exp.HexString, exp.Null)):
        return None  # _static_class reads these after the rewrites
    return storage_class(arg, ctx)


def typeof_classes(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """MariaDB has no typeof(): the class of an expression argument is read from its
    SQLite form, before other passes rewrite it (:func:`_typeof` uses it)."""
    if ctx.is_mysql:
        for node in tree.find_all(exp.Typeof):
            kind = _expression_class(node.this, ctx)
            if kind:
                node.meta[_CLASS] = kind
    return tree


def _typeof(node: exp.Typeof, ctx: Context) -> exp.Expression:
    """PG: map pg_typeof to SQLite's storage class names.  MySQL has no runtime type:
    a value whose kind is known statically (:func:`_static_class`) gets its class."""
    arg = node.this
    if isinstance(arg, exp.Null):
        return exp.Literal.string("null")
    if ctx.is_mysql:
        kind = node.meta.get(_CLASS) or _static_class(arg, ctx)
        if kind is None:
            raise errors.not_supported("typeof() of an expression whose type is not a column's", ctx.dialect)
        if isinstance(arg, (exp.Literal, exp.HexString)):
            return exp.Literal.string(kind)
        nulls = exp.Is(this=arg.copy(), expression=exp.Null())
        return exp.Case(ifs=[exp.If(this=nulls, true=exp.Literal.string("null"))], default=exp.Literal.string(kind))
    pg_type = exp.Cast(this=exp.Anonymous(this="pg_typeof", expressions=[arg.copy()]), to=exp.DataType.build("TEXT"))
    mapping = [
        (("bigint", "integer", "smallint", "boolean"), "integer"),
        (("double precision", "real", "numeric"), "real"),
        (("bytea",), "blob"),
    ]
    ifs = [exp.If(this=exp.Is(this=arg.copy(), expression=exp.Null()), true=exp.Literal.string("null"))]
    for names, result in mapping:
        cond = exp.In(this=pg_type.copy(), expressions=[exp.Literal.string(n) for n in names])
        ifs.append(exp.If(this=cond, true=exp.Literal.string(result)))
    return exp.Case(ifs=ifs, default=exp.Literal.string("text"))


def _group_concat(node: exp.GroupConcat, ctx: Context) -> exp.Expression:
    """PG STRING_AGG needs text arguments; SQLite converts numbers to text."""
    if ctx.is_mysql:
        separator = node.args.get("separator")
        if separator is None:
            node.set("separator", exp.Literal.string(","))
        elif isinstance(separator, exp.Null):  # SQLite joins with nothing; MariaDB's SEPARATOR takes a string
            node.set("separator", exp.Literal.string(""))
        return node
    arg = node.this
    target = arg.expressions[0] if isinstance(arg, exp.Distinct) else arg
    cast = exp.Cast(this=target.copy(), to=exp.DataType.build("TEXT"))
    if isinstance(arg, exp.Distinct):
        arg.set("expressions", [cast])
    else:
        node.set("this", cast)
    separator = node.args.get("separator")
    if separator is not None and not (isinstance(separator, exp.Literal) and separator.is_string):
        node.set("separator", exp.Cast(this=separator, to=exp.DataType.build("TEXT")))
    return node


def _char(node: exp.Chr, ctx: Context) -> exp.Expression:
    """CHAR(n, …) → text: MySQL ``CHAR(… USING utf8mb4)``; PG ``chr(a) || chr(b)``."""
    if ctx.is_mysql:  # CHAR(n USING utf8mb4) reads n as UTF-8 *bytes*; utf32 takes the code point
        parts = [exp.Cast(this=exp.Chr(expressions=[a], charset=exp.var("utf32")), to=exp.DataType.build("CHAR"))
                 for a in node.expressions]
        return exp.Anonymous(this="CONCAT", expressions=parts) if parts else exp.Literal.string("")
    parts = [_pg_chr(a) for a in node.expressions]
    if not parts:
        return exp.Literal.string("")
    out: exp.Expression = parts[0]
    for part in parts[1:]:
        out = exp.DPipe(this=out, expression=part, safe=True)
    return out


def _pg_chr(code: exp.Expression) -> exp.Expression:
    """PG's chr(0) fails (text holds no NUL): NUL and U+0001 become their escape
    (backends/pg_text.py), a literal one through pg_escaped_literals."""
    if isinstance(code, exp.Literal) and not code.is_string and code.this in ("0", "1"):
        return exp.Literal.string(chr(int(code.this)))
    name = "chr" if isinstance(code, exp.Literal) and not code.is_string else "hdb_chr"
    return exp.Anonymous(this=name, expressions=[exp.Cast(this=code, to=exp.DataType.build("INT"))])


def _hex_literal(node: exp.HexString, ctx: Context) -> exp.Expression:
    """X'..' used as text (REPLACE, ||, =) → a string literal; otherwise bytes."""
    raw = bytes.fromhex(str(node.this))
    parent = node.parent
    if isinstance(parent, _TEXT_FUNCS):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and "\x00" not in text:
            return exp.Literal.string(text)
    if ctx.is_mysql:
        return node
    return exp.Cast(this=exp.Literal.string("\\x" + raw.hex()), to=exp.DataType.build("BYTEA"))


def _length(node: exp.Length, ctx: Context) -> exp.Expression:
    """length() of text (a number's text: passes/text_arguments.py) counts up to the first NUL."""
    node.set("this", cstr(node.this, ctx))  # SQLite counts text up to its first NUL
    return node


_SESSION_FUNCTIONS = ("last_insert_rowid", "changes", "total_changes")


def _session_function(node: exp.Anonymous, ctx: Context) -> exp.Expression:
    """last_insert_rowid()/changes()/total_changes() are the connection's own
    counters, as sqlite3 keeps them (the servers count differently: MySQL's
    ROW_COUNT() is -1 after a SELECT, PG has none): bound at execution."""
    return exp.Placeholder(this=SESSION_MARKER + str(node.this).lower())


def _round(node: exp.Round, ctx: Context) -> exp.Expression:
    """SQLite rounds half away from zero and returns REAL; doubles round half-even on the servers."""
    exact = exp.DataType.build("DECIMAL(65, 30)" if ctx.is_mysql else "NUMERIC")
    node.set("this", exp.Cast(this=node.this, to=exact))
    digits = node.args.get("decimals")
    if digits is not None:
        node.set("decimals", _round_digits(digits, ctx))
    return exp.Cast(this=node, to=exp.DataType.build("DOUBLE" if ctx.is_mysql else "DOUBLE PRECISION"))


def _round_digits(digits: exp.Expression, ctx: Context) -> exp.Expression:
    """SQLite rounds to 0..30 decimals (a negative count is 0); the servers round to tens."""
    value = digits.this if isinstance(digits, exp.Neg) else digits
    if isinstance(value, exp.Literal) and not value.is_string:
        count = int(float(value.this)) * (-1 if value is not digits else 1)
        return exp.Literal.number(min(max(count, 0), 30))
    if isinstance(digits, exp.Null):
        return digits
    whole = digits if ctx.is_mysql else exp.Cast(this=digits, to=exp.DataType.build("INT"))
    return exp.Case(ifs=[exp.If(this=exp.LT(this=whole, expression=exp.Literal.number(0)), true=exp.Literal.number(0)),
                         exp.If(this=exp.GT(this=whole.copy(), expression=exp.Literal.number(30)),
                                true=exp.Literal.number(30))],
                    default=whole.copy())


def _replace(node: exp.Replace, ctx: Context) -> exp.Expression:
    """SQLite's replace(x, '', z) is x, even for a NULL z; the servers return NULL.
    So is a pattern starting with NUL (SQLite checks the pattern as a C string)."""
    pattern = node.expression
    if isinstance(pattern, exp.Literal) and pattern.is_string and pattern.this[:1] in ("", "\x00"):
        return node.this
    if ctx.is_mysql:
        if can_hold_nul(pattern, ctx):  # MariaDB's REPLACE(x, '', z) is x
            locate = exp.Anonymous(this="LOCATE", expressions=[exp.Literal.string("\x00"), pattern.copy()])
            starts = exp.EQ(this=locate,
                            expression=exp.Literal.number(1))
            node.set("expression", exp.If(this=starts, true=exp.Literal.string(""), false=pattern))
        return node
    return pg_replace(node, ctx)


def _avg(node: exp.Avg, ctx: Context) -> exp.Expression:
    """SQLite averages in doubles: MariaDB averages integers as DECIMAL with 4
    decimals, PostgreSQL as NUMERIC (an integral average of large integers reads
    back as an int)."""
    target = node.this.expressions[0] if isinstance(node.this, exp.Distinct) else node.this
    if not ctx.is_mysql and is_text(target, ctx):
        return node  # PostgreSQL has no cast of 'abc' to 0 here (nor avg of text): its error stays
    double = exp.DataType.build("DOUBLE") if ctx.is_mysql else exp.DataType.build("DOUBLE PRECISION", dialect="postgres")
    target.replace(exp.Cast(this=target.copy(), to=double))
    return node


def _unicode(node: exp.Unicode, ctx: Context) -> exp.Expression:
    """SQLite's unicode('') is NULL; the servers return 0."""
    return exp.Nullif(this=node, expression=exp.Literal.number(0))


_BITWISE = (exp.BitwiseAnd, exp.BitwiseOr, exp.BitwiseXor, exp.BitwiseNot, exp.BitwiseLeftShift,
            exp.BitwiseRightShift)


def _signed(node: exp.Expression, ctx: Context) -> exp.Expression:
    """MySQL's bit operators return UNSIGNED BIGINT (~5 is 18446744073709551610); SQLite's are signed."""
    if not ctx.is_mysql or isinstance(node.parent, _BITWISE):
        return node
    return exp.Cast(this=node, to=exp.DataType.build("BIGINT"))


def _random(node: exp.Rand, ctx: Context) -> exp.Expression:
    """SQLite's random() is a signed 64-bit integer; the servers' a double in [0, 1)."""
    spread = exp.Mul(this=exp.Sub(this=exp.Mul(this=node, expression=exp.Literal.number(2)),
                                  expression=exp.Literal.number(1)),
                     expression=exp.Literal.number(9223372036854774784))
    return exp.Cast(this=exp.Paren(this=spread), to=exp.DataType.build("BIGINT"))


def _sign(node: exp.Expression, ctx: Context) -> exp.Expression:
    """SQLite's sign() is an integer; PG's follows its argument (double for a double)."""
    return node if ctx.is_mysql else exp.Cast(this=node, to=exp.DataType.build("BIGINT"))


_HINTS = ("likely", "unlikely", "likelihood")


def planner_hints(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """``likely(x)``, ``unlikely(x)`` and ``likelihood(x, p)`` tell SQLite's planner how
    often ``x`` is true and are ``x`` itself: the servers have no such functions."""
    for node in list(tree.find_all(exp.Anonymous)):
        if str(node.this).lower() in _HINTS and node.expressions:
            node.replace(node.expressions[0])
    return tree


def count_star(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """SQLite's count() is count(*); the servers have only the latter."""
    for node in tree.find_all(exp.Count):
        if node.this is None:
            node.set("this", exp.Star())
    return tree


def sqlite_functions(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(node: exp.Expression) -> exp.Expression:
        if isinstance(node, (exp.Greatest, exp.Least)) and not ctx.is_mysql:
            return _null_propagating(node)
        if is_call(node, "total") and len(node.expressions) == 1:
            return _total(node, ctx)
        if isinstance(node, exp.Typeof):
            return _typeof(node, ctx)
        if isinstance(node, exp.GroupConcat):
            return _group_concat(node, ctx)
        if isinstance(node, exp.Chr):
            return _char(node, ctx)
        if isinstance(node, exp.HexString):
            return _hex_literal(node, ctx)
        if isinstance(node, exp.Round):
            return _round(node, ctx)
        if isinstance(node, exp.Length):
            return _length(node, ctx)
        if isinstance(node, exp.Replace):
            return _replace(node, ctx)
        if isinstance(node, exp.StrPosition) and not ctx.is_mysql:
            return pg_instr(node, ctx)  # a number's text: passes/text_arguments.py
        if isinstance(node, exp.Avg):
            return _avg(node, ctx)
        if isinstance(node, exp.Rand) and not node.args.get("this"):
            return _random(node, ctx)
        if isinstance(node, exp.Unicode):
            return _unicode(node, ctx)
        if isinstance(node, _BITWISE):
            return _signed(node, ctx)
        if isinstance(node, exp.Sign) or is_call(node, "sign"):
            return _sign(node, ctx)
        if is_call(node, "json_valid") and len(node.expressions) == 1 and ctx.is_mysql:
            return exp.Coalesce(this=node, expressions=[exp.Literal.number(0)])  # SQLite: json_valid(NULL) = 0
        if is_call(node, "json_valid") and len(node.expressions) == 1:
            text = exp.Cast(this=node.expressions[0], to=exp.DataType.build("TEXT"))
            return exp.Anonymous(this="hdb_json_valid", expressions=[text])  # helper: PG 15 has no IS JSON
        if any(is_call(node, name) for name in _SESSION_FUNCTIONS) and not node.expressions:
            return _session_function(node, ctx)
        return node

    return bottom_up(tree, rewrite)
