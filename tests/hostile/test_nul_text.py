"""SQL functions and ordering on text holding NUL, differential against sqlite3 (issue 9, item 1).

SQLite reads text as a C string in ``length``, ``substr``, ``LIKE``, ``GLOB``,
``quote`` and ``printf('%s')`` (they stop at the first NUL) and as the whole
value everywhere else.  PostgreSQL stores NUL escaped as U+0001 U+0001 and
U+0001 as U+0001 U+0002 (backends/pg_text.py), so the characters next to the
escape (U+0001, U+0002) are among the values too.
"""

from __future__ import annotations

import pytest

from ._diff import same

VALUES = [
    "", "a", "\x00", "\x00\x00", "a\x00b", "ab\x00cd\x00e", "\x00{\"role\": \"tool\"}", "abc\x00",
    "\x01", "\x01\x01", "\x01\x02", "\x00\x01", "\x00\x02", "\x02", "a\x01", "a\x01b\x00c\x02",
    "x\uffffy", "\uffff0", "\U0001f600\x00\u4e2d", "\x00A\x00b",
]


def _setup(conn, values=VALUES):
    conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)")
    conn.executemany("INSERT INTO t(id, a) VALUES (?, ?)", list(enumerate(values)))
    conn.commit()


def _rows(conn, sql, params=()):
    return conn.execute(sql, params).fetchall()


EXPRESSIONS = {
    "length": "length(a)",
    "substr_pos": "substr(a, 2, 3)",
    "substr_from": "substr(a, 2)",
    "substr_neg": "substr(a, -2)",
    "substr_neg_count": "substr(a, 3, -2)",
    "substr_zero": "substr(a, 0, 2)",
    "instr_nul": "instr(a, char(0))",
    "instr_b": "instr(a, 'b')",
    "instr_1": "instr(a, char(1))",
    "instr_2": "instr(a, char(2))",
    "instr_empty": "instr(a, '')",
    "replace_nul": "replace(a, char(0), '-')",
    "replace_1": "replace(a, char(1), '+')",
    "replace_2": "replace(a, char(2), '*')",
    "replace_b": "replace(a, 'b', char(0))",
    "replace_to_1": "replace(a, 'a', char(1))",
    "hex": "hex(a)",
    "quote": "quote(a)",
    "upper": "upper(a)",
    "lower": "lower(a)",
    "concat": "a || char(0) || 'z'",
    "concat_len": "length('q' || a)",
    "trim": "trim(a)",
    "printf": "printf('%s|', a)",
    "like_prefix": "a LIKE 'a%'",
    "like_all": "a LIKE '%'",
    "like_inner": "a LIKE '%c%'",
    "like_exact": "a LIKE 'ab'",
    "like_underscore": "a LIKE '_'",
    "glob": "a GLOB 'a*'",
    "eq_nul": "a = char(0)",
    "lt_a": "a < 'a'",
    "char_roundtrip": "char(0, 1, 2, 65) = char(0) || char(1) || char(2) || 'A'",
    "length_char": "length(char(65, 0, 66))",
}




@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_function_on_nul_text(pair, backend, request, name):

    def run(conn):
        _setup(conn)
        return _rows(conn, f"SELECT id, {EXPRESSIONS[name]} FROM t ORDER BY id")

    same(pair, run)


PARAM_EXPRESSIONS = {
    "length": ("length(?)", ("ab\x00c",)),
    "substr": ("substr(?, 1, 5)", ("\x01b\x00c",)),
    "like_param_pattern_nul": ("a LIKE ?", ("ab\x00zzz",)),
    "like_param_both": ("? LIKE ?", ("a\x00b", "a")),
    "instr_param": ("instr(a, ?)", ("\x00c",)),
    "instr_param_2": ("instr(a, ?)", ("\x02",)),
    "replace_param": ("replace(a, ?, ?)", ("\x01", "\x00")),
    "replace_param_2": ("replace(a, ?, ?)", ("\x02", "[2]")),
    "eq_param": ("a = ?", ("a\x00b",)),
    "lt_param": ("a < ?", ("\x00\x01",)),
}


@pytest.mark.parametrize("name", list(PARAM_EXPRESSIONS))
def test_function_on_nul_params(pair, backend, request, name):
    expression, params = PARAM_EXPRESSIONS[name]

    def run(conn):
        _setup(conn)
        return _rows(conn, f"SELECT id, {expression} FROM t ORDER BY id", params)

    same(pair, run)


