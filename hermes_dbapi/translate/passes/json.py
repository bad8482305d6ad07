"""SQLite's JSON1 functions and ``->``/``->>`` over TEXT documents, via ``hdb_j*`` helpers.

A path lookup becomes ``hdb_jget(doc, path, abbrev)``: the node's minified JSON
text (helpers/pg_json.py, helpers/my_json.py).  ``json_extract``/``->>`` return
an SQL value whose type varies per row, which a server function cannot; so the
wrapper depends on where the value is used:

* a top-level result column: ``hdb_jval`` (the value as JSON text), decoded by
  the result hook into int/float/str (the column index goes to
  ``ctx.facts["json_typed"]``);
* compared with a number, in arithmetic, SUM/AVG: ``hdb_jnum`` (a double; PG's is
  numeric, so int stays int; MariaDB refuses arithmetic and SUM, its DOUBLE would
  turn 3 / 2 into 1.5 and 2 into 2.0);
* ORDER BY: three keys (storage class, number, text), SQLite's value order;
* GROUP BY: the node text itself; anywhere else ``hdb_jtext`` (SQLite's text),
  except where the value's own type would show (COALESCE/IFNULL/NULLIF/IIF/CASE
  results, min/max, abs on MariaDB, typeof): NotSupportedError, CAST it.

``json_each``/``json_tree`` in FROM: PostgreSQL ``hdb_jeach`` (value/atom/key as
text; as result columns the tagged ``hdb_*`` twins); refused on MariaDB.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from ._build import call
from .value_classes import is_integer, is_numeric_column
from ._walk import bottom_up

_ANON = {
    "json", "json_array", "json_array_length", "json_quote", "json_insert", "json_replace", "json_patch",
    "json_each", "json_tree", "json_set", "json_remove", "json_object", "json_type", "json_extract",
    "json_group_array", "json_group_object",
}
_JSON_OUT = "hdb_json_out"  # meta flag: the node yields JSON text (embedded as JSON, not as a string)
_WRAPPERS = ("hdb_jclass", "hdb_jnum", "hdb_jtext")
_COMPARE = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
_JSON_DIV = "hdb_json_div"
_ARITH = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.Sum, exp.Avg, exp.Neg)
# where a JSON value's per-row type shows: passed through, typed, or compared inside the call
_TYPED_USES = (exp.Coalesce, exp.Nullif, exp.If, exp.Case, exp.Max, exp.Min, exp.Greatest, exp.Least, exp.Abs,
               exp.Typeof)


def _call(node: exp.Expression) -> tuple[str, list[exp.Expression]] | None:
    """The SQLite function name and arguments of a JSON node, whatever sqlglot parsed it into."""
    if isinstance(node, exp.JSONExtractScalar):
        return ("json_extract" if node.args.get("json_subtype") else "->>", [node.this, node.expression])
    if isinstance(node, exp.JSONExtract):
        if node.expressions:
            return "json_extract", [node.this, node.expression, *node.expressions]
        return "->", [node.this, node.expression]
    if isinstance(node, exp.JSONType):
        return "json_type", [a for a in (node.this, node.expression) if a is not None]
    if isinstance(node, (exp.JSONSet, exp.JSONRemove)):
        return ("json_set" if isinstance(node, exp.JSONSet) else "json_remove"), [node.this, *node.expressions]
    if isinstance(node, exp.JSONObject):
        args: list[exp.Expression] = []
        for kv in node.expressions:
            args.extend([kv.this, kv.expression] if isinstance(kv, exp.JSONKeyValue) else [kv])
        return "json_object", args
    if isinstance(node, exp.JSONArrayAgg):
        return "json_group_array", [node.this]
    if isinstance(node, exp.JSONObjectAgg):
        args = []
        for kv in node.expressions:
            args.extend([kv.this, kv.expression] if isinstance(kv, exp.JSONKeyValue) else [kv])
        return "json_group_object", args
    if isinstance(node, exp.Anonymous) and str(node.this).lower() in _ANON:
        return str(node.this).lower(), list(node.expressions)
    return None


def _is_value(node: exp.Expression) -> bool:
    found = _call(node)
    return found is not None and (found[0] == "->>" or (found[0] == "json_extract" and len(found[1]) == 2))


def _text(node: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql or (isinstance(node, exp.Literal) and node.is_string):
        return node
    return exp.Cast(this=node, to=exp.DataType.build("TEXT"))


def _path(node: exp.Expression, ctx: Context) -> exp.Expression:
    if isinstance(node, exp.Literal) and not node.is_string:
        return exp.Literal.string(node.name)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        return exp.Literal.string("-" + node.this.name)
    return _text(node, ctx)


def _get(doc: exp.Expression, path: exp.Expression, abbrev: int, ctx: Context) -> exp.Expression:
    return call("hdb_jget", _text(doc, ctx), _path(path, ctx), exp.Literal.number(abbrev))


def _json_arg(node: exp.Expression, ctx: Context) -> exp.Expression:
    """An argument embedded in a JSON result: JSON text stays JSON, SQL values are quoted."""
    if node.meta.get(_JSON_OUT):  # NULL (a path that is not there) is embedded as null
        if ctx.is_mysql:
            return call("JSON_EXTRACT", node, exp.Literal.string("$"))
        return exp.Coalesce(this=node, expressions=[exp.Literal.string("null")])
    if ctx.is_mysql:
        return node
    if isinstance(node, exp.Null):
        return exp.Literal.string("null")
    return call("hdb_jq", node)


def _my_quote(node: exp.Expression) -> exp.Expression:
    """MariaDB: one SQL value as JSON text (JSON_ARRAY types it, the brackets come off)."""
    array = call("JSON_COMPACT", call("JSON_ARRAY", node))
    return exp.Trim(this=exp.Trim(this=array, expression=exp.Literal.string("]"), position="TRAILING"),
                    expression=exp.Literal.string("["), position="LEADING")


def _concat(parts: list[exp.Expression], ctx: Context) -> exp.Expression:
    if ctx.is_mysql:
        return exp.Concat(expressions=parts)
    out = parts[0]
    for part in parts[1:]:
        out = exp.DPipe(this=out, expression=part, safe=True)
    return out


def _joined(open_: str, items: list[exp.Expression], close: str, ctx: Context) -> exp.Expression:
    if not items:
        return exp.Literal.string(open_ + close)
    parts: list[exp.Expression] = [exp.Literal.string(open_)]
    for i, item in enumerate(items):
        parts.extend([exp.Literal.string(",")] if i else [])
        parts.append(item)
    parts.append(exp.Literal.string(close))
    return _concat(parts, ctx)


def _modify(name: str, args: list[exp.Expression], ctx: Context) -> exp.Expression:
    doc, rest = args[0], args[1:]
    mode = {"json_set": 1, "json_insert": 2, "json_replace": 3, "json_remove": 4}[name]
    my = ctx.is_mysql
    acc = _text(doc, ctx)
    if not rest:
        return call("JSON_COMPACT" if my else "hdb_jmin", call("hdb_jdoc", acc))
    step = 1 if mode == 4 else 2
    for i in range(0, len(rest), step):
        value = exp.Null() if mode == 4 else _json_arg(rest[i + 1], ctx)
        if my and mode != 4:  # MariaDB: wrapped so it stays typed through the helper's parameter
            value = call("JSON_ARRAY", value)
        acc = call("hdb_jmod", acc, _text(rest[i], ctx), value, exp.Literal.number(mode))
    return call("JSON_COMPACT", acc) if my else acc


def _build(name: str, args: list[exp.Expression], ctx: Context) -> exp.Expression:
    """A JSON1 call other than a value lookup, as server SQL."""
    my = ctx.is_mysql
    if name in ("json_each", "json_tree"):
        raise errors.not_supported(f"{name}()", ctx.dialect)
    if name == "->":
        return _get(args[0], args[1], 1, ctx)
    if name == "json_extract":
        items = [exp.Coalesce(this=_get(args[0], p, 0, ctx), expressions=[exp.Literal.string("null")])
                 for p in args[1:]]
        whole = _joined("[", items, "]", ctx)
        return exp.Case(ifs=[exp.If(this=exp.Is(this=args[0].copy(), expression=exp.Null()), true=exp.Null())],
                        default=whole)
    if name in ("json_type", "json_array_length"):
        path = args[1] if len(args) > 1 else exp.Literal.string("$")
        return call("hdb_jtype" if name == "json_type" else "hdb_jlen", _get(args[0], path, 0, ctx))
    if name == "json":
        return call("JSON_COMPACT" if my else "hdb_jmin", call("hdb_jdoc", _text(args[0], ctx)))
    if name == "json_quote":
        if args[0].meta.get(_JSON_OUT):
            return args[0]
        return _my_quote(args[0]) if my else _json_arg(args[0], ctx)
    if name == "json_array":
        if my:
            return call("JSON_COMPACT", call("JSON_ARRAY", *[_json_arg(a, ctx) for a in args]))
        return _joined("[", [_json_arg(a, ctx) for a in args], "]", ctx)
    if name == "json_object":
        if my:
            pairs = [_json_arg(a, ctx) if i % 2 else a for i, a in enumerate(args)]
            return call("JSON_COMPACT", call("JSON_OBJECT", *pairs))
        members = [_concat([call("hdb_jq", _text(args[i], ctx)), exp.Literal.string(":"), _json_arg(args[i + 1], ctx)], ctx)
                   for i in range(0, len(args) - 1, 2)]
        return _joined("{", members, "}", ctx)
    if name in ("json_set", "json_insert", "json_replace", "json_remove"):
        return _modify(name, args, ctx)
    if name == "json_patch":
        if my:
            return call("JSON_COMPACT", call("hdb_jpatch", call("hdb_jdoc", args[0]), call("hdb_jdoc", args[1])))
        return call("hdb_jpatch", _text(args[0], ctx), _text(args[1], ctx))
    if name == "json_group_array":
        if my:
            agg: exp.Expression = call("JSON_COMPACT", call("JSON_ARRAYAGG", _json_arg(args[0], ctx)))
            return exp.Coalesce(this=agg, expressions=[exp.Literal.string("[]")])
        inner = exp.GroupConcat(this=_json_arg(args[0], ctx), separator=exp.Literal.string(","))
        body = exp.Coalesce(this=inner, expressions=[exp.Literal.string("")])
        return _concat([exp.Literal.string("["), body, exp.Literal.string("]")], ctx)
    if name == "json_group_object":
        if my:
            agg = call("JSON_COMPACT", call("JSON_OBJECTAGG", args[0], _json_arg(args[1], ctx)))
            return exp.Coalesce(this=agg, expressions=[exp.Literal.string("{}")])
        member = _concat([call("hdb_jq", _text(args[0], ctx)), exp.Literal.string(":"), _json_arg(args[1], ctx)], ctx)
        inner = exp.GroupConcat(this=member, separator=exp.Literal.string(","))
        body = exp.Coalesce(this=inner, expressions=[exp.Literal.string("")])
        return _concat([exp.Literal.string("{"), body, exp.Literal.string("}")], ctx)
    raise errors.not_supported(f"{name}()", ctx.dialect)


def _numeric(node: exp.Expression | None) -> bool:
    if isinstance(node, exp.Neg):
        node = node.this
    return isinstance(node, exp.Literal) and not node.is_string


def _projection_index(node: exp.Expression, top: exp.Expression) -> int | None:
    """The result column ``node`` is, if it is one (also as the only column of a scalar subquery)."""
    parent = node.parent
    if isinstance(parent, exp.Alias):
        node, parent = parent, parent.parent
    if parent is top and node.arg_key == "expressions":
        return node.index
    scalar = parent.parent if isinstance(parent, exp.Select) else None
    if isinstance(scalar, exp.Subquery) and len(parent.expressions) == 1 and node.arg_key == "expressions":
        return _projection_index(scalar, top)
    return None


def _value(node: exp.Expression, ctx: Context, top: exp.Expression, typed: list[int]) -> exp.Expression:
    name, args = _call(node)  # type: ignore[misc]
    raw = _get(args[0], args[1], 0 if name == "json_extract" else 1, ctx)
    parent = node.parent
    if isinstance(parent, exp.Anonymous) and str(parent.this).lower() in _WRAPPERS or isinstance(parent, exp.Group):
        return raw
    if isinstance(parent, (exp.JSONKeyValue, exp.JSONArrayAgg)) or (_call(parent) is not None
                                                                  and node.arg_key != "this"):
        if name == "->>":  # SQL text without JSON's subtype: an array or object goes in as a string
            whole = exp.In(this=call("hdb_jtype", raw.copy()),
                           expressions=[exp.Literal.string("array"), exp.Literal.string("object")])
            text = call("hdb_jtext", raw.copy())
            raw = exp.Case(ifs=[exp.If(this=whole, true=_my_quote(text) if ctx.is_mysql else call("hdb_jq", text))],
                           default=raw)
        raw.meta[_JSON_OUT] = True  # embedded in a JSON result: the node as JSON (numbers stay numbers)
        return raw
    index = _projection_index(node, top)
    if index is not None:
        typed.append(index)
        return call("hdb_jval", raw)
    if isinstance(parent, _COMPARE):
        other = parent.expression if node.arg_key == "this" else parent.this
        if _numeric(other):
            out = call("hdb_jnum", raw)
            out.meta["hdb_class_of"] = raw.copy()
            return out
        if isinstance(other, exp.Placeholder) and not ctx.is_mysql:
            other.replace(exp.Cast(this=other.copy(), to=exp.DataType.build("TEXT")))
    if isinstance(parent, exp.Between) and _numeric(parent.args.get("low")):
        return call("hdb_jnum", raw)
    if isinstance(parent, _ARITH):
        if ctx.is_mysql and not isinstance(parent, exp.Avg):
            # one column type per statement: SQLite's int-or-real per row (and its integer
            # division) cannot come out of MariaDB's DOUBLE; CAST(… AS INTEGER/REAL) can
            raise errors.not_supported("a JSON value in arithmetic or SUM() (CAST it to INTEGER or REAL)", ctx.dialect)
        if isinstance(parent, exp.Div):
            parent.meta[_JSON_DIV] = True  # SQLite divides integers as integers: _json_divisions
        return call("hdb_jnum", raw)
    if isinstance(parent, exp.Abs) and not ctx.is_mysql or _is_total(parent):
        return call("hdb_jnum", raw)  # PostgreSQL's numeric keeps an integer an integer; total() is a REAL
    holder = _passed_through(node)
    index = _projection_index(holder, top) if holder is not None else None
    if index is not None and _as_json_values(holder):
        typed.append(index)  # the result column holds JSON text: decoded to the value's own type
        return call("hdb_jval", raw)
    if isinstance(parent, _TYPED_USES) and not (isinstance(parent, exp.If) and node.arg_key == "this"):
        # the value's own type (integer, real or text per row) would come out, or be compared,
        # as text (or MariaDB's DOUBLE): refused rather than silently different
        name = parent.sql_name() if not isinstance(parent, exp.If) else "CASE/IIF"
        raise errors.not_supported(f"a JSON value as an argument of {name} (CAST it to INTEGER, REAL or TEXT)",
                                   ctx.dialect)
    return call("hdb_jtext", raw)


def _passed_through(node: exp.Expression) -> exp.Expression | None:
    """The COALESCE/IFNULL, IIF or CASE whose result ``node`` can be, if it is one of those."""
    parent = node.parent
    if isinstance(parent, exp.Coalesce):
        return parent
    if isinstance(parent, exp.If) and node.arg_key in ("true", "false"):
        return parent.parent if isinstance(parent.parent, exp.Case) else parent
    if isinstance(parent, exp.Case) and node.arg_key == "default":
        return parent
    return None


def _results(holder: exp.Expression) -> list[exp.Expression]:
    if isinstance(holder, exp.Coalesce):
        return [holder.this, *holder.expressions]
    if isinstance(holder, exp.Case):
        return [i.args.get("true") for i in holder.args.get("ifs") or []] + [holder.args.get("default")]
    return [holder.args.get("true"), holder.args.get("false")]


def _as_json_values(holder: exp.Expression) -> bool:
    """A result column choosing between JSON values and constants: the constants become
    JSON text too, so the whole column is decoded (True), else it cannot be (False)."""
    results = [r for r in _results(holder) if r is not None]
    for r in results:
        if not (_is_value(r) or isinstance(r, exp.Null) or _constant(r) is not None
                or isinstance(r, exp.Anonymous) and str(r.this).lower() == "hdb_jval"):
            return False
    for r in results:
        text = _constant(r)
        if text is not None:
            r.replace(exp.Literal.string(text))
    return True


def _constant(node: exp.Expression) -> str | None:
    """The JSON text of a literal (a number keeps its digits, a string is quoted)."""
    import json

    negative = isinstance(node, exp.Neg)
    literal = node.this if negative else node
    if not isinstance(literal, exp.Literal) or literal.meta.get(_JSON_OUT):
        return None
    if literal.is_string:
        return None if negative else json.dumps(literal.this, ensure_ascii=False)
    return ("-" if negative else "") + literal.this


def _is_total(node: exp.Expression | None) -> bool:
    return isinstance(node, exp.Anonymous) and str(node.this).lower() == "total"


def _order_keys(tree: exp.Expression) -> None:
    """ORDER BY a JSON value: (class, number, text) keys give SQLite's cross-type order."""
    aliases: dict[str, exp.Expression] = {}
    ordinals: dict[str, exp.Expression] = {}  # ORDER BY 1: the JSON value, not its tagged text
    if isinstance(tree, exp.Select):
        for number, item in enumerate(tree.expressions, 1):
            if isinstance(item, exp.Alias) and _is_value(item.this):
                aliases[item.alias.lower()] = item.this
            if _is_value(item.this if isinstance(item, exp.Alias) else item):
                ordinals[str(number)] = item.this if isinstance(item, exp.Alias) else item
    for order in list(tree.find_all(exp.Order)):
        keys: list[exp.Expression] = []
        changed = False
        for ordered in order.expressions:
            target = ordered.this
            if isinstance(target, exp.Column) and not target.table and target.name.lower() in aliases:
                target = aliases[target.name.lower()]
            elif order.parent is tree and isinstance(target, exp.Literal) and not target.is_string \
                    and target.name in ordinals:
                target = ordinals[target.name]
            if not _is_value(target):
                keys.append(ordered)
                continue
            changed = True
            for wrapper in _WRAPPERS:
                key = ordered.copy()
                key.set("this", call(wrapper, target.copy()))
                keys.append(key)
        if changed:
            order.set("expressions", keys)


