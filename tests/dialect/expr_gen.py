"""Seeded random SQLite queries for the differential generator test (issue 3, Method 3).

``query(seed, dialect)`` builds one SELECT over the fixed table ``g`` (``SETUP``)
from typed expression grammars (int, real, text, ascii text, predicate), so
that every generated statement is one SQLite evaluates without an affinity
surprise: the random part is the nesting of supported functions and operators,
not the storage class of a value.

Deliberate limits of the grammar (documented differences, README "known
differences"; each is a fixed property of a statically typed server column, not
a translator gap the generator should hunt):

* branches of CASE / coalesce / ifnull / iif / scalar max/min have one static
  type: SQLite keeps each row's own storage class (``coalesce(i, r)`` is an
  int on one row, a float on the next), a server column has one type;
* no REAL → TEXT conversion (``CAST(r AS TEXT)``, ``r || ''``, ``length(r)``):
  SQLite prints doubles with ``%!.15g`` ("2.0", "0.3"), the servers with their
  own shortest round-trip form ("2", "0.30000000000000004");
* magnitudes stay far from 2**63 (small literals, bounded depth): SQLite turns an
  overflowing integer result into a REAL, the servers raise;
* ``%`` takes integer operands only (SQLite casts REAL operands to INTEGER first);
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SETUP = [
    "CREATE TABLE g (id INTEGER PRIMARY KEY, i INTEGER, j INTEGER, r REAL, t TEXT, u TEXT)",
    "INSERT INTO g VALUES (1, 3, -2, 1.5, 'abc', 'héllo')",
    "INSERT INTO g VALUES (2, -7, 0, -0.25, 'ABC', 'Ünï')",
    "INSERT INTO g VALUES (3, 0, 5, 2.0, '', '')",
    "INSERT INTO g VALUES (4, NULL, 1, NULL, NULL, NULL)",
    "INSERT INTO g VALUES (5, 12, NULL, 3.75, ' x  y', '日本語')",
    "INSERT INTO g VALUES (6, 1, 1, 0.0, 'a%b_c', 'a\\b')",
    "INSERT INTO g VALUES (7, -1, 9, -12.5, 'Zeta', 'zèta')",
    "INSERT INTO g VALUES (8, 3, 3, 1.5, 'abc', 'ABC')",
]



def setup(dialect: str) -> list[str]:
    """The statements creating and filling ``g`` for ``dialect`` (the same on every one)."""
    return list(SETUP)


INT_COLUMNS = ("i", "j", "id")
ASCII_WORDS = ("'abc'", "'ABC'", "''", "' '", "'x'", "'Zeta'", "'a%b_c'", "'b'", "' x y '", "'12'", "'-3'")
TEXT_WORDS = ("'é'", "'Ünï'", "'日本'", "'a\\b'")
LIKE_PATTERNS = ("'a%'", "'%b%'", "'_B%'", "'%'", "''", "'abc'", "'z%'", "'%c'", "'a_c'", "' %'", "'%y'",
                 "'%É%'", "'%è%'", "'ün%'", "'_NÏ'", "'%本%'", "'H%'")
TRIM_SETS = ("' '", "'ax'", "'abc'", "' xy'", "'Z'")


@dataclass
class Gen:
    """One random query; ``dialect`` drops the constructs that dialect refuses on purpose."""

    rng: random.Random
    dialect: str
    depth: int = 3

    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # ------------------------------------------------------------------ integers
    def int_leaf(self) -> str:
        if self.chance(0.55):
            return self.pick(*INT_COLUMNS)
        return str(self.rng.randint(-20, 20))

    def int_expr(self, d: int) -> str:
        if d <= 0 or self.chance(0.25):
            return self.int_leaf()
        k = self.rng.randrange(17)
        a = lambda: self.int_expr(d - 1)  # noqa: E731
        if k == 0:
            return f"({a()} {self.pick('+', '-', '*')} {a()})"
        if k == 1:
            return f"({a()} {self.pick('/', '%')} {a()})"
        if k == 2:
            return f"-{self.pick(*INT_COLUMNS)}" if self.chance(0.5) else f"abs({a()})"
        if k == 3:
            return f"length({self.text_expr(d - 1)})"
        if k == 4:
            return f"instr({self.text_expr(d - 1)}, {self.text_expr(d - 1)})"
        if k == 5:
            return f"CASE WHEN {self.pred(d - 1)} THEN {a()} ELSE {a()} END"
        if k == 6:
            return f"coalesce({a()}, {a()})"
        if k == 7:
            return f"ifnull({a()}, {a()})"
        if k == 8:
            return f"nullif({a()}, {a()})"
        if k == 9:
            return f"iif({self.pred(d - 1)}, {a()}, {a()})"
        if k == 10:
            return f"{self.pick('max', 'min')}({a()}, {a()})"
        if k == 11:
            return f"CAST({self.real_expr(d - 1)} AS INTEGER)"
        if k == 12:
            return f"({self.pred(d - 1)})"
        if k == 13:
            return f"CASE {a()} WHEN {self.int_leaf()} THEN {a()} WHEN {self.int_leaf()} THEN {a()} END"
        if k == 14:
            return f"(SELECT {self.pick('max', 'min', 'count', 'sum')}({self.pick(*INT_COLUMNS)}) FROM g)"
        if k == 15:
            return f"sign({a()})"
        return f"({a()})"

    # ------------------------------------------------------------------ reals
    def real_leaf(self) -> str:
        if self.chance(0.5):
            return "r"
        return self.pick("1.5", "-0.25", "2.0", "0.1", "10.75", "3.0", "0.5", "-4.125")

    def real_expr(self, d: int) -> str:
        if d <= 0 or self.chance(0.25):
            return self.real_leaf()
        k = self.rng.randrange(9)
        a = lambda: self.real_expr(d - 1)  # noqa: E731
        if k == 0:
            return f"({a()} {self.pick('+', '-', '*')} {self.pick(a(), self.int_expr(d - 1))})"
        if k == 1:
            return f"({a()} / {self.pick(a(), self.int_expr(d - 1))})"
        if k == 2:
            return f"abs({a()})" if self.chance(0.5) else f"-{a()}"
        if k == 3:
            return f"round({a()}{self.pick('', ', 1', ', 2')})"
        if k == 4:
            return f"CAST({self.int_expr(d - 1)} AS REAL)"
        if k == 5:
            return f"coalesce({a()}, {a()})"
        if k == 6:
            return f"CASE WHEN {self.pred(d - 1)} THEN {a()} ELSE {a()} END"
        if k == 7:
            return f"{self.pick('max', 'min')}({a()}, {a()})"
        return f"({a()})"

    # ------------------------------------------------------------------ text
    def words(self) -> tuple[str, ...]:
        return ASCII_WORDS

    def ascii_leaf(self) -> str:
        return "t" if self.chance(0.5) else self.pick(*self.words())

    def ascii_expr(self, d: int) -> str:
        """Text that is always ASCII: safe under upper()/lower()/LIKE."""
        if d <= 0 or self.chance(0.3):
            return self.ascii_leaf()
        k = self.rng.randrange(8)
        a = lambda: self.ascii_expr(d - 1)  # noqa: E731
        if k == 0:
            return f"({a()} || {self.pick(a(), self.int_expr(d - 1))})"
        if k == 1:
            return f"{self.pick('upper', 'lower')}({a()})"
        if k == 2:
            return self.substr(a(), d)
        if k == 3:
            return f"replace({a()}, {self.ascii_leaf()}, {self.ascii_leaf()})"
        if k == 4:
            fn = self.pick("trim", "ltrim", "rtrim")
            return f"{fn}({a()})" if self.chance(0.4) else f"{fn}({a()}, {self.pick(*TRIM_SETS)})"
        if k == 5:
            return f"coalesce({a()}, {a()})"
        if k == 6:
            return f"CAST({self.int_expr(d - 1)} AS TEXT)"
        return f"CASE WHEN {self.pred(d - 1)} THEN {a()} ELSE {a()} END"

    def substr(self, x: str, d: int) -> str:
        start = self.pick(str(self.rng.randint(-6, 6)), self.int_expr(d - 1))
        if self.chance(0.5):
            return f"substr({x}, {start})"
        return f"substr({x}, {start}, {self.pick(str(self.rng.randint(-2, 5)), self.int_expr(d - 1))})"

    def text_expr(self, d: int) -> str:
        if d <= 0 or self.chance(0.3):
            return self.pick("t", "u", self.pick(*self.words()), self.pick(*TEXT_WORDS))
        k = self.rng.randrange(7)
        a = lambda: self.text_expr(d - 1)  # noqa: E731
        if k == 0:
            return f"({a()} || {a()})"
        if k == 1:
            return self.substr(a(), d)
        if k == 2:
            return f"replace({a()}, {self.text_expr(0)}, {self.text_expr(0)})"
        if k == 3:
            return f"ifnull({a()}, {a()})"
        if k == 4:
            return f"{self.pick('max', 'min')}({a()}, {a()})"
        if k == 5:  # SQLite folds the ASCII letters only, 'é' and 'Ü' stay as they are
            return f"{self.pick('upper', 'lower')}({a()})"
        return self.ascii_expr(d)

    # ------------------------------------------------------------------ predicates
    def pred(self, d: int) -> str:
        k = self.rng.randrange(14 if d > 0 else 9)
        cmp = self.pick("=", "<>", "<", "<=", ">", ">=", "!=", "==")
        if k == 0:
            return f"{self.int_expr(d - 1)} {cmp} {self.int_expr(d - 1)}"
        if k == 1:
            return f"{self.real_expr(d - 1)} {cmp} {self.pick(self.real_expr(d - 1), self.int_expr(d - 1))}"
        if k == 2:
            return f"{self.text_expr(d - 1)} {cmp} {self.text_expr(d - 1)}"
        if k == 3:
            x = self.pick(self.int_expr(d - 1), self.text_expr(d - 1))
            return f"{x} IS {self.pick('', 'NOT ')}NULL"
        if k == 4:
            return f"{self.int_expr(d - 1)} IS {self.pick('', 'NOT ')}{self.int_expr(d - 1)}"
        if k == 5:
            neg = self.pick("", "NOT ")
            return f"{self.pick(self.ascii_expr, self.text_expr)(d - 1)} {neg}LIKE {self.pick(*LIKE_PATTERNS)}"
        if k == 6:
            lo, hi = sorted((self.rng.randint(-10, 10), self.rng.randint(-10, 10)))
            return f"{self.int_expr(d - 1)} {self.pick('', 'NOT ')}BETWEEN {lo} AND {hi}"
        if k == 7:
            items = ", ".join(str(self.rng.randint(-8, 12)) for _ in range(self.rng.randint(1, 4)))
            return f"{self.int_expr(d - 1)} {self.pick('', 'NOT ')}IN ({items})"
        if k == 8:
            return f"{self.text_expr(d - 1)} IN ({self.text_expr(0)}, {self.text_expr(0)})"
        if k == 9:
            return f"NOT ({self.pred(d - 1)})"
        if k == 10:
            return f"({self.pred(d - 1)} {self.pick('AND', 'OR')} {self.pred(d - 1)})"
        if k == 11:
            return f"EXISTS (SELECT 1 FROM g AS s WHERE s.id > {self.rng.randint(0, 9)} AND {self.pred(d - 1)})"
        if k == 12:
            return f"({self.int_expr(d - 1)}, {self.int_expr(d - 1)}) {self.pick('<', '>', '=', '<=')} ({self.int_leaf()}, {self.int_leaf()})"
        return f"{self.int_expr(d - 1)} {self.pick('IN', 'NOT IN')} (SELECT j FROM g WHERE j IS NOT NULL)"

    def any_expr(self, d: int) -> str:
        return self.pick(self.int_expr, self.real_expr, self.text_expr, self.ascii_expr, self.pred)(d)

    # ------------------------------------------------------------------ statements
    def select(self) -> str:
        d = self.depth
        k = self.rng.randrange(8)
        if k <= 2:  # projections, one row per table row
            cols = ", ".join(self.any_expr(d) for _ in range(self.rng.randint(1, 3)))
            return f"SELECT {cols} FROM g ORDER BY id"
        if k == 3:
            return f"SELECT id FROM g WHERE {self.pred(d)} ORDER BY id"
        if k == 4:  # ordering by an expression: NULLs first, text in byte order
            key = self.pick(self.int_expr, self.text_expr, self.real_expr)(d - 1)
            return f"SELECT id FROM g ORDER BY {key}{self.pick('', ' DESC', ' ASC')}, id"
        if k == 5:  # aggregates
            x = self.pick(self.int_expr, self.real_expr)(d - 1)
            agg = self.pick("count", "sum", "total", "min", "max", "avg")
            return f"SELECT {agg}({x}), count(*) FROM g WHERE {self.pred(d - 1)}"
        if k == 6:  # grouping
            key = self.pick(self.int_expr, self.ascii_expr)(d - 1)
            return f"SELECT {key} AS k, count(*), sum(i) FROM g GROUP BY k ORDER BY k"
        return f"SELECT {self.any_expr(d)} FROM g WHERE id = {self.rng.randint(1, 8)}"


def query(seed: int, dialect: str, depth: int = 3) -> str:
    """The generated statement number ``seed`` (same seed, same text)."""
    return Gen(random.Random(seed), dialect, depth).select()
