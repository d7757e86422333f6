"""The local engine: DuckDB in-process over Arrow snapshots.

One DuckDB database per process; each query runs on its own cursor in a
worker thread, so a slow query never blocks the event loop or other
sessions. The shards a query reads are registered on that cursor as Arrow
tables under their SQL names, and the query (already rewritten to DuckDB's
dialect) runs against them.

DuckDB errors are mapped onto PostgreSQL's SQLSTATEs and wording
(``local_exec.errors``); the planner turns them into SQL errors.

The engine keeps large Arrow snapshots in memory, so it chooses the
process's Arrow allocator (``use_arrow_allocator``): jemalloc, unless
``ARROW_DEFAULT_MEMORY_POOL`` says otherwise. pyarrow's default, mimalloc,
pays about three times as much for first touching large fresh allocations:
decoding a 10M-row table into a new snapshot took 1.4 s with it and 0.55 s
with jemalloc or the system allocator (bench/sql.py's cold GROUP BY).
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time

import duckdb
import pyarrow as pa

from local_exec import floats, intervals, jsonb, jsonpath, jsontext, numeric, regex, strings, texts, tochar, udf
from local_exec.errors import EngineError, as_duckdb_error, map_error
from local_exec.native import NativeTables
from storage.persist import TYPE_KEY, map_elements


_PARAM = re.compile(r"'(?:[^']|'')*'|\$(\d+)")


def _referenced(sql: str, params: list | None) -> dict | None:
    """The parameters ``sql`` refers to, by number: DuckDB refuses unused
    ones, and a rewrite may have dropped an argument that held one."""
    if not params:
        return None
    used = {int(m.group(1)) for m in _PARAM.finditer(sql) if m.group(1)}
    return {str(i): params[i - 1] for i in sorted(used) if 0 < i <= len(params)} or None


_QUERY_HEAD = re.compile(r"\s*(?:(WITH(?:\s+RECURSIVE)?)\s|SELECT\b)", re.I)


def _scanning(sql: str, natives: dict[str, str]) -> str | None:
    """``sql`` reading each table of ``natives`` (its name in the query ->
    its native copy) through a CTE of the copy, or None when ``sql`` is not
    a query a WITH can lead (then temporary views name the copies). A CTE
    is free where the first temporary view of a cursor costs about 0.4 ms
    (a tenth of a small TPC-H query at scale factor 0.1); NOT MATERIALIZED,
    so DuckDB scans the copy where the query reads it, never copying it."""
    if not natives:
        return sql
    head = _QUERY_HEAD.match(sql)
    if head is None:
        return None
    ctes = ", ".join(f'"{name}" AS NOT MATERIALIZED (SELECT * FROM "{native}")' for name, native in natives.items())
    if head.group(1) is None:  # a SELECT
        return f"WITH {ctes} {sql}"
    return f"{head.group(1)} {ctes}, {sql[head.end():]}"


def _with_uuids(table: pa.Table) -> pa.Table:
    """uuid columns and uuid[] elements (stored as 16-byte binaries) as
    Arrow's uuid extension type, which DuckDB reads as UUID (and writes back
    with lossless Arrow conversion on)."""
    for i, f in enumerate(table.schema):
        if _is_uuid(f.type) or pa.types.is_list(f.type) and _is_uuid(f.type.value_type):
            col = table.column(i)
            chunks = [_as_uuid(c) for c in col.chunks]
            table = table.set_column(i, pa.field(f.name, _uuid_type(f.type), f.nullable, f.metadata), pa.chunked_array(chunks, _uuid_type(f.type)))
    return table


def _is_uuid(t: pa.DataType) -> bool:
    return pa.types.is_fixed_size_binary(t) and t.byte_width == 16


def _uuid_type(t: pa.DataType) -> pa.DataType:
    return pa.list_(pa.field("element", pa.uuid())) if pa.types.is_list(t) else pa.uuid()


def _as_uuid(arr: pa.Array) -> pa.Array:
    if pa.types.is_list(arr.type):
        return map_elements(arr, _as_uuid, pa.uuid())
    return pa.ExtensionArray.from_storage(pa.uuid(), arr)


def _plain(table: pa.Table) -> pa.Table:
    """Results with extension types other than uuid turned into plain Arrow
    (DuckDB's lossless export writes booleans as bool8), in lists too, and
    timestamptz in UTC (DuckDB names the session's zone, which Arrow may not
    know: ``GMT+02:30``)."""
    for i, f in enumerate(table.schema):
        if _needs_plain(f.type):
            col = table.column(i)
            plain = pa.chunked_array([_plain_array(c) for c in col.chunks], _plain_type(f.type))
            table = table.set_column(i, _plain_field(f), plain)
    return table


def _plain_schema(schema: pa.Schema) -> pa.Schema:
    return pa.schema([_plain_field(f) if _needs_plain(f.type) else f for f in schema])


def _plain_field(f: pa.Field) -> pa.Field:
    # json stays json: the SQL type rides in the field's metadata, as stored columns' do
    meta = {TYPE_KEY: b"json"} if isinstance(f.type, pa.JsonType) else None
    return pa.field(f.name, _plain_type(f.type), f.nullable, metadata=meta)


def _needs_plain(t: pa.DataType) -> bool:
    if pa.types.is_timestamp(t):
        return t.tz not in (None, "UTC")
    if isinstance(t, pa.BaseExtensionType):
        return not isinstance(t, pa.UuidType)
    if pa.types.is_struct(t):
        return any(_needs_plain(f.type) for f in t)
    return pa.types.is_list(t) and _needs_plain(t.value_type)


def _plain_type(t: pa.DataType) -> pa.DataType:
    if pa.types.is_timestamp(t) and t.tz is not None:
        return pa.timestamp(t.unit, "UTC")
    if pa.types.is_list(t):
        return pa.list_(_plain_type(t.value_type))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _plain_type(f.type), f.nullable) for f in t])
    if not isinstance(t, pa.BaseExtensionType) or isinstance(t, pa.UuidType):
        return t
    if t.extension_name == "arrow.bool8":
        return pa.bool_()
    if getattr(t, "type_name", None) in ("hugeint", "uhugeint"):
        return pa.decimal128(38, 0)
    return t.storage_type


def _plain_array(arr: pa.Array) -> pa.Array:
    t = arr.type
    if pa.types.is_list(t):
        return pa.ListArray.from_arrays(arr.offsets, _plain_array(arr.values), mask=arr.is_null() if arr.null_count else None)
    if pa.types.is_struct(t):
        return pa.StructArray.from_arrays([_plain_array(c) for c in arr.flatten()], fields=list(_plain_type(t)),
                                          mask=arr.is_null() if arr.null_count else None)
    if pa.types.is_timestamp(t) and t.tz is not None:
        return arr.view(_plain_type(t))  # the same instants (counted from UTC's epoch), whatever zone the session named
    if not isinstance(t, pa.BaseExtensionType) or isinstance(t, pa.UuidType):
        return arr
    storage = arr.storage
    if t.extension_name == "arrow.bool8":
        return storage.cast(pa.bool_())
    if getattr(t, "type_name", None) in ("hugeint", "uhugeint"):
        # 16-byte little-endian integers: the layout of decimal128(38, 0)
        return pa.Array.from_buffers(pa.decimal128(38, 0), len(storage), storage.buffers(), storage.null_count, storage.offset)
    return storage


STREAM_BATCH_ROWS = 8192


async def _in_thread(cur, fn, timeout: float | None):
    """``fn()`` in a worker thread with DuckDB errors mapped to EngineError;
    a timeout (57014) or the caller's cancellation interrupts ``cur``."""

    def guarded():
        try:
            return fn()
        except duckdb.Error as e:
            raise map_error(e) from None
        except (pa.ArrowException, OSError) as e:  # DuckDB's error raised through Arrow's stream reader
            mapped = as_duckdb_error(e)
            if mapped is e:
                raise
            raise map_error(mapped) from None

    future = asyncio.get_running_loop().run_in_executor(None, guarded)
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


def _close(cur) -> None:
    """Close ``cur`` (no thread is using it: ``_in_thread`` waits for its
    work even when interrupted)."""
    try:
        cur.close()
    except duckdb.Error:
        pass


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", re.I)


def parse_size(size: str) -> int:
    """Bytes of a memory size as DuckDB's settings and txngate's write it
    ("4GB", "512MB", "1.5g", "700MiB", or bytes), in units of 1024;
    ValueError for anything else."""
    m = _SIZE.fullmatch(size)
    if m is None:
        raise ValueError(f"not a memory size: {size!r}")
    return int(float(m.group(1)) * 1024 ** "BKMGT".index(m.group(2).upper() or "B"))


class EngineStream:
    """The record batches of one running DuckDB query, each fetched in a
    worker thread when asked for. Invariant: the cursor is closed exactly
    once, when the batches run out, on an error, or by ``close()``."""

    def __init__(self, cur, reader, schema: pa.Schema, deadline: float | None, finish=_close):
        self._cur, self._reader, self.schema, self._deadline, self._finish = cur, reader, schema, deadline, finish

    async def next(self) -> pa.RecordBatch | None:
        """The next batch (never empty), or None at the end."""
        while self._reader is not None:
            timeout = None if self._deadline is None else max(0.0, self._deadline - time.monotonic())
            try:
                batch = await _in_thread(self._cur, self._read, timeout)
            except BaseException:
                self.close()
                raise
            if batch is None:
                self.close()
                return None
            if batch.num_rows:
                return batch
        return None

    def _read(self):
        try:
            batch = self._reader.read_next_batch()
        except StopIteration:
            return None
        return _plain(pa.Table.from_batches([batch])).combine_chunks().to_batches()[0] if batch.num_rows else batch

    def close(self) -> None:
        if self._cur is not None:
            cur, self._cur, self._reader = self._cur, None, None
            self._finish(cur)


def use_arrow_allocator() -> str:
    """Make jemalloc the process's default Arrow memory pool (the system
    allocator where pyarrow has no jemalloc), unless the environment chose
    one; the pool's name."""
    if not os.environ.get("ARROW_DEFAULT_MEMORY_POOL"):
        try:
            pa.set_memory_pool(pa.jemalloc_memory_pool())
        except NotImplementedError:
            pa.set_memory_pool(pa.system_memory_pool())
    return pa.default_memory_pool().backend_name


class LocalEngine:
    """DuckDB over the snapshots a query reads; ``natives`` keeps native
    copies of the large ones read again (``local_exec.native``), at most
    ``native_share`` of ``memory_limit``."""

    def __init__(self, *, threads: int = 2, memory_limit: str = "4GB", macros: tuple[str, ...] = (), native_share: float = 0.5):
        use_arrow_allocator()
        # integer_division: ``/`` on integers truncates, as in PostgreSQL.
        self._db = duckdb.connect(
            ":memory:", config={"threads": threads, "memory_limit": memory_limit, "integer_division": True, "arrow_lossless_conversion": True}
        )
        self._lock = threading.Lock()
        self._db.execute("SET GLOBAL TimeZone = 'UTC'")  # every cursor's, whatever the machine's zone; a session sets its own (_start)
        regex.register(self._db)  # PostgreSQL's regexp_match(es), which the planner renames to
        jsonb.register(self._db)  # PostgreSQL's json operators, which the planner rewrites to
        jsonpath.register(self._db)  # ... and its path language (jsonb_path_query, @?, @@)
        jsontext.register(self._db)  # ... those of json (not jsonb): pieces of its text as written
        numeric.register(self._db)  # PostgreSQL's numeric division, for output columns of avg and /
        tochar.register(self._db)  # PostgreSQL's to_char of dates, times and numbers
        intervals.register(self._db)  # justify_days, justify_hours, justify_interval
        texts.register(self._db)  # PostgreSQL's text of lists and intervals (casts to text, array_to_string)
        floats.register(self._db)  # PostgreSQL's trigonometry in degrees (sind, cosd, ...), exact where it is exact
        strings.register(self._db)  # format, sha224/384/512, encode/decode, split_part, to_hex as PostgreSQL's
        for sql in macros:  # CREATE MACRO statements the planner's rewrites call (after the functions they may call)
            self._db.execute(sql)
        self.natives = NativeTables(self._cursor, _with_uuids, max_bytes=int(parse_size(memory_limit) * native_share))
        self._leases: dict[int, list[str]] = {}  # id(cursor) -> the native copies its query scans

    def add_function(self, name: str, fn, params: list[str], result: str) -> None:
        """A Python scalar function SQL can call (row at a time, with side
        effects: never folded or skipped), e.g. to signal other sessions."""
        udf.register(self._db, {name: (fn, params, result)}, side_effects=True)

    def _cursor(self):
        with self._lock:
            return self._db.cursor()

    def _start(self, cur, sql: str, tables, params, views, timezone: str):
        """Register ``tables``, create ``views`` and plan ``sql`` on ``cur``
        (in a worker thread) in the session's ``timezone``: the DuckDB
        relation, or None."""
        if timezone != "UTC":  # each cursor starts in UTC (the connection's)
            cur.execute("SET TimeZone = '" + timezone.replace("'", "''") + "'")
        leased = self._leases.setdefault(id(cur), [])
        natives: dict[str, str] = {}
        for name, table in (tables or {}).items():
            native = self.natives.use(table)
            if native is None:
                cur.register(name, _with_uuids(table))
            else:
                leased.append(native)
                natives[name] = native
        scanning = None if views else _scanning(sql, natives)
        if scanning is None:
            for name, native in natives.items():
                cur.execute(f'CREATE TEMP VIEW "{name}" AS SELECT * FROM "{native}"')
            scanning = sql
        for name, view_sql in views:
            cur.execute(f'CREATE TEMP VIEW "{name}" AS {view_sql}')
        return cur.sql(scanning, params=_referenced(sql, params))

    async def run(
        self,
        sql: str,
        tables: dict[str, pa.Table] | None = None,
        params: list | None = None,
        *,
        views: list[tuple[str, str]] = (),
        timeout: float | None = None,
        timezone: str = "UTC",
    ) -> pa.Table:
        """Run DuckDB ``sql`` with ``tables`` registered under their names and
        ``views`` (name, DuckDB SQL) created over them in order; timestamptz
        values are computed in ``timezone`` (casts, date_trunc, extract, ...).

        ``timeout`` (seconds) interrupts the query with 57014; cancelling the
        awaiting task interrupts it too (and re-raises the cancellation)."""
        cur = self._cursor()

        def work() -> pa.Table:
            rel = self._start(cur, sql, tables, params, views, timezone)
            return _plain(rel.to_arrow_table()) if rel is not None else pa.table({})

        try:
            return await _in_thread(cur, work, timeout)
        finally:
            self._finish(cur)

    async def stream(
        self,
        sql: str,
        tables: dict[str, pa.Table] | None = None,
        params: list | None = None,
        *,
        views: list[tuple[str, str]] = (),
        timeout: float | None = None,
        timezone: str = "UTC",
    ) -> "EngineStream":
        """Start DuckDB ``sql`` like ``run`` and return its result as a
        stream of record batches, computed as they are fetched (a result of
        any size holds one batch at a time). ``timeout`` bounds the whole
        query, fetches included."""
        cur = self._cursor()
        deadline = None if timeout is None else time.monotonic() + timeout

        def start():
            rel = self._start(cur, sql, tables, params, views, timezone)
            if rel is None:
                return None
            return rel.to_arrow_reader(STREAM_BATCH_ROWS)

        try:
            reader = await _in_thread(cur, start, timeout)
        except BaseException:
            self._finish(cur)
            raise
        if reader is None:
            self._finish(cur)
            return EngineStream(None, None, pa.schema([]), None)
        return EngineStream(cur, reader, _plain_schema(reader.schema), deadline, self._finish)

    def _finish(self, cur) -> None:
        """Close ``cur`` and end the leases its query held (taken off before
        the close, while no other cursor can have its id)."""
        leased = self._leases.pop(id(cur), [])
        _close(cur)
        self.natives.release(leased)

    def close(self) -> None:
        self.natives.close()
        self._db.close()
