"""Benchmarks for hermes_dbapi: ``python -m bench [--quick] [--json PATH]``."""
