"""GLOB, hex(), quote() and printf() with SQLite's semantics.

* ``x GLOB 'pattern'``: case-sensitive, ``*`` ``?`` ``[...]`` ``[^...]``; a literal
  pattern becomes an anchored regular expression (PG ``~``, MariaDB ``REGEXP``
  with a case-sensitive ``(?-i)``).  A pattern that is not a literal:
  NotSupportedError.
* ``hex(x)``: the hex of x's *text* for numbers and text (``hex(255)`` is
  '323535'), of its bytes for a blob; ``hex(NULL)`` is ''.
* ``quote(x)``: SQL literal text; for text and integer arguments known from
  the statement (literals, typed columns); otherwise NotSupportedError.
* ``printf(fmt, …)`` / ``format``: a literal format made of ``%s``, ``%d``,
  ``%i``, ``%f`` (with a width, a precision, the ``-`` and ``0`` flags) and
  ``%%`` becomes a concatenation (NULL prints as '', or 0); other conversions:
  NotSupportedError.
"""

from __future__ import annotations

import re

from sqlglot import exp

from ... import errors
from ..context import Context
from ..glob_regex import server_regex
from ..params import marker_index
from ._walk import bottom_up
from .arithmetic import _cast
from .value_classes import column_affinity, is_integer, is_real
from .blobs import BLOB, is_blob
from .c_strings import can_hold_nul, cstr, reencode
from .text_arguments import real_text


def _text(x: exp.Expression) -> exp.Expression:
    return exp.Cast(this=x, to=exp.DataType.build("TEXT"))


def _glob(node: exp.Glob, ctx: Context) -> exp.Expression:
    pattern = node.expression
    if isinstance(pattern, exp.Null):
        return exp.Null()
    subject = cstr(node.this, ctx) if ctx.is_mysql else cstr(_text(node.this), ctx)
    if isinstance(pattern, exp.Placeholder) and _bound_once(pattern, node):
        # the bound pattern becomes the regular expression when it is bound (binding.apply_bound_rules)
        ctx.facts.setdefault("bound_rules", {})[marker_index(pattern.name)] = "glob_my" if ctx.is_mysql else "glob_pg"
        return exp.RegexpLike(this=subject, expression=pattern)
    if not (isinstance(pattern, exp.Literal) and pattern.is_string):
        raise errors.not_supported("GLOB with a pattern that is not a literal or a parameter used once", ctx.dialect)
    return exp.RegexpLike(this=subject, expression=exp.Literal.string(server_regex(pattern.this, ctx.is_mysql)))


def _bound_once(pattern: exp.Placeholder, node: exp.Expression) -> bool:
    """A parameter the statement uses nowhere else (its value is turned into a regex)."""
    index = marker_index(pattern.name) if pattern.name else None
    if index is None:
        return False
    return sum(1 for p in node.root().find_all(exp.Placeholder) if p.name and marker_index(p.name) == index) == 1


def _substr_base(x: exp.Expression) -> exp.Expression:
    """What a (rewritten) ``substr()`` reads: a substring of a blob is a blob."""
    while True:
        if isinstance(x, exp.Paren):
            x = x.this
        elif isinstance(x, exp.Case) and isinstance(x.args.get("default"), exp.Substring):
            x = x.args["default"]  # strings.sqlite_substr: CASE WHEN length(v) = 0 THEN NULL ELSE …
        elif isinstance(x, exp.Substring):
            x = x.this
        elif isinstance(x, exp.Anonymous) and str(x.this).lower() in ("hdb_enc", "hdb_cstr", "hdb_cstr1") \
                and x.expressions:
            x = x.expressions[0]
        else:
            return x


def _is_texty(x: exp.Expression, ctx: Context) -> bool:
    if isinstance(x, exp.Literal):
        return x.is_string
    if isinstance(x, exp.Column):
        return column_affinity(x, ctx) == "TEXT"
    return isinstance(x, (exp.DPipe, exp.Upper, exp.Lower, exp.Substring, exp.Trim, exp.Replace))


