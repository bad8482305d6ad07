"""Text and BLOB values round-trip exactly, and SQL sees them as SQLite does (issue 9, item 1).

Each case runs on real sqlite3 and through hermes_dbapi on the test's backend.
PostgreSQL ``text`` cannot hold U+0000, so the shim escapes it (backends/pg_text.py);
MySQL/MariaDB store utf8mb4 with a NO PAD binary collation.  Whatever the encoding, the
value read back must equal the value written, and ``=``, ``LIKE``, ``length()``,
``substr()`` and ``ORDER BY`` must give SQLite's answers.
"""

from __future__ import annotations

import pytest

from ._diff import same

TEXTS = {
    "empty": "",
    "nul": "\x00",
    "leading_nul": "\x00{\"role\": \"tool\"}",
    "inner_nul": "a\x00b",
    "trailing_nul": "abc\x00",
    "nul_escape_lookalike": "\uffff0",
    "noncharacter_ffff": "x\uffffy",
    "emoji_4byte": "\U0001f600 \U0001d11e \U0001f1fa\U0001f1f8",
    "cjk": "中文字符 日本語 한국어",
    "combining": "e\u0301 a\u0308 \u1e9b\u0323",
    "crlf": "line1\r\nline2\rline3\n",
    "trailing_space": "a ",
    "trailing_tab": "a\t",
    "quotes": "it's \"quoted\" `tick` \\ back",
    "percent": "100% _under_",
    "control": "".join(chr(c) for c in range(1, 32)),
    "bmp_edges": "\u07ff\u0800\ud7ff\ue000\ufffd",
    "one_mb": ("0123456789abcdef" * 65536),
    "one_mb_unicode": ("\u00e9\u4e2d\U0001f600" * 350000),
}

def _setup(conn, values):
    conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)")
    conn.executemany("INSERT INTO t(id, a) VALUES (?, ?)", list(enumerate(values)))
    conn.commit()


@pytest.mark.parametrize("name", list(TEXTS))
def test_text_roundtrip(pair, name):
    value = TEXTS[name]

    def run(conn):
        _setup(conn, [value])
        back = conn.execute("SELECT a FROM t").fetchone()[0]
        assert back == value and type(back) is str
        selected = conn.execute("SELECT ?", (value,)).fetchone()[0]
        return [back == value, selected == value, conn.execute("SELECT count(*) FROM t WHERE a = ?", (value,)).fetchone()]

    same(pair, run)


@pytest.mark.parametrize("name", list(TEXTS))
def test_text_functions(pair, name):
    value = TEXTS[name]
    short = value[:200]  # SQLite refuses LIKE patterns over 50,000 bytes

    def run(conn):
        _setup(conn, [value])
        return conn.execute(
            "SELECT length(a), substr(a, 2, 3), substr(a, -2), a = ?, a LIKE ?, a LIKE ? || '%', "
            "a > ?, a < ? FROM t",
            (value, value if len(value) < 1000 else "x", short, short, short + "z"),
        ).fetchall()

    same(pair, run)


def test_order_by_text(pair, backend, request):
    values = [v for v in TEXTS.values() if len(v) < 1000] + ["a", "A", "b", "\x7f", "\u00e9", "e"]

    def run(conn):
        _setup(conn, values)
        return [row[0] for row in conn.execute("SELECT id FROM t ORDER BY a, id")]

    same(pair, run)


def test_order_by_text_without_nul(pair):
    values = [v for v in TEXTS.values() if len(v) < 1000 and "\x00" not in v and "\uffff" not in v]
    values += ["a", "A", "b", "\x7f", "\u00e9", "e", "a  ", "a\x01"]

    def run(conn):
        _setup(conn, values)
        return [
            [row[0] for row in conn.execute("SELECT id FROM t ORDER BY a, id")],
            [row[0] for row in conn.execute("SELECT id FROM t ORDER BY a DESC, id")],
            conn.execute("SELECT count(DISTINCT a) FROM t").fetchone()[0],
        ]

    same(pair, run)


