"""FTS batches tokenized by worker processes, in order.

Tokenizing is most of a migration's Python time and a thread does not run it
in parallel (the GIL), so each batch of source rows goes to one of a few
worker processes, which returns its load text (``FtsLoader.encode``: pure,
so any process makes the same bytes).  One batch is in flight per worker and
the results come back in submission order, so rowid order, progress rows and
resuming are as with one process; memory stays bounded (the main process holds
the batch being loaded, each worker the one it encodes: 40 to 70 MB of RSS
of its own).  A worker sees a
closed pipe when the migration dies, even by SIGKILL, and exits.

Workers are fresh interpreters started with ``subprocess`` (not
``multiprocessing``, whose spawn re-runs the caller's ``__main__`` script and
whose fork copies the caller's memory and server sessions)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from ...fts.tokenizers import only_builtin_tokenizers
from .fts_load import Encoded

#: worker processes (``HERMES_MIGRATE_WORKERS``, 0 = tokenize in a thread of this process)
WORKERS_ENV = "HERMES_MIGRATE_WORKERS"


def default_workers() -> int:
    """Two workers with four CPUs or more; none below.  On two shared CPUs (PostgreSQL
    on the same machine, other load) two workers measured no faster than the thread:
    the server's backend and this process already use both (100k Hermes-like messages,
    PostgreSQL: FTS phase 27.7 s with 2 workers, 25.8 s without)."""
    value = os.environ.get(WORKERS_ENV)
    if value is not None and value.strip():
        return max(0, int(value))
    return 2 if (os.cpu_count() or 1) >= 4 else 0


class _Kind:
    def __init__(self, kind: str) -> None:
        self.kind = kind


def worker_main(fd: int) -> None:
    """A worker (``python -c``, see ``EncodePool``): receive the table (kind, name, DDL),
    build its loader, then encode each batch received until None or EOF."""
    conn = Connection(fd)
    try:
        kind, name, sql = conn.recv()
        from ...fts.server.spec import parse
        from ...fts.server.storage import Storage
        from .fts_load import FtsLoader

        loader = FtsLoader(Storage(_Kind(kind), parse(name, sql)), None, kind)  # type: ignore[arg-type]
        conn.send("ready")
    except (EOFError, OSError):
        return
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which falls back
        conn.send(RuntimeError(f"FTS worker could not start: {exc!r}"))
        return
    while True:
        try:
            rows = conn.recv()
        except (EOFError, OSError):
            return
        if rows is None:
            return
        try:
            out: Any = loader.encode(rows)
        except BaseException as exc:  # noqa: BLE001 - raised in the parent
            out = exc if _picklable(exc) else RuntimeError(repr(exc))
        try:
            conn.send(out)
        except OSError:
            return


_BOOT = ("import sys; sys.path[:0] = [sys.argv[2]]; "
         "from hermes_dbapi.cli.migration.fts_workers import worker_main; worker_main(int(sys.argv[1]))")


def _picklable(exc: BaseException) -> bool:
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return True
    except Exception:  # noqa: BLE001
        return False


class EncodePool:
    """``workers`` spawned processes encoding one FTS table's batches."""

    def __init__(self, kind: str, name: str, sql: str, workers: int) -> None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__import__("hermes_dbapi").__file__)))
        self._procs: list[subprocess.Popen] = []
        self._conns: list[Connection] = []
        try:
            for _ in range(workers):
                mine, theirs = socket.socketpair()
                with theirs:
                    proc = subprocess.Popen([sys.executable, "-c", _BOOT, str(theirs.fileno()), root],
                                            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
                self._procs.append(proc)
                self._conns.append(Connection(mine.detach()))
            for conn in self._conns:
                conn.send((kind, name, sql))
            for conn in self._conns:
                answer = conn.recv()
                if answer != "ready":
                    raise answer if isinstance(answer, BaseException) else RuntimeError(str(answer))
        except BaseException:
            self.close()
            raise

    @classmethod
    def start(cls, kind: str, name: str, sql: str, workers: int | None = None) -> "EncodePool | None":
        """A pool, or None when this process must tokenize itself (no workers wanted,
        a custom tokenizer registered here, or the workers could not start)."""
        count = default_workers() if workers is None else workers
        if count <= 0 or not only_builtin_tokenizers():
            return None
        try:
            return cls(kind, name, sql, count)
        except Exception:  # noqa: BLE001 - tokenizing in-process is always possible
            return None

    def map(self, batches: Iterable[list[tuple[int, list[Any]]]]) -> Iterator[Encoded]:
        """The encoded batches, in order; the next batches are read and encoded while
        the caller loads this one."""
        source = iter(batches)
        pending: deque[Any] = deque()
        for conn in self._conns:
            rows = next(source, None)
            if rows is None:
                break
            conn.send(rows)
            pending.append(conn)
        while pending:
            conn = pending.popleft()
            rows = next(source, None)  # read from the source while the worker finishes
            result = conn.recv()
            if isinstance(result, BaseException):
                raise result
            if rows is not None:
                conn.send(rows)
                pending.append(conn)
            yield result

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass
        for conn in self._conns:
            conn.close()  # a worker still sending a result sees the pipe closed
        for proc in self._procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._procs, self._conns = [], []
