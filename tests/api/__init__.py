"""Differential tests of the sqlite3 API surface (the foundation issue's bar).

Every test runs the same operations on the standard ``sqlite3`` module (a fresh
file in ``tmp_path``) and on ``hermes_dbapi`` for one backend of the matrix,
and asserts that the two observation records are identical: values with their
Python types, ``description``, ``rowcount``, ``lastrowid``, ``in_transaction``,
exception class, message, ``sqlite_errorcode`` and ``sqlite_errorname``.

The files follow the families of CPython's ``Lib/test/test_sqlite3``; the
machinery lives in :mod:`.harness`, the ``diff`` fixture in ``conftest.py``.
Scenarios are tables (data); a behaviour is one test function x one scenario.
"""
