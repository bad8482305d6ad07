"""examples/sessiondb.py, the README's demo store: its own behaviour, and the
same answers on every backend as on SQLite (issue 7, item 5).

Each test runs one scenario twice in the same test: on the embedded default
(HERMES_DB_URL unset: the real sqlite3) and on the backend under test, and
requires equal results (times excluded: they are the wall clock).
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sessiondb.py"


def _module() -> Any:
    spec = importlib.util.spec_from_file_location("example_sessiondb", _EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sessiondb = _module()

WORDS = "alpha beta gamma delta search tool result memory file café naïve 东京 emoji🙂 x".split()


def _on_sqlite(backend: Any, scenario: Callable[[Any], Any]) -> Any:
    saved = os.environ.pop("HERMES_DB_URL", None)
    try:
        db = sessiondb.SessionDB(str(backend.tmp_path / "reference.db"))
        try:
            return scenario(db)
        finally:
            db.close()
    finally:
        if saved is not None:
            os.environ["HERMES_DB_URL"] = saved


def _on_backend(backend: Any, scenario: Callable[[Any], Any]) -> Any:
    db = sessiondb.SessionDB(backend.path("example.db"))
    backend._connections.append(db.conn)
    return scenario(db)


def same(backend: Any, scenario: Callable[[Any], Any]) -> Any:
    expected = _on_sqlite(backend, scenario)
    got = _on_backend(backend, scenario)
    assert got == expected
    return got


def _fill(db: Any, sessions: int = 4, messages: int = 12) -> None:
    for s in range(sessions):
        db.create_session(f"s{s}", "cli" if s % 2 else "gateway", f"title {s}" if s % 3 else None)
        for m in range(messages):
            words = [WORDS[(s * 7 + m * 3 + k) % len(WORDS)] for k in range(3 + m % 5)]
            db.append_message(f"s{s}", "user" if m % 2 == 0 else "assistant", " ".join(words))


def test_append_and_read_back_in_order(backend):
    def scenario(db):
        _fill(db)
        return [db.get_messages(f"s{s}") for s in range(4)], [db.get_session(f"s{s}") for s in range(5)]

    messages, sessions = same(backend, scenario)
    assert [m["id"] for m in messages[0]] == sorted(m["id"] for m in messages[0])
    assert sessions[0]["message_count"] == 12 and sessions[4] is None


def test_message_ids_continue_after_the_highest(backend):
    def scenario(db):
        _fill(db, 2, 3)
        return [db.append_message("s0", "user", "later") for _ in range(3)]

    assert same(backend, scenario) == [7, 8, 9]


def test_get_messages_pages(backend):
    def scenario(db):
        _fill(db, 1, 12)
        pages, after = [], 0
        while True:
            page = db.get_messages("s0", limit=5, after_id=after)
            if not page:
                return pages
            pages.append([m["id"] for m in page])
            after = page[-1]["id"]

    assert same(backend, scenario) == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12]]


def test_list_sessions_pages(backend):
    def scenario(db):
        _fill(db, 7, 1)
        return [[s["id"] for s in db.list_sessions(limit=3, offset=o)] for o in (0, 3, 6, 9)]

    pages = same(backend, scenario)
    assert sum(len(p) for p in pages) == 7 and pages[-1] == []


@pytest.mark.parametrize("text", ["alpha", "gamma delta", "café", "naïve tool", "东京", "emoji🙂", "ALPHA", "nothing"])
def test_search_snippet_and_rank(backend, text):
    def scenario(db):
        _fill(db)
        return db.search(text, limit=50)

    found = same(backend, scenario)
    if text != "nothing":
        assert found and ">>>" in found[0]["snippet"]
        assert [r["score"] for r in found] == sorted(r["score"] for r in found)
    else:
        assert found == []


def test_search_pages_and_session_filter(backend):
    def scenario(db):
        _fill(db)
        return (
            [db.search("alpha", limit=4, offset=o) for o in (0, 4, 8)],
            db.search("alpha", session_id="s1"),
        )

    pages, only = same(backend, scenario)
    assert all(r["session_id"] == "s1" for r in only)


@pytest.mark.parametrize("hostile", ['"', 'a" OR "b', "NEAR(alpha", "alpha*", "-beta", "col:alpha", "'; DROP TABLE messages; --"])
def test_search_treats_text_as_words_never_syntax(backend, hostile):
    def scenario(db):
        _fill(db, 2, 6)
        db.append_message("s0", "user", hostile)
        return db.search(hostile), len(db.get_messages("s0"))

    same(backend, scenario)


def test_edit_and_delete_keep_the_index_in_sync(backend):
    def scenario(db):
        _fill(db)
        first = db.get_messages("s1")[0]["id"]
        db.edit_message(first, "rewritten zeppelin text")
        gone = db.delete_session("s2")
        db.check_index()
        return gone, db.search("zeppelin"), db.search("alpha", limit=100), db.get_session("s2")

    gone, zeppelin, alpha, deleted = same(backend, scenario)
    assert gone == 12 and len(zeppelin) == 1 and deleted is None
    assert all(r["session_id"] != "s2" for r in alpha)


def test_titles_unique_when_set(backend):
    def scenario(db):
        db.create_session("a", "cli", "shared")
        db.create_session("b", "cli")
        db.create_session("c", "cli")  # many sessions without a title
        outcomes = []
        for sid, title in (("b", "shared"), ("b", "own"), ("c", None), ("missing", "x")):
            try:
                outcomes.append(db.set_title(sid, title))
            except sessiondb.TitleInUse as exc:
                outcomes.append(str(exc))
        try:
            db.create_session("d", "cli", "own")
        except sessiondb.TitleInUse as exc:
            outcomes.append(str(exc))
        return outcomes, [s["title"] for s in db.list_sessions()]

    outcomes, titles = same(backend, scenario)
    assert outcomes == ["title 'shared' is already in use", True, True, False, "title 'own' is already in use"]


def test_failed_write_leaves_nothing_behind(backend):
    def scenario(db):
        db.create_session("a", "cli", "t")
        with pytest.raises(sessiondb.sqlite3.IntegrityError):
            db._write(lambda c: (c.execute("INSERT INTO messages (session_id, role, content, timestamp) "
                                           "VALUES ('a', 'user', 'orphan words', 1)"),
                                 c.execute("INSERT INTO sessions (id, source, started_at) VALUES ('a', 'x', 1)")))
        return db.get_messages("a"), db.search("orphan"), db.conn.in_transaction

    assert same(backend, scenario) == ([], [], False)


def test_concurrent_writers_through_the_funnel(backend):
    """Two stores on one database, four threads each: every message lands once."""
    path = backend.path("shared.db")
    first, second = sessiondb.SessionDB(path, timeout=5.0), sessiondb.SessionDB(path, timeout=5.0)
    backend._connections.extend([first.conn, second.conn])
    first.create_session("s", "cli")
    errors: list[str] = []

    def writer(db: Any, tag: str) -> None:
        try:
            for i in range(15):
                db.append_message("s", "user", f"{tag} message {i}")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=writer, args=(db, f"{n}{id(db) % 7}")) for n in range(4) for db in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors[:3]
    messages = first.get_messages("s")
    assert len(messages) == 120 and len({m["id"] for m in messages}) == 120
    assert first.get_session("s")["message_count"] == 120
    assert len(first.search("message", limit=200)) == 120
    first.check_index()
