"""``hermes-dbapi translate``: print the server SQL for SQLite statements, or
the error the shim would raise; ``--check`` assesses a Python code base."""

from __future__ import annotations

import argparse
import sys

from .explain import TARGETS, Translator


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("translate", help="show the server SQL for SQLite statements (or --check sources)")
    parser.add_argument("sql", nargs="?", default="-", metavar="SQL", help="statements, or - to read stdin (default)")
    parser.add_argument("--to", choices=sorted(TARGETS), action="append",
                        help="target server (repeatable; default postgres, --check: postgres and mariadb)")
    parser.add_argument("--check", metavar="PATH", help="scan SQL string literals in a .py file or directory")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="--check report format")
    parser.add_argument("--strict", action="store_true", help="--check: exit 1 if anything would fail")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.check:
        from . import check

        return check.run(args.check, args.to or ["postgres", "mariadb"], args.format, args.strict)
    text = sys.stdin.read() if args.sql == "-" else args.sql
    failed = False
    targets = args.to or ["postgres"]
    for target in targets:
        if len(targets) > 1:
            print(f"-- ===== {target} =====")
        for n, outcome in enumerate(Translator(target).script(text), 1):
            print(f"-- [{n}] {_one_line(outcome.sql)}")
            if outcome.note:
                print(f"-- note: {outcome.note}")
            if outcome.status == "translated":
                print(outcome.output + ";")
            elif outcome.status == "shim":
                print(f"-- {outcome.output}")
            else:
                failed = True
                print(f"-- {outcome.output}")
                print(f"{target}: statement {n}: {outcome.output}", file=sys.stderr)
    return 1 if failed else 0


def _one_line(sql: str, width: int = 100) -> str:
    flat = " ".join(sql.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
