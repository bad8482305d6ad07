"""Run one callable on real sqlite3 and on the shim; compare results or errors.

An outcome is the returned value, or ``("raise", class name, message)`` when the
callable raised, so a test can assert "same value" and "same error" alike.
"""

from __future__ import annotations

from typing import Any, Callable


def outcome(fn: Callable[[Any], Any], conn: Any) -> Any:
    try:
        return fn(conn)
    except Exception as exc:  # the error itself is what gets compared
        return ("raise", type(exc).__name__, str(exc))


def same(pair: tuple[Any, Any], fn: Callable[[Any], Any]) -> Any:
    """Assert ``fn`` gives the same outcome on both sides; return it."""
    reference, shim = pair
    expected = outcome(fn, reference)
    got = outcome(fn, shim)
    assert _key(got) == _key(expected), f"sqlite3 {_short(expected)} vs shim {_short(got)}"
    return expected


def _key(value: Any) -> Any:
    """Exact Python types matter: 1 and 1.0 and True are different results."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    return (type(value).__name__, value)


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + " ...)"
