"""JSON1 through the shim: the same statements on sqlite3 and on the server give the same
rows, Python types, cursor state and errors (translate/passes/json.py)."""

from __future__ import annotations

import pytest

DOCS = [
    (1, '{"n": 1, "r": 2.5, "s": "x", "t": true, "f": false, "z": null, "o": {"k": [1, {"d": "deep"}]}, "a": [3, 4]}'),
    (2, '{"n": 10, "s": "abc", "o": {}}'),
    (3, '{"n": "text"}'),
    (4, None),
]
SETUP = [
    ("script", "CREATE TABLE j(id INTEGER PRIMARY KEY, doc TEXT);"),
    ("many", "INSERT INTO j VALUES (?, ?)", DOCS),
]

SELECTS = {
    "extract_types": "SELECT id, json_extract(doc, '$.n'), json_extract(doc, '$.r'), json_extract(doc, '$.s'), "
    "json_extract(doc, '$.t'), json_extract(doc, '$.f'), json_extract(doc, '$.z') FROM j ORDER BY id",
    "extract_containers": "SELECT id, json_extract(doc, '$.o'), json_extract(doc, '$.a'), json_extract(doc, '$') FROM j ORDER BY id",
    "extract_deep": "SELECT json_extract(doc, '$.o.k[1].d'), json_extract(doc, '$.a[#-1]') FROM j WHERE id = 1",
    "extract_multi": "SELECT id, json_extract(doc, '$.n', '$.s', '$.q') FROM j ORDER BY id",
    "arrow": "SELECT id, doc -> '$.n', doc -> 'o', doc -> '$.z', doc -> '$.q' FROM j ORDER BY id",
    "arrow2": "SELECT id, doc ->> '$.n', doc ->> 's', doc ->> 'o', doc ->> 't' FROM j ORDER BY id",
    "arrow_index": "SELECT '[5,6,7]' -> 1, '[5,6,7]' ->> 0, '[5,6,7]' ->> '2'",
    "where_numeric": "SELECT id FROM j WHERE json_extract(doc, '$.n') >= 5 ORDER BY id",
    "where_text": "SELECT id FROM j WHERE doc ->> '$.s' = 'abc'",
    "order_numeric": "SELECT id FROM j ORDER BY json_extract(doc, '$.n') DESC, id",
    "null_guard": "SELECT id FROM j WHERE json_extract(COALESCE(doc, '{}'), '$.t') IS NULL ORDER BY id",
    "builders": "SELECT json_array(1, 2.5, 'x', NULL, json('[1]')), json_object('a', 1, 'b', json_object()), json_quote('q\"')",
    "minify": "SELECT json(' { \"a\" : [ 1 , 1.50 , \"s p\" ] } ')",
    "types": "SELECT json_type(doc), json_type(doc, '$.r'), json_type(doc, '$.o'), json_array_length(doc, '$.a') FROM j WHERE id = 1",
    "modify": "SELECT json_set(doc, '$.n', 2, '$.new', 'v'), json_insert(doc, '$.n', 9), json_replace(doc, '$.q', 9), "
    "json_remove(doc, '$.o', '$.a') FROM j WHERE id = 1",
    "aggregate": "SELECT json_group_array(id), json_group_object(CAST(id AS TEXT), doc ->> 'n') FROM j WHERE id < 4",
    "valid": "SELECT id, json_valid(doc), CASE WHEN json_valid(doc) THEN 'ok' ELSE 'bad' END FROM j ORDER BY id",
}


@pytest.mark.parametrize("name", list(SELECTS))
def test_select(diff, name):
    diff.steps([SELECTS[name]], setup=SETUP)


PARAMS = {
    "path": ("SELECT id, json_extract(doc, ?) FROM j ORDER BY id", ("$.s",)),
    "doc": ("SELECT json_extract(?, '$.v[1]')", ('{"v": [1, 2.25]}',)),
    "compare_int": ("SELECT id FROM j WHERE json_extract(doc, '$.n') = ?", (10,)),
    "compare_text": ("SELECT id FROM j WHERE doc ->> 's' = ?", ("x",)),
    "set_value": ("SELECT json_set('{}', '$.k', ?)", ("v",)),
    "array_values": ("SELECT json_array(?, ?, ?)", (1, "two", None)),
}


@pytest.mark.parametrize("name", list(PARAMS))
def test_parameters(diff, name):
    sql, params = PARAMS[name]
    diff.steps([("sql", sql, params)], setup=SETUP)


ERRORS = {
    "malformed_extract": "SELECT json_extract('{oops', '$.a')",
    "malformed_arrow": "SELECT 'nope' -> '$.a'",
    "malformed_json": "SELECT json('[1,')",
    "malformed_set": "SELECT json_set('x', '$.a', 1)",
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(diff, name):
    diff.steps([ERRORS[name]])


def test_update_with_json_set(diff):
    diff.steps(
        [
            "UPDATE j SET doc = json_set(COALESCE(doc, '{}'), '$._from', id) "
            "WHERE json_extract(COALESCE(doc, '{}'), '$._from') IS NULL",
            ("commit",),
            "SELECT id, doc, json_extract(doc, '$._from') FROM j ORDER BY id",
        ],
        setup=SETUP,
    )


def test_check_constraint(diff):
    diff.steps(
        [
            ("script", "CREATE TABLE c(id INTEGER PRIMARY KEY, j TEXT CHECK (json_valid(j)));"),
            "INSERT INTO c VALUES (1, '{\"ok\": 1}')",
            "INSERT INTO c VALUES (2, 'not json')",
            "SELECT id, j ->> 'ok' FROM c",
        ]
    )


TABLE_VALUED = {
    "each": "SELECT key, value, type, atom, fullkey, path FROM json_each('{\"a\": 1, \"b\": [2.5, \"x\"]}')",
    "tree": "SELECT j.id, t.key, t.value, t.type, t.fullkey FROM j, json_tree(COALESCE(j.doc, '[]')) AS t "
    "WHERE t.type IN ('text', 'real') ORDER BY j.id, t.id",
}


@pytest.mark.parametrize("name", list(TABLE_VALUED))
def test_table_valued(diff, backend, name):
    """json_each/json_tree: emulated on PostgreSQL, refused by name on MariaDB (not mistranslated)."""
    if backend.name != "mysql":
        diff.steps([TABLE_VALUED[name]], setup=SETUP)
        return
    conn = backend.connect(backend.path("tvf.db"))
    try:
        conn.execute("CREATE TABLE j(id INTEGER PRIMARY KEY, doc TEXT)")
        with pytest.raises(Exception) as info:
            conn.execute(TABLE_VALUED[name])
        assert type(info.value).__name__ == "NotSupportedError"
        assert ("json_each" if name == "each" else "json_tree") in str(info.value)
    finally:
        conn.close()
