"""The workload that breaks SQLite today, on the servers (``bench/hot_update.py``).

Writer processes (CLI-, gateway- and cron-like) go through hermes_dbapi with
``BEGIN IMMEDIATE`` and Hermes' retry loop while the driver SIGKILLs them in
the middle of transactions and starts new ones ("hot update").  Afterwards:
every acknowledged commit is present exactly once, no partial transaction is
visible, counters equal message counts, and no "database is locked" escaped
the retry loop.  Sized for CI (a few hundred transactions per server); the
issue's full bar (16 writers x 500) is ``python -m bench.hot_update``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import hot_update  # noqa: E402

WRITERS = int(os.environ.get("HERMES_WORKLOAD_WRITERS", "6"))
TRANSACTIONS = int(os.environ.get("HERMES_WORKLOAD_TRANSACTIONS", "40"))


@pytest.fixture
def server(backend):
    if not backend.is_server:
        pytest.skip("the workload is checked on the servers (bench/hot_update.py compares SQLite)")
    return backend


def _check(result: dict, writers: int, transactions: int) -> None:
    detail = {k: result[k] for k in ("first_errors", "kills", "kills_mid_tx", "processes", "wall_s")}
    assert result["acked"] == writers * transactions, (result, detail)
    assert result["lost_acked"] == 0, result
    assert result["duplicates"] == 0 and result["acked_twice"] == 0, result
    assert result["partial"] == 0 and result["orphans"] == 0, result
    assert result["bad_counters"] == 0, result
    assert result["lock_escaped"] == 0 and result["escaped"] == 0, result
    assert result["errors"] == 0, result
    assert result["ok"], result


@pytest.mark.parametrize("lock", ["advisory", "table"])
@pytest.mark.timeout(240)
def test_hot_update_with_sigkills(server, tmp_path, lock):
    url = server.url + f"&lock={lock}"
    result = hot_update.run(
        url, str(tmp_path / "work"), label=f"{server.name}/{lock}", writers=WRITERS, transactions=TRANSACTIONS,
        kills=8, deadline=200, seed=5,
    )
    print(result)
    _check(result, WRITERS, TRANSACTIONS)
    assert result["kills_mid_tx"] >= 6, result  # the faults really happened


@pytest.mark.slow
@pytest.mark.restart
@pytest.mark.timeout(420)
def test_hot_update_with_server_restart(server, tmp_path):
    """The server restarts mid-run: the workload goes on, no acknowledged commit is lost."""
    if "127.0.0.1" not in (server.server_url or "") and "localhost" not in (server.server_url or ""):
        pytest.skip("the test server is not local")
    try:
        result = hot_update.run(
            server.url, str(tmp_path / "work"), label=f"{server.name}/restart", writers=WRITERS,
            transactions=TRANSACTIONS * 2, kills=6, restart=server.name, deadline=360, seed=7,
        )
    finally:
        hot_update.start_server(server.name)  # up again whatever happened
    print(result)
    assert result["restarts"] == 1
    _check(result, WRITERS, TRANSACTIONS * 2)
