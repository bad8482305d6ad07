"""``hermes-dbapi doctor``: server facts, privileges, namespaces, exit codes."""

from __future__ import annotations

import json

import pytest


def test_doctor_healthy_server(backend, cli):
    if not backend.is_server:
        pytest.skip("doctor checks a server")
    conn = backend.connect(backend.path("state.db"))
    conn.execute("CREATE TABLE a(x)")
    conn.execute("CREATE TABLE b(x)")
    conn.commit()
    r = cli("doctor", backend.url, "--path", backend.path("state.db"), "--format", "json")
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["healthy"] is True
    assert report["server"]["kind"] in ("postgres", "mariadb", "mysql")
    assert report["privileges"]["create_table"] is True
    assert report["privileges"]["advisory_locks"] is True
    name = conn._backend.namespace
    assert report["path"] == {"path": backend.path("state.db"), "namespace": name, "exists": True, "tables": 2}
    assert report["namespaces"][name] == 2
    assert not any("doctor" in n for n in report["namespaces"])  # the privilege probe left nothing behind
    text = cli("doctor", "--path", backend.path("state.db"))  # URL from HERMES_DB_URL
    assert text.code == 0
    assert "status:     healthy" in text.out and name in text.out


def test_doctor_unreachable_masks_password(cli):
    r = cli("doctor", "postgresql://alice:hunter2secret@127.0.0.1:1/db")
    assert r.code == 1
    assert "hunter2secret" not in r.out + r.err
    assert "alice:***@" in r.out and "UNHEALTHY" in r.err
    r = cli("doctor", "mysql://bob:hunter2secret@127.0.0.1:1/db", "--format", "json")
    assert r.code == 1 and "hunter2secret" not in r.out + r.err
    assert json.loads(r.out)["healthy"] is False


def test_doctor_bad_url_and_no_url(cli, monkeypatch):
    r = cli("doctor", "oracle://x:pw@h/db")
    assert r.code == 1 and "pw@" not in r.err
    monkeypatch.delenv("HERMES_DB_URL", raising=False)
    assert cli("doctor").code == 2
