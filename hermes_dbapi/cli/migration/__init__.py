"""The pieces of ``hermes-dbapi migrate``: read a SQLite snapshot, recreate its
schema through the shim, bulk-copy rows, record progress, verify checksums."""
