"""Parameters: qmark and named styles, containers, wrong counts, unsupported types, placeholders in literals."""

from __future__ import annotations

import collections
import datetime
import decimal

import pytest


class MissingDict(dict):
    def __missing__(self, key):
        return f"missing:{key}"


class Seq:
    """A sequence that is neither a list nor a tuple."""

    def __init__(self, *items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]


class Conforming:
    def __conform__(self, protocol):
        return "conformed"


BINDINGS = {
    # qmark
    "qmark_one": ("SELECT ?", (1,)),
    "qmark_two": ("SELECT ?, ?", (1, "a")),
    "qmark_list": ("SELECT ?, ?", [2, "b"]),
    "qmark_numbered": ("SELECT ?1, ?2", (1, 2)),
    "qmark_numbered_reversed": ("SELECT ?2, ?1", (1, 2)),
    "qmark_numbered_repeated": ("SELECT ?1, ?1, ?1", (5,)),
    "qmark_numbered_from_dict": ("SELECT ?2, ?1", {"1": "a", "2": "b"}),  # ?NNN is named "?NNN": key "NNN"
    "qmark_numbered_with_gap": ("SELECT ?3, ?1", (1, 2, 3)),
    "qmark_then_numbered": ("SELECT ?, ?1, ?2", (1, 2)),
    "no_parameters_empty_tuple": ("SELECT 1", ()),
    "no_parameters_empty_list": ("SELECT 1", []),
    "no_parameters_empty_dict": ("SELECT 1", {}),
    # named
    "named_colon": ("SELECT :a", {"a": 1}),
    "named_at": ("SELECT @a", {"a": 1}),
    "named_dollar": ("SELECT $a", {"a": 1}),
    "named_repeated": ("SELECT :a, :a", {"a": 2}),
    "named_order": ("SELECT :b, :a", {"a": 1, "b": 2}),
    "named_extra_keys": ("SELECT :a", {"a": 1, "unused": 2}),
    "named_case_sensitive": ("SELECT :A", {"a": 1}),
    "named_long_name": ("SELECT :a_long_name_1", {"a_long_name_1": "x"}),
    "named_dict_missing": ("SELECT :a, :b", MissingDict(a=1)),
    "named_from_sequence": ("SELECT :a, :b", (1, 2)),
    "named_mixed_with_qmark_sequence": ("SELECT ?, :a", (1, 2)),
    "named_mixed_with_qmark_dict": ("SELECT ?, :a", {"a": 1}),
    "qmark_with_dict": ("SELECT ?", {"a": 1}),
    # containers
    "tuple_subclass": ("SELECT ?, ?", collections.namedtuple("P", "x y")(1, 2)),
    "custom_sequence": ("SELECT ?, ?", Seq(1, 2)),
    "userdict": ("SELECT :a", collections.UserDict(a=1)),
    "str_of_one": ("SELECT ?", "a"),
    "str_of_two": ("SELECT ?", "ab"),
    "bytes_as_sequence": ("SELECT ?", b"a"),
    "generator": ("SELECT ?", (x for x in [1])),
    "set": ("SELECT ?", {1}),
    "int": ("SELECT ?", 1),
    "none": ("SELECT 1", None),
    # wrong counts
    "too_few": ("SELECT ?, ?", (1,)),
    "too_many": ("SELECT ?", (1, 2)),
    "none_expected_one_given": ("SELECT 1", (1,)),
    "numbered_too_few": ("SELECT ?2", (1,)),
    "named_missing_key": ("SELECT :a, :b", {"a": 1}),
    "named_too_few_from_sequence": ("SELECT :a, :b", (1,)),
    # value types
    "int_max": ("SELECT ?", (2**63 - 1,)),
    "int_min": ("SELECT ?", (-(2**63),)),
    "int_overflow": ("SELECT ?", (2**63,)),
    "int_underflow": ("SELECT ?", (-(2**63) - 1,)),
    "float": ("SELECT ?", (1.5,)),
    "str": ("SELECT ?", ("héllo",)),
    "bytes": ("SELECT ?", (b"\x00\x01",)),
    "bytearray": ("SELECT ?", (bytearray(b"xy"),)),
    "memoryview": ("SELECT ?", (memoryview(b"xyz"),)),
    "none_value": ("SELECT ?", (None,)),
    "bool_true": ("SELECT ?", (True,)),
    "bool_false": ("SELECT ?", (False,)),
    "conform_protocol": ("SELECT ?", (Conforming(),)),
    "date_default_adapter": ("SELECT ?", (datetime.date(2024, 1, 2),)),
    "datetime_default_adapter": ("SELECT ?", (datetime.datetime(2024, 1, 2, 3, 4, 5),)),
    "unsupported_object": ("SELECT ?", (object(),)),
    "unsupported_decimal": ("SELECT ?", (decimal.Decimal("1.5"),)),
    "unsupported_complex": ("SELECT ?, ?", (1, 1 + 2j)),
    "unsupported_list": ("SELECT ?", ([1],)),
    "unsupported_dict_value": ("SELECT :a", {"a": {"b": 1}}),
    # parameters used in expressions
    "int_arithmetic": ("SELECT ? + 1, ? * 2", (41, 21)),
    "float_arithmetic": ("SELECT ? + 0.5", (1.0,)),
    "nan_binds_as_null": ("SELECT ?, ? IS NULL", (float("nan"),) * 2),
    "nan_named_binds_as_null": ("SELECT :x IS NULL", {"x": float("nan")}),
    "comparison": ("SELECT ? = ?", ("a", "a")),
    "null_comparison": ("SELECT ? IS NULL", (None,)),
    "in_list": ("SELECT 2 IN (?, ?, ?)", (1, 2, 3)),
    "case": ("SELECT CASE WHEN ? > 0 THEN 'pos' ELSE 'neg' END", (5,)),
    "value_looks_like_format": ("SELECT ?, ?", ("%s", "%(x)s")),
    "value_looks_like_placeholder": ("SELECT ?, ?", ("?", ":a")),
    "value_with_quotes": ("SELECT ?", ("'; DROP TABLE t; --",)),
    "value_with_backslash": ("SELECT ?", ("a\\b\\'",)),
}


