"""Where the client and the local servers run, for driver-against-driver ratios.

On a machine with few CPUs the scheduler leaves each server backend (a
PostgreSQL process, a MariaDB thread) on whichever CPU it likes.  A round
trip between two processes sharing one CPU costs about a third of one
between two CPUs (measured here: 28 µs against 105 µs for a point SELECT), so
two connections timed side by side could differ threefold for where their
backends happened to land, in either direction (point SELECT ratios of 0.31x
and 3x from the same code).  ``split`` pins this process to one CPU and every
thread of the local servers to another, the setting the issue's figures
assume (a loopback round trip of 55-90 µs), the same for both sides; new
backends inherit it from their parent.  Everything is put back afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SERVER_NAMES = {"postgres", "mariadbd", "mysqld"}


def _server_tasks() -> list[int]:
    """Thread ids of every local server process this user may see."""
    tasks = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (proc / "comm").read_text().strip() not in SERVER_NAMES:
                continue
            tasks += [int(t.name) for t in (proc / "task").iterdir()]
        except OSError:
            continue  # gone meanwhile
    return tasks


@contextmanager
def split() -> Iterator[str]:
    """Client on one CPU, local servers on another, for the duration; yields
    what was done (or why not), for the report."""
    if not hasattr(os, "sched_setaffinity"):
        yield "not pinned (no sched_setaffinity here)"
        return
    cpus = sorted(os.sched_getaffinity(0))
    tasks = _server_tasks()
    if len(cpus) < 2 or not tasks:
        yield "not pinned (" + ("one CPU" if len(cpus) < 2 else "no local server process visible") + ")"
        return
    client, server = cpus[0], cpus[1]
    saved: dict[int, set[int]] = {}
    try:
        for tid in tasks:
            try:
                saved[tid] = os.sched_getaffinity(tid)
                os.sched_setaffinity(tid, {server})
            except OSError:
                saved.pop(tid, None)  # exited, or not ours to move
        own = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {client})
        try:
            if not saved:
                yield "not pinned (the server processes may not be moved by this user)"
            else:
                yield f"client on CPU {client}, servers on CPU {server} (both sides alike)"
        finally:
            os.sched_setaffinity(0, own)
    finally:
        for tid, mask in saved.items():
            try:
                os.sched_setaffinity(tid, mask)
            except OSError:
                pass
        for tid in _server_tasks():  # backends started meanwhile inherited the pin
            if tid not in saved:
                try:
                    os.sched_setaffinity(tid, set(cpus))
                except OSError:
                    pass
