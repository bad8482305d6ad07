"""``hermes-dbapi doctor [URL]``: can this server hold hermes_dbapi namespaces?

Reports the server, the privileges the shim needs (tested for real, leaving
nothing behind), optional features, the namespace ``--path`` maps to and the
namespaces present under the prefix.  Exit 0 healthy, 1 not, 2 usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .. import namespace as namespaces
from .. import url as urls
from .._stdlib import sqlite3
from . import probe


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("doctor", help="check a server: version, privileges, features, namespaces")
    parser.add_argument("url", nargs="?", default=None, metavar="URL", help="server URL (default: HERMES_DB_URL)")
    parser.add_argument("--path", help="a SQLite path: show the namespace it maps to")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(run=run)


def diagnose(server: urls.ServerURL, path: str | None) -> dict[str, Any]:
    """Everything doctor reports, as data; ``healthy`` says whether it can work."""
    report: dict[str, Any] = {"url": server.masked(), "prefix": server.prefix}
    try:
        conn = probe.connect(server)
    except Exception as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        if server.password:
            reason = reason.replace(server.password, "***")
        report.update(healthy=False, error=f"cannot connect: {reason}")
        return report
    try:
        checks = probe.probe_for(conn, server)
        report["server"] = checks.server_info()
        report["privileges"] = checks.privileges()
        report["features"] = checks.features()
        present = checks.namespaces(server.prefix)
        report["namespaces"] = present
        pinned = server.option("namespace")
        if path or pinned:
            name = pinned or namespaces.for_path(path, server.prefix)  # type: ignore[arg-type]
            report["path"] = {"path": path, "namespace": name, "exists": name in present,
                              "tables": present.get(name, 0)}
    finally:
        conn.close()
    privileges = report["privileges"]
    can_table = privileges.get("create_table") is True
    can_namespace = privileges.get("create_namespace") is True or bool(server.option("namespace"))
    report["healthy"] = can_table and can_namespace
    if not report["healthy"]:
        report["error"] = "the user cannot create namespaces and tables (see privileges)"
    return report


def run(args: argparse.Namespace) -> int:
    raw = args.url or os.environ.get(urls.ENV_VAR, "")
    if not raw or urls.is_sqlite_url(raw):
        print("hermes-dbapi doctor: no server URL (pass one or set HERMES_DB_URL); the embedded SQLite "
              "default needs no checks", file=sys.stderr)
        return 2
    try:
        server = urls.parse(raw)
    except sqlite3.Error as exc:
        print(f"hermes-dbapi doctor: {exc}", file=sys.stderr)
        return 1
    report = diagnose(server, args.path)
    if args.format == "json":
        print(json.dumps(report, indent=2, default=str))
    else:
        _print_text(report)
    if not report["healthy"]:
        print(f"hermes-dbapi doctor: UNHEALTHY: {report.get('error')}", file=sys.stderr)
    return 0 if report["healthy"] else 1


def _mark(value: Any) -> str:
    return "yes" if value is True else f"NO ({value})"


def _print_text(report: dict[str, Any]) -> None:
    print(f"url:        {report['url']}")
    if "server" not in report:
        print(f"connection: FAILED: {report.get('error')}")
        return
    info = report["server"]
    print(f"server:     {info['kind']} {info['version']} as {info.get('user')}"
          + (f" (database {info['database']})" if info.get("database") else ""))
    print("privileges:")
    for name, value in report["privileges"].items():
        print(f"  {name.replace('_', ' '):<17} {_mark(value)}")
    print("features:")
    for name, value in report["features"].items():
        print(f"  {name:<17} {value}")
    if "path" in report:
        p = report["path"]
        state = f"exists, {p['tables']} tables" if p["exists"] else "not created yet"
        print(f"path:       {p['path'] or '(pinned by the URL)'} -> namespace {p['namespace']} ({state})")
    present = report["namespaces"]
    print(f"namespaces: {len(present)} with prefix {report['prefix']}")
    for name, count in present.items():
        print(f"  {name:<40} {count} tables")
    print(f"status:     {'healthy' if report['healthy'] else 'UNHEALTHY: ' + str(report.get('error'))}")