_TEXT_WINS = {exp.GT: True, exp.GTE: True, exp.NEQ: True, exp.LT: False, exp.LTE: False, exp.EQ: False}


def _text_above_numbers(tree: exp.Expression) -> None:
    """SQLite: a TEXT value is greater than any number, so ``'x' > 2`` is true."""
    for cmp in list(tree.find_all(*_COMPARE)):
        left = cmp.this.meta.get("hdb_class_of") if isinstance(cmp.this, exp.Anonymous) else None
        right = cmp.expression.meta.get("hdb_class_of") if isinstance(cmp.expression, exp.Anonymous) else None
        raw = left or right
        if raw is None:
            continue
        wins = _TEXT_WINS[type(cmp)]
        if right is not None and type(cmp) not in (exp.EQ, exp.NEQ):
            wins = not wins
        if not wins:
            continue
        is_text = exp.EQ(this=call("hdb_jclass", raw), expression=exp.Literal.number(2))
        cmp.replace(exp.Paren(this=exp.Or(this=cmp.copy(), expression=is_text)))


_BOOLEAN_SLOTS = (exp.If, exp.Where, exp.Having, exp.CheckColumnConstraint, exp.Check, exp.And, exp.Or, exp.Not)


def _valid_as_condition(tree: exp.Expression, ctx: Context) -> None:
    """PG: json_valid() is an integer; where a condition is expected compare it with 1."""
    if ctx.is_mysql:
        return
    for node in list(tree.find_all(exp.Anonymous)):
        if str(node.this).lower() != "json_valid" or not isinstance(node.parent, _BOOLEAN_SLOTS):
            continue
        if isinstance(node.parent, exp.If) and node.arg_key != "this":
            continue
        node.replace(exp.EQ(this=node.copy(), expression=exp.Literal.number(1)))


