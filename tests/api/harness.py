"""Run the same operations on ``sqlite3`` and on ``hermes_dbapi``; compare what was seen.

A test hands :meth:`Differ.check` a function of one :class:`Side`; the function
runs on the reference side (the standard module on a fresh file) and then on
the shim side (``hermes_dbapi`` on the test's backend), and returns what it
observed.  The two results are turned into *observation records* by
:func:`typed` -- every leaf value keeps its exact Python type, exceptions become
:class:`Raised` (class, message, ``sqlite_errorcode``, ``sqlite_errorname``) --
and must be equal.  An exception that escapes the function is itself the
observation.

:meth:`Differ.steps` is the table-driven form: a scenario is a list of steps
(data), each step is run and recorded with :func:`run_step`.

Step forms (``conn`` is the side's main connection)::

    "SQL"                        conn.execute(SQL), then fetchall()
    ("sql", SQL, params)         conn.execute(SQL, params), then fetchall()
    ("many", SQL, seq)           conn.executemany(SQL, seq)
    ("script", SQL)              conn.executescript(SQL)
    ("commit",) ("rollback",) ("close",)
    ("get", attr)                getattr(conn, attr)
    ("set", attr, value)         setattr(conn, attr, value)
    ("peek", SQL[, params])      a second connection to the same database runs
                                 SQL and fetches (what another process sees)

Each executed step is recorded with its rows, ``description``, ``rowcount``,
``lastrowid``, the warnings it raised, and ``conn.in_transaction`` afterwards.
"""

from __future__ import annotations

import contextlib
import sqlite3 as _std  # the real module: conftest resolved it before anything could replace it
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ABSENT = "<absent>"
_PLAIN = (int, float, str, bytes, bool, type(None), bytearray)


# --------------------------------------------------------------------------- observation records


