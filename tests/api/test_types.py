"""Values and their Python types: int (64-bit), float (full precision), str, bytes, None.
No Decimal, bool, datetime or memoryview leaks out of a server driver."""

from __future__ import annotations

import pytest

LITERALS = [
    "SELECT 0",
    "SELECT 1",
    "SELECT -1",
    "SELECT 9223372036854775807",
    "SELECT -9223372036854775808",
    "SELECT 2147483648",
    "SELECT 1.5",
    "SELECT 0.1",
    "SELECT 1.0",
    "SELECT 1e300",
    "SELECT -2.5e-300",
    "SELECT 'x'",
    "SELECT ''",
    "SELECT 'é😀日本'",
    "SELECT x'00ff10'",
    "SELECT x''",
    "SELECT NULL",
    "SELECT 1 = 1",
    "SELECT 1 = 2",
    "SELECT 1 < 2",
    "SELECT 2 >= 3",
    "SELECT 1 <> 1",
    "SELECT NULL IS NULL",
    "SELECT 1 IS NOT NULL",
    "SELECT 2 IN (1, 2)",
    "SELECT 2 BETWEEN 1 AND 3",
    "SELECT NULL = 1",
    "SELECT 2.5 * 2",
    "SELECT 1 + 1.5",
    "SELECT 3 - 5",
    "SELECT 7 * 6",
    "SELECT 5 / 2.0",
    "SELECT -(3)",
    "SELECT 9223372036854775807 - 1",
    "SELECT CAST(1 AS REAL)",
    "SELECT CAST(2.75 AS INTEGER)",
    "SELECT CAST(12 AS TEXT)",
    "SELECT CASE WHEN 1 = 1 THEN 'a' ELSE 'b' END",
    "SELECT CASE WHEN 1 = 2 THEN 1 END",
    "SELECT coalesce(NULL, 7)",
    "SELECT abs(-4)",
    "SELECT abs(-4.5)",
    "SELECT length('abc')",
    "SELECT upper('abc'), lower('ABC')",
]


@pytest.mark.parametrize("sql", LITERALS)
def test_expression_types(diff, sql):
    diff.steps([sql])


COLUMN_VALUES = {
    "INTEGER": [0, 1, -1, 2**31, -(2**31) - 1, 2**53 + 1, 2**63 - 1, -(2**63), None],
    "REAL": [1.5, 0.1, 1 / 3, 1e308, -1e-308, 5e-324, 2.0**-1074 * 3, 123456789.123456789, 1e-10, 3.0, -0.5, None],
    "TEXT": [
        "",
        "abc",
        "héllo wörld",
        "😀🎉",
        "日本語",
        "a\nb\tc\r",
        "quotes ' \" `",
        "back\\slash",
        "  padded  ",
        "x" * 10000,
        "\u200b zero width, \U0001f468\u200d\U0001f469\u200d\U0001f467 family",
        None,
    ],
    "BLOB": [b"", b"\x00", b"\x00\xff\x01", bytes(range(256)), b"z" * 70000, None],
}


def _column_cases():
    for decl, values in COLUMN_VALUES.items():
        for i, value in enumerate(values):
            label = type(value).__name__ if not isinstance(value, (int, float)) else repr(value)[:20]
            yield pytest.param(decl, value, id=f"{decl}-{i}-{label}")


@pytest.mark.parametrize("decl,value", list(_column_cases()))
def test_column_roundtrip(diff, decl, value):
    """A value stored in a column of its own type comes back with the same type and value."""
    diff.steps(
        [
            f"CREATE TABLE t(id INTEGER PRIMARY KEY, v {decl})",
            ("sql", "INSERT INTO t(v) VALUES (?)", (value,)),
            "SELECT v FROM t",
            ("sql", "SELECT count(*) FROM t WHERE v = ?", (value,)),
            ("sql", "SELECT ?", (value,)),
        ]
    )


DECLARED = {
    "boolean_1": ("BOOLEAN", 1),
    "boolean_0": ("BOOLEAN", 0),
    "boolean_true_param": ("BOOLEAN", True),
    "datetime_text": ("DATETIME", "2024-01-02 03:04:05"),
    "timestamp_text": ("TIMESTAMP", "2024-01-02 03:04:05.123456"),
    "date_text": ("DATE", "2024-01-02"),
    "time_text": ("TIME", "03:04:05"),
    "decimal_float": ("DECIMAL(10, 2)", 1.25),
    "numeric_int": ("NUMERIC", 3),
    "numeric_float": ("NUMERIC", 2.5),
    "bigint_max": ("BIGINT", 2**63 - 1),
    "smallint": ("SMALLINT", 12),
    "double": ("DOUBLE", 0.1),
    "float": ("FLOAT", 1 / 3),
    "varchar": ("VARCHAR(20)", "short"),
    "char": ("CHAR(3)", "abc"),
    "clob": ("CLOB", "text"),
    "json_text": ("JSON", '{"a": 1}'),
    "uuid_text": ("UUID", "123e4567-e89b-12d3-a456-426614174000"),
}