@pytest.mark.parametrize("sql,params", BINDINGS.values(), ids=BINDINGS.keys())
def test_binding(diff, sql, params):
    if hasattr(params, "__next__"):  # a generator is consumed by the first side: make one per side
        diff.check(lambda side: side.connect().execute(sql, (x for x in [1])).fetchall())
        return
    diff.steps([("sql", sql, params)])


TABLE = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT)"

BINDINGS_IN_DML = {
    "insert_qmark": ("INSERT INTO t(a, b) VALUES (?, ?)", (1, "x")),
    "insert_named": ("INSERT INTO t(a, b) VALUES (:a, :b)", {"a": 1, "b": "x"}),
    "insert_numbered": ("INSERT INTO t(b, a) VALUES (?2, ?1)", (1, "x")),
    "update_where": ("UPDATE t SET b = ? WHERE a = ?", ("new", 1)),
    "delete_where": ("DELETE FROM t WHERE b = :b", {"b": "seed"}),
    "insert_wrong_count": ("INSERT INTO t(a, b) VALUES (?, ?)", (1,)),
    "insert_unsupported": ("INSERT INTO t(a) VALUES (?)", (object(),)),
    "where_in_select": ("SELECT id FROM t WHERE a = ? AND b = ?", (1, "seed")),
    "limit_parameter": ("SELECT id FROM t ORDER BY id LIMIT ?", (1,)),
}


@pytest.mark.parametrize("sql,params", BINDINGS_IN_DML.values(), ids=BINDINGS_IN_DML.keys())
def test_binding_in_statements(diff, sql, params):
    diff.steps(
        [TABLE, "INSERT INTO t(a, b) VALUES (1, 'seed')", ("sql", sql, params), "SELECT * FROM t ORDER BY id"]
    )


# --------------------------------------------------------------------------- ?, %, :x inside literals, identifiers, comments

LITERALS = {
    "qmark_in_string": ("SELECT '?'", ()),
    "qmark_in_string_and_param": ("SELECT '?', ?", (1,)),
    "named_in_string": ("SELECT ':a', :a", {"a": 1}),
    "at_and_dollar_in_string": ("SELECT '$a @a', $a", {"a": 1}),
    "percent_formats_in_string": ("SELECT '%s', '%d', '%%', '%(x)s'", ()),
    "percent_in_string_and_param": ("SELECT '%s', ?", ("v",)),
    "percent_alone": ("SELECT '100%'", ()),
    "modulo_operator": ("SELECT 7 % 3", ()),
    "modulo_with_param": ("SELECT 7 % ?", (4,)),
    "qmark_in_identifier": ('SELECT 1 AS "?"', ()),
    "named_in_identifier": ('SELECT 1 AS "a:b"', ()),
    "percent_in_identifier": ('SELECT 1 AS "%s"', ()),
    "qmark_in_bracket_identifier": ("SELECT 1 AS [x?]", ()),
    "qmark_in_line_comment": ("SELECT 1 -- ? :a %s\n", ()),
    "qmark_in_block_comment": ("SELECT /* ? :a %s */ ?", (1,)),
    "escaped_quote_then_param": ("SELECT 'it''s ?', ?", (2,)),
    "quoted_identifier_then_param": ('SELECT 1 AS "?", ?', (3,)),
    "backslash_in_string": ("SELECT 'a\\b', 'c\\'", ()),
    "colon_cast_like": ("SELECT 'a::b'", ()),
}


@pytest.mark.parametrize("sql,params", LITERALS.values(), ids=LITERALS.keys())
def test_placeholder_lookalikes(diff, sql, params):
    diff.steps([("sql", sql, params)])


def test_placeholder_lookalikes_in_table_names(diff):
    diff.steps(
        [
            'CREATE TABLE "q?t" (id INTEGER PRIMARY KEY, "c%s" TEXT, ":x" TEXT)',
            ('sql', 'INSERT INTO "q?t" ("c%s", ":x") VALUES (?, :x)', ("one", "two")),
            ("sql", 'INSERT INTO "q?t" ("c%s", ":x") VALUES (:a, :b)', {"a": "%s", "b": "?"}),
            'SELECT "c%s", ":x" FROM "q?t" ORDER BY 1',
        ]
    )


def test_placeholder_lookalikes_in_executemany_and_script(diff):
    diff.steps(
        [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b TEXT)",
            ("many", "INSERT INTO t(a, b) VALUES ('%s ? :a', ?)", [("x",), ("y",)]),
            ("script", "INSERT INTO t(a, b) VALUES ('%d%%', '?'); INSERT INTO t(a, b) VALUES (':b', '$c');"),
            "SELECT a, b FROM t ORDER BY b",
        ]
    )
