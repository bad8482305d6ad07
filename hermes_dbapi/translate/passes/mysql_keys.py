"""MySQL/MariaDB keys on TEXT/BLOB columns, exact like SQLite's.

InnoDB indexes at most 3072 bytes of a key and cannot index ``LONGTEXT`` /
``LONGBLOB`` whole, while SQLite compares and indexes the full value.  So:

* uniqueness (PRIMARY KEY, UNIQUE, CREATE UNIQUE INDEX) is enforced on hidden
  ``INVISIBLE`` generated columns holding ``UNHEX(SHA2(col, 256))`` of each text
  column (``hdb_k_<col>``): exact, byte-wise, for values of any length.  MariaDB
  refuses a PRIMARY KEY on generated columns, so a text primary key becomes the
  UNIQUE key ``hdb_pk`` (the error mapper reports it as SQLite's PRIMARY KEY);
* lookups keep an index: a prefix index over the key's columns (``hdb_l_…``);
* a FOREIGN KEY to a text key references the hash columns through a hidden
  ``hdb_f_<col>`` hash of the child column;
* a partial UNIQUE index hashes ``IF(<where>, col, NULL)`` (``hdb_w_…``); an
  expression index indexes a hidden virtual column (``hdb_x_…``).

Each hidden column's COMMENT holds the SQLite column it stands for ('' for an
expression), which is how errors name the original columns.  Hidden columns never
show: INVISIBLE keeps them out of ``SELECT *`` and column-less INSERTs, and the
catalog reads the shadow SQLite schema, which keeps the DDL as written.
"""

from __future__ import annotations

import hashlib

import sqlglot
from sqlglot import exp

from ..context import Context
from ..typenames import canonical
from ._build import rtrim

KEY_BYTES = 3072
_FIXED_BYTES = 8  # BIGINT / DOUBLE key parts
_IDENT = 64  # MySQL identifier length limit
PK_NAME = "hdb_pk"


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def hidden_name(prefix: str, name: str) -> str:
    """``prefix + name``, or a digest of ``name`` when that exceeds 64 characters."""
    full = prefix + name
    if len(full) <= _IDENT:
        return full
    return prefix + hashlib.md5(name.encode()).hexdigest()[:24]


def _digest_name(prefix: str, *parts: str) -> str:
    return prefix + hashlib.md5("\x00".join(parts).encode()).hexdigest()[:20]


def is_texty_declared(declared: str) -> bool:
    """SQLite declared type that becomes LONGTEXT/LONGBLOB on MySQL."""
    return not declared.strip() or canonical(declared) in ("TEXT", "BLOB")


def _is_texty_kind(kind: exp.DataType | None) -> bool:
    return kind is not None and kind.this in (exp.DataType.Type.LONGTEXT, exp.DataType.Type.LONGBLOB)


def hash_column_sql(hidden: str, source: str, comment: str, stored: bool = True) -> str:
    """A hidden generated column with the SHA-256 of ``source`` (an SQL expression)."""
    return (
        f"{quote(hidden)} BINARY(32) AS (UNHEX(SHA2({source}, 256))) "
        f"{'STORED' if stored else 'VIRTUAL'} INVISIBLE COMMENT {_literal(comment)}"
    )


def prefix_parts(items: list[tuple[str, str]]) -> list[str]:
    """Index parts ``col(n)`` so (name, 'text'|'blob'|'fixed') items fit InnoDB's key limit."""
    varying = [name for name, kind in items if kind != "fixed"]
    fixed = len(items) - len(varying)
    share = (KEY_BYTES - _FIXED_BYTES * fixed) // max(len(varying), 1)
    parts = []
    for name, kind in items:
        if kind == "fixed":
            parts.append(quote(name))
        else:
            parts.append(f"{quote(name)}({share // 4 if kind == 'text' else share})")
    return parts