_TVF_COLUMNS = ("key", "value", "type", "atom", "id", "parent", "fullkey", "path")
_TAGGED = {"key": "hdb_key", "value": "hdb_value", "atom": "hdb_atom"}


def _in_list(table: exp.Table, name: str, fn: exp.Anonymous) -> bool:
    """``x IN (SELECT value FROM json_each(doc))``: json_each of one document, whose
    query reads nothing but ``value`` and is an IN list (its values are compared, never
    returned, so their text form on MariaDB cannot show)."""
    select = table.find_ancestor(exp.Select)
    if name != "json_each" or len(fn.expressions) != 1 or select is None or select.args.get("joins"):
        return False
    query = select.parent if isinstance(select.parent, exp.Subquery) else select
    holder = query.parent
    if not isinstance(holder, exp.In) or holder.args.get("query") is not query:
        return False
    columns = [c for c in select.find_all(exp.Column) if c.find_ancestor(exp.Select) is select]
    return bool(columns) and all(c.name.lower() == "value" for c in columns)


def _numeric_values(select: exp.Select) -> None:
    """PostgreSQL: json_each's ``value`` is text; compared with a number column, the
    number of its JSON (``hdb_jnum``: NULL for text, as no number equals it)."""
    for column in list(select.find_all(exp.Column)):
        if column.find_ancestor(exp.Select) is select and column.name.lower() == "value":
            tagged = exp.column("hdb_value", table=column.table or None)
            column.replace(call("hdb_jnum", tagged))