def test_where_on_nul_text(pair):
    def run(conn):
        _setup(conn)
        return [
            _rows(conn, "SELECT id FROM t WHERE a = ? ORDER BY id", ("\x00",)),
            _rows(conn, "SELECT id FROM t WHERE a LIKE ? ORDER BY id", ("a%",)),
            _rows(conn, "SELECT id FROM t WHERE length(a) = 0 ORDER BY id"),
            _rows(conn, "SELECT id FROM t WHERE substr(a, 1, 1) = 'a' ORDER BY id"),
            _rows(conn, "SELECT id FROM t WHERE instr(a, char(0)) > 0 ORDER BY id"),
        ]

    same(pair, run)


def test_order_group_distinct_minmax(pair, backend, request):

    def run(conn):
        _setup(conn, VALUES + VALUES[:6])
        return [
            _rows(conn, "SELECT id FROM t ORDER BY a, id"),
            _rows(conn, "SELECT id FROM t ORDER BY a DESC, id"),
            _rows(conn, "SELECT a, count(*) FROM t GROUP BY a ORDER BY a"),
            _rows(conn, "SELECT DISTINCT a FROM t ORDER BY a"),
            _rows(conn, "SELECT count(DISTINCT a), min(a), max(a) FROM t"),
            _rows(conn, "SELECT min(a), max(a) FROM t WHERE a <> ''"),
            _rows(conn, "SELECT id FROM t WHERE a > char(0) AND a < char(2) ORDER BY id"),
        ]

    same(pair, run)


def test_order_without_prefixes(pair):
    """Values none of which is a prefix of another: no padding rule applies on any backend."""
    values = ["\x00x", "\x01x", "\x02x", "\x00\x00x", "\x00\x01x", "\x01\x00x", "\x01\x01x", "\x01\x02x",
              "\x1fx", " x", "ax", "a\x00x", "a\x01x", "\uffffx", "\U0001f600x"]

    def run(conn):
        _setup(conn, values)
        return [
            _rows(conn, "SELECT id FROM t ORDER BY a, id"),
            _rows(conn, "SELECT min(a), max(a), count(DISTINCT a) FROM t"),
            _rows(conn, "SELECT a FROM t GROUP BY a ORDER BY a DESC"),
            _rows(conn, "SELECT id FROM t WHERE a < ? ORDER BY id", ("\x01\x01x",)),
        ]

    same(pair, run)


def test_unique_on_nul_text(pair, backend, request):

    def run(conn):
        conn.execute("CREATE TABLE u(a TEXT UNIQUE)")
        out = []
        for value in ("\x00", "\x00\x00", "\x01", "\x01\x01", "\x01\x02", "\x00\x01", "\x00"):
            try:
                conn.execute("INSERT INTO u VALUES (?)", (value,))
                out.append("ok")
            except Exception as exc:
                out.append(type(exc).__name__)
        out.append(_rows(conn, "SELECT a FROM u ORDER BY a"))
        return out

    same(pair, run)


@pytest.mark.parametrize("blob", [b"\x00\x01\x02", b"ab\x00", b"\x00"])
def test_blob_parameters_are_read_whole(pair, blob):
    """A bytes parameter holding NUL is a BLOB: length/substr read every byte, as
    SQLite does (only text stops at its first NUL)."""

    def run(conn):
        conn.execute("CREATE TABLE b (id INTEGER PRIMARY KEY, v BLOB)")
        conn.execute("INSERT INTO b (v) VALUES (?)", (blob,))
        return [_rows(conn, "SELECT length(?), substr(?, 2), length(?) = ?", (blob, blob, blob, len(blob))),
                _rows(conn, "SELECT hex(substr(v, 1, 2)), hex(substr(v, 2)), length(v) FROM b")]

    same(pair, run)


def test_hex_of_a_parameter(backend):
    """PostgreSQL cannot tell a bytes parameter from text when translating: refused
    there, as hex(?) is; MariaDB and SQLite answer."""
    import sqlite3

    conn = backend.connect()
    if backend.name != "postgres":
        assert conn.execute("SELECT hex(substr(?, 1, 2))", (b"\x00\x01",)).fetchone() == ("0001",)
        return
    with pytest.raises(sqlite3.NotSupportedError, match=r"hex\(\) of a parameter"):
        conn.execute("SELECT hex(substr(?, 1, 2))", (b"\x00\x01",))