def _hex(node: exp.Hex, ctx: Context) -> exp.Expression:
    x = node.this
    if ctx.is_mysql:
        inner = x if is_blob(x, ctx) or isinstance(x, exp.Placeholder) else exp.Cast(
            this=x, to=exp.DataType.build("CHAR"))
        out: exp.Expression = exp.Anonymous(this="HEX", expressions=[inner])
    else:
        base = _substr_base(x)
        if isinstance(base, exp.Placeholder):  # substr(?) keeps the parameter's unknown kind
            raise errors.not_supported("hex() of a parameter", ctx.dialect)
        if is_blob(x, ctx) or base is not x and is_blob(base, ctx):
            data = x
        elif can_hold_nul(x, ctx):  # the UTF-8 of the decoded text (backends/pg_text.py)
            data = exp.Anonymous(this="hdb_utf8", expressions=[_text(x)])
        else:
            data = exp.Anonymous(this="convert_to", expressions=[_text(x), exp.Literal.string("UTF8")])
        if isinstance(x, exp.Placeholder):
            raise errors.not_supported("hex() of a parameter", ctx.dialect)
        # hex digits are ASCII: the server's own UPPER (strings.sqlite_case leaves an Anonymous alone)
        out = exp.Anonymous(this="UPPER", expressions=[exp.Anonymous(this="encode", expressions=[data, exp.Literal.string("hex")])])
    return exp.Coalesce(this=out, expressions=[exp.Literal.string("")])


def _quote(node: exp.Anonymous, ctx: Context) -> exp.Expression:
    x = node.expressions[0]
    if isinstance(x, exp.Null):
        return exp.Literal.string("NULL")
    if is_integer(x, ctx):
        body: exp.Expression = _text(x.copy()) if not ctx.is_mysql else exp.Cast(
            this=x.copy(), to=exp.DataType.build("CHAR"))
    elif _is_texty(x, ctx):
        text = cstr(x.copy(), ctx)  # SQLite quotes text up to its first NUL
        doubled = exp.Replace(this=text, expression=exp.Literal.string("'"), replacement=exp.Literal.string("''"))
        body = exp.DPipe(this=exp.DPipe(this=exp.Literal.string("'"), expression=doubled, safe=True),
                         expression=exp.Literal.string("'"), safe=True)
        body = reencode(body, text, ctx)
    elif is_blob(x, ctx):  # X'00FF'
        data = x.copy()
        data.meta[BLOB] = True  # the copy has no statement around it to tell a BLOB column by
        digits = _hex(exp.Hex(this=data), ctx)
        body = exp.DPipe(this=exp.DPipe(this=exp.Literal.string("X'"), expression=digits, safe=True),
                         expression=exp.Literal.string("'"), safe=True)
        body = exp.Case(ifs=[exp.If(this=exp.Is(this=x.copy(), expression=exp.Null()),
                                    true=exp.Literal.string("NULL"))], default=body)
    else:
        raise errors.not_supported("quote() of a REAL or untyped value", ctx.dialect)
    return exp.Coalesce(this=body, expressions=[exp.Literal.string("NULL")])


_SPEC = re.compile(r"%(?:(%)|([-0]?)(\d*)(?:\.(\d+))?([sdifxX]))")
_MAX_SCALE = 30  # MariaDB's DECIMAL scale limit