def _parse_defs(defs: list[str]) -> list[exp.Expression]:
    tree = sqlglot.parse_one(f"CREATE TABLE x ({', '.join(defs)})", read="mysql")
    return list(tree.this.expressions)


# --------------------------------------------------------------------- CREATE TABLE


def _column_keys(columns: list[exp.ColumnDef]) -> list[tuple[str, list[str], exp.Expression]]:
    found = []
    for column in columns:
        for constraint in column.args.get("constraints") or []:
            if isinstance(constraint.kind, exp.PrimaryKeyColumnConstraint):
                found.append(("pk", [column.name], constraint))
            elif isinstance(constraint.kind, exp.UniqueColumnConstraint):
                found.append(("unique", [column.name], constraint))
    return found


def _names(items: list[exp.Expression]) -> list[str]:
    keys = [e.this if isinstance(e, exp.Ordered) else e for e in items]
    return [(k.this if isinstance(k, exp.Collate) else k).name for k in keys]  # (b COLLATE NOCASE): collated_keys.py


def _table_keys(schema: exp.Schema) -> list[tuple[str, list[str], exp.Expression, str]]:
    found = []
    for item in schema.expressions:
        if isinstance(item, exp.PrimaryKey):
            found.append(("pk", _names(item.expressions), item, ""))
        elif isinstance(item, exp.UniqueColumnConstraint) and isinstance(item.this, exp.Schema):
            found.append(("unique", _names(item.this.expressions), item, ""))
        elif isinstance(item, exp.Constraint):
            for part in item.expressions:
                if isinstance(part, exp.PrimaryKey):
                    found.append(("pk", _names(part.expressions), item, item.name))
                elif isinstance(part, exp.UniqueColumnConstraint) and isinstance(part.this, exp.Schema):
                    found.append(("unique", _names(part.this.expressions), item, item.name))
    return found


def create_table_keys(table: str, schema: exp.Schema, columns: list[exp.ColumnDef], ctx: Context) -> None:
    """Rewrite keys and foreign keys of a CREATE TABLE whose columns have server types."""
    kinds = {c.name: c.args.get("kind") for c in columns}
    texty = {name for name, kind in kinds.items() if _is_texty_kind(kind)}
    blobs = {name for name, kind in kinds.items() if kind is not None and kind.this == exp.DataType.Type.LONGBLOB}
    defs: list[str] = []
    hashed: set[str] = set()

    def part_kind(name: str) -> str:
        return "blob" if name in blobs else "text" if name in texty else "fixed"

    constraints: list[str] = []
    folded: dict[str, str] = ctx.facts.get("folded_keys", {})  # type: ignore[assignment]
    keys = [(k, n, node, "") for k, n, node in _column_keys(columns)] + _table_keys(schema)
    for kind, names, node, name in keys:
        if not any(n in texty for n in names):
            continue
        node.pop()
        parts = []
        for column in names:
            collation = folded.get(column.lower()) if kind == "unique" else None
            if collation:  # a NOCASE/RTRIM key: the folded values, as SQLite compares them (collated_keys.py)
                hidden = hidden_name("hdb_f_", column)
                if hidden not in hashed:
                    hashed.add(hidden)
                    defs.append(hash_column_sql(hidden, _folded_sql(column, collation, ctx), column))
                parts.append(quote(hidden))
            elif column in texty:
                hidden = hidden_name("hdb_k_", column)
                if hidden not in hashed:
                    hashed.add(hidden)
                    defs.append(hash_column_sql(hidden, quote(column), column))
                parts.append(quote(hidden))
            else:
                parts.append(quote(column))
        key_name = PK_NAME if kind == "pk" else name
        constraints.append(f"{'CONSTRAINT ' + quote(key_name) + ' ' if key_name else ''}UNIQUE ({', '.join(parts)})")
        constraints.append(f"INDEX ({', '.join(prefix_parts([(c, part_kind(c)) for c in names]))})")
    defs += _foreign_keys(table, schema, columns, texty, hashed, ctx)
    if not defs and not constraints:
        return
    nodes = _parse_defs(defs + constraints)
    last_column = max(i for i, e in enumerate(schema.expressions) if isinstance(e, exp.ColumnDef))
    items = list(schema.expressions)
    schema.set("expressions", items[: last_column + 1] + nodes + items[last_column + 1 :])


