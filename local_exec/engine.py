"""The local engine: DuckDB in-process over Arrow snapshots.

One DuckDB database per process; each query runs on its own cursor in a
worker thread, so a slow query never blocks the event loop or other
sessions. The shards a query reads are registered on that cursor as Arrow
tables under their SQL names, and the query (already rewritten to DuckDB's
dialect) runs against them.

DuckDB errors are mapped onto PostgreSQL SQLSTATEs (``EngineError``); the
planner turns them into SQL errors.
"""

from __future__ import annotations

import asyncio
import re
import threading

import duckdb
import pyarrow as pa


class EngineError(Exception):
    def __init__(self, sqlstate: str, message: str):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message


def _map_error(e: Exception) -> EngineError:
    msg = str(e).split("\n")[0]
    msg = re.sub(r"^[A-Za-z ]+ Error: ", "", msg)
    if isinstance(e, duckdb.ParserException):
        return EngineError("42601", msg)
    if isinstance(e, duckdb.ConversionException):
        if "out of range" in msg or "overflow" in msg.lower():
            return EngineError("22003", msg)
        return EngineError("22P02", msg)
    if isinstance(e, duckdb.OutOfRangeException):
        return EngineError("22003", msg)
    if isinstance(e, duckdb.CatalogException):
        return EngineError("42P01", msg)
    if isinstance(e, duckdb.BinderException):
        if "not found" in msg and "olumn" in msg:
            return EngineError("42703", msg)
        if "No function matches" in msg or "does not exist" in msg:
            return EngineError("42883", msg)
        return EngineError("42804", msg)
    if isinstance(e, duckdb.InterruptException):
        return EngineError("57014", "canceling statement due to user request")
    if isinstance(e, duckdb.InvalidInputException):
        if "Division by zero" in msg:
            return EngineError("22012", "division by zero")
        return EngineError("22023", msg)
    return EngineError("XX000", msg)


def _with_uuids(table: pa.Table) -> pa.Table:
    """uuid columns (stored as 16-byte binaries) as Arrow's uuid extension
    type, which DuckDB reads as UUID (and writes back with lossless Arrow
    conversion on)."""
    for i, f in enumerate(table.schema):
        if pa.types.is_fixed_size_binary(f.type) and f.type.byte_width == 16:
            col = table.column(i)
            chunks = [pa.ExtensionArray.from_storage(pa.uuid(), c) for c in col.chunks]
            table = table.set_column(i, pa.field(f.name, pa.uuid(), f.nullable, f.metadata), pa.chunked_array(chunks, pa.uuid()))
    return table


def _plain(table: pa.Table) -> pa.Table:
    """Results with extension types other than uuid turned into plain Arrow
    (DuckDB's lossless export writes booleans as bool8)."""
    for i, f in enumerate(table.schema):
        t = f.type
        if isinstance(t, pa.BaseExtensionType) and not isinstance(t, pa.UuidType):
            col = table.column(i)
            storage = pa.chunked_array([c.storage for c in col.chunks], t.storage_type)
            if t.extension_name == "arrow.bool8":
                storage = storage.cast(pa.bool_())
            elif getattr(t, "type_name", None) in ("hugeint", "uhugeint"):
                # 16-byte little-endian integers: the layout of decimal128(38, 0)
                storage = pa.chunked_array(
                    [pa.Array.from_buffers(pa.decimal128(38, 0), len(c), c.buffers(), c.null_count, c.offset) for c in storage.chunks],
                    pa.decimal128(38, 0),
                )
            table = table.set_column(i, pa.field(f.name, storage.type, f.nullable), storage)
    return table


class LocalEngine:
    def __init__(self, *, threads: int = 2, memory_limit: str = "4GB"):
        # integer_division: ``/`` on integers truncates, as in PostgreSQL.
        self._db = duckdb.connect(
            ":memory:", config={"threads": threads, "memory_limit": memory_limit, "integer_division": True, "arrow_lossless_conversion": True}
        )
        self._lock = threading.Lock()

    def _cursor(self):
        with self._lock:
            return self._db.cursor()

    async def run(
        self,
        sql: str,
        tables: dict[str, pa.Table] | None = None,
        params: list | None = None,
        *,
        views: list[tuple[str, str]] = (),
        timeout: float | None = None,
    ) -> pa.Table:
        """Run DuckDB ``sql`` with ``tables`` registered under their names and
        ``views`` (name, DuckDB SQL) created over them in order.

        ``timeout`` (seconds) interrupts the query with 57014; cancelling the
        awaiting task interrupts it too (and re-raises the cancellation)."""
        cur = self._cursor()

        def work() -> pa.Table:
            try:
                for name, table in (tables or {}).items():
                    cur.register(name, _with_uuids(table))
                for name, view_sql in views:
                    cur.execute(f'CREATE TEMP VIEW "{name}" AS {view_sql}')
                rel = cur.sql(sql, params=params or None)
                return _plain(rel.to_arrow_table()) if rel is not None else pa.table({})
            except duckdb.Error as e:
                raise _map_error(e) from None

        future = asyncio.get_running_loop().run_in_executor(None, work)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError) as e:
            cur.interrupt()
            try:
                await asyncio.shield(future)
            except Exception:  # noqa: BLE001 - the interrupted query's own error
                pass
            if isinstance(e, asyncio.TimeoutError):
                raise EngineError("57014", "canceling statement due to statement timeout") from None
            raise
        finally:
            if future.done():
                cur.close()
            else:
                future.add_done_callback(lambda _f: cur.close())

    def close(self) -> None:
        self._db.close()
