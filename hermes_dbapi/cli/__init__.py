"""The ``hermes-dbapi`` command (also ``python -m hermes_dbapi``).

Subcommands: ``demo``, ``translate``, ``doctor``, ``migrate``.  Exit codes: 0
success, 1 failure (the reason on stderr), 2 usage error."""

from __future__ import annotations

import argparse
import logging
import sys

from . import demo, doctor, migrate, translate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hermes-dbapi", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo.add_parser(commands)
    translate.add_parser(commands)
    doctor.add_parser(commands)
    migrate.add_parser(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # no parser chatter on the user's terminal
    try:
        return int(args.run(args) or 0)
    except Exception as exc:  # a clear one-line error, never a traceback, for users
        print(f"hermes-dbapi: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
