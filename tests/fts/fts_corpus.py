"""Deterministic FTS corpora: generated documents and queries + data files.

Everything is seeded, so a failure reproduces.  Hand-written cases live in
``dialects/fts/*.json``; adding a case there needs no code change.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "dialects" / "fts"
COLUMNS = ("content", "tool_name", "tool_calls")

Doc = tuple[int, tuple[str | None, ...]]


@cache
def load(name: str) -> dict:
    """A JSON data file from dialects/fts/."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _pick_word(rnd: random.Random, vocab: dict) -> str:
    r = rnd.random()
    if r < 0.45:
        return rnd.choice(vocab["content"])
    if r < 0.65:
        return rnd.choice(vocab["common"])
    if r < 0.75:
        return rnd.choice(vocab["code"])
    if r < 0.85:
        return rnd.choice(vocab["diacritic"])
    if r < 0.95:
        return rnd.choice(vocab["cjk"])
    return rnd.choice(vocab["emoji"])


def _sentence(rnd: random.Random, n: int) -> str:
    vocab = load("vocabulary.json")
    parts: list[str] = []
    for i in range(n):
        word = _pick_word(rnd, vocab)
        if i:
            r = rnd.random()
            if r < 0.80:
                parts.append(" ")
            elif r < 0.95:
                parts.append(rnd.choice(vocab["punct"]) + " ")
            elif r < 0.98:
                parts.append("")  # glue: "データbase", "foo.bar"-like runs
            else:
                parts.append(rnd.choice(vocab["punct"]))
        parts.append(word)
    if rnd.random() < 0.3:
        parts.append(rnd.choice([".", "!", "?", " :", "..."]))
    if rnd.random() < 0.1:
        parts.insert(0, rnd.choice(["  ", "- ", "(", "\n"]))
    return "".join(parts)


def documents(n: int = 2000, seed: int = 20240) -> list[Doc]:
    """``n`` generated rows (rowid, (content, tool_name, tool_calls))."""
    rnd = random.Random(seed)
    vocab = load("vocabulary.json")
    out: list[Doc] = []
    rowid = 0
    for _ in range(n):
        rowid += rnd.choice((1, 1, 1, 2, 7))
        r = rnd.random()
        length = rnd.randint(1, 25) if r < 0.7 else rnd.randint(25, 80) if r < 0.95 else rnd.randint(100, 250)
        content: str | None = _sentence(rnd, length)
        if rnd.random() < 0.01:
            content = rnd.choice([None, ""])
        tool = None
        if rnd.random() < 0.4:
            tool = rnd.choice(vocab["code"] + vocab["content"][:30] + ["chat-send", "web_search", "terminal"])
        calls: str | None = None
        r = rnd.random()
        if r < 0.1:
            calls = ""
        elif r < 0.3:
            calls = json.dumps(
                {"name": tool or "run", "args": {"q": _sentence(rnd, rnd.randint(1, 6))}},
                ensure_ascii=rnd.random() < 0.5,
            )
        out.append((rowid, (content, tool, calls)))
    for extra in load("documents.json")["rows"]:
        rowid += 1
        vals = tuple(extra) + (None,) * (len(COLUMNS) - len(extra))
        out.append((rowid, vals[: len(COLUMNS)]))
    return out


def _bare_ok(word: str) -> bool:
    return bool(word) and all(
        ch >= "\x80" or (ch.isascii() and (ch.isalnum() or ch == "_")) for ch in word
    ) and word not in ("AND", "OR", "NOT")


def qword(rnd: random.Random, word: str) -> str:
    """A query string for ``word``: bare when legal, else a quoted string."""
    if _bare_ok(word) and rnd.random() < 0.8:
        return word
    return '"' + word.replace('"', '""') + '"'


def _doc_words(docs: list[Doc]) -> list[str]:
    words = []
    for _r, vals in docs[:400]:
        if vals[0]:
            words.extend(vals[0].split())
    return words


