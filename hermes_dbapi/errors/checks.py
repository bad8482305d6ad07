"""The CHECK constraints of a SQLite ``CREATE TABLE`` text, in order.

SQLite names a failed CHECK by its constraint name, or else by the expression
text as written; servers name them their own way.  This lists, per table,
``(column or None, name or None, expression text)`` so a server constraint can
be matched to SQLite's wording.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""\s+|--[^\n]*|/\*.*?\*/|'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|[A-Za-z_][A-Za-z0-9_$]*|.""",
    re.S,
)
_TABLE_CONSTRAINTS = {"CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"}

Check = tuple[str | None, str | None, str]


def _tokens(sql: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(sql) if not m.group(0).isspace()
            and not m.group(0).startswith(("--", "/*"))]


def unquote(name: str) -> str:
    if name[:1] in "\"`'" and name[-1:] == name[:1]:
        return name[1:-1].replace(name[0] * 2, name[0])
    if name[:1] == "[":
        return name[1:-1]
    return name


def checks(sql: str) -> list[Check]:
    tokens = _tokens(sql)
    try:
        start = next(i for i, t in enumerate(tokens) if t[0] == "(")
    except StopIteration:
        return []
    items: list[list[tuple[str, int, int]]] = [[]]
    depth = 0
    for tok in tokens[start + 1 :]:
        if tok[0] == "(":
            depth += 1
        elif tok[0] == ")":
            if depth == 0:
                break
            depth -= 1
        elif tok[0] == "," and depth == 0:
            items.append([])
            continue
        items[-1].append(tok)
    out: list[Check] = []
    for item in items:
        if not item:
            continue
        column = None if item[0][0].upper() in _TABLE_CONSTRAINTS else unquote(item[0][0])
        out.extend(_item_checks(sql, item, column))
    return out


def _item_checks(sql: str, item: list[tuple[str, int, int]], column: str | None) -> list[Check]:
    found: list[Check] = []
    depth = 0
    for i, (text, _start, end) in enumerate(item):
        if text == "(":
            depth += 1
        elif text == ")":
            depth -= 1
        elif depth == 0 and text.upper() == "CHECK" and i + 1 < len(item) and item[i + 1][0] == "(":
            inner, level = i + 1, 0
            for j in range(i + 1, len(item)):
                level += {"(": 1, ")": -1}.get(item[j][0], 0)
                if level == 0:
                    inner = j
                    break
            expression = sql[item[i + 1][2] : item[inner][1]].strip()
            name = unquote(item[i - 1][0]) if i >= 2 and item[i - 2][0].upper() == "CONSTRAINT" else None
            found.append((column, name, expression))
    return found