def _folded_sql(column: str, collation: str, ctx: Context) -> str:
    from .strings import ascii_case

    ref = exp.column(column)
    return _render(ascii_case(ref, ctx) if collation == "NOCASE" else rtrim(ref), ctx)


def _foreign_keys(
    table: str, schema: exp.Schema, columns: list[exp.ColumnDef], texty: set[str], hashed: set[str], ctx: Context
) -> list[str]:
    """Table-level FOREIGN KEYs (MySQL ignores REFERENCES on a column); to a text key
    they go through hash columns.  Returns extra definitions; rewrites ``schema``."""
    found: list[tuple[list[str], exp.Reference, exp.Expression | None]] = []
    for column in columns:
        kept = []
        for constraint in column.args.get("constraints") or []:
            if isinstance(constraint.kind, exp.Reference):
                found.append(([column.name], constraint.kind, None))
            else:
                kept.append(constraint)
        column.set("constraints", kept)
    for item in list(schema.expressions):
        if isinstance(item, exp.ForeignKey) and isinstance(item.args.get("reference"), exp.Reference):
            found.append((_names(item.expressions), item.args["reference"], item))
    defs: list[str] = []
    child_hashes: set[str] = set()
    for names, reference, node in found:
        target = reference.this
        ref_table = target.this.name if isinstance(target, exp.Schema) else target.name
        ref_columns = _names(target.expressions) if isinstance(target, exp.Schema) else []
        if ref_table.lower() == table.lower():
            ref_texty = {c for c in texty if hidden_name("hdb_k_", c) in hashed}
            if not ref_columns:
                ref_columns = _self_pk(schema, columns)
        else:
            ctx.schema_dependent = True
            info = ctx.schema.columns(ref_table)
            ref_texty = {name for name, declared, keyed in info if keyed and is_texty_declared(declared)}
            if not ref_columns:
                ref_columns = _pk_of(ctx, ref_table)
        if node is None:
            node = exp.ForeignKey(expressions=[exp.to_identifier(n) for n in names], reference=reference)
            schema.append("expressions", node)
        if not any(c in ref_texty for c in ref_columns):
            continue
        child_parts, parent_parts = [], []
        for child, parent in zip(names, ref_columns):
            if parent in ref_texty:
                hidden = hidden_name("hdb_f_", child)
                if hidden not in child_hashes:
                    child_hashes.add(hidden)
                    defs.append(hash_column_sql(hidden, quote(child), child))
                child_parts.append(exp.to_identifier(hidden))
                parent_parts.append(exp.to_identifier(hidden_name("hdb_k_", parent)))
            else:
                child_parts.append(exp.to_identifier(child))
                parent_parts.append(exp.to_identifier(parent))
        node.set("expressions", child_parts)
        table_node = target.this if isinstance(target, exp.Schema) else target
        reference.set("this", exp.Schema(this=table_node.copy(), expressions=parent_parts))
    return defs


def _self_pk(schema: exp.Schema, columns: list[exp.ColumnDef]) -> list[str]:
    for kind, names, _node, _name in _table_keys(schema):
        if kind == "pk":
            return names
    return [c.name for c in columns if any(isinstance(k.kind, exp.PrimaryKeyColumnConstraint) for k in c.args.get("constraints") or [])]


def _pk_of(ctx: Context, table: str) -> list[str]:
    db, lock = getattr(ctx.schema, "db", None), getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return []
    with lock:
        try:
            rows = db.execute("SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0", (table,)).fetchall()
        except Exception:
            return []
    return [name for name, _pk in sorted(rows, key=lambda r: r[1])]


