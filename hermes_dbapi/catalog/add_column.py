"""``ALTER TABLE … ADD COLUMN c … NOT NULL`` without a DEFAULT.

SQLite refuses it on a table that holds rows ("Cannot add a NOT NULL column with
default value NULL") and allows it on an empty one.  PostgreSQL agrees, but
MariaDB fills the existing rows with '' or 0 instead, so the shim asks first.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

MESSAGE = "Cannot add a NOT NULL column with default value NULL"


def table_needing_empty(sql: str) -> str | None:
    """The table an ADD COLUMN of a NOT NULL column without DEFAULT alters, else None."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(tree, exp.Alter) or not isinstance(tree.this, exp.Table):
        return None
    for action in tree.args.get("actions") or ():
        if not isinstance(action, exp.ColumnDef):
            continue
        kinds = [c.args.get("kind") for c in action.constraints]
        not_null = any(isinstance(k, exp.NotNullColumnConstraint) and not k.args.get("allow_null") for k in kinds)
        defaults = [k for k in kinds if isinstance(k, exp.DefaultColumnConstraint)]
        if not_null and all(isinstance(k.this, exp.Null) for k in defaults):  # none, or DEFAULT NULL
            return tree.this.name
    return None