def _my_each(doc: exp.Expression, alias: str) -> exp.Expression:
    """MariaDB: json_each(doc)'s values (an array's elements or an object's members),
    as JSON_TABLE text: strings unquoted, numbers as their text."""
    def rows(path: str, name: str) -> exp.Select:
        column = exp.JSONColumnDef(this=exp.to_identifier("value"), kind=exp.DataType.build("LONGTEXT"),
                                   path=exp.Literal.string("$"))
        source = exp.JSONTable(this=doc.copy(), path=exp.Literal.string(path),
                               schema=exp.JSONSchema(expressions=[column]))
        return exp.select("value").from_(exp.Table(this=source, alias=exp.TableAlias(this=exp.to_identifier(name))))

    both = exp.union(rows("$[*]", "_hdb_items"), rows("$.*", "_hdb_members"), distinct=False)
    return exp.Subquery(this=both, alias=exp.TableAlias(this=exp.to_identifier(alias)))


def _table_functions(tree: exp.Expression, ctx: Context, typed: list[int]) -> None:
    """json_each(doc[, path]) / json_tree(...) in FROM → hdb_jeach(doc, path, recurse) (PG)."""
    for table in list(tree.find_all(exp.Table)):
        fn = table.this
        name = str(fn.this).lower() if isinstance(fn, exp.Anonymous) else ""
        if name not in ("json_each", "json_tree"):
            continue
        in_list = _in_list(table, name, fn)
        if ctx.is_mysql and in_list:
            table.replace(_my_each(fn.expressions[0], table.alias or name))
            continue
        if ctx.is_mysql or not 1 <= len(fn.expressions) <= 2:
            raise errors.not_supported(f"{name}()" + (" other than json_each(doc) read for its value in an IN list"
                                                      if ctx.is_mysql else ""), ctx.dialect)
        doc, path = fn.expressions[0], (fn.expressions[1] if len(fn.expressions) > 1 else exp.Null())
        fn.replace(call("hdb_jeach", _text(doc, ctx), _text(path, ctx), exp.Boolean(this=name == "json_tree")))
        if not table.alias:
            table.set("alias", exp.TableAlias(this=exp.to_identifier(name)))
        if in_list and is_numeric_column(table.find_ancestor(exp.In).this, ctx):
            _numeric_values(table.find_ancestor(exp.Select))  # id IN (SELECT value FROM json_each(?))
        select = tree if isinstance(tree, exp.Select) else None
        if select is None or table.find_ancestor(exp.Select) is not select:
            continue
        alias = table.alias
        sources = [select.args["from_"].this] + [j.this for j in select.args.get("joins") or []] \
            if select.args.get("from_") else []
        only = len(sources) == 1
        items = []
        for item in select.expressions:
            if isinstance(item, exp.Star) and only:
                items.extend(exp.column(c, table=alias) for c in _TVF_COLUMNS)
            else:
                items.append(item)
        for index, item in enumerate(items):
            target = item.this if isinstance(item, exp.Alias) else item
            if not isinstance(target, exp.Column) or target.name.lower() not in _TAGGED:
                continue
            if not (target.table == alias or (not target.table and only)):
                continue
            tagged = exp.column(_TAGGED[target.name.lower()], table=alias)
            items[index] = exp.alias_(tagged, item.alias if isinstance(item, exp.Alias) else target.name)
            typed.append(index)
        select.set("expressions", items)


