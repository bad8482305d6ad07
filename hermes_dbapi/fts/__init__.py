"""FTS5 emulation core: SQLite's full-text search, reproduced in pure Python.

Server backends have no FTS5, so the shim keeps its own token index (written
with these tokenizers) and evaluates MATCH, ``bm25``/``rank``, ``snippet``
and ``highlight`` here, giving the results SQLite would give.

Typical use::

    tok = tokenizer_from_spec("porter unicode61")      # tokenize= value
    index = MemoryIndex(["content", "tool_name"], tok)   # or a server Index
    index.insert(1, ["hello world", None])
    ev = search(index, "hello OR wor*")                  # FtsError on bad query
    for rowid, score in ranked(ev):                      # ORDER BY rank
        snippet(ev, rowid, -1, ">>>", "<<<", "...", 40)

Modules: ``tokenizers`` (+``porter``, ``unicode61_tables``), ``query``
(parser), ``index`` (postings interface), ``engine`` (evaluation),
``ranking`` (bm25), ``snippets`` (snippet/highlight), ``sqlvalues``.
"""

from __future__ import annotations

from .engine import Evaluation, Instance, search
from .errors import FtsError
from .index import Index, MemoryIndex
from .query import Query, SpecialQuery, parse_query
from .ranking import Bm25, bm25, ranked
from .snippets import highlight, snippet
from .tokenizers import Token, Tokenizer, register_tokenizer, tokenizer_from_spec

__all__ = [
    "Bm25",
    "Evaluation",
    "FtsError",
    "Index",
    "Instance",
    "MemoryIndex",
    "Query",
    "SpecialQuery",
    "Token",
    "Tokenizer",
    "bm25",
    "highlight",
    "parse_query",
    "ranked",
    "register_tokenizer",
    "search",
    "snippet",
    "tokenizer_from_spec",
]
