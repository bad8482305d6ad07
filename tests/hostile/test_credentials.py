"""Credentials and transport options (issue 9, item 5).

Passwords never show up in exception messages, ``repr(conn)``, log records or
CLI output; TLS options of the URL reach the driver (proved with real connects:
the local servers run without TLS, so ``sslmode=require`` / an ``ssl_ca`` file
must fail with a clear ``OperationalError``, ``sslmode=disable`` must work); a
MySQL option file named by ``read_default_file`` is read.  ``PGPASSWORD`` and
``.pgpass`` are libpq's own and cannot be proved here: PostgreSQL runs with
trust authentication, so any password is accepted.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from urllib.parse import quote

import pytest

import hermes_dbapi

SECRET = "Pa55-w0rd:@/%?#'\";--sEcReT"
QUOTED = quote(SECRET, safe="")
UNREACHABLE = {
    "postgres": f"postgresql://postgres:{QUOTED}@127.0.0.1:1/test",
    "mysql": f"mysql://root:{QUOTED}@127.0.0.1:1/test",
}
servers = pytest.mark.parametrize("kind", ["postgres", "mysql"])
_RAW = {"postgres": "postgresql://postgres@127.0.0.1:5432/test", "mysql": "mysql://root@127.0.0.1:3306/test"}


@pytest.fixture(autouse=True, scope="module")
def _drop_the_namespaces_made_here(pytestconfig):
    """These tests reach both servers whatever backends the run tests, and the run's
    own cleanup covers only its backends: what they create is dropped here."""
    yield
    from conftest import _state, drop_namespaces

    prefix = _state(pytestconfig).prefix
    for name, url in _RAW.items():
        for made in ("ssl", "default"):
            try:
                drop_namespaces(name, url, prefix + made)
            except Exception:  # noqa: BLE001 - a server that is down left nothing behind
                pass


def _leaks(text: str) -> bool:
    return any(part in text for part in (SECRET, QUOTED, "sEcReT"))


@servers
def test_unreachable_server_error_hides_password(kind, caplog, tmp_path):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        hermes_dbapi.connect(UNREACHABLE[kind])
    shown = str(info.value) + repr(info.value) + repr(info.value.args)
    assert not _leaks(shown), shown
    assert "***" in str(info.value) or "127.0.0.1" in str(info.value)
    assert not any(_leaks(r.getMessage()) for r in caplog.records)


def test_wrong_password_error_hides_it(caplog):
    """MariaDB's root has no password here: a wrong one is refused by the server."""
    caplog.set_level(logging.DEBUG)
    with pytest.raises(hermes_dbapi.OperationalError) as info:
        hermes_dbapi.connect(f"mysql://root:{QUOTED}@127.0.0.1:3306/test")
    assert "Access denied" in str(info.value) or "denied" in str(info.value).lower()
    assert not _leaks(str(info.value) + repr(info.value.args))
    assert not any(_leaks(r.getMessage()) for r in caplog.records)


def test_repr_and_errors_of_live_connection_hide_password(caplog, run_prefix, tmp_path):
    """PostgreSQL trusts local connections, so a URL with a password connects."""
    caplog.set_level(logging.DEBUG)
    url = f"postgresql://postgres:{QUOTED}@127.0.0.1:5432/test?prefix={run_prefix}"
    conn = hermes_dbapi.connect(url)
    try:
        assert not _leaks(repr(conn)) and not _leaks(str(conn))
        with pytest.raises(hermes_dbapi.OperationalError) as info:
            conn.execute("SELECT * FROM no_such_table")
        assert not _leaks(str(info.value))
        for value in vars(conn).values():
            assert not _leaks(repr(value)[:10000])
    finally:
        conn.close()
    assert not any(_leaks(r.getMessage()) for r in caplog.records)


@servers
def test_cli_doctor_hides_password(kind):
    result = subprocess.run(
        [sys.executable, "-m", "hermes_dbapi", "doctor", UNREACHABLE[kind]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert not _leaks(output), output
    assert "***" in output


def test_pg_sslmode_passes_to_driver(run_prefix):
    base = f"postgresql://postgres@127.0.0.1:5432/test?prefix={run_prefix}&namespace={run_prefix}ssl"
    conn = hermes_dbapi.connect(base + "&sslmode=disable")
    assert conn.execute("SELECT 1").fetchone() == (1,)
    conn.close()
    with pytest.raises(hermes_dbapi.OperationalError, match="SSL|ssl"):
        hermes_dbapi.connect(base + "&sslmode=require")  # the local server has ssl=off
    with pytest.raises(hermes_dbapi.OperationalError, match="root certificate|sslrootcert|no-such-ca"):
        hermes_dbapi.connect(base + "&sslmode=verify-full&sslrootcert=/no-such-ca.pem")


def test_mysql_ssl_options_pass_to_driver(run_prefix):
    base = f"mysql://root@127.0.0.1:3306/test?prefix={run_prefix}"
    conn = hermes_dbapi.connect(base)
    assert conn.execute("SELECT 1").fetchone() == (1,)
    conn.close()
    # ssl_ca goes to PyMySQL's ssl context: a missing CA file must be a clear sqlite3 error
    with pytest.raises(hermes_dbapi.OperationalError, match="no-such-ca|No such file|SSL|ssl"):
        hermes_dbapi.connect(base + "&ssl_ca=/no-such-ca.pem")


def test_mysql_option_file_is_read(tmp_path, run_prefix):
    """``read_default_file`` in the URL: the password comes from the file (and
    being wrong there, it is refused: proof that the file was read)."""
    option_file = tmp_path / "my.cnf"
    option_file.write_text(f"[client]\npassword={SECRET.replace(chr(34), '').replace(chr(39), '')}\n")
    url = f"mysql://root@127.0.0.1:3306/test?prefix={run_prefix}&read_default_file={quote(str(option_file))}"
    with pytest.raises(hermes_dbapi.OperationalError, match="denied") as info:
        hermes_dbapi.connect(url)
    assert "sEcReT" not in str(info.value)
    option_file.write_text("[client]\nuser=root\n")
    conn = hermes_dbapi.connect(url)
    assert conn.execute("SELECT 1").fetchone() == (1,)
    conn.close()