def _json_divisions(tree: exp.Expression, ctx: Context) -> exp.Expression:
    """PostgreSQL: ``x / y`` with a JSON value is ``hdb_jdiv(x, y, x_int, y_int)``: an
    integer division when both are integers, told at run time for a JSON value (its
    numeric scale: hdb_jnum keeps a decimal for reals) and from the types otherwise."""

    def rewrite(node: exp.Expression) -> exp.Expression:
        if not (isinstance(node, exp.Div) and node.meta.get(_JSON_DIV)):
            return node
        sides, flags = [], []
        for side in (node.this, node.expression):
            if isinstance(side, exp.Anonymous) and str(side.this).lower() == "hdb_jnum":
                sides.append(side)
                flags.append(exp.Null())
            else:  # float8 reaches numeric only by an explicit cast
                sides.append(exp.Cast(this=side, to=exp.DataType.build("DECIMAL")))
                flags.append(exp.Boolean(this=is_integer(side, ctx)))
        return call("hdb_jdiv", *sides, *flags)

    return bottom_up(tree, rewrite)


def sqlite_json(tree: exp.Expression, ctx: Context) -> exp.Expression:
    _valid_as_condition(tree, ctx)
    if not any(_call(node) is not None for node in tree.walk()):
        return tree
    typed: list[int] = []
    _table_functions(tree, ctx, typed)
    _order_keys(tree)
    top = tree

    def rewrite(node: exp.Expression) -> exp.Expression:
        found = _call(node)
        if found is None:
            return node
        if _is_value(node):
            return _value(node, ctx, top, typed)
        out = _build(found[0], found[1], ctx)
        out.meta[_JSON_OUT] = True
        return out

    tree = bottom_up(tree, rewrite)
    tree = _json_divisions(tree, ctx)
    _text_above_numbers(tree)
    if typed and isinstance(top, exp.Select):
        ctx.facts["json_typed"] = tuple(sorted(set(typed)))
    return tree