def _printf(node: exp.Anonymous, ctx: Context) -> exp.Expression:
    fmt, args = node.expressions[0], list(node.expressions[1:])
    if not (isinstance(fmt, exp.Literal) and fmt.is_string):
        raise errors.not_supported("printf() with a format that is not a literal", ctx.dialect)
    text = fmt.this
    if "%" in _SPEC.sub("", text):
        raise errors.not_supported("printf() conversions other than %s, %d, %i, %f, %x, %X (with width, "
                                   "precision, - and 0), %%", ctx.dialect)
    parts: list[exp.Expression] = []
    pos = 0
    for match in _SPEC.finditer(text):
        if match.start() > pos:
            parts.append(exp.Literal.string(text[pos:match.start()]))
        pos = match.end()
        percent, flag, width, precision, kind = match.groups()
        if percent:
            parts.append(exp.Literal.string("%"))
            continue
        arg = args.pop(0) if args else exp.Null()
        if kind == "f":
            value = _fixed(arg, int(precision) if precision is not None else 6, ctx)
        elif kind in "xX":
            value = _hex_digits(_integer(arg, ctx), kind, ctx)
        else:
            if kind in "di":
                arg = _integer(arg, ctx)
            if ctx.is_mysql:
                value = exp.Cast(this=arg, to=exp.DataType.build("CHAR"))
            else:  # a REAL as SQLite writes it (helpers/pg_text.py)
                value = real_text(arg) if is_real(arg, ctx) else _text(arg)
            if kind == "s":  # %s prints text up to its first NUL; %.Ns its first N characters
                cut = cstr(value, ctx)
                value = reencode(cut, cut, ctx)
                if precision is not None:
                    value = _first_bytes(value, int(precision), ctx)
            value = exp.Coalesce(this=value, expressions=[exp.Literal.string("")])
        if width:
            value = _padded(value, int(width), flag, kind)
        parts.append(value)
    if pos < len(text):
        parts.append(exp.Literal.string(text[pos:]))
    if not parts:
        return exp.Literal.string("")
    if ctx.is_mysql:
        return exp.Anonymous(this="CONCAT", expressions=parts)
    out = parts[0]
    for part in parts[1:]:
        out = exp.DPipe(this=out, expression=part, safe=True)
    return out


def _integer(arg: exp.Expression, ctx: Context) -> exp.Expression:
    """An integer conversion's value as SQLite reads it: a REAL truncated, text by its
    numeric prefix ('12abc' is 12), NULL as 0."""
    number = _cast(exp.Cast(this=arg, to=exp.DataType.build("BIGINT")), ctx)
    return exp.Coalesce(this=number, expressions=[exp.Literal.number(0)])


def _first_bytes(value: exp.Expression, count: int, ctx: Context) -> exp.Expression:
    """``%.Ns``: the text's first N bytes of UTF-8, as SQLite cuts it (a cut inside a
    character fails on both sides: SQLite's result is no UTF-8)."""
    if ctx.is_mysql:
        head = exp.Left(this=exp.Cast(this=value, to=exp.DataType.build("BINARY")), expression=exp.Literal.number(count))
        utf8 = exp.DataType(this=exp.DataType.Type.CHARACTER_SET, kind=exp.var("utf8mb4"))
        return exp.Cast(this=head, to=utf8)  # CONVERT(… USING utf8mb4)
    encoded = exp.Anonymous(this="CONVERT_TO", expressions=[value, exp.Literal.string("UTF8")])
    head = exp.Anonymous(this="SUBSTRING", expressions=[encoded, exp.Literal.number(1), exp.Literal.number(count)])
    return exp.Anonymous(this="CONVERT_FROM", expressions=[head, exp.Literal.string("UTF8")])


def _hex_digits(number: exp.Expression, kind: str, ctx: Context) -> exp.Expression:
    """``%x``/``%X``: the 64-bit two's complement in hexadecimal (-1 is ffffffffffffffff)."""
    if ctx.is_mysql:
        digits: exp.Expression = exp.Anonymous(this="HEX", expressions=[number])
        return exp.Anonymous(this="LOWER", expressions=[digits]) if kind == "x" else digits
    digits = exp.Anonymous(this="TO_HEX", expressions=[number])
    return exp.Anonymous(this="UPPER", expressions=[digits]) if kind == "X" else digits


