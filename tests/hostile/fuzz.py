"""Fuzzing the SQLite -> server translator: inputs, the check, and a long-run command.

Inputs are corpus statements (``dialects/corpus/*.json`` "sql" and "setup"
fields) mutated at the token level (deletion, duplication, swap, insertion of a
token from the vocabulary) and random token soups.  :func:`check` translates one
input for one dialect: the only exceptions allowed are ``sqlite3.Error``
subclasses, and no input may take over :data:`LIMIT_SECONDS`.

The CI test (test_fuzz_translator.py) drives this with hypothesis.  The long run,
outside CI (issue 9 asks for 1,000,000 inputs)::

    PYTHONPATH=. python -m tests.hostile.fuzz --count 1000000 [--seed 1] [--dialect postgres]

It prints progress every 50,000 inputs and exits 1 on the first crash or slow
input, printing it (``repr``) so it can be added to a test.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import sys
import time
import traceback
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "dialects" / "corpus"
DIALECTS = {"postgres": (15, 0), "mariadb": (10, 11)}
LIMIT_SECONDS = 1.0

_TOKEN = re.compile(
    r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|`[^`]*`?|\[[^\]]*\]?|--[^\n]*|/\*.*?(?:\*/|$)"
    r"|[A-Za-z_][A-Za-z0-9_$]*|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|x'[0-9a-fA-F]*'|[?:@$][A-Za-z0-9_]*|\|\||<=|>=|<>|!=|==|<<|>>|->>|->|\S",
    re.S,
)
VOCABULARY = (
    "SELECT FROM WHERE INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE INDEX VIEW TRIGGER DROP ALTER ADD "
    "COLUMN RENAME TO BEGIN END COMMIT ROLLBACK SAVEPOINT RELEASE WITH RECURSIVE AS ON CONFLICT DO NOTHING "
    "REPLACE OR AND NOT NULL IS IN LIKE GLOB ESCAPE BETWEEN CASE WHEN THEN ELSE JOIN LEFT CROSS USING GROUP BY "
    "HAVING ORDER ASC DESC LIMIT OFFSET UNION ALL INTERSECT EXCEPT DISTINCT PRIMARY KEY INTEGER TEXT BLOB REAL "
    "AUTOINCREMENT UNIQUE DEFAULT CHECK REFERENCES COLLATE NOCASE RETURNING OVER PARTITION WINDOW FILTER "
    "EXISTS CAST count sum max min coalesce ifnull json_extract strftime datetime substr length lower upper "
    "t a b id x rowid 0 1 -1 3.5 1e308 9223372036854775808 'a' '' 'it''s' x'00ff' NULL ? ?1 :a @a $a "
    "( ) , ; . * + - / % || = == != <> < <= > >= << >> & | ~ -> ->> \" ` [ ] -- /* */ \\ \x00 é 😀"
).split(" ")


def tokens(sql: str) -> list[str]:
    return _TOKEN.findall(sql)


@lru_cache(maxsize=1)
def corpus() -> tuple[str, ...]:
    """Every statement text of the dialect corpus (cases and their setups)."""
    out: list[str] = []
    for path in sorted(CORPUS.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            out.extend(s for s in case.get("setup", []) if isinstance(s, str))
            if isinstance(case.get("sql"), str):
                out.append(case["sql"])
    return tuple(dict.fromkeys(out))


def mutate(sql: str, rng: random.Random, edits: int) -> str:
    """``edits`` token-level mutations of ``sql``."""
    toks = tokens(sql) or [""]
    for _ in range(edits):
        i = rng.randrange(len(toks))
        op = rng.randrange(4)
        if op == 0 and len(toks) > 1:
            del toks[i]
        elif op == 1:
            toks.insert(i, toks[i])
        elif op == 2:
            j = rng.randrange(len(toks))
            toks[i], toks[j] = toks[j], toks[i]
        else:
            toks.insert(i, rng.choice(VOCABULARY))
    return " ".join(toks)


def soup(rng: random.Random, size: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(size))


@dataclass
class Finding:
    sql: str
    dialect: str
    problem: str

    def __str__(self) -> str:
        return f"{self.dialect}: {self.problem}\n  input: {self.sql!r}"


class Translator:
    """One Context per dialect over a shadow schema holding the corpus tables."""

    def __init__(self) -> None:
        from hermes_dbapi.catalog.shadow import Shadow
        from hermes_dbapi.translate import translate
        from hermes_dbapi.translate.context import Context

        self._translate = translate
        self.shadow = Shadow()
        for statement in corpus():
            if statement.lstrip()[:6].upper() in ("CREATE", "ALTER ", "DROP T"):
                try:
                    self.shadow.apply(statement)
                except Exception:  # duplicates between cases: the first one wins
                    pass
        self.contexts = {name: (Context, version) for name, version in DIALECTS.items()}

    def check_raising(self, sql: str, dialect: str) -> Any:
        """Translate ``sql``; exceptions propagate."""
        context_class, version = self.contexts[dialect]
        return self._translate(sql, context_class(dialect=dialect, version=version, schema=self.shadow))

    def check(self, sql: str, dialect: str) -> Finding | None:
        """None when the translator either translated ``sql`` or raised a sqlite3 error in time."""
        context_class, version = self.contexts[dialect]
        ctx = context_class(dialect=dialect, version=version, schema=self.shadow)
        start = time.perf_counter()
        try:
            self._translate(sql, ctx)
        except sqlite3.Error:
            pass
        except Exception as exc:  # the finding itself
            where = traceback.extract_tb(exc.__traceback__)[-1]
            return Finding(sql, dialect, f"{type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})")
        elapsed = time.perf_counter() - start
        if elapsed > LIMIT_SECONDS:  # a busy machine (shared CPU): time it once more, keep the faster
            start = time.perf_counter()
            try:
                self._translate(sql, ctx)
            except sqlite3.Error:
                pass
            elapsed = min(elapsed, time.perf_counter() - start)
        if elapsed > LIMIT_SECONDS:
            return Finding(sql, dialect, f"took {elapsed:.2f} s")
        return None


def inputs(rng: random.Random) -> Any:
    """An endless stream of fuzz inputs: 3 mutated corpus statements to 1 soup."""
    statements = corpus()
    while True:
        if rng.random() < 0.75:
            yield mutate(rng.choice(statements), rng, rng.randint(1, 4))
        else:
            yield soup(rng, rng.randint(1, 30))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs per dialect (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dialect", choices=sorted(DIALECTS), action="append")
    args = parser.parse_args(argv)
    translator = Translator()
    dialects = args.dialect or sorted(DIALECTS)
    rng = random.Random(args.seed)
    stream = inputs(rng)
    start = time.perf_counter()
    slowest = 0.0
    for n in range(1, args.count + 1):
        sql = next(stream)
        for dialect in dialects:
            t = time.perf_counter()
            finding = translator.check(sql, dialect)
            slowest = max(slowest, time.perf_counter() - t)
            if finding is not None:
                print(f"FINDING after {n} inputs: {finding}", flush=True)
                return 1
        if n % 50_000 == 0:
            print(f"{n} inputs x {len(dialects)} dialects, {time.perf_counter() - start:.0f} s, slowest {slowest:.3f} s", flush=True)
    print(f"done: {args.count} inputs x {len(dialects)} dialects in {time.perf_counter() - start:.0f} s, "
          f"0 findings, slowest {slowest:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