def queries(docs: list[Doc], n: int, seed: int, mode: str = "full") -> list[str]:
    """``n`` generated queries over the whole grammar, biased to hit ``docs``.

    ``mode``: "full" (everything), "trigram" (substring terms), "column"
    (no phrase/NEAR/^: detail=column) or "none" (also no column filters).
    """
    rnd = random.Random(seed)
    vocab = load("vocabulary.json")
    words = _doc_words(docs)
    contents = [v[0] for _r, v in docs if v[0]]
    ctx: list[str] = []

    def w() -> str:
        if mode == "trigram":
            text = rnd.choice(ctx) if ctx and rnd.random() < 0.7 else rnd.choice(contents)
            if len(text) > 4:
                i = rnd.randrange(len(text) - 3)
                return text[i : i + rnd.randint(3, 8)].strip() or "abc"
            return text
        r = rnd.random()
        if ctx and r < 0.5:
            return rnd.choice(ctx[0].split() or ["x"])
        if r < 0.8:
            return rnd.choice(words)
        return _pick_word(rnd, vocab)

    def t() -> str:
        word = w()
        if mode in ("column", "none"):
            return qword(rnd, word) if _bare_ok(word) else rnd.choice(words[:50] or ["x"])
        return qword(rnd, word)

    def prefix() -> str:
        word = w()
        cut = word[: rnd.randint(1, max(1, min(5, len(word))))]
        if mode in ("column", "none") and not _bare_ok(cut):
            cut = "a"
        return qword(rnd, cut) + "*"

    def phrase() -> str:
        if mode in ("column", "none"):
            return t()
        text = (ctx[0] if ctx and rnd.random() < 0.6 else rnd.choice(contents)).split()
        if len(text) < 2:
            return t()
        i = rnd.randrange(len(text) - 1)
        seq = " ".join(text[i : i + rnd.randint(2, 4)])
        return '"' + seq.replace('"', '""') + '"'

    def col() -> str:
        return rnd.choice(COLUMNS + ("Content", "TOOL_NAME"))

    def atom() -> str:
        r = rnd.random()
        if r < 0.35 or (mode == "none" and r > 0.5):
            return t()
        if r < 0.5:
            return prefix()
        if mode in ("column", "none") and r < 0.72:
            return t()
        if r < 0.65:
            return phrase()
        if r < 0.72:
            return "^" + t()
        if r < 0.8:
            return f"{col()}:{t()}"
        if r < 0.85:
            return f"{{{col()} {col()}}}:{t()}"
        if r < 0.9:
            return f"-{col()}:{t()}"
        if r < 0.95 and mode != "column":
            return f"{t()} + {t()}"
        return f"{qword(rnd, w())}*"

    def near() -> str:
        if mode in ("column", "none"):
            return f"NEAR({t()})"
        items = " ".join(rnd.choice([t, phrase, prefix])() for _ in range(rnd.randint(2, 3)))
        dist = rnd.choice(["", "", ", 0", ", 1", ", 2", ", 5", ", 30"])
        return f"NEAR({items}{dist})"

    def expr(depth: int = 0) -> str:
        r = rnd.random()
        if depth > 2 or r < 0.3:
            return " ".join(atom() for _ in range(rnd.randint(1, 3)))
        if r < 0.4:
            return near()
        if r < 0.52:
            return f"{expr(depth + 1)} AND {expr(depth + 1)}"
        if r < 0.7:
            return f"{expr(depth + 1)} OR {expr(depth + 1)}"
        if r < 0.8:
            return f"{expr(depth + 1)} NOT {expr(depth + 1)}"
        if r < 0.9:
            return f"({expr(depth + 1)})"
        if mode == "none":
            return f"({expr(depth + 1)})"
        return f"{col()} : ({expr(depth + 1)})"

    out = []
    for _ in range(n):
        ctx[:] = [rnd.choice(contents)]
        out.append(expr())
    return out
