"""What SQLite allows in a table's key constraints and sqlglot does not read.

* A conflict clause on a constraint (``PRIMARY KEY ON CONFLICT REPLACE``,
  ``UNIQUE (a) ON CONFLICT IGNORE``, ``NOT NULL ON CONFLICT FAIL``).  ABORT is
  the algorithm every constraint has anyway: its clause is taken out.  Any
  other would change how every INSERT and UPDATE on the table resolves that
  constraint's conflicts, which the servers cannot be told: the CREATE TABLE is
  refused with NotSupportedError naming it (``INSERT OR …`` / ``UPDATE OR …``
  on the statements are the supported way).
* A sort order on the columns of a table's ``PRIMARY KEY (…)`` or ``UNIQUE (…)``
  (``PRIMARY KEY (a DESC, b)``): the key holds the same values in any order, so
  it is taken out (``INTEGER`` with ``PRIMARY KEY (id DESC)`` stays a rowid
  alias, as in SQLite; only the column form ``id INTEGER PRIMARY KEY DESC`` is not).

The shadow catalog keeps the statement as written (``sqlite_master``).
"""

from __future__ import annotations

from sqlglot.tokens import Token, TokenType

from .. import errors

_ALGORITHMS = ("ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE")
_KEY_LISTS = (TokenType.PRIMARY_KEY, TokenType.UNIQUE)


def strip(sql: str, tokens: list[Token], dialect: str) -> str:
    """``sql`` (a CREATE TABLE; ``tokens``: SQLite's tokens of it) without ABORT
    conflict clauses and key-column sort orders, each blanked out with as many
    spaces, so that ``tokens`` still locate the rest; raises NotSupportedError for
    another algorithm."""
    upper = sql.upper()
    if "CONFLICT" not in upper and "ASC" not in upper and "DESC" not in upper:
        return sql
    cuts: list[tuple[int, int]] = []  # character spans to remove
    depth = 0
    key_list_depth = None  # the depth inside a table constraint's column list
    for i, token in enumerate(tokens):
        kind = token.token_type
        if kind == TokenType.L_PAREN:
            depth += 1
            if depth == 2 and i > 0 and tokens[i - 1].token_type in _KEY_LISTS:
                key_list_depth = depth
            continue
        if kind == TokenType.R_PAREN:
            if depth == key_list_depth:
                key_list_depth = None
            depth -= 1
            continue
        if depth == key_list_depth and kind in (TokenType.ASC, TokenType.DESC):
            cuts.append((token.start, token.end + 1))
        elif depth == 1 and _conflict_clause(tokens, i):
            algorithm = tokens[i + 2].text.upper()
            if algorithm != "ABORT":
                raise errors.not_supported(f"ON CONFLICT {algorithm} on a table's constraint (use INSERT OR "
                                           f"{algorithm} / UPDATE OR {algorithm} on the statements)", dialect)
            cuts.append((token.start, tokens[i + 2].end + 1))
    for start, end in cuts:
        sql = sql[:start] + " " * (end - start) + sql[end:]
    return sql


def _conflict_clause(tokens: list[Token], i: int) -> bool:
    return (
        tokens[i].token_type == TokenType.ON and i + 2 < len(tokens)
        and tokens[i + 1].text.upper() == "CONFLICT" and tokens[i + 2].text.upper() in _ALGORITHMS
    )
