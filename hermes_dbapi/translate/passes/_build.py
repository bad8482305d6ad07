"""Small AST builders the passes share (one spelling of each node they make)."""

from __future__ import annotations

from sqlglot import exp


def call(name: str, *args: exp.Expression) -> exp.Expression:
    """A call of the server function ``name`` as written (sqlglot keeps it verbatim)."""
    return exp.Anonymous(this=name, expressions=list(args))


def rtrim(x: exp.Expression) -> exp.Expression:
    """``x`` without its trailing spaces: what SQLite's RTRIM collation compares."""
    return exp.Trim(this=x, expression=exp.Literal.string(" "), position="TRAILING")


def qualifier(table: exp.Table) -> exp.Identifier:
    """What names ``table``'s columns in its query: its alias, else its name, quoted as
    written (an unquoted copy of ``"Foo"`` would be ``foo`` to PostgreSQL)."""
    alias = table.args.get("alias")
    ident = alias.this if alias is not None and alias.this is not None else table.this
    return ident.copy() if isinstance(ident, exp.Identifier) else exp.to_identifier(table.alias_or_name)
