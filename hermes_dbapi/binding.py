"""Parameter values as sqlite3 binds them, in the order the driver SQL wants.

sqlite3 adapts a value (registered adapters, ``__conform__``), then binds ints
as 64-bit integers, floats, str, buffers as BLOBs and None as NULL.  We do the
same so a server receives exactly what SQLite would have stored.  When a call
is wrong (count, names, types) the real sqlite3 is asked to bind the same
statement, so the exception is the standard module's own, word for word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable

from . import errors
from ._stdlib import sqlite3
from .translate.glob_regex import server_regex
from .translate.passes import kept_values

if TYPE_CHECKING:
    from .batch import Profile

_PLAIN = (int, float, str, bytes, type(None))
_INT64 = (-(2**63), 2**63 - 1)


_IDENTITY = [tuple(range(n)) for n in range(64)]


class BindError(Exception):
    """Our fast checks failed: let the real sqlite3 produce the exception."""


def adapt(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        if kind is float and value != value:
            return None  # SQLite stores a NaN as NULL
        if kind is int and not _INT64[0] <= value <= _INT64[1]:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return value
    adapter = sqlite3.adapters.get((kind, sqlite3.PrepareProtocol))
    if adapter is not None:
        value = adapter(value)
    else:
        conform = getattr(value, "__conform__", None)
        if conform is not None:
            adapted = conform(sqlite3.PrepareProtocol)
            if adapted is not None:
                value = adapted
    if isinstance(value, int):
        value = int(value)
        if not _INT64[0] <= value <= _INT64[1]:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return value
    if isinstance(value, float):
        value = float(value)
        return None if value != value else value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if value is None:
        return None
    raise BindError


def _is_sequence(value: Any) -> bool:
    """PySequence_Check, as sqlite3 applies it: str and bytes count too."""
    kind = type(value)
    return not isinstance(value, Mapping) and hasattr(kind, "__getitem__") and hasattr(kind, "__len__")


def bind(
    parameters: Any,
    count: int,
    names: tuple[str | None, ...],
    order: tuple[int, ...],
    on_named_sequence: Callable[[], None],
) -> tuple:
    """Driver parameter tuple for one execution; raises BindError on misuse.

    ``on_named_sequence`` runs when named parameters come from a sequence, which
    sqlite3 binds by position (warning about it on 3.12+, refusing on 3.14)."""
    kind = type(parameters)
    if (kind is tuple or kind is list) and len(parameters) == count and count < 64 and order == _IDENTITY[count]:
        # issue 8 fast path: plain values for "?" parameters in order, the common case
        if names.count(None) == count:
            for value in parameters:
                vkind = type(value)
                if vkind is int:
                    if not -9223372036854775808 <= value <= 9223372036854775807:
                        raise OverflowError("Python int too large to convert to SQLite INTEGER")
                elif vkind is float:
                    if value != value:
                        break  # NaN: the general path binds it as NULL, as SQLite does
                elif vkind is not str and vkind is not bytes and value is not None:
                    break  # adapters, subclasses, buffers: the general path below
            else:
                return parameters if kind is tuple else tuple(parameters)
    if isinstance(parameters, dict):
        values = []
        for name in names:
            if name is None:
                raise BindError
            try:
                values.append(parameters[name[1:]])  # __getitem__, so __missing__ works as in sqlite3
            except KeyError:
                raise BindError from None
    elif isinstance(parameters, (tuple, list)) or _is_sequence(parameters):
        if len(parameters) != count:
            raise BindError
        if count and any(name is not None for name in names):
            on_named_sequence()
        values = list(parameters)
    else:
        raise BindError
    adapted = [adapt(v) for v in values]
    return tuple(adapted[i] for i in order)


def raise_like_sqlite(sql: str, parameters: Any, explain: Callable[[str, Any], Any]) -> None:
    """Bind ``parameters`` to ``sql`` on real SQLite and raise what it raises."""
    try:
        explain("EXPLAIN " + sql, parameters)
    except (sqlite3.Error, OverflowError, TypeError, ValueError):
        raise
    raise errors.programming("parameters are of unsupported type")


def bind_scanned(conn: Any, sql: str, found: Any, parameters: Any) -> tuple:
    """The values of a statement the shim runs itself (``found``: its
    ``translate.params.scan``), numbered as the markers are; bad parameters
    raise what sqlite3 raises for ``sql``."""
    try:
        values = bind(parameters, found.count, found.names, tuple(range(found.count)),
                      lambda: conn._shadow_explain("EXPLAIN " + sql, parameters))
    except BindError:
        raise_like_sqlite(sql, parameters, conn._shadow_explain)
        raise
    for value in values:  # sqlite3 encodes each str as it binds it: no driver does it for the shim
        if type(value) is str and not value.isascii():
            value.encode("utf-8")  # UnicodeEncodeError at the character's place in the value
    return values


def with_session(values: tuple, session: tuple[tuple[int, str], ...], current: dict[str, int]) -> tuple:
    """Insert the connection's counters (``changes()``...) at their driver positions."""
    out = list(values)
    for position, name in session:
        out.insert(position, current[name])
    return tuple(out)


