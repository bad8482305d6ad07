"""The server keeps back the postings a conjunctive query cannot match (issue 8).

``Storage.postings(term, prefix, among)`` returns the rows of ``term`` that
also hold every (term, prefix) of ``among`` (a superset is allowed, never
fewer), and ``row_frequency`` counts a term's rows on the server; both must
agree with what the whole postings say, long terms and prefixes included.
"""

from __future__ import annotations

import pytest

LONG = "x" * 600  # past the 480 key bytes: cut and hashed in the index
TEXTS = [
    "alpha beta gamma", "alpha gamma", "beta alpha", "alpha", "gamma delta",
    f"alphabet {LONG} beta", f"delta alpha {LONG}", "beta gamma", "alphas gamma",
]


@pytest.fixture
def storage(backend):
    if not backend.is_server:
        pytest.skip("the server index")
    conn = backend.connect(backend.path("narrowing.db"))
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
    conn.executemany("INSERT INTO docs (body) VALUES (?)", [(t,) for t in TEXTS])
    conn.commit()
    yield conn._fts_bridge.storage(conn._fts_bridge.specs["docs"])
    conn.close()


def _holding(storage, pairs) -> set[int]:
    rows = [set(storage.postings(term, prefix)) for term, prefix in pairs]
    return set.intersection(*rows)


@pytest.mark.parametrize(("term", "among"), [
    (("alpha", False), [("gamma", False)]),
    (("alpha", False), [("gamma", False), ("beta", False)]),
    (("alph", True), [("gamma", False)]),
    (("gamma", False), [("alph", True)]),
    ((LONG, False), [("alpha", False)]),
    (("alpha", False), [(LONG, False)]),
    (("beta", False), [("nothing", False)]),
])
def test_narrowed_postings_are_the_rows_holding_every_term(storage, term, among) -> None:
    whole = storage.postings(*term)
    got = storage.postings(*term, among)
    want = _holding(storage, [term, *among])
    assert set(got) == want
    assert all(got[r] == whole[r] for r in got)  # each row keeps all its positions


@pytest.mark.parametrize(("term", "prefix"), [
    ("alpha", False), ("alph", True), ("a", True), ("gamma", False), ("nothing", False), ("zz", True),
])
def test_row_frequency_is_counted_by_the_server(storage, term, prefix) -> None:
    assert storage.row_frequency(term, prefix) == len(storage.postings(term, prefix))


def test_row_frequency_of_a_long_term_is_left_to_the_postings(storage) -> None:
    assert storage.row_frequency(LONG, False) is None
