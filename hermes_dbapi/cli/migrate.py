"""``hermes-dbapi migrate SRC --to URL``: copy a SQLite database into the server
namespace the shim uses for that path, verified and resumable.

Exit codes: 0 migrated and verified, 1 failure (stderr says why), 2 usage."""

from __future__ import annotations

import argparse
import os
import sys

from .. import url as urls
from .._stdlib import sqlite3
from .migration.run import Migration, MigrationError, Report
from .migration.source import Snapshot
from .migration.target import TargetNamespace, namespace_for


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "migrate",
        help="copy a SQLite database into its server namespace (verified, resumable)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", metavar="SRC", help="the SQLite database file (opened read-only)")
    parser.add_argument("--to", metavar="URL", default=os.environ.get(urls.ENV_VAR) or None,
                        help="server URL (default: HERMES_DB_URL)")
    parser.add_argument("--namespace", metavar="NAME", help="target namespace (default: the one the shim derives from SRC)")
    parser.add_argument("--replace", action="store_true", help="drop a non-empty target namespace first")
    parser.add_argument("--batch", metavar="N", type=int, default=10_000, help="rows per transaction (default 10000)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or notes, only the summary")
    parser.set_defaults(run=run)


def _usage(message: str) -> int:
    print(f"hermes-dbapi migrate: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if not args.to or urls.is_sqlite_url(args.to):
        return _usage("--to URL (a postgresql:// or mysql:// server) is required")
    if args.batch < 1:
        return _usage("--batch must be at least 1")
    try:
        server = urls.parse(args.to)
    except sqlite3.Error as exc:
        return _usage(str(exc))
    if args.namespace and not urls._NAMESPACE_RE.match(args.namespace):
        return _usage(f"invalid namespace {args.namespace!r}: use [A-Za-z_][A-Za-z0-9_]*")
    if not os.path.isfile(args.source):
        return _usage(f"no such SQLite database: {args.source}")

    def note(message: str) -> None:
        if not args.quiet:
            print(f"hermes-dbapi migrate: {message}", file=sys.stderr)

    name = namespace_for(server, args.source, args.namespace)
    snapshot = target = None
    try:
        snapshot = Snapshot(args.source)
        target = TargetNamespace(server, name)
        note(f"{args.source} -> {server.masked()} namespace {name}")
        meter = _meter_factory(args.quiet)
        migration = Migration(snapshot, target, batch=args.batch, replace=args.replace, meter=meter, log=note)
        report = migration.run()
    except MigrationError as exc:
        print(f"hermes-dbapi migrate: {_masked(str(exc), server)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("hermes-dbapi migrate: interrupted; run the same command again to resume", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"hermes-dbapi migrate: {type(exc).__name__}: {_masked(str(exc), server)}", file=sys.stderr)
        return 1
    finally:
        for closable in (target, snapshot):
            if closable is not None:
                try:
                    closable.close()
                except Exception:
                    pass
    print_summary(report, args.source, server)
    if not report.verified:
        print("hermes-dbapi migrate: verification FAILED: the target differs from the source (see above)",
              file=sys.stderr)
        return 1
    for what, reason in report.skipped:
        print(f"hermes-dbapi migrate: warning: not migrated: {what}: {reason}", file=sys.stderr)
    return 0


def _meter_factory(quiet: bool):
    from .migration.meter import Meter

    def make(total: int) -> Meter:
        return Meter(total, enabled=False if quiet else None)

    return make


def _masked(text: str, server: urls.ServerURL) -> str:
    return text.replace(server.password, "***") if server.password else text


def print_summary(report: Report, source: str, server: urls.ServerURL) -> None:
    state = "already complete" if report.already_complete else ("resumed" if report.resumed else "migrated")
    print(f"{state}: {source} -> {server.masked()} namespace {report.namespace} ({report.server})")
    width = max([len(t.name) for t in report.tables] + [5])
    print(f"  {'table':<{width}}  {'source rows':>12}  {'target rows':>12}  checksum")
    for t in report.tables:
        verdict = "ok" if t.ok else f"MISMATCH (source {t.source_sum[:12]}, target {t.target_sum[:12]})"
        print(f"  {t.name:<{width}}  {t.source_rows:>12,}  {t.target_rows:>12,}  {t.source_sum[:12]} {verdict}")
    for table, last in report.ids:
        print(f"  ids of {table} continue after {last}")
    for what, reason in report.skipped:
        print(f"  not migrated: {what}: {reason}")
    rate = report.copied / report.seconds if report.seconds else 0.0
    print(f"  copied {report.copied:,} rows in {report.seconds:.1f} s ({rate:,.0f} rows/s); "
          + ("verified: row counts and checksums match" if report.verified else "VERIFICATION FAILED"))