_NO_LIMIT = 2**63 - 1  # "no limit" that both servers accept as a bound LIMIT


def apply_bound_rules(values: tuple, rules: tuple[tuple[int, str], ...]) -> tuple:
    """Rewrite the bound values the translation could only handle once known
    (Translation.bound_rules): a LIMIT/OFFSET ("limit"/"offset") and a GLOB
    pattern ("glob_pg"/"glob_my")."""
    out = list(values)
    for position, rule in rules:
        if rule.startswith("glob"):
            out[position] = _glob_pattern(out[position], rule == "glob_my")
        else:
            out[position] = _limit(out[position], rule)
    return tuple(out)


def refuse_values(values: tuple, refusals: tuple[tuple[int, tuple[Any, ...]], ...]) -> None:
    """The error for a bound value a server column would not keep as SQLite does
    (Translation.refused_values; translate/passes/kept_values.py), before anything runs."""
    for position, refused in refusals:
        value = values[position]
        for kind, code_name, message in refused:
            if kept_values.refused_by(value, kind):
                raise kept_values.refused(code_name, message)


def refused_in_batch(profile: Profile, refusals: tuple[tuple[int, tuple[Any, ...]], ...]) -> bool:
    """Whether a batch holds a value :func:`refuse_values` refuses;
    only a position whose kinds hold bytes or float is scanned."""
    for position, refused in refusals:
        found = profile.kinds[position]
        for kind, _code_name, _message in refused:
            if kind == kept_values.BLOB_KIND:
                if bytes in found:
                    return True
            elif float in found and any(kept_values.refused_by(value, kind) for value in profile.columns[position]):
                return True
    return False


def _limit(value: Any, rule: str) -> int:
    """SQLite reads a negative LIMIT as no limit and a negative OFFSET as none, and
    takes integral numbers in any spelling; the servers refuse negatives (and
    PostgreSQL reads LIMIT NULL as no limit).  Anything not integral is SQLite's
    "datatype mismatch"."""
    number = _integral(value)
    if number is None:
        raise sqlite3.IntegrityError("datatype mismatch")
    return number if number >= 0 else _NO_LIMIT if rule == "limit" else 0


def _glob_pattern(value: Any, mysql: bool) -> Any:
    """SQLite reads a GLOB pattern as text (a number by its text); NULL stays NULL."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value).decode("utf-8", "replace")
    return server_regex(str(value), mysql)


_SQLITE_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _integral(value: object) -> int | None:
    if isinstance(value, int):  # bool too, as sqlite3 binds it
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not _SQLITE_NUMBER.fullmatch(text):  # Python also reads '1_1', 'inf', 'nan'; SQLite does not
            return None
        try:
            return int(text)
        except ValueError:
            value = float(text)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
