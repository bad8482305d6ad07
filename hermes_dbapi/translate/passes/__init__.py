"""The rewrite passes, composed per backend dialect in one table.

A pass is ``(tree, ctx) -> tree``: it rewrites one concern (DDL types, LIMIT,
upserts, ...) and leaves everything else alone.  Adding a SQLite construct is
adding a pass here, not a special case in the pipeline.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from ..context import Context
from . import (
    arithmetic,
    blobs,
    booleans,
    collated_keys,
    column_names,
    comparison_affinity,
    conflicts,
    create_options,
    ctes,
    datetime,
    ddl,
    filters,
    fts_hits,
    functions,
    identifier_case,
    implicit_order,
    insert_defaults,
    json,
    kept_values,
    limits,
    math_functions,
    min_max_rows,
    mixed_types,
    mysql_dml,
    mysql_ids,
    numeric_cast,
    pg_types,
    queries,
    recursive_limit,
    row_assignments,
    rowid,
    schema_names,
    select_aliases,
    sqlite_text,
    stars,
    strings,
    subqueries,
    text_arguments,
    text_operands,
    window_calls,
)

Pass = Callable[[exp.Expression, Context], exp.Expression]

_COMMON: list[Pass] = [
    schema_names.own_schema,  # first: the other passes look tables up by their bare names
    identifier_case.table_names,
    identifier_case.column_names,  # after table_names: it reads the server's table names
    collated_keys.collated_keys,  # before declared_collations drops the columns' COLLATE
    ddl.declared_collations,
    ddl.create_table,
    ddl.create_index,
    ddl.drop_index,
    ddl.drop_temporary,
    ddl.temporary_views,
    limits.sqlite_limits,
    limits.bound_limits,
]
_SQL: list[Pass] = [
    functions.planner_hints,  # first: likely(x) is x to every pass after it
    functions.count_star,  # before the passes that read an aggregate's argument
    functions.typeof_classes,  # before the passes that rewrite the expressions it reads
    min_max_rows.extreme_rows,  # before the passes that read the sub-SELECTs it makes (rowid, ORDER BY)
    numeric_cast.mark_numeric_casts,  # before any pass makes casts of its own
    text_operands.text_literal_operands,  # before the passes that read a literal's type
    text_operands.strftime_comparisons,
    text_arguments.text_arguments,  # before the passes that rewrite the numbers it reads
    row_assignments.row_assignments,  # before the passes that read a SET list column by column
    kept_values.kept_values,  # after row_assignments, before the passes that rebuild VALUES and SET
    filters.aggregate_filters,  # before the passes that read aggregates (bare columns, group_concat)
    select_aliases.alias_references,  # before the passes that rewrite the aliased expressions
    subqueries.in_table,  # before the passes that read an IN's sub-SELECT
    conflicts.insert_or,
    conflicts.upsert,
    mysql_ids.existing_ids,  # after the ON DUPLICATE KEY UPDATE is made
    implicit_order.implicit_order,  # before rowid_alias: it orders by rowid
    rowid.rowid_alias,
    comparison_affinity.comparison_affinity,
    subqueries.empty_in,
    subqueries.first_row,
    queries.derived_aliases,
    column_names.sqlite_column_names,
    mixed_types.tagged_results,  # before the passes that rewrite literals and casts: it reads SQLite's types
    queries.order_by_source_columns,
    queries.qualified_star,
    queries.strip_index_hints,
    queries.column_collations,  # a column declared COLLATE NOCASE/RTRIM: written out, for collate_nocase
    queries.collate_nocase,
    queries.default_values,
    queries.partial_index,
    datetime.sqlite_datetime,
    math_functions.sqlite_math,  # before sqlite_numbers: its casts of text read the numeric prefix
    arithmetic.sqlite_numbers,
    blobs.sqlite_blobs,  # before substr, LIKE, sqlite_text and functions: they read its blob tags
    strings.sqlite_substr,
    strings.sqlite_like,
    sqlite_text.sqlite_text,
    json.sqlite_json,
    functions.sqlite_functions,
    strings.sqlite_case,  # after the passes that read upper()/lower() as text
    window_calls.window_calls,  # after the passes that write an aggregate as an expression around one
    arithmetic.real_literals,
    queries.constant_order_keys,  # after the rewrites that can fold a key to a constant
    queries.bare_columns,
    queries.wrap_in_subquery,
    recursive_limit.recursive_limits,  # before the anchor types: its counter is an anchor column too
    ctes.recursive_anchor_types,
]
_PG_ONLY: list[Pass] = [
    stars.hide_rowid,
    pg_types.untyped_params,
    strings.pg_escaped_literals,
    booleans.pg_booleans,
    create_options.pg_create_options,
    insert_defaults.pg_null_rowid,
    numeric_cast.numeric_cast,
]
_MYSQL_ONLY: list[Pass] = [
    stars.hide_rowid,
    strings.mysql_strings,
    mysql_dml.mysql_dml,
    ctes.materialized_hints,
    ctes.dml_ctes,
    limits.limited_in_subqueries,
    numeric_cast.numeric_cast,
    fts_hits.mysql_hits,
]

PASSES: dict[str, list[Pass]] = {
    "postgres": [*_COMMON, *_SQL, *_PG_ONLY],
    "mysql": [*_COMMON, *_SQL, *_MYSQL_ONLY],
    "mariadb": [*_COMMON, *_SQL, *_MYSQL_ONLY],
}
