"""The ``hermes-dbapi`` command (also ``python -m hermes_dbapi``)."""

from __future__ import annotations

import argparse
import sys

from . import demo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hermes-dbapi", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo.add_parser(commands)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except Exception as exc:  # a clear one-line error, never a traceback, for users
        print(f"hermes-dbapi: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
