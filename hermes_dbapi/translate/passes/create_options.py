"""CREATE details PostgreSQL spells differently from SQLite.

* ``DEFAULT CURRENT_TIMESTAMP`` / ``CURRENT_DATE`` / ``CURRENT_TIME`` fill a
  column with SQLite's UTC text ('YYYY-MM-DD HH:MM:SS'); PG would store
  ``now()``'s own text (fractional seconds, time zone) in a TEXT column.
* ``CREATE VIEW IF NOT EXISTS``: PG has no such clause.  The connection already
  treats IF NOT EXISTS on an existing object as a no-op (its schema shadow), so
  the clause is dropped.
"""

from __future__ import annotations

from sqlglot import exp

from ..context import Context

_CLOCK = {
    exp.CurrentTimestamp: "YYYY-MM-DD HH24:MI:SS",
    exp.CurrentDate: "YYYY-MM-DD",
    exp.CurrentTime: "HH24:MI:SS",
}


def _utc_text(fmt: str) -> exp.Expression:
    now = exp.Anonymous(this="timezone", expressions=[exp.Literal.string("UTC"), exp.Anonymous(this="now")])
    return exp.Anonymous(this="to_char", expressions=[now, exp.Literal.string(fmt)])


def pg_create_options(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if ctx.is_mysql or not isinstance(tree, exp.Create):
        return tree
    if tree.kind == "VIEW" and tree.args.get("exists"):
        tree.set("exists", False)
    if tree.kind == "TABLE":
        for default in tree.find_all(exp.DefaultColumnConstraint):
            fmt = _CLOCK.get(type(default.this))
            if fmt is not None:
                default.set("this", exp.Paren(this=_utc_text(fmt)))
    return tree
