"""Bulk row transfer on the raw driver session of the target namespace.

PostgreSQL: ``COPY … FROM STDIN`` (binary, typed from the table's columns);
MySQL/MariaDB: multi-row ``INSERT`` (PyMySQL batches ``executemany`` into
statements of up to ``max_stmt_length`` bytes).  Each batch and its progress
row share one transaction (:meth:`Writer.transaction`).  ``stream`` reads a
table back with a server-side cursor and the shim's own type loaders, so
checksums see what the application will see."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

from ...backends import pg_text

_PG_COPY_TYPES = {"bigint": "int8", "double precision": "float8", "text": "text", "bytea": "bytea", "numeric": "numeric"}


class Writer:
    def __init__(self, target: Any) -> None:
        self.target = target
        self.kind = target.kind
        self.raw = target.raw
        self._names = self._server_names()

    # -- names ----------------------------------------------------------------

    def _server_names(self) -> dict[str, tuple[str, dict[str, tuple[str, str]]]]:
        """lower(table) → (server table, lower(column) → (server column, data type))."""
        if self.kind == "postgres":
            sql = (
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = %s ORDER BY table_name, ordinal_position"
            )
        else:
            sql = (
                "SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS "
                "WHERE TABLE_SCHEMA = %s ORDER BY TABLE_NAME, ORDINAL_POSITION"
            )
        names: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {}
        for table, column, kind in self.target.backend.query(sql, (self.target.name,)):
            entry = names.setdefault(str(table).lower(), (str(table), {}))
            entry[1][str(column).lower()] = (str(column), str(kind).lower())
        return names

    def refresh(self) -> None:
        self._names = self._server_names()

    def server_table(self, table: str) -> str:
        found = self._names.get(table.lower())
        if found is None:
            raise LookupError(f"table {table!r} does not exist in namespace {self.target.name}")
        return found[0]

    def has_column(self, table: str, column: str) -> bool:
        found = self._names.get(table.lower())
        return found is not None and column.lower() in found[1]

    def server_columns(self, table: str, columns: Sequence[str]) -> list[tuple[str, str]]:
        known = self._names[table.lower()][1]
        missing = [c for c in columns if c.lower() not in known]
        if missing:
            raise LookupError(f"table {table!r} on the server lacks column(s) {', '.join(missing)}")
        return [known[c.lower()] for c in columns]

    # -- writing ----------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self.kind == "postgres":
            with self.raw.transaction():
                yield
            return
        self.raw.begin()
        try:
            yield
        except BaseException:
            self.raw.rollback()
            raise
        self.raw.commit()

    def write(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        if not rows:
            return
        q = self.target.quote
        server = self.server_columns(table, columns)
        names = ", ".join(q(name) for name, _kind in server)
        if self.kind == "postgres":
            with self.raw.cursor() as cur:
                with cur.copy(f"COPY {q(self.server_table(table))} ({names}) FROM STDIN (FORMAT BINARY)") as copy:
                    copy.set_types([_PG_COPY_TYPES.get(kind, kind) for _name, kind in server])
                    encode = pg_text.encode  # NUL and U+0001 as the shim stores them
                    for row in rows:
                        copy.write_row([encode(v) if type(v) is str else v for v in row])
            return
        marks = ", ".join(["%s"] * len(columns))
        with self.raw.cursor() as cur:
            cur.max_stmt_length = 4 * 1024 * 1024
            cur.executemany(f"INSERT INTO {q(self.server_table(table))} ({names}) VALUES ({marks})", rows)

    def foreign_key_checks(self, on: bool) -> None:
        """MySQL checks foreign keys row by row: off while copying (SQLite did not check them)."""
        if self.kind != "postgres":
            with self.raw.cursor() as cur:
                cur.execute(f"SET SESSION foreign_key_checks = {1 if on else 0}")

    # -- reading back ------------------------------------------------------------

    def stream(self, table: str, columns: Sequence[str], size: int = 5000) -> Iterator[tuple]:
        q = self.target.quote
        names = ", ".join(q(name) for name, _kind in self.server_columns(table, columns))
        sql = f"SELECT {names} FROM {q(self.server_table(table))}"
        if self.kind == "postgres":
            with self.raw.transaction():
                with self.raw.cursor(name="hermes_migrate_verify") as cur:
                    cur.execute(sql)
                    while rows := cur.fetchmany(size):  # decoded as the shim reads them
                        yield from pg_text.decode_rows(rows, pg_text.text_columns(cur.pgresult))
            return
        import pymysql.cursors

        cur = self.raw.cursor(pymysql.cursors.SSCursor)
        try:
            cur.execute(sql)
            while True:
                rows = cur.fetchmany(size)
                if not rows:
                    break
                yield from rows
        finally:
            cur.close()

    def count(self, table: str) -> int:
        sql = f"SELECT count(*) FROM {self.target.quote(self.server_table(table))}"
        return int(self.target.backend.query(sql)[0][0])

    # -- ids --------------------------------------------------------------------

    def continue_ids(self, table: str, column: str, last: int) -> None:
        """Make the server's automatic ids continue after ``last``."""
        if last <= 0:
            return
        name = self.server_table(table)
        col = self.server_columns(table, [column])[0][0]
        if self.kind == "postgres":
            qualified = f"{self.target.quote(self.target.name)}.{self.target.quote(name)}"
            seq = self.target.backend.query("SELECT pg_get_serial_sequence(%s, %s)", (qualified, col))[0][0]
            if seq:
                self.target.backend.query("SELECT setval(%s, %s, true)", (seq, last))
            return
        self.target.backend.query(f"ALTER TABLE {self.target.quote(name)} AUTO_INCREMENT = {int(last) + 1}")
