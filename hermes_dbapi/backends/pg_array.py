"""PostgreSQL array literals built in one pass (issue 8).

psycopg dumps a Python list element by element through its adapters, which
costs more than the statement it feeds when a write has a handful of small
values.  The shim's own array parameters hold only integers, doubles, bytes and text,
so their text form is built here with joins and sent as one text parameter
that the statement casts (``%s::bytea[]``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import pg_text


def integers(values: Sequence[int]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def floats(values: Sequence[float | None]) -> str:
    """repr: the shortest text that reads back as the same double."""
    if None not in values:  # issue 8: thousands of scores, without a Python step each
        return "{" + ",".join(map(repr, map(float, values))) + "}"
    return "{" + ",".join("NULL" if v is None else repr(float(v)) for v in values) + "}"


def byteas(values: Sequence[bytes | None]) -> str:
    """Each value as ``\\x`` hex (the backslash doubled inside a quoted element)."""
    return "{" + ",".join("NULL" if v is None else '"\\\\x' + v.hex() + '"' for v in values) + "}"


def texts(values: Sequence[str | None]) -> str:
    """Each value quoted, its backslashes and quotes escaped.  NULs are left to
    the parameter's own escaping (``pg_text.encode_params``), which maps the
    literal character by character, so it escapes each element alike."""
    out = []
    for v in values:
        if v is None:
            out.append("NULL")
            continue
        if "\\" in v or '"' in v:
            v = v.replace("\\", "\\\\").replace('"', '\\"')
        out.append('"' + v + '"')
    return "{" + ",".join(out) + "}"


BUILDERS = {"bigint": integers, "float8": floats, "bytea": byteas, "text": texts}


def unnest(types: Sequence[str], columns: Sequence[Sequence[Any]]) -> tuple[str, list]:
    """``unnest(%s::t1[], %s::t2[], ...)`` over ``columns`` (one per type) and its
    parameters: the same text for any number of rows, so it is prepared once.  A
    text column holding something else than text goes as a list for psycopg."""
    params: list = []
    for kind, values in zip(types, columns):
        if kind == "text" and not all(v is None or type(v) is str for v in values):
            params.append([pg_text.encode(v) if type(v) is str else v for v in values])
        else:
            params.append(BUILDERS[kind](values))
    return "unnest(" + ", ".join(f"%s::{t}[]" for t in types) + ")", params
