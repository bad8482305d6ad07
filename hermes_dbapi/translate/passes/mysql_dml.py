"""MariaDB: window functions and UPDATE forms it lacks.

* ``lag/lead(x, n, default)``: MariaDB 10.11 refuses the third argument.  The
  default applies only where the offset row does not exist, which
  ``lead(1, n)`` (NULL exactly there) tells apart from a NULL value:
  ``CASE WHEN lead(1, n) OVER w IS NULL THEN default ELSE lead(x, n) OVER w END``.
* ``group_concat(…) OVER (…)``: no GROUP_CONCAT window function: NotSupportedError;
  so are GROUPS frames and EXCLUDE (MariaDB has neither; it dropped EXCLUDE).
* Three or more windows partitioned or ordered differently in one SELECT:
  MariaDB 10.11 gets some such combinations wrong (``count(*) OVER (PARTITION
  BY a)`` next to ``sum(x) OVER ()`` and ``row_number() OVER (ORDER BY id)``
  counts 1 per row): NotSupportedError rather than wrong numbers; a subquery
  computing some of them gives the right ones.
* ``percent_rank()``/``cume_dist()``: MariaDB hands them out rounded to 10 decimals,
  and where the SELECT sorts its rows more than once even a CAST to DOUBLE sees the
  rounded value.  They are computed from integer windows of the same partition and
  order, one division as SQLite's: ``(rank() - 1) / (count - 1)`` and
  ``count-up-to-the-peers / count``.
* ``DELETE FROM t AS x``: MariaDB reads a DELETE's alias only in the multi-table
  form: the alias is renamed back to the table where that is unambiguous.
* ``UPDATE … SET a = b, b = a``: MariaDB reads the old row (its sessions run with
  ``SIMULTANEOUS_ASSIGNMENT``); MySQL assigns left to right: NotSupportedError there.
* ``UPDATE … RETURNING``: MariaDB returns rows only from INSERT and DELETE: the
  connection emulates it (returning.py); translated alone it is NotSupportedError.
"""

from __future__ import annotations

from sqlglot import exp

from ... import errors
from ..context import Context
from .conflicts import refuse_order_dependent


def _offset_default(window: exp.Window) -> exp.Expression:
    func = window.this
    default = func.args.get("default")
    offset = func.args.get("offset") or exp.Literal.number(1)
    probe = window.copy()
    probe.set("this", type(func)(this=exp.Literal.number(1), offset=offset.copy()))
    plain = window.copy()
    plain.this.set("default", None)
    plain.this.set("offset", offset.copy())
    return exp.Case(ifs=[exp.If(this=exp.Is(this=probe, expression=exp.Null()), true=default.copy())], default=plain)


def _delete_alias(tree: exp.Delete) -> None:
    """``DELETE FROM t AS x``: MariaDB reads no alias in a one-table DELETE.  The alias
    becomes the table's name again where nothing else answers to either name; else
    the multi-table form ``DELETE x FROM t AS x`` (which refuses a subquery reading t)."""
    target = tree.this
    alias, name = target.alias.lower(), target.name.lower()
    others = [t for t in tree.find_all(exp.Table) if t is not target]
    if any(t.alias_or_name.lower() in (alias, name) for t in others):
        tree.set("tables", [exp.to_table(target.alias)])
        return
    for column in tree.find_all(exp.Column):
        if column.table.lower() == alias:
            column.set("table", exp.to_identifier(target.name))
    target.set("alias", None)


_WHOLE_PARTITION = exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING",
                                  end="UNBOUNDED", end_side="FOLLOWING")


def _double(x: exp.Expression) -> exp.Expression:
    return exp.Cast(this=x, to=exp.DataType.build("DOUBLE"))


