"""``hermes_dbapi.Connection``/``Cursor`` as real subclasses of sqlite3's classes.

An application subclasses ``hermes_dbapi.Connection`` and passes it as
``connect(..., factory=Sub)``; on the embedded default the standard module then
builds ``Sub`` itself, so the very same class has to act as the standard one
for an embedded database and as the server implementation otherwise.  The
class holds the server implementation; :func:`dual` wraps each of its public
methods and properties that shadow the standard class's so that an instance
without a server (its flag attribute is None) runs the standard C code.

:class:`StdAware` makes ``isinstance(std_conn, hermes_dbapi.Connection)`` true,
as the ``abc`` registration did before the classes became real subclasses.
:func:`on_server` adapts a subclass of the *standard* class to a server.
"""

from __future__ import annotations

import functools
import inspect
import operator
import weakref
from typing import Any, Callable

from ._stdlib import sqlite3

# dunder methods of the standard classes that the server classes override too
_DUNDERS = ("__enter__", "__exit__", "__call__", "__iter__", "__next__")


class StdAware(type):
    """Metaclass: the standard class counts as a subclass of the class that
    declares it as ``_std_class`` (only that class, not its subclasses)."""

    def __instancecheck__(cls, instance: Any) -> bool:
        std = cls.__dict__.get("_std_class")
        return (std is not None and isinstance(instance, std)) or type.__instancecheck__(cls, instance)

    def __subclasscheck__(cls, subclass: Any) -> bool:
        std = cls.__dict__.get("_std_class")
        if std is not None and isinstance(subclass, type) and issubclass(subclass, std):
            return True
        return type.__subclasscheck__(cls, subclass)


def dual(cls: type, std: type, flag: str) -> None:
    """Make every public method/property of ``cls`` that shadows one of ``std``
    run ``std``'s own when ``getattr(instance, flag)`` is None (embedded)."""
    embedded: Callable[[Any], bool] = lambda self: getattr(self, flag) is None  # noqa: E731
    flag_of = operator.attrgetter(flag)  # issue 8: the per-call test without a Python frame
    cls._std_class = std  # type: ignore[attr-defined]
    for name, value in list(vars(cls).items()):
        if name.startswith("_") and name not in _DUNDERS:
            continue
        standard = std.__dict__.get(name)
        if standard is None:
            continue
        if isinstance(value, property):
            setattr(cls, name, _dual_property(value, standard, embedded))
        elif inspect.isfunction(value):
            setattr(cls, name, _dual_method(value, standard, flag_of))


def drop_missing(cls: type, std: type, names: tuple[str, ...]) -> None:
    """Remove from ``cls`` those of ``names`` this Python's ``std`` class lacks
    (``hasattr`` feature detection must see what sqlite3 would show)."""
    for name in names:
        if name in vars(cls) and not hasattr(std, name):
            delattr(cls, name)


def no_attribute(obj: Any, name: str, base: type) -> AttributeError:
    """The AttributeError sqlite3's object raises, naming ``sqlite3.X`` for the module's own class."""
    kind = type(obj)
    label = f"sqlite3.{base.__name__}" if kind is base else kind.__name__
    return AttributeError(f"'{label}' object has no attribute '{name}'", name=name, obj=obj)


def _dual_method(server: Callable, standard: Any, flag_of: Callable[[Any], Any]) -> Callable:
    @functools.wraps(server)
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if flag_of(self) is None:
            return standard(self, *args, **kwargs)
        return server(self, *args, **kwargs)

    return method


def _dual_property(server: property, standard: Any, embedded: Callable[[Any], bool]) -> property:
    def fget(self: Any) -> Any:
        if embedded(self):
            return standard.__get__(self, type(self))
        return server.fget(self)  # type: ignore[misc]

    def fset(self: Any, value: Any) -> None:
        if embedded(self) or server.fset is None:
            standard.__set__(self, value)  # the standard descriptor's own errors for read-only ones
        else:
            server.fset(self, value)

    def fdel(self: Any) -> None:
        standard.__delete__(self)

    return property(fget, fset, fdel, server.__doc__)


_ADAPTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def on_server(user_class: type, server_class: type) -> type:
    """A class for ``user_class`` (a subclass of the standard class, not of
    ``server_class``) on a server: ``user_class``'s own methods first, then the
    server implementation (``super()`` in ``user_class`` reaches it).  Its
    instances are ``isinstance(x, user_class)``; ``type(x)`` is the adapter."""
    adapted = _ADAPTED.get(user_class)
    if adapted is None:
        namespace = {"__module__": user_class.__module__, "__qualname__": user_class.__qualname__}
        if user_class.__doc__ is not None:
            namespace["__doc__"] = user_class.__doc__
        try:
            adapted = type(user_class.__name__, (user_class, server_class), namespace)
        except TypeError as exc:  # e.g. a __slots__ layout that cannot be combined
            name = getattr(server_class, "__qualname__", "the server class")
            raise sqlite3.NotSupportedError(
                f"{user_class.__qualname__} cannot be used on a server; subclass hermes_dbapi.{name} instead ({exc})"
            ) from None
        _ADAPTED[user_class] = adapted
    return adapted


def adapt_factory(factory: Any, std_class: type, server_class: type) -> Any:
    """The factory to call on a server for a ``factory`` argument meant for sqlite3."""
    if factory is std_class:
        return server_class
    if isinstance(factory, type) and issubclass(factory, std_class) and server_class not in factory.__mro__:
        return on_server(factory, server_class)
    return factory


MISSING = object()
CONNECT_SIGNATURE = inspect.Signature(
    [
        inspect.Parameter("database", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("timeout", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=5.0),
        inspect.Parameter("detect_types", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=0),
        inspect.Parameter("isolation_level", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=""),
        inspect.Parameter("check_same_thread", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=True),
        inspect.Parameter("factory", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=MISSING),
        inspect.Parameter("cached_statements", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=128),
        inspect.Parameter("uri", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=False),
        inspect.Parameter("autocommit", inspect.Parameter.KEYWORD_ONLY, default=MISSING),
    ]
)


def connect_options(args: tuple, kwargs: dict) -> dict[str, Any] | None:
    """``sqlite3.connect``/``Connection`` arguments by name, defaults filled in
    (``MISSING`` for an absent factory/autocommit); None if they do not bind,
    so that sqlite3 itself words the TypeError."""
    try:
        bound = CONNECT_SIGNATURE.bind(*args, **kwargs)
    except TypeError:
        return None
    return {**{k: p.default for k, p in CONNECT_SIGNATURE.parameters.items()}, **bound.arguments}
