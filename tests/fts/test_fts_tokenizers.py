"""Our tokenizers against SQLite FTS5's, token for token."""

from __future__ import annotations

import itertools
import os
import random
import sqlite3
import zlib

import pytest
from fts_corpus import load
from fts_oracle import OracleTable, needs_oracle

from hermes_dbapi.fts import porter
from hermes_dbapi.fts.errors import FtsError
from hermes_dbapi.fts.tokenizers import (
    byte_offsets,
    split_tokenize_arg,
    tokenizer_from_spec,
)
from hermes_dbapi.fts.unicode61_tables import CATEGORY_NAMES, category, category_runs

pytestmark = needs_oracle

ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def _sentinel(i: int) -> str:
    s = ""
    while True:
        s = ALNUM[i % 26] + s
        i //= 26
        if not i:
            return "q" + s


def _probe_docs(cps: list[int], chunk: int = 2000, pre: str = "") -> list[str]:
    """Each code point between two distinct ASCII sentinel words."""
    docs = []
    for k in range(0, len(cps), chunk):
        parts = []
        for i, cp in enumerate(cps[k : k + chunk]):
            parts += [_sentinel(i), pre + chr(cp)]
        parts.append(_sentinel(chunk))
        docs.append(" ".join(parts))
    return docs


def _all_cps(limit: int) -> list[int]:
    return [cp for cp in range(1, limit) if not 0xD800 <= cp <= 0xDFFF and chr(cp) not in ALNUM + " "]


def _compare(spec: str, texts: list[str]) -> None:
    oracle = OracleTable(["x"], spec)
    expected = oracle.tokens(texts)
    tok = tokenizer_from_spec(spec)
    for text, exp in zip(texts, expected):
        got = tok.terms(text)
        if got != exp:
            diff = next(i for i, (a, b) in enumerate(zip(got + [None], exp + [None])) if a != b)
            raise AssertionError(
                f"{spec!r}: first difference at token {diff}: "
                f"ours {got[diff - 2 : diff + 3]!r} sqlite {exp[diff - 2 : diff + 3]!r}"
            )


# Separators must stay separators for the sentinel trick: keep ASCII letters
# and digits token characters and the space a separator in every spec.
SPECS_BMP = [
    "unicode61 remove_diacritics 0 tokenchars '{a}' separators ' '",
    "unicode61 remove_diacritics 2 tokenchars '{a}' separators ' '",
    "unicode61 categories 'L* N* C* M* P* S* Z*' remove_diacritics 1 tokenchars '{a}' separators ' '",
    "unicode61 categories 'Mn Mc Me Sk Lm' tokenchars '{a}' separators ' '",
    "unicode61 categories '' tokenchars '{a}' separators ' '",
]


def _supplementary_sample() -> list[int]:
    """Every run boundary of our table (+-1) and a seeded random sample."""
    starts, _cats = category_runs()
    pts = {p + d for p in starts if p >= 0x10000 for d in (-1, 0, 1)}
    rnd = random.Random(3)
    pts.update(rnd.randrange(0x10000, 0x110000) for _ in range(20000))
    return sorted(p for p in pts if 0x10000 <= p < 0x110000)


def test_unicode61_code_points_default() -> None:
    """Default unicode61: all of the BMP plus a sample of the other planes.

    Set HERMES_FTS_EXHAUSTIVE=1 to check all 1.1M code points (~10 s).
    """
    spec = f"unicode61 tokenchars '{ALNUM}' separators ' '"
    if os.environ.get("HERMES_FTS_EXHAUSTIVE"):
        cps = _all_cps(0x110000)
    else:
        cps = _all_cps(0x10000) + _supplementary_sample()
    _compare(spec, _probe_docs(cps, chunk=4000))


@pytest.mark.parametrize("spec", SPECS_BMP)
def test_unicode61_bmp(spec: str) -> None:
    """Every BMP code point (and the diacritic-continuation rule) per option set."""
    spec = spec.format(a=ALNUM)
    cps = _all_cps(0x10000)
    _compare(spec, _probe_docs(cps, chunk=4000) + _probe_docs(cps[:1200], pre="a"))


def test_trigram_folding_every_bmp_code_point() -> None:
    """trigram folds with unicode61's remove_diacritics=0 table."""
    cps = _all_cps(0x10000) + list(range(0x10400, 0x10450))
    texts = ["".join("a" + chr(cp) + "B" for cp in cps[k : k + 3000]) for k in range(0, len(cps), 3000)]
    _compare("trigram", texts)