# --------------------------------------------------------------------- CREATE INDEX


def _render(node: exp.Expression, ctx: Context) -> str:
    from ..generators import DIALECTS

    generator = DIALECTS[ctx.dialect]().generator()
    generator.param_order = []
    return generator.generate(node, copy=True)


def create_index(tree: exp.Create, ctx: Context) -> exp.Expression:
    """CREATE [UNIQUE] INDEX on MySQL: prefixes, hash columns, partial and expression keys."""
    index = tree.this
    table = index.args.get("table")
    params = index.args.get("params")
    if table is None or params is None:
        return tree
    ctx.schema_dependent = True
    declared = {name.lower(): (name, decl) for name, decl, _keyed in ctx.schema.columns(table.name)}
    unique = bool(tree.args.get("unique"))
    where = params.args.get("where") or tree.find(exp.Where)
    predicate = where.this if isinstance(where, exp.Where) else where
    items = []  # (column name or None, expression node)
    named: dict[int, str] = {}  # position -> the column a collated key stands for (errors name it)
    getter = getattr(ctx.schema, "collations", None)
    collations = getter(table.name) if getter is not None and unique else {}
    for ordered in params.args.get("columns") or []:
        node = ordered.this if isinstance(ordered, exp.Ordered) else ordered
        if isinstance(node, exp.Column) and node.name.lower() in collations:  # the column's declared COLLATE
            node = exp.Collate(this=node.copy(), expression=exp.Var(this=collations[node.name.lower()]))
        node, column = _collated_key(node, unique, ctx)
        if column is not None and column.lower() in declared:
            named[len(items)] = declared[column.lower()][0]
        if isinstance(node, exp.Column) and node.name.lower() in declared:
            items.append((declared[node.name.lower()][0], node))
        else:
            items.append((None, node))
    name = index.name
    texty = {n for n, _node in items if n is not None and is_texty_declared(declared[n.lower()][1])}
    blobs = {n for n in texty if declared[n.lower()][1].strip() and canonical(declared[n.lower()][1]) == "BLOB"}

    def kind_of(column: str) -> str:
        return "blob" if column in blobs else "text" if column in texty else "fixed"

    plain = all(n is not None for n, _ in items)
    if plain and (not unique or (predicate is None and not texty)):
        if not texty:
            return tree  # a native index does it (a partial one becomes a full one)
        parts = prefix_parts([(n, kind_of(n)) for n, _ in items])
        return _alter(table, [f"ADD {'UNIQUE ' if unique else ''}INDEX {quote(name)} ({', '.join(parts)})"])
    actions: list[str] = []
    parts: list = []  # unique: quoted names; otherwise (name, kind) until sized
    for position, (column, node) in enumerate(items):
        source = quote(column) if column is not None else f"({_render(node, ctx)})"
        if unique and column is not None and predicate is None and column not in texty:
            parts.append(quote(column))
        elif unique:
            if predicate is not None:
                source = f"IF({_render(predicate, ctx)}, {source}, NULL)"
            if column is not None and predicate is None:
                hidden = hidden_name("hdb_k_", column)
            else:
                hidden = _digest_name("hdb_w_", table.name.lower(), name.lower(), str(position))
            actions.append(f"ADD COLUMN IF NOT EXISTS {hash_column_sql(hidden, source, column or named.get(position, ''))}")
            parts.append(quote(hidden))
        elif column is not None:
            parts.append((column, kind_of(column)))
        else:
            hidden = _digest_name("hdb_x_", table.name.lower(), name.lower(), str(position))
            actions.append(
                f"ADD COLUMN IF NOT EXISTS {quote(hidden)} LONGBLOB AS ({source}) VIRTUAL INVISIBLE COMMENT ''"
            )
            parts.append((hidden, "blob"))
    if not unique:
        parts = prefix_parts(parts)
    actions.append(f"ADD {'UNIQUE ' if unique else ''}INDEX {quote(name)} ({', '.join(parts)})")
    if unique and plain:
        lookup = [(n, kind_of(n)) for n, _ in items]
        actions.append(f"ADD INDEX {quote(lookup_index(name))} ({', '.join(prefix_parts(lookup))})")
    return _alter(table, actions)


