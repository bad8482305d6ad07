"""psycopg's warning after a failed ``executemany``, kept off the shim's stderr.

psycopg runs ``executemany`` in a libpq pipeline; when one of its statements
fails, leaving that pipeline fails too ("pipeline aborted") and psycopg logs
``error ignored terminating <Pipeline …>: pipeline aborted`` on its ``psycopg``
logger, which Python prints to stderr when logging is not configured.  The
caller already gets the statement's error, and sqlite3 prints nothing, so the
warning is dropped for the connections this package opened; other psycopg
connections in the process keep it.
"""

from __future__ import annotations

import logging
import weakref

import psycopg

_MESSAGE = "error ignored terminating %r: %s"  # psycopg/_pipeline.py
_OWN: "weakref.WeakSet[psycopg.Connection]" = weakref.WeakSet()


class _OwnPipelineWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != _MESSAGE or not isinstance(record.args, tuple) or not record.args:
            return True
        return getattr(record.args[0], "_conn", None) not in _OWN


_FILTER = _OwnPipelineWarning()


def own(conn: psycopg.Connection) -> None:
    """Drop psycopg's pipeline-exit warning for ``conn``."""
    _OWN.add(conn)
    logger = logging.getLogger("psycopg")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