def _random_texts(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    vocab = load("vocabulary.json")
    pool = [w for key in ("common", "content", "code", "diacritic", "cjk", "emoji", "punct") for w in vocab[key]]
    chars = [chr(cp) for cp in range(0x20, 0x2100)] + [chr(rnd.randrange(0x2100, 0x30000)) for _ in range(3000)]
    chars = [c for c in chars if not 0xD800 <= ord(c) <= 0xDFFF] + list("\u0301\u0300\u0308\x00\t\n")
    out = []
    for _ in range(n):
        if rnd.random() < 0.5:
            out.append(" ".join(rnd.choice(pool) for _ in range(rnd.randint(1, 12))))
        else:
            out.append("".join(rnd.choice(chars) for _ in range(rnd.randint(1, 40))))
    return out


@pytest.mark.parametrize("spec", load("tokenizers.json")["valid"])
def test_tokenizer_specs_random_text(spec: str) -> None:
    """Every valid spec of dialects/fts/tokenizers.json on mixed random text."""
    _compare(spec, _random_texts(zlib.crc32(spec.encode()), 400))


def _porter_words() -> list[str]:
    rnd = random.Random(5)
    suffixes = (
        "s es ies sses ss ed eed ing at bl iz y ational tional enci anci izer logi bli alli entli eli ousli "
        "ization ation ator alism iveness fulness ousness aliti iviti biliti icate ative alize iciti ical ful "
        "ness al ance ence er ic able ible ant ement ment ent ion sion tion ou ism ate iti ous ive ize e ll l"
    ).split()  # noqa: SIM905
    cons, vow = "bcdfghjklmnpqrstvwxyz", "aeiouy"
    words = set(load("vocabulary.json")["content"])
    for _ in range(30000):
        stem = "".join(
            rnd.choice(cons) + rnd.choice(vow) if rnd.random() < 0.7 else rnd.choice(cons + vow)
            for _ in range(rnd.randrange(0, 4))
        )
        if rnd.random() < 0.5:
            stem += rnd.choice(cons)
        words.add(stem + "".join(rnd.choice(suffixes) for _ in range(rnd.randrange(0, 3))))
    words.update("".join(p) for p in itertools.product("aeyst", repeat=4))
    words.update("x" * n for n in range(60, 70))
    words.update(["caféing", "naïvely", "x\u0820ing", "ab\u0820\u0820ed", "\u0820ing"])
    return sorted(w for w in words if w)


@pytest.mark.parametrize("spec", ["porter", "porter ascii"])
def test_porter_stemmer(spec: str) -> None:
    """~30k generated words through every Porter rule, incl. non-ASCII bytes."""
    words = _porter_words()
    _compare(spec, [" ".join(words[i : i + 200]) for i in range(0, len(words), 200)])


def _sqlite_create(spec: str) -> str:
    conn = sqlite3.connect(":memory:")
    value = "'" + spec.replace("'", "''") + "'"
    try:
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize={value})")
    except sqlite3.OperationalError as exc:
        return f"ERROR: {exc}"
    return "ok"


def _ours_create(spec: str) -> str:
    try:
        tokenizer_from_spec(spec)
    except FtsError as exc:
        return f"ERROR: {exc.message}"
    return "ok"


@pytest.mark.parametrize("spec", load("tokenizers.json")["valid"] + load("tokenizers.json")["invalid"])
def test_tokenize_spec_outcome(spec: str) -> None:
    """tokenize= values: accepted, or rejected with SQLite's exact message."""
    assert _ours_create(spec) == _sqlite_create(spec)


def test_categories_option_every_pair() -> None:
    """Which two-character ``categories`` words SQLite accepts."""
    alphabet = "CLMNPSZXclmnopstudfeikC*. "
    for a, b in itertools.product(alphabet, repeat=2):
        spec = f"unicode61 categories '{a}{b}'"
        assert _ours_create(spec) == _sqlite_create(spec), spec


def test_split_tokenize_arg() -> None:
    assert split_tokenize_arg("porter  unicode61 tokenchars '-''x'") == [
        "porter",
        "unicode61",
        "tokenchars",
        "-'x",
    ]
    with pytest.raises(FtsError, match="parse error in tokenize directive"):
        split_tokenize_arg('unicode61 tokenchars "-"')


def test_offsets_cover_source_text() -> None:
    """Character offsets slice the source; byte offsets index its UTF-8."""
    text = "Ångström's café — 日本語 e\u0301cole 😀 x"
    tok = tokenizer_from_spec("unicode61")
    toks = tok.tokenize(text)
    assert [text[s:e] for _t, s, e in toks] == ["Ångström", "s", "café", "日本語", "e\u0301cole", "x"]
    raw = text.encode()
    assert [raw[s:e].decode() for _t, s, e in byte_offsets(text, toks)] == [text[s:e] for _t, s, e in toks]


def test_trigram_end_offset_follows_folded_length() -> None:
    """FTS5 computes a trigram's end from the folded bytes (ẞ folds to ß)."""
    tok = tokenizer_from_spec("trigram")
    text = "aẞb"
    ((t, s, e),) = tok.utf8_spans(text, tok.tokenize(text))
    assert (t, s, e) == ("aßb", 0, 4)  # the source span is 5 bytes long
    assert tok.needs_bytes(text)


def test_porter_stem_examples() -> None:
    cases = {
        "caresses": "caress",
        "ponies": "poni",
        "agreed": "agre",
        "plastered": "plaster",
        "motoring": "motor",
        "sing": "sing",
        "conditional": "condit",
        "generalization": "gener",
        "happiness": "happi",
        "hopefulness": "hope",
        "running": "run",
        "ab": "ab",
    }
    assert {w: porter.stem(w) for w in cases} == cases


def test_category_lookup_known_points() -> None:
    assert category(ord("a")) == "Ll"
    assert category(0x1F600) == "So"  # an old emoji: a separator
    assert category(0x1F970) == "0"  # newer than SQLite's tables: category 0
    assert set(CATEGORY_NAMES) >= {"Lu", "Co", "Zs"}


def test_specs_that_crash_old_sqlite() -> None:
    """Odd option lists crash SQLite 3.40's trigram; we report the error later versions do."""
    cases = {k: v for k, v in load("tokenizers.json")["crashes_sqlite_3_40"].items() if k != "_doc"}
    for spec, message in cases.items():
        assert _ours_create(spec) == f"ERROR: {message}"
