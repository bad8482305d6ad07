"""Decoded view of SQLite's unicode61 tables (see ``_unicode61_data``).

Kept apart from the tokenizers so the data is parsed once, lazily, and can
be reused by any tokenizer that needs SQLite's exact case folding.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from . import _unicode61_data as _data

#: Every category name the ``categories`` option accepts, in SQLite's order.
CATEGORY_NAMES: tuple[str, ...] = (
    "Cc", "Cf", "Cn", "Cs", "Co", "Ll", "Lm", "Lo", "Lt", "Lu", "LC", "Mc", "Me", "Mn", "Nd", "Nl",
    "No", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Sc", "Sk", "Sm", "So", "Zl", "Zp", "Zs",
)  # fmt: skip

#: Category 0: code points SQLite's tables leave unclassified.  They are token
#: characters whenever at least one category name was parsed.
CATEGORY_ZERO = "0"


@lru_cache(maxsize=1)
def category_runs() -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(starts, categories): run i covers [starts[i], starts[i+1])."""
    starts: list[int] = []
    cats: list[str] = []
    for item in _data.CATEGORIES.split():
        cp, cat = item.split(":")
        starts.append(int(cp, 16))
        cats.append(cat)
    return tuple(starts), tuple(cats)


def category(cp: int) -> str:
    """SQLite's unicode61 category of code point ``cp`` ("0" if unclassified)."""
    starts, cats = category_runs()
    return cats[bisect_right(starts, cp) - 1]


def _parse_map(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in text.split():
        cp, target = item.split(":")
        out[int(cp, 16)] = chr(int(target, 16)) if target else ""
    return out


@lru_cache(maxsize=3)
def fold_table(remove_diacritics: int) -> dict[int, str]:
    """``str.translate`` table: SQLite's case fold + diacritic removal level."""
    src = (_data.FOLD0, _data.FOLD1, _data.FOLD2)[remove_diacritics]
    return _parse_map(src)


@lru_cache(maxsize=1)
def diacritics() -> frozenset[int]:
    """Combining marks that continue a unicode61 token (and fold away)."""
    return frozenset(int(x, 16) for x in _data.DIACRITICS.split())
