"""Regenerate ``hermes_dbapi/fts/_unicode61_data.py`` by probing SQLite's FTS5.

Why probing: SQLite's unicode61 tables were built from an older Unicode
release with its own quirks (unassigned code points and most supplementary
planes are "category 0", always a token character once any category is
enabled), so ``unicodedata`` of whatever Python runs cannot reproduce them.
We observe the behaviour of the linked SQLite (needs FTS5) and record it as
data.  Run: ``python tests/fts/tools/gen_unicode61_tables.py``.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

CATEGORIES = (
    "Cc Cf Cn Cs Co Ll Lm Lo Lt Lu LC Mc Me Mn Nd Nl No Pc Pd Pe Pf Pi Po Ps Sc Sk Sm So Zl Zp Zs"
).split()  # noqa: SIM905
ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
CHUNK = 2000
OUT = Path(__file__).resolve().parents[3] / "hermes_dbapi" / "fts" / "_unicode61_data.py"


def _sentinel(i: int) -> str:
    s = ""
    while True:
        s = ALNUM[i % 26] + s
        i //= 26
        if not i:
            return "q" + s


def probe(conn: sqlite3.Connection, opts: str, cps: list[int], pre: str = "") -> dict[int, str]:
    """Return {code point: token} for code points that produced a token.

    Each probed character sits between two distinct ASCII sentinel tokens,
    so a token found right after sentinel i belongs to code point i.
    """
    conn.execute("DROP TABLE IF EXISTS p")
    conn.execute("DROP TABLE IF EXISTS pv")
    conn.execute(
        f"CREATE VIRTUAL TABLE p USING fts5(a, tokenize=\"unicode61 {opts} tokenchars '{ALNUM}' separators ' '\")"
    )
    conn.execute("CREATE VIRTUAL TABLE pv USING fts5vocab(p, instance)")
    rows = []
    for k in range(0, len(cps), CHUNK):
        chunk = cps[k : k + CHUNK]
        parts = []
        for i, cp in enumerate(chunk):
            parts.append(_sentinel(i))
            parts.append(pre + chr(cp))
        parts.append(_sentinel(len(chunk)))
        rows.append((k // CHUNK, " ".join(parts)))
    conn.executemany("INSERT INTO p(rowid, a) VALUES (?, ?)", rows)
    sentinels = {_sentinel(i): i for i in range(CHUNK + 1)}
    by_doc: dict[int, list[tuple[int, str]]] = {}
    for term, doc, off in conn.execute("SELECT term, doc, offset FROM pv"):
        by_doc.setdefault(doc, []).append((off, term if term is not None else ""))
    out: dict[int, str] = {}
    for doc, lst in by_doc.items():
        lst.sort()
        chunk = cps[doc * CHUNK : (doc + 1) * CHUNK]
        for idx, (_off, term) in enumerate(lst[:-1]):
            nxt = lst[idx + 1][1]
            if term in sentinels and nxt not in sentinels:
                out[chunk[sentinels[term]]] = nxt
    return out


def main() -> None:
    conn = sqlite3.connect(":memory:")
    cps = [cp for cp in range(1, 0x110000) if not 0xD800 <= cp <= 0xDFFF and chr(cp) not in ALNUM + " "]
    # Category of each code point: 5 bit-probes plus one to tell code 31
    # from "category 0" (present in every probe that names a category).
    code = {name: i + 1 for i, name in enumerate(CATEGORIES)}
    bits: dict[int, int] = {cp: 0 for cp in cps}
    for bit in range(5):
        names = [n for n in CATEGORIES if code[n] >> bit & 1]
        for cp in probe(conn, "categories '" + " ".join(names) + "'", cps):
            bits[cp] |= 1 << bit
        print("bit", bit, file=sys.stderr)
    not31 = probe(conn, "categories '" + " ".join(CATEGORIES[:-1]) + "'", cps)
    cat: dict[int, str] = {}
    for cp in cps:
        b = bits[cp]
        if b == 31 and cp in not31:
            cat[cp] = "0"
        elif b == 0:
            raise SystemExit(f"code point {cp:#x} in no category")
        else:
            cat[cp] = CATEGORIES[b - 1]
    # ASCII letters, digits and space: probe one per row, unicode61 default.
    for ch in ALNUM + " ":
        for name in CATEGORIES:
            conn.execute("DROP TABLE IF EXISTS a1")
            conn.execute(f"CREATE VIRTUAL TABLE a1 USING fts5(a, tokenize=\"unicode61 categories '{name}'\")")
            conn.execute("INSERT INTO a1 VALUES (?)", ("x" if ch == " " else ch,))
            if ch != " " and conn.execute("SELECT count(*) FROM a1 WHERE a1 MATCH ?", ('"' + ch + '"',)).fetchone()[0]:
                cat[ord(ch)] = name
                break
        else:
            cat[ord(ch)] = "Zs"
    cat[0] = "Cc"
    trans: list[tuple[int, str]] = []
    prev = None
    for cp in range(0x110000):
        v = cat.get(cp, "Cs")
        if v != prev:
            trans.append((cp, v))
            prev = v
    everything = "categories 'L* N* C* M* P* S* Z*'"
    folds = []
    for rd in (0, 1, 2):
        got = probe(conn, f"{everything} remove_diacritics {rd}", cps)
        folds.append({cp: t for cp, t in got.items() if t != chr(cp)})
        # ASCII letters fold like A-Z -> a-z; probed set excludes them.
        for ch in ALNUM:
            if ch.isalpha():
                folds[-1][ord(ch.upper())] = ch
    dia = probe(conn, "categories '' remove_diacritics 0", cps, pre="a")
    diacritics = sorted(cp for cp, t in dia.items() if t != "a")
    _write(trans, folds, diacritics, conn.execute("select sqlite_version()").fetchone()[0])


def _pairs(m: dict[int, str]) -> str:
    return " ".join(f"{cp:x}:{ord(t):x}" if t else f"{cp:x}:" for cp, t in sorted(m.items()))


def _wrap(s: str, width: int = 76) -> str:
    lines = []
    while s:
        cut = s.rfind(" ", 0, width) if len(s) > width else len(s)
        if cut <= 0:
            cut = len(s)
        lines.append(f"    {s[: cut + 1]!r}")
        s = s[cut + 1 :]
    return "(\n" + "\n".join(lines) + "\n)"


def _write(trans, folds, diacritics, version) -> None:
    cats = " ".join(f"{cp:x}:{name}" for cp, name in trans)
    text = f'''"""Unicode tables of SQLite FTS5's unicode61 tokenizer, as data.

Generated by tests/fts/tools/gen_unicode61_tables.py from the observable
behaviour of SQLite {version}; do not edit by hand.

CATEGORIES: "start:cat" runs (hex start; cat "0" = SQLite's category 0,
which is a token character whenever any category is enabled).
FOLD0/1/2: "cp:target" case fold composed with remove_diacritics=0/1/2
(empty target = character dropped).  DIACRITICS: marks that extend a token.
"""

CATEGORIES = {_wrap(cats)}

FOLD0 = {_wrap(_pairs(folds[0]))}

FOLD1 = {_wrap(_pairs(folds[1]))}

FOLD2 = {_wrap(_pairs(folds[2]))}

DIACRITICS = {_wrap(" ".join(f"{cp:x}" for cp in diacritics))}
'''
    OUT.write_text(text)
    print("wrote", OUT, len(trans), "runs", file=sys.stderr)


if __name__ == "__main__":
    main()