@dataclass(frozen=True)
class Value:
    """A leaf value compared by exact type and value; shown as its ``repr``."""

    value: Any

    def _key(self) -> tuple:
        v = self.value
        if type(v) is float:  # exact, and -0.0 != 0.0
            return (float, v.hex())
        return (type(v), v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        v = self.value
        if type(v) in _PLAIN:
            return repr(v)
        return f"<{type(v).__module__}.{type(v).__qualname__}>{v!r}"


@dataclass(frozen=True)
class Raised:
    """An exception: qualified class name, message, SQLite result code and name."""

    cls: str
    message: str
    code: Any = ABSENT
    name: Any = ABSENT

    def __repr__(self) -> str:
        extra = "" if self.code == ABSENT and self.name == ABSENT else f" [{self.code} {self.name}]"
        return f"raise {self.cls}({self.message!r}){extra}"


@dataclass(frozen=True)
class RowRecord:
    """A ``sqlite3.Row``: its keys and values (its class is checked separately)."""

    cls: str
    keys: tuple
    values: tuple


def raised(exc: BaseException, normalize: Callable[[str], str] | None = None) -> Raised:
    cls = type(exc)
    message = str(exc)
    if normalize is not None:
        message = normalize(message)
    return Raised(
        f"{cls.__module__}.{cls.__qualname__}",
        message,
        getattr(exc, "sqlite_errorcode", ABSENT),
        getattr(exc, "sqlite_errorname", ABSENT),
    )


def typed(value: Any, normalize: Callable[[str], str] | None = None) -> Any:
    """The observation record of ``value`` (see the module docstring)."""
    kind = type(value)
    if kind is list:
        return [typed(v, normalize) for v in value]
    if kind is tuple:
        return tuple(typed(v, normalize) for v in value)
    if kind is dict:
        return {k: typed(v, normalize) for k, v in value.items()}
    if isinstance(value, _std.Row):
        return RowRecord(f"{kind.__module__}.{kind.__qualname__}", tuple(value.keys()), typed(tuple(value), normalize))
    if isinstance(value, BaseException):
        return raised(value, normalize)
    if isinstance(value, (Value, Raised, RowRecord)):
        return value
    if kind in (set, frozenset):
        return kind(typed(v, normalize) for v in value)
    return Value(value)


def _shown(record: Any) -> Any:
    """A step record without its step and empty warnings, for messages."""
    if isinstance(record, dict) and "step" in record:
        return {k: v for k, v in record.items() if k != "step" and not (k == "warnings" and not v)}
    return record


def differences(ref: Any, got: Any, where: str = "") -> list[str]:
    """Human-readable differences between two observation records, one line each."""
    if ref == got:
        return []
    if isinstance(ref, (list, tuple)) and type(ref) is type(got) and len(ref) == len(got):
        out = []
        for i, (a, b) in enumerate(zip(ref, got)):
            label = where + f"[{i}]"
            if isinstance(a, dict) and "step" in a:
                label = f"step {i} {a['step']!r}"
            out += differences(a, b, label)
        return out
    if isinstance(ref, dict) and isinstance(got, dict) and ref.keys() == got.keys():
        out = []
        for key in ref:
            if key != "step":
                out += differences(ref[key], got[key], f"{where}.{key}" if where else str(key))
        return out
    return [f"{where or 'result'}: expected {_short(_shown(ref))}, got {_short(_shown(got))}"]


def _short(record: Any, limit: int = 300) -> str:
    text = repr(record)
    return text if len(text) <= limit else text[: limit - 5] + " ...)"


# --------------------------------------------------------------------------- sides


@dataclass
class Side:
    """One half of a differential run: a module and where its databases live."""

    label: str  # "sqlite3" for the reference, else the backend name
    api: Any  # the module: sqlite3 or hermes_dbapi
    where: Callable[[str], str]  # database name -> the path to open
    conn: Any = None  # the main connection of a steps() run
    opened: list = field(default_factory=list)
    _peer: Any = None

    @property
    def is_reference(self) -> bool:
        return self.label == "sqlite3"

    def path(self, db: str = "main") -> str:
        """The path of database ``db`` on this side (same name -> same database)."""
        return self.where(db)

    def connect(self, db: str = "main", *args: Any, **kw: Any) -> Any:
        """``api.connect(self.path(db), *args, **kw)``, closed when the run ends."""
        return self.track(self.api.connect(self.path(db), *args, **kw))

    def track(self, conn: Any) -> Any:
        self.opened.append(conn)
        if isinstance(conn, _std.Connection) and not conn.in_transaction:
            # No fsync: durability is not under test, and it is most of a SQLite run's time.
            conn.execute("PRAGMA synchronous = OFF")
        return conn

    def peer(self) -> Any:
        """A second connection to the main database (another process, as it were)."""
        if self._peer is None:
            self._peer = self.connect()
        return self._peer

    def close_all(self) -> None:
        while self.opened:
            conn = self.opened.pop()
            with contextlib.suppress(Exception):
                conn.close()
        self._peer = None
        self.conn = None


def attempt(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """``fn(*args)``'s result, or the exception it raised (as the observation)."""
    try:
        return fn(*args, **kw)
    except Exception as exc:
        return exc


def _warnings_of(caught: Iterable[warnings.WarningMessage]) -> list[tuple[str, str]]:
    return [
        (w.category.__name__, str(w.message)) for w in caught if not issubclass(w.category, ResourceWarning)
    ]


def cursor_record(cur: Any, rows: Any) -> dict:
    return {"rows": rows, "description": cur.description, "rowcount": cur.rowcount, "lastrowid": cur.lastrowid}


def run_step(side: Side, step: Any) -> dict:
    """Run one step on ``side.conn``; return its (raw) record."""
    if isinstance(step, str):
        step = ("sql", step)
    op, *args = step
    conn = side.conn
    record: dict = {"step": step}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if op == "sql":
                cur = conn.execute(*args)
                record.update(cursor_record(cur, cur.fetchall()))
            elif op == "many":
                cur = conn.executemany(*args)
                record.update(cursor_record(cur, cur.fetchall()))
            elif op == "script":
                cur = conn.executescript(*args)
                record.update(cursor_record(cur, cur.fetchall()))
            elif op in ("commit", "rollback", "close"):
                record["result"] = getattr(conn, op)()
            elif op == "get":
                record["result"] = getattr(conn, args[0])
            elif op == "set":
                setattr(conn, args[0], args[1])
            elif op == "peek":
                cur = side.peer().execute(*args)
                record["rows"] = cur.fetchall()
            else:  # pragma: no cover - a typo in a scenario table
                raise AssertionError(f"unknown step {step!r}")
        except Exception as exc:
            record["raised"] = exc
    record["warnings"] = _warnings_of(caught)
    record["in_transaction"] = attempt(lambda: conn.in_transaction)
    return record


def apply(conn: Any, steps: Iterable[Any]) -> None:
    """Run setup steps (same forms as :func:`run_step`) without recording them."""
    for step in steps:
        if isinstance(step, str):
            step = ("sql", step)
        op, *args = step
        method = {"sql": "execute", "many": "executemany", "script": "executescript"}.get(op, op)
        getattr(conn, method)(*args)


def run_steps(side: Side, steps: Iterable[Any], setup: Iterable[Any] = (), **connect_kw: Any) -> list[dict]:
    """Apply ``setup`` through a connection of its own (not recorded), then run and record ``steps``
    on a new main connection opened with ``connect_kw``."""
    if setup:
        with contextlib.closing(side.connect(isolation_level=None)) as conn:
            apply(conn, setup)
    side.conn = side.connect(**connect_kw)
    return [run_step(side, step) for step in steps]


# --------------------------------------------------------------------------- the fixture object


class Differ:
    """What the ``diff`` fixture hands a test: the two sides and the comparison."""

    def __init__(self, backend: Any, std: Any, tmp_path: Path) -> None:
        import hermes_dbapi

        self.backend = backend
        ref_dir = tmp_path / "reference"

        def reference_path(db: str) -> str:
            path = ref_dir / f"{db}.db"
            path.parent.mkdir(parents=True, exist_ok=True)
            return str(path)

        self.reference = Side("sqlite3", std, reference_path)
        self.shim = Side(backend.name, hermes_dbapi, lambda db: backend.path(f"shim/{db}.db"))

    def observe(self, side: Side, fn: Callable[[Side], Any], normalize: Callable[[str], str] | None) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = fn(side)
            except Exception as exc:
                result = exc
            finally:
                side.close_all()
        record = typed(result, normalize)
        found = _warnings_of(caught)
        return record if not found else {"result": record, "warnings": found}

    def check(self, fn: Callable[[Side], Any], *, normalize: Callable[[str], str] | None = None) -> Any:
        """Run ``fn`` on both sides; fail unless the observation records are equal.

        Returns the reference record, so a test can also assert that the
        scenario observed what it meant to (e.g. that an error did happen)."""
        expected = self.observe(self.reference, fn, normalize)
        got = self.observe(self.shim, fn, normalize)
        if expected != got:
            lines = differences(expected, got)
            pytest.fail(
                f"hermes_dbapi on {self.shim.label} differs from sqlite3:\n  " + "\n  ".join(lines),
                pytrace=False,
            )
        return expected

    def steps(self, steps: Iterable[Any], setup: Iterable[Any] = (), **connect_kw: Any) -> Any:
        """Run a scenario table on both sides (see the module docstring); ``setup`` steps run
        first, unrecorded, on a connection of their own in autocommit mode."""
        steps, setup = list(steps), list(setup)
        return self.check(lambda side: run_steps(side, steps, setup, **connect_kw))

    def close(self) -> None:
        self.reference.close_all()
        self.shim.close_all()


def fetched(cursor: Any) -> dict:
    """A cursor's state after fetching everything: rows, description, rowcount, lastrowid."""
    return cursor_record(cursor, cursor.fetchall())