def test_lone_surrogate_same_error(pair):
    def run(conn):
        conn.execute("CREATE TABLE t(a TEXT)")
        for text in ("\ud800", "a\udfffb", "\udc80"):
            try:
                conn.execute("INSERT INTO t VALUES (?)", (text,))
            except UnicodeEncodeError as exc:  # sqlite3 raises this, before any SQL runs
                yield type(exc).__name__, exc.reason
            else:
                yield "inserted", text
        yield conn.execute("SELECT count(*) FROM t").fetchone()

    same(pair, lambda conn: list(run(conn)))


BLOBS = {
    "empty": b"",
    "all_bytes": bytes(range(256)),
    "all_bytes_reversed": bytes(range(255, -1, -1)),
    "nul_only": b"\x00" * 10,
    "invalid_utf8": b"\xc3\x28\xa0\xa1\xff\xfe",
    "backslashes_quotes": b"\\'\"\\x00\\\\%_",
    "one_mb": bytes(range(256)) * 4096,
}


@pytest.mark.parametrize("name", list(BLOBS))
def test_blob_roundtrip(pair, name):
    value = BLOBS[name]

    def run(conn):
        conn.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)")
        conn.execute("INSERT INTO b(x) VALUES (?)", (value,))
        back = conn.execute("SELECT x FROM b").fetchone()[0]
        assert type(back) is bytes and back == value
        return [
            back == value,
            conn.execute("SELECT length(x), x = ?, substr(x, 2, 4) FROM b", (value,)).fetchone(),
            conn.execute("SELECT count(*) FROM b WHERE x = ?", (value,)).fetchone(),
        ]

    same(pair, run)


def test_order_by_blob(pair):
    values = [v for v in BLOBS.values() if len(v) < 1000] + [b"\x00", b"\x00\x00", b"\xff", b"a", b"A"]

    def run(conn):
        conn.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, x BLOB)")
        conn.executemany("INSERT INTO b(id, x) VALUES (?, ?)", list(enumerate(values)))
        return [row[0] for row in conn.execute("SELECT id FROM b ORDER BY x, id")]

    same(pair, run)


def test_non_bmp_identifier(pair):

    def run(conn):
        conn.execute('CREATE TABLE "t\U0001f600"("c\U0001f600" TEXT)')
        conn.execute('INSERT INTO "t\U0001f600" VALUES (?)', ("v",))
        cur = conn.execute('SELECT "c\U0001f600" AS "\U0001f600" FROM "t\U0001f600"')
        return [cur.fetchall(), [d[0] for d in cur.description]]

    same(pair, run)


def test_non_bmp_identifier_catalog_and_errors(pair):
    def run(conn):
        conn.execute('CREATE TABLE "\U0001f4ac msgs"(id INTEGER PRIMARY KEY, "\U0001f600" TEXT UNIQUE, n INTEGER)')
        conn.execute('CREATE INDEX "i\U0001f600" ON "\U0001f4ac msgs"(n)')
        conn.execute('INSERT INTO "\U0001f4ac msgs"("\U0001f600", n) VALUES (?, ?)', ("\U0001f600 value", 1))
        out = [conn.execute('SELECT rowid, * FROM "\U0001f4ac msgs"').fetchall()]
        out.append(conn.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY name").fetchall())
        out.append(conn.execute('PRAGMA table_info("\U0001f4ac msgs")').fetchall())
        for sql in ('INSERT INTO "\U0001f4ac msgs"("\U0001f600") VALUES (\'\U0001f600 value\')',
                    'SELECT * FROM "\U0001f4ac gone"', 'SELECT "\U0001f4ac msgs"."\U0001f601" FROM "\U0001f4ac msgs"'):
            try:
                conn.execute(sql)
            except Exception as exc:
                out.append((type(exc).__name__, str(exc)))
        return out

    same(pair, run)
