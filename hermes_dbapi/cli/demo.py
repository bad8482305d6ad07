"""``hermes-dbapi demo``: run the example SessionDB on the configured backend."""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import uuid
from pathlib import Path

import hermes_dbapi


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="run the example SessionDB on the configured backend")
    parser.add_argument("--path", help="database path (default: a new file in a temporary directory)")
    parser.set_defaults(run=run)


def _load_sessiondb():
    here = Path(__file__).resolve().parents[2] / "examples" / "sessiondb.py"
    spec = importlib.util.spec_from_file_location("hermes_dbapi_example_sessiondb", here)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SessionDB


def run(args: argparse.Namespace) -> int:
    SessionDB = _load_sessiondb()
    path = args.path or os.path.join(tempfile.mkdtemp(prefix="hermes-demo-"), "state.db")
    print(f"backend: {hermes_dbapi.backend_name()}  database: {path}")
    db = SessionDB(path)
    try:
        sessions = [f"demo-{uuid.uuid4().hex[:8]}" for _ in range(2)]
        for n, sid in enumerate(sessions):
            db.create_session(sid, "cli", title=f"Demo session {n + 1}")
            print(f"created session {sid}")
            for role, text in (("user", "How do I search my sessions?"), ("assistant", "Use session_search.")):
                mid = db.append_message(sid, role, f"{text} (#{n + 1})")
                print(f"  appended message {mid} ({role})")
        print(f"messages of {sessions[0]}: {len(db.get_messages(sessions[0]))}")
        hits = db.search("search sessions")
        print(f"search 'search sessions' (FTS5, best first): {len(hits)} hit(s)")
        for hit in hits:
            print(f"  message {hit['id']} in {hit['session_id']}  rank {hit['score']:g}  {hit['snippet']}")
        for row in db.list_sessions():
            print(f"  session {row['id']} [{row['source']}] {row['title']!r}: {row['message_count']} messages")
    finally:
        db.close()
    return 0