@pytest.mark.parametrize("decl,value", DECLARED.values(), ids=DECLARED.keys())
def test_declared_type_does_not_leak(diff, decl, value):
    """Declared types that servers have native types for still give sqlite3's Python types back."""
    diff.steps(
        [
            f"CREATE TABLE t(id INTEGER PRIMARY KEY, v {decl})",
            ("sql", "INSERT INTO t(v) VALUES (?)", (value,)),
            "SELECT v FROM t",
        ]
    )


AGGREGATES = [
    "SELECT count(*), count(i), count(f) FROM t",
    "SELECT sum(i) FROM t",
    "SELECT sum(f) FROM t",
    "SELECT sum(i) FROM t WHERE 1 = 0",
    "SELECT avg(i) FROM t",
    "SELECT avg(f) FROM t",
    "SELECT min(i), max(i) FROM t",
    "SELECT min(f), max(f) FROM t",
    "SELECT min(s), max(s) FROM t",
    "SELECT max(b) FROM t",
    "SELECT i * 2, f * 2, i + f FROM t ORDER BY id",
    "SELECT i > 1, f < 2.0, s = 'b' FROM t ORDER BY id",
    "SELECT count(DISTINCT i) FROM t",
]


@pytest.mark.parametrize("sql", AGGREGATES)
def test_computed_column_types(diff, sql):
    diff.steps(
        [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB)",
            (
                "many",
                "INSERT INTO t(i, f, s, b) VALUES (?, ?, ?, ?)",
                [(1, 1.5, "a", b"\x01"), (2, 2.25, "b", b"\x02"), (4, 0.125, "c", b"\x03")],
            ),
            sql,
        ]
    )


UNTYPED = {
    "int": 7,
    "float": 2.5,
    "str": "seven",
    "bytes": b"\x07",
    "none": None,
    "big_int": 2**62,
    "numeric_looking_str": "42",
}


@pytest.mark.parametrize("value", UNTYPED.values(), ids=UNTYPED.keys())
def test_untyped_column_keeps_value_type(diff, value):
    """A column without a declared type stores each value with its own type (no affinity)."""
    diff.steps(
        [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, v)",
            ("sql", "INSERT INTO t(v) VALUES (?)", (value,)),
            "SELECT v FROM t",
        ]
    )


AFFINITY = {
    "int_into_real": ("REAL", 3),
    "float_into_integer_whole": ("INTEGER", 2.0),
    "float_into_integer_fraction": ("INTEGER", 2.5),
    "int_into_text": ("TEXT", 5),
    "float_into_text": ("TEXT", 1.5),
    "numeric_text_into_integer": ("INTEGER", "12"),
    "numeric_text_into_real": ("REAL", "1.5"),
    "text_into_integer": ("INTEGER", "abc"),
    "bytes_into_text": ("TEXT", b"raw"),
    "bytes_into_integer": ("INTEGER", b"\x01"),
    "negative_zero_into_real": ("REAL", -0.0),  # stored as integer 0: read back as 0.0
    "negative_zero_into_integer": ("INTEGER", -0.0),
}


@pytest.mark.parametrize("decl,value", AFFINITY.values(), ids=AFFINITY.keys())
def test_column_affinity(diff, decl, value):
    """SQLite's type affinity: what a column of one type does with a value of another."""
    diff.steps(
        [
            f"CREATE TABLE t(id INTEGER PRIMARY KEY, v {decl})",
            ("sql", "INSERT INTO t(v) VALUES (?)", (value,)),
            "SELECT v FROM t",
        ]
    )


REALS = [0.1, 1 / 3, 2.0, -0.25, 1e20, 1e15, 1e14, 1.5e-7, 0.0001, 123456789012345678.0, -9.787865769622345e-213]
REAL_AS_TEXT = {
    "cast": "CAST(r AS TEXT)",
    "concat": "r || ''",
    "length": "length(r)",
    "substr": "substr(r, 1, 4)",
    "printf_s": "printf('%s', r)",
    "arithmetic_concat": "(r * 2) || ''",
}


@pytest.mark.parametrize("expr", REAL_AS_TEXT.values(), ids=REAL_AS_TEXT.keys())
def test_real_read_as_text(diff, expr):
    """A REAL read as text is written as SQLite writes it: 15 significant digits,
    '2.0' for a whole number, '1.0e+20' past 1e15 and below 1e-4."""
    diff.steps(["CREATE TABLE f(id INTEGER PRIMARY KEY, r REAL)",
                ("many", "INSERT INTO f(r) VALUES (?)", [(v,) for v in REALS]),
                f"SELECT id, {expr} FROM f ORDER BY id"])