def _fixed(arg: exp.Expression, precision: int, ctx: Context) -> exp.Expression:
    """``%.Nf``: rounded half away from zero on the number's shortest decimal form, as
    SQLite's printf rounds (2.675 -> 2.68); NULL prints as 0; a negative number that
    rounds to zero keeps its sign ('-0.00')."""
    if precision > _MAX_SCALE:
        raise errors.not_supported(f"printf() %f with more than {_MAX_SCALE} decimals", ctx.dialect)
    number = exp.Coalesce(this=arg, expressions=[exp.Literal.number(0)])
    if ctx.is_mysql:
        rounded: exp.Expression = exp.Cast(this=number.copy(), to=exp.DataType.build(f"DECIMAL(65, {precision})"))
        digits = exp.Cast(this=rounded, to=exp.DataType.build("CHAR"))
    else:
        rounded = exp.Anonymous(this="ROUND", expressions=[
            exp.Cast(this=number.copy(), to=exp.DataType.build("DECIMAL")), exp.Literal.number(precision)])
        digits = _text(rounded)
    negative_zero = exp.And(this=exp.LT(this=number.copy(), expression=exp.Literal.number(0)),
                            expression=exp.EQ(this=rounded.copy(), expression=exp.Literal.number(0)))
    signed = exp.DPipe(this=exp.Literal.string("-"), expression=digits.copy(), safe=True) if not ctx.is_mysql \
        else exp.Anonymous(this="CONCAT", expressions=[exp.Literal.string("-"), digits.copy()])
    return exp.Case(ifs=[exp.If(this=negative_zero, true=signed)], default=digits)


def _padded(value: exp.Expression, width: int, flag: str, kind: str) -> exp.Expression:
    """A conversion's width, in bytes as SQLite counts it: spaces before (after with
    ``-``), or zeros after the sign (``0``, numbers only); never cut."""
    length = exp.Anonymous(this="OCTET_LENGTH", expressions=[value.copy()])
    short = exp.LT(this=length, expression=exp.Literal.number(width))
    fill = exp.Anonymous(this="REPEAT", expressions=[
        exp.Literal.string(" "), exp.Sub(this=exp.Literal.number(width), expression=length.copy())])
    if flag == "-":
        padded: exp.Expression = exp.DPipe(this=value.copy(), expression=fill, safe=True)
    elif flag == "0" and kind in "difxX":
        body = exp.Anonymous(this="SUBSTR", expressions=[value.copy(), exp.Literal.number(2)])
        negative = exp.Like(this=value.copy(), expression=exp.Literal.string("-%"))
        padded = exp.Case(ifs=[exp.If(this=negative, true=exp.DPipe(
            this=exp.Literal.string("-"), expression=exp.Anonymous(this="LPAD", expressions=[
                body, exp.Literal.number(width - 1), exp.Literal.string("0")]), safe=True))],
            default=exp.Anonymous(this="LPAD", expressions=[value.copy(), exp.Literal.number(width),
                                                              exp.Literal.string("0")]))
    else:
        padded = exp.DPipe(this=fill, expression=value.copy(), safe=True)
    return exp.Case(ifs=[exp.If(this=short, true=padded)], default=value)


def sqlite_text(tree: exp.Expression, ctx: Context) -> exp.Expression:
    def rewrite(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Glob):
            return _glob(n, ctx)
        if isinstance(n, exp.LowerHex):  # sqlglot reads lower(hex(x)) as one node
            if is_blob(n.this, ctx):  # told while x is still in the statement (a BLOB column)
                n.this.meta[BLOB] = True
            return exp.Anonymous(this="LOWER", expressions=[_hex(exp.Hex(this=n.this), ctx)])  # ASCII digits
        if isinstance(n, exp.Hex):
            return _hex(n, ctx)
        if isinstance(n, exp.Anonymous) and str(n.this).lower() == "quote" and len(n.expressions) == 1:
            return _quote(n, ctx)
        if isinstance(n, exp.Anonymous) and str(n.this).lower() in ("printf", "format") and n.expressions:
            return _printf(n, ctx)
        if isinstance(n, exp.Format):
            return _printf(exp.Anonymous(this="printf", expressions=[n.this, *n.expressions]), ctx)
        return n

    return bottom_up(tree, rewrite)