def _collated_key(node: exp.Expression, unique: bool, ctx: Context) -> tuple[exp.Expression, str | None]:
    """A key ``col COLLATE NOCASE|RTRIM|BINARY`` (neither server has those collations):
    a UNIQUE key holds the folded value, as SQLite compares it; another index only
    speeds lookups, so the column itself.  (key, the column it names, if collated)."""
    if not isinstance(node, exp.Collate) or not isinstance(node.this, exp.Column):
        return node, None
    name = node.expression.name.upper()
    column = node.this
    if name == "BINARY" or name in ("NOCASE", "RTRIM") and not unique:
        return column, column.name
    if name == "NOCASE":
        from .strings import ascii_case

        return ascii_case(column.copy(), ctx), column.name
    if name == "RTRIM":
        return rtrim(column.copy()), column.name
    return node, None


def lookup_index(name: str) -> str:
    return hidden_name("hdb_l_", name)


def _alter(table: exp.Table, actions: list[str]) -> exp.Alter:
    return exp.Alter(this=table.copy(), kind="TABLE", actions=[exp.var(a) for a in actions])


def drop_index(tree: exp.Drop, ctx: Context) -> exp.Expression:
    """``ALTER TABLE t DROP INDEX i`` plus the lookup index and hidden columns it made."""
    tables = tree.args.get("tables") or []
    if len(tables) != 1:
        return tree
    name = tables[0].name
    ctx.schema_dependent = True
    db, lock = getattr(ctx.schema, "db", None), getattr(ctx.schema, "lock", None)
    if db is None or lock is None:
        return tree
    with lock:
        row = db.execute(
            "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE", (name,)
        ).fetchone()
    if row is None or row[1] is None:
        return tree  # unknown (the shadow raises SQLite's error) or an automatic index
    table, sql = row
    declared = {n.lower(): d for n, d, _keyed in ctx.schema.columns(table)}
    hidden, lookup = index_extras(sql, declared)
    actions = [f"DROP INDEX {quote(name)}"]
    if lookup:
        actions.append(f"DROP INDEX {quote(lookup_index(name))}")
    actions += [f"DROP COLUMN {quote(h)}" for h in hidden]
    return _alter(exp.to_table(table, quoted=True), actions)


def index_extras(sql: str, declared: dict[str, str]) -> tuple[list[str], bool]:
    """(hidden columns, has a lookup index) that :func:`create_index` made for an index's SQL."""
    tree = sqlglot.parse_one(sql, read="sqlite")
    index = tree.this
    params = index.args.get("params")
    unique = bool(tree.args.get("unique"))
    items = [(o.this if isinstance(o, exp.Ordered) else o) for o in (params.args.get("columns") or [])] if params else []
    where = (params.args.get("where") if params else None) or tree.find(exp.Where)
    table = index.args["table"].name.lower()
    plain = all(isinstance(n, exp.Column) and n.name.lower() in declared for n in items)
    texty = any(plain and is_texty_declared(declared[n.name.lower()]) for n in items)
    hidden = []
    for position, node in enumerate(items):
        is_column = isinstance(node, exp.Column) and node.name.lower() in declared
        if unique and (where is not None or not is_column):
            hidden.append(_digest_name("hdb_w_", table, index.name.lower(), str(position)))
        elif not unique and not is_column:
            hidden.append(_digest_name("hdb_x_", table, index.name.lower(), str(position)))
    lookup = unique and plain and (texty or where is not None)
    return hidden, lookup
