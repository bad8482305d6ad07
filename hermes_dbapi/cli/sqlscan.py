"""Find SQL string literals in Python sources with ``ast``.

Constants, implicit and ``+`` concatenations of constants, and f-strings (their
constant parts; each ``{…}`` becomes a placeholder identifier) are candidates;
docstrings are not.  A candidate is SQL if it starts with a SQL verb and either
writes it in capitals, or has a clause keyword (FROM, INTO, SET, …) and some
SQL punctuation (``?``, ``=``, ``(``, …), which prose rarely has."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Iterator

_VERBS = (
    "SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|WITH|PRAGMA|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|"
    "RELEASE|VACUUM|ANALYZE|EXPLAIN|ATTACH|DETACH|REINDEX|UPSERT|VALUES"
)
_START = re.compile(rf"^\s*(?:--[^\n]*\n\s*)*({_VERBS})\b", re.I)
_CLAUSE = re.compile(r"\b(FROM|INTO|SET|TABLE|INDEX|VIEW|TRIGGER|WHERE|VALUES|TRANSACTION)\b", re.I)
_SYMBOL = re.compile(r"[?*=(;,]|:\w|\n")  # lower-case SQL must also look like code, not prose
FSTRING_HOLE = "hdb_fmt_"


@dataclass(frozen=True)
class Literal:
    path: str
    line: int
    text: str
    approximate: bool  # an f-string: holes were replaced by placeholder names


def looks_like_sql(text: str) -> bool:
    match = _START.match(text)
    if match is None or len(text.strip()) < 6:
        return False
    verb = match.group(1)
    if verb.upper() in ("BEGIN", "COMMIT", "END", "ROLLBACK", "VACUUM", "ANALYZE"):
        return verb.isupper() and len(text.split()) <= 4
    if verb.isupper():
        return len(text.split()) > 1
    return bool(_CLAUSE.search(text)) and bool(_SYMBOL.search(text))


def _docstring_ids(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _text(node: ast.AST) -> tuple[str, bool] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, False
    if isinstance(node, ast.JoinedStr):
        parts, holes = [], 0
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                holes += 1
                parts.append(f"{FSTRING_HOLE}{holes}")
        return "".join(parts), True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        if left is not None and right is not None:
            return left[0] + right[0], left[1] or right[1]
    return None


def literals(path: str, source: str) -> Iterator[Literal]:
    tree = ast.parse(source, filename=path)
    skip = _docstring_ids(tree)
    inner: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in inner:
            continue
        found = _text(node)
        if found is None:
            continue
        for child in ast.walk(node):
            if child is not node:
                inner.add(id(child))
        if looks_like_sql(found[0]):
            yield Literal(path, getattr(node, "lineno", 0), found[0], found[1])


def python_files(root: str) -> Iterator[str]:
    if os.path.isfile(root):
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "node_modules"))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(folder, name)
