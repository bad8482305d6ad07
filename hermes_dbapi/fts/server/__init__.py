"""FTS5 on server backends: a shim-managed token index in ordinary server tables.

PostgreSQL and MariaDB have no FTS5, and their own full-text engines give
different answers, so the shim tokenizes in Python (``hermes_dbapi.fts``)
and keeps postings in server tables, inside the application's transaction.

* ``spec``: the table's FTS5 options, read from its DDL in the shadow catalog;
* ``storage``: the server tables (``<t>_idx`` postings, ``<t>_docsize``,
  ``<t>_content``) and every read/write of them;
* ``index``: the engine's ``Index`` over that storage (fetches only the
  postings of the query's terms);
* ``sqlrun``: runs shim-built SQLite SQL on the server or in the shadow;
* ``writes``: INSERT/UPDATE/DELETE and the command rows on an FTS table;
* ``triggers``: triggers whose bodies write FTS tables run in the shim;
* ``select``: queries reading FTS tables (MATCH, rank, snippet, ...);
* ``bridge``: the one hook the connection calls.
"""
