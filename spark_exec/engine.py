"""The Spark engine: queries over leased snapshots, results as Arrow
batches, writes as batches of Parquet parts.

``SparkEngine.stream(sql, sources)`` registers each source — the parts of
one shard's snapshot at the statement's ``read_ts``, leased so GC keeps them
(``storage.persist.LeasedParts``) — as a temporary view of its
*consolidated contents*, runs ``sql`` (Spark SQL) over them, and returns the
rows as a stream of Arrow record batches: executors encode each batch as
Arrow IPC and the driver pulls one partition at a time
(``toLocalIterator``), so a result of any size holds about one partition in
memory.

``SparkEngine.write(sql, sources, shard, schema)`` runs ``sql`` and writes
its rows as one or more batches for ``shard`` with a placeholder time, so
they can be committed at any ``write_ts`` and re-timestamped without being
rewritten; the planner commits the returned handles through the txns
shard. Two writers:

* where the Blob is a local folder (``native_writes``), Spark's own Parquet
  writer writes the files where the Blob lets an outside writer put them
  (the query already casts to the shard's types and checks its
  constraints), and storage adopts them as parts
  (``storage.persist.adopt_parquet``: checked, described by their footers,
  moved to part keys). This keeps rows in the JVM: handing them to Python
  costs more than writing;
* elsewhere executors run txngate's batch writer (Arrow to Parquet, through
  ``storage.location``) over Arrow batches, applying the planner's
  ``transform`` (type conformance and constraints) to each, and return
  batch handles to the driver.

Every part a job writes is under ``<shard>/p/<writer>/`` with a writer id of
its own: after the job the driver deletes every part there that no returned
handle names (failed or retried task attempts), and after a failed or
cancelled job, all of them. So nothing but the committed handles' parts
survives.

Consolidation (the sum of diffs per row) runs in Spark when a snapshot holds
retractions or multiplicities; otherwise stored rows are the contents.

Invariants: a source's rows are exactly its shard's contents at ``as_of``
(filtering out later updates of parts that straddle it); a failed write
leaves no part behind that the driver could see.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import os
import time
import uuid
from dataclasses import dataclass
from typing import Callable

import shutil

import pyarrow as pa

from spark_exec.datasource import NAME, physical_fields, spark_ddl, spark_type
from spark_exec.runtime import SparkError, SparkRuntime
from storage.location import Blob
from storage.persist import DIFF, TS, BatchHandle, LeasedParts, adopt_parquet, schema_from_bytes, schema_to_bytes

#: Arrow bytes per part written by an executor
WRITE_PART_BYTES = 32 << 20
#: rows per Arrow batch handed to an executor's part writer
WRITE_BATCH_ROWS = 1 << 17
#: rows per part when Spark's own writer writes the parts
NATIVE_ROWS_PER_PART = 1 << 20


@dataclass(frozen=True)
class BlobAccess:
    """How Spark reaches the Blob: its URL (executors open it through
    txngate's own Blob code) and, when Spark can read parts natively, the
    path of a key (a local folder, or ``s3a://``)."""

    url: str
    blob: Blob
    native_path: Callable[[str], str] | None = None


def supported(schema: pa.Schema) -> str | None:
    """Why a shard of ``schema`` cannot be read on Spark, or None."""
    for f in physical_fields(schema):
        try:
            spark_type(f.type)
        except ValueError:
            return f"column {f.name} of type {f.type}"
    return None


def snapshot_frame(spark, leased: LeasedParts, access: BlobAccess):
    """The contents of a leased snapshot as a DataFrame of its user columns."""
    from pyspark.sql import functions as F

    fields = physical_fields(leased.schema)
    ddl = spark_ddl(fields)
    keyed = [p for p in leased.parts if p.key is not None]
    others = [p for p in leased.parts if p.key is None]
    frames = []
    if access.native_path is not None and keyed:
        frames.append(spark.read.schema(ddl).parquet(*[access.native_path(p.key) for p in keyed]))
    else:
        others = list(leased.parts)
    if others:
        frames.append(
            spark.read.format(NAME)
            .option("blob", access.url)
            .option("schema", base64.b64encode(schema_to_bytes(leased.schema)).decode())
            .option("parts", json.dumps([p.to_json() for p in others]))
            .load()
        )
    if not frames:
        return spark.createDataFrame([], ddl).select(*[F.col(f"`{n}`") for n in leased.schema.names])
    df = frames[0]
    for more in frames[1:]:
        df = df.unionByName(more)
    if any(p.max_ts > leased.as_of for p in leased.parts):
        df = df.where(F.col(TS).isNull() | (F.col(TS) <= F.lit(leased.as_of)))
    cols = [F.col(f"`{n}`") for n in leased.schema.names]
    if not leased.needs_consolidation:
        return df.select(*cols)
    summed = df.groupBy(*cols).agg(F.sum(DIFF).alias("__n")).where(F.col("__n") > 0)
    return summed.select(*cols, F.explode(F.sequence(F.lit(1).cast("bigint"), F.col("__n"))).alias("__i")).drop("__i")


def _pack(batches):
    """Executor side of streaming: each Arrow batch as one row of IPC bytes."""
    for batch in batches:
        if batch.num_rows == 0:
            continue
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, batch.schema) as w:
            w.write_batch(batch)
        yield pa.RecordBatch.from_arrays([pa.array([sink.getvalue().to_pybytes()], pa.binary())], names=["ipc"])


def _write_parts(blob_url: str, shard_id: str, schema_bytes: bytes, writer: str, transform, part_bytes: int, batches):
    """Executor side of writing: this task's rows as one batch of parts;
    yields its handle (none when the task had no rows)."""
    import asyncio as aio

    from storage.location import open_blob
    from storage.persist import BatchBuilder

    schema = schema_from_bytes(schema_bytes)

    async def go():
        blob = await open_blob(blob_url)
        builder = BatchBuilder(blob, shard_id, schema, writer, ts=0, part_bytes=part_bytes)
        try:
            for batch in batches:
                table = pa.Table.from_batches([batch])
                # Spark names result columns its own way: the query's columns
                # are the shard's, in order (then _diff, if given).
                table = table.rename_columns(schema.names + [DIFF] * (table.num_columns - len(schema.names)))
                if transform is not None:
                    table = transform(table)
                await builder.add(table)
            return await builder.finish()
        except BaseException:
            await builder.abort()  # this attempt's parts; the driver sweeps the rest
            raise
        finally:
            await blob.close()

    try:
        handle = aio.run(go())
    except Exception as e:
        state = getattr(e, "sqlstate", None)
        if state:  # keep the SQLSTATE across the JVM
            raise RuntimeError(f"TXNGATE_SQLSTATE[{state}]: {getattr(e, 'message', str(e))}") from None
        raise
    if handle.parts:
        yield pa.RecordBatch.from_arrays([pa.array([handle.to_bytes()], pa.binary())], names=["handle"])


def _arrow_schema(spark_schema) -> pa.Schema:
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(spark_schema, timezone="UTC")


class SparkStream:
    """The rows of one running Spark query, one Arrow batch per ``next()``.
    Invariant: the query's jobs are cancelled and its leases released
    exactly once (at the end, on an error, or by ``close()``)."""

    def __init__(self, runtime: SparkRuntime, group: str, rows, schema: pa.Schema, deadline: float | None, on_close: Callable[[], None], progress: dict):
        self.runtime, self.group, self._rows, self.schema, self._deadline = runtime, group, rows, schema, deadline
        self._on_close = on_close
        self._progress = progress

    async def next(self) -> pa.RecordBatch | None:
        while self._rows is not None:
            timeout = None if self._deadline is None else max(0.0, self._deadline - time.monotonic())
            try:
                row = await self.runtime.run(self.group, lambda: next(self._rows, None), timeout=timeout, **self._progress)
            except BaseException:
                self.close()
                raise
            if row is None:
                self.close()
                return None
            table = pa.ipc.open_stream(row[0]).read_all()
            if table.num_rows:
                return table.combine_chunks().to_batches()[0]
        return None

    def close(self) -> None:
        if self._on_close is not None:
            rows, self._rows, on_close, self._on_close = self._rows, None, self._on_close, None
            if rows is not None:
                self.runtime.cancel(self.group)
            on_close()


class SparkEngine:
    def __init__(self, runtime: SparkRuntime, access: BlobAccess, *, part_bytes: int = WRITE_PART_BYTES):
        self.runtime = runtime
        self.access = access
        self.part_bytes = part_bytes

    async def _prepare(self, sql: str, sources: dict[str, LeasedParts], conf: dict[str, str] | None = None):
        """A fresh session with ``sources`` as temp views; returns a function
        that builds ``sql``'s DataFrame (called in the job's thread)."""
        session = await self.runtime.session()
        for key, value in (conf or {}).items():
            session.conf.set(key, value)

        def frame():
            for name, leased in sources.items():
                snapshot_frame(session, leased, self.access).createOrReplaceTempView(name)
            return session.sql(sql)

        return frame

    async def stream(self, sql: str, sources: dict[str, LeasedParts], *, timeout: float | None = None,
                     on_progress: Callable[[str], None] | None = None, progress_every: float = 5.0,
                     on_close: Callable[[], None] = lambda: None, timezone: str = "UTC") -> SparkStream:
        """Start ``sql`` over ``sources`` and return its rows as a stream
        (timestamptz computed in ``timezone``, the session's)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self.runtime.jobs_started += 1
        frame = await self._prepare(sql, sources, {"spark.sql.session.timeZone": timezone})
        group = self.runtime.new_group()

        def start():
            df = frame()
            return _arrow_schema(df.schema), df.mapInArrow(_pack, "ipc binary").toLocalIterator(prefetchPartitions=False)

        progress = {"on_progress": on_progress, "progress_every": progress_every}
        schema, rows = await self.runtime.run(group, start, timeout=timeout, description=sql[:200], **progress)
        return SparkStream(self.runtime, group, iter(rows), schema, deadline, on_close, progress)

    @property
    def native_writes(self) -> bool:
        """Whether Spark's own Parquet writer can write parts (see ``write``):
        where the Blob is a local folder Spark writes into."""
        return self.access.blob.external_path("x") is not None

    async def write(self, sql: str, sources: dict[str, LeasedParts], *, shard_id: str, schema: pa.Schema,
                    transform: Callable[[pa.Table], pa.Table] | None = None, native: bool = False, timeout: float | None = None,
                    on_progress: Callable[[str], None] | None = None, progress_every: float = 5.0, timezone: str = "UTC") -> list[BatchHandle]:
        """Run ``sql`` (timestamptz computed in ``timezone``) and write its rows (``schema``'s columns in order,
        optionally ``_diff`` last) as batches for ``shard_id``; returns their handles,
        not yet committed. On any failure no part of the job remains.

        ``native`` (only where ``native_writes``): ``sql`` already yields
        ``schema``'s exact types and enforces its constraints, so Spark's
        own Parquet writer writes the parts (no ``transform``, no hand-off
        of rows to Python); else executors run txngate's batch writer, with
        ``transform`` applied to each Arrow batch."""
        if native:
            assert self.native_writes and transform is None, "a native write needs a local Blob and checks in its SQL"
            return await self._native_write(sql, sources, shard_id, schema, timeout=timeout, on_progress=on_progress, progress_every=progress_every,
                                            timezone=timezone)
        self.runtime.jobs_started += 1
        # Executors hand whole batches to the part writer: fewer, larger
        # Arrow batches cost less per row to move from the JVM to Python.
        frame = await self._prepare(sql, sources, {"spark.sql.execution.arrow.maxRecordsPerBatch": str(WRITE_BATCH_ROWS),
                                                   "spark.sql.session.timeZone": timezone})
        group = self.runtime.new_group()
        writer = f"spark-{uuid.uuid4().hex[:16]}"
        fn = functools.partial(_write_parts, self.access.url, shard_id, schema_to_bytes(schema), writer, transform, self.part_bytes)

        def job():
            return [bytes(r[0]) for r in frame().mapInArrow(fn, "handle binary").collect()]

        try:
            raw = await self.runtime.run(group, job, timeout=timeout, on_progress=on_progress, progress_every=progress_every, description=sql[:200])
        except BaseException:
            await asyncio.shield(self._sweep(shard_id, writer, keep=set()))
            raise
        handles = [BatchHandle.from_bytes(b) for b in raw]
        await self._sweep(shard_id, writer, keep={k for h in handles for k in h.keys})
        return handles

    async def _native_write(self, sql, sources, shard_id: str, schema: pa.Schema, **run) -> list[BatchHandle]:
        """Spark writes the Parquet files itself where the Blob lets an
        outside writer put them (``Blob.external_path``); storage then
        adopts them as parts of one batch (``storage.persist.adopt_parquet``:
        checked, described by their footers, moved to part keys)."""
        self.runtime.jobs_started += 1
        frame = await self._prepare(sql, sources, {"spark.sql.session.timeZone": run.pop("timezone", "UTC")})
        group = self.runtime.new_group()
        writer = f"spark-{uuid.uuid4().hex[:16]}"
        staged = f"{shard_id}/staged/{writer}"
        folder = self.access.blob.external_path(staged)

        def job():
            frame().write.option("compression", "snappy").option("maxRecordsPerFile", NATIVE_ROWS_PER_PART).mode("errorifexists").parquet(folder)

        try:
            await self.runtime.run(group, job, description=sql[:200], **run)
            batch = await adopt_parquet(self.access.blob, shard_id, schema, writer, staged + "/")
        except BaseException:
            await asyncio.shield(self._sweep_prefixes(f"{staged}/", f"{shard_id}/p/{writer}/"))
            raise
        finally:
            if os.path.isdir(folder):  # the folders Spark made (its files are adopted or swept)
                await asyncio.to_thread(shutil.rmtree, folder, True)
        return [] if batch is None else [batch]

    async def _sweep_prefixes(self, *prefixes: str) -> None:
        for prefix in prefixes:
            metas = await self.access.blob.list(prefix)
            await asyncio.gather(*(self.access.blob.delete(m.key) for m in metas))

    async def _sweep(self, shard_id: str, writer: str, keep: set[str]) -> int:
        """Delete the parts ``writer`` left under its prefix that are not in ``keep``."""
        metas = await self.access.blob.list(f"{shard_id}/p/{writer}/")
        gone = [m.key for m in metas if m.key not in keep]
        await asyncio.gather(*(self.access.blob.delete(k) for k in gone))
        return len(gone)


__all__ = ["BlobAccess", "SparkEngine", "SparkError", "SparkStream", "snapshot_frame", "supported"]
