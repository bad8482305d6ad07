"""Ordinary SQLite triggers on server backends, run by the shim itself.

Triggers live only in the shadow catalog (and ``hermes_sqlite_master``); a
DML statement on a table with triggers is run row by row the way SQLite runs
it (keys collected first, then per row: BEFORE triggers, the change, AFTER
triggers), with ``new.x``/``old.x`` bound as parameters.  This gives SQLite's
semantics on both servers, including bodies that write their own table
(which MySQL forbids natively) and ``RAISE()``.
"""