def _distribution(window: exp.Window, named: dict[str, exp.Window]) -> exp.Expression:
    """percent_rank()/cume_dist() of ``window`` from integer windows sorted the same way."""
    base = named.get(window.alias.lower()) if window.alias else None
    parts = [w for w in (window, base) if w is not None]
    partition = next((w.args["partition_by"] for w in parts if w.args.get("partition_by")), [])
    order = next((w.args["order"] for w in parts if w.args.get("order") is not None), None)

    def over(func: exp.Expression, spec: exp.WindowSpec | None = None) -> exp.Window:
        return exp.Window(this=func, partition_by=[p.copy() for p in partition] or None,
                          order=order.copy() if order is not None else None,
                          spec=spec.copy() if spec is not None else None, over="OVER")

    rows = over(exp.Count(this=exp.Star()), _WHOLE_PARTITION)
    if isinstance(window.this, exp.CumeDist):  # the default frame ends with the row's last peer
        return exp.Paren(this=exp.Div(this=_double(over(exp.Count(this=exp.Star()))), expression=rows))
    lower = exp.Paren(this=exp.Sub(this=rows.copy(), expression=exp.Literal.number(1)))
    share = exp.Div(this=_double(exp.Sub(this=over(exp.Anonymous(this="RANK")), expression=exp.Literal.number(1))),
                    expression=lower)
    return exp.Case(ifs=[exp.If(this=exp.GT(this=rows, expression=exp.Literal.number(1)), true=share)],
                    default=_double(exp.Literal.number(0)))


def _excludes(spec: exp.Expression) -> bool:
    """A frame's EXCLUDE other than the default NO OTHERS (MariaDB would drop it silently)."""
    exclude = spec.args.get("exclude")
    return exclude is not None and exclude.name.upper().replace(" ", "") != "NOOTHERS"


def _sorting(window: exp.Window, named: dict[str, exp.Window]) -> tuple[str, str]:
    """What MariaDB sorts a window's rows by: its partition and its order (a named
    window's where the use adds none)."""
    base = named.get(window.alias.lower()) if window.alias else None
    parts = [w for w in (window, base) if w is not None]
    partition = next((w.args["partition_by"] for w in parts if w.args.get("partition_by")), [])
    order = next((w.args["order"] for w in parts if w.args.get("order") is not None), None)
    return ", ".join(p.sql() for p in partition), order.sql() if order is not None else ""


def _named_windows(select: exp.Select | None) -> dict[str, exp.Window]:
    """The SELECT's ``WINDOW w AS (…)`` definitions by name."""
    definitions = select.args.get("windows") or [] if select is not None else []
    return {w.this.name.lower(): w for w in definitions if isinstance(w.this, exp.Identifier)}


def _refuse_three_sortings(tree: exp.Expression, ctx: Context) -> None:
    for select in tree.find_all(exp.Select):
        definitions = select.args.get("windows") or []
        named = _named_windows(select)
        kept = {id(w) for w in definitions}
        sortings = {_sorting(w, named) for w in select.find_all(exp.Window)
                    if id(w) not in kept and w.parent_select is select}
        if len(sortings) >= 3:
            raise errors.not_supported(
                "three or more windows partitioned or ordered differently in one SELECT (MariaDB computes some "
                "such combinations wrongly; compute some of them in a subquery)", ctx.dialect)


def mysql_dml(tree: exp.Expression, ctx: Context) -> exp.Expression:
    if not ctx.is_mysql:
        return tree
    if tree.find(exp.Window):
        _refuse_three_sortings(tree, ctx)
    if isinstance(tree, exp.Update):
        if tree.args.get("returning"):
            raise errors.not_supported("UPDATE … RETURNING", ctx.dialect)
        refuse_order_dependent(tree.expressions, ctx, "an UPDATE whose SET")  # MySQL; MariaDB reads the old row
    if isinstance(tree, exp.Delete) and isinstance(tree.this, exp.Table) and tree.this.alias \
            and not tree.args.get("tables"):
        _delete_alias(tree)
    for window in list(tree.find_all(exp.Window)):
        func = window.this
        spec = window.args.get("spec")
        if spec is not None and (str(spec.args.get("kind") or "").upper() == "GROUPS" or _excludes(spec)):
            raise errors.not_supported("a GROUPS frame or EXCLUDE in a window", ctx.dialect)
        if isinstance(func, exp.GroupConcat):
            raise errors.not_supported("group_concat() as a window function", ctx.dialect)
        if isinstance(func, (exp.Lag, exp.Lead)) and func.args.get("default") is not None:
            window.replace(_offset_default(window))
        elif isinstance(func, (exp.PercentRank, exp.CumeDist)):  # MariaDB rounds them to 10 decimals
            window.replace(_distribution(window, _named_windows(window.parent_select)))
    return tree
