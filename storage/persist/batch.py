"""Batches: writing updates as Parquet parts, and reading them back.

A batch is a set of updates ``(row, time, diff)`` written by one writer,
split into *parts* of at most ``part_bytes`` of Arrow data each. A part is a
Parquet file in Blob under ``<shard>/p/<writer>/<created_ms>-<uuid>`` (the
creation time lets GC recognise orphans older than its grace period), or,
when the whole batch is smaller than ``inline_threshold`` bytes, kept inline
in the shard state (saving a blob PUT). Parts in Blob are always Parquet; a
small part is encoded as Arrow IPC record batch messages without a schema
(tens of microseconds where a Parquet writer and reader take about a
millisecond, which a 1-row commit pays twice: its data and its txns row;
the shard's schema gives ``part_schema``, so a 1-row part is a third of a
self-describing stream), and made Parquet only if it goes to Blob after all
(``blob_bytes``). ``read_encoded`` reads either.

``BatchBuilder`` takes Arrow tables as they arrive and flushes a part every
``part_bytes``, so memory stays bounded by about two parts however big the
batch; finishing it returns a ``BatchHandle``.

``BatchHandle`` is *transmittable*: ``to_bytes()``/``from_bytes()`` let
another process (a Spark executor's driver, another gateway) commit a batch
it did not write. A batch built with a fixed time (``ts=`` on the builder)
has no ``_ts`` column: the time lives in each part's metadata, and
``rewrite_ts(t)`` returns a handle at time ``t`` without touching the data.

Invariants: a handle's parts are non-empty; their stats (rows, min/max time,
min/max diff) describe their data exactly; a part's blob key is written
once and never modified.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import io
import json
import time
import uuid
from dataclasses import dataclass, field, replace

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from storage.errors import DeterminateError, UsageError
from storage.location import Blob
from storage.persist import codec
from storage.persist.codec import DIFF, TS
from storage.persist.retry import retry_idempotent
from storage.persist.state import FOREVER, PartMeta, PartsStats


def part_key(shard_id: str, writer: str, now_ms: int | None = None) -> str:
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    return f"{shard_id}/p/{writer}/{now_ms:013d}-{uuid.uuid4().hex}"


def key_created_ms(key: str) -> int | None:
    """The creation time encoded in a part key, or None if it has none."""
    name = key.rsplit("/", 1)[-1]
    stamp = name.split("-", 1)[0]
    return int(stamp) if stamp.isdigit() else None


SMALL_PART_BYTES = 16 << 10


def _min_max(col: pa.ChunkedArray) -> tuple[int, int]:
    """The least and greatest of a column without NULLs (small ones in
    Python: a compute kernel call costs more than a few rows do)."""
    if len(col) <= 32:
        values = col.to_pylist()
        return min(values), max(values)
    lo, hi = pc.min_max(col).values()
    return lo.as_py(), hi.as_py()


def encode_parquet(table: pa.Table) -> bytes:
    """Parquet bytes of a physical table. The Arrow schema is not embedded
    (the shard's schema is applied on read); small tables skip compression
    and dictionaries, which would cost more bytes than they save."""
    sink = io.BytesIO()
    if table.nbytes < SMALL_PART_BYTES:
        pq.write_table(table, sink, compression="none", use_dictionary=False, write_statistics=False, store_schema=False)
    else:
        pq.write_table(table, sink, compression="zstd", compression_level=1, write_statistics=False, store_schema=False, row_group_size=1 << 20)
    return sink.getvalue()


_PARQUET_MAGIC = b"PAR1"
#: A small part: this prefix, then Arrow IPC record batch messages without
#: the schema (``part_schema`` gives it: the shard's, as the part holds it).
_SMALL_MAGIC = b"TGR1"


def part_schema(schema: pa.Schema, part: PartMeta) -> pa.Schema:
    """The physical schema of ``part`` of a shard of ``schema``: its
    columns as stored, ``_ts`` unless the time lives in its metadata,
    ``_diff``."""
    return _part_schema(schema, part.ts is not None)


@functools.lru_cache(maxsize=1024)
def _part_schema(schema: pa.Schema, timed: bool) -> pa.Schema:
    extra = ([] if timed else [pa.field(TS, pa.int64(), False)]) + [pa.field(DIFF, pa.int64(), False)]
    return pa.schema(list(codec.physical_schema(schema)) + extra)


def encode_small(table: pa.Table) -> bytes:
    """A small physical table (a part kept inline) as record batch
    messages without the schema: a 1-row commit's part shrinks to a third."""
    out = [_SMALL_MAGIC]
    for batch in table.combine_chunks().to_batches():
        out.append(batch.serialize().to_pybytes())
    return b"".join(out)


def read_encoded(data: bytes, schema: pa.Schema | None = None) -> pa.Table:
    """The physical table of an encoded part: Parquet, small (``schema``:
    its ``part_schema``, required), or an Arrow IPC stream (inline parts
    written before small ones had no schema)."""
    if data[:4] == _PARQUET_MAGIC:
        return pq.read_table(pa.BufferReader(data))
    if data[:4] == _SMALL_MAGIC:
        if schema is None:
            raise UsageError("a small part is read with its schema")
        reader = pa.BufferReader(data[4:])
        batches = []
        while reader.tell() < reader.size():
            batches.append(pa.ipc.read_record_batch(pa.ipc.read_message(reader), schema))
        return pa.Table.from_batches(batches, schema=schema)
    return pa.ipc.open_stream(data).read_all()


def blob_bytes(data: bytes, schema: pa.Schema | None = None) -> bytes:
    """An encoded part as it is stored in Blob: Parquet (``schema``: its
    ``part_schema``, for a small part)."""
    return data if data[:4] == _PARQUET_MAGIC else encode_parquet(read_encoded(data, schema))


def schema_fingerprint(schema: bytes) -> str:
    """A short digest of a shard schema's bytes: what a transmitted batch
    carries instead of the schema (the shard it is appended to has it)."""
    return hashlib.blake2b(schema, digest_size=8).hexdigest()


@dataclass(frozen=True)
class BatchHandle(PartsStats):
    """A written, not yet appended, batch: where its parts are and what they hold."""

    shard_id: str
    #: the schema's bytes (empty in a handle read back with ``from_bytes``,
    #: which has only its ``fingerprint``)
    schema: bytes
    parts: tuple[PartMeta, ...]
    #: unique per batch built, so two batches of equal inline rows (which
    #: carry no blob key) still encode differently
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:16])
    fingerprint: str = ""

    def __post_init__(self):
        if not self.fingerprint:
            object.__setattr__(self, "fingerprint", schema_fingerprint(self.schema))

    @property
    def min_ts(self) -> int | None:
        return min((p.min_ts for p in self.parts), default=None)

    @property
    def max_ts(self) -> int | None:
        return max((p.max_ts for p in self.parts), default=None)

    @property
    def retimestampable(self) -> bool:
        return all(p.ts is not None for p in self.parts)

    def rewrite_ts(self, ts: int) -> "BatchHandle":
        """The same data at time ``ts``; no data is rewritten or re-uploaded."""
        if not 0 <= ts < FOREVER:
            raise UsageError(f"time {ts} out of range")
        if not self.retimestampable:
            raise UsageError("batch was written with per-row times; only a batch built with a fixed ts can be re-timestamped")
        return replace(self, parts=tuple(p.with_ts(ts) for p in self.parts))

    def to_bytes(self) -> bytes:
        """The handle as bytes, with the schema's fingerprint in place of
        the schema (a txns row carries one of these per commit)."""
        return json.dumps(
            {"shard_id": self.shard_id, "id": self.id, "schema_fp": self.fingerprint, "parts": [p.to_json() for p in self.parts]},
            separators=(",", ":"),
        ).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> "BatchHandle":
        d = json.loads(data)
        parts = tuple(PartMeta.from_json(p) for p in d["parts"])
        if "schema" in d:  # written before fingerprints
            return cls(d["shard_id"], base64.b64decode(d["schema"]), parts, d.get("id", ""))
        return cls(d["shard_id"], b"", parts, d.get("id", ""), d["schema_fp"])

    async def delete(self, blob: Blob) -> None:
        """Remove the parts of a batch that will never be appended."""
        await asyncio.gather(*(blob.delete(k) for k in self.keys))


class BatchBuilder:
    """Accumulates updates and writes them as parts with bounded memory."""

    def __init__(
        self,
        blob: Blob,
        shard_id: str,
        schema: pa.Schema,
        writer: str,
        *,
        ts: int | None = None,
        part_bytes: int = 8 << 20,
        inline_threshold: int = 4096,
        max_uploads: int = 2,
        clock=None,
    ):
        if ts is not None and not 0 <= ts < FOREVER:
            raise UsageError(f"time {ts} out of range")
        self.blob = blob
        self.shard_id = shard_id
        self.schema = codec.check_schema(schema)
        self.physical = codec.physical_schema(schema)
        self.writer = writer
        self.ts = ts
        self.part_bytes = part_bytes
        self.inline_threshold = inline_threshold
        self.clock = clock
        self._pending: list[pa.Table] = []
        self._pending_bytes = 0
        self._parts: list[PartMeta] = []
        self._uploads: set[asyncio.Task] = set()
        self._upload_slots = asyncio.Semaphore(max_uploads)
        self._small: list[tuple[bytes, PartMeta]] = []  # encoded parts not yet uploaded (maybe inline)
        self._finished = False

    async def add(self, table: pa.Table | pa.RecordBatch, *, diff: int | pa.Array | None = None) -> None:
        """Add rows. Per-row times come from a ``_ts`` column unless the
        builder has a fixed ``ts``; diffs from ``_diff``, ``diff``, or 1."""
        if self._finished:
            raise UsageError("batch builder already finished")
        if isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        if table.num_rows == 0:
            return
        data = codec.conform(table, self.schema)
        cols = {n: data.column(n) for n in data.column_names}
        if self.ts is None:
            if TS not in table.column_names:
                raise UsageError("rows need a _ts column (or build the batch with a fixed ts)")
            cols[TS] = codec.cast_to(table.column(TS), pa.int64())
            if cols[TS].null_count:
                raise UsageError("_ts has NULLs")
        elif TS in table.column_names:
            raise UsageError("a batch built with a fixed ts takes no _ts column")
        if DIFF in table.column_names:
            cols[DIFF] = codec.cast_to(table.column(DIFF), pa.int64())
        elif isinstance(diff, (pa.Array, pa.ChunkedArray)):
            cols[DIFF] = codec.cast_to(diff, pa.int64())
        else:
            cols[DIFF] = pa.repeat(pa.scalar(1 if diff is None else int(diff), pa.int64()), table.num_rows)
        if cols[DIFF].null_count:
            raise UsageError("_diff has NULLs")
        full = pa.table(cols)
        self._pending.append(full)
        self._pending_bytes += full.nbytes
        if self._pending_bytes >= self.part_bytes:
            await self._flush()

    async def _flush(self) -> None:
        if not self._pending:
            return
        table = self._pending[0] if len(self._pending) == 1 else pa.concat_tables(self._pending)
        nbytes = self._pending_bytes
        self._pending, self._pending_bytes = [], 0
        # Cut oversized accumulations into parts of about part_bytes.
        per_row = max(1, nbytes // max(1, table.num_rows))
        rows_per_part = max(1, self.part_bytes // per_row)
        for offset in range(0, table.num_rows, rows_per_part):
            piece = table if rows_per_part >= table.num_rows else table.slice(offset, rows_per_part)
            small = (nbytes if piece is table else piece.nbytes) < SMALL_PART_BYTES
            if small:
                data, meta = self._encode(piece, small)
            else:  # keep the event loop free while encoding a big part
                data, meta = await asyncio.to_thread(self._encode, piece, small)
            if len(data) < self.inline_threshold and not self._parts and not self._uploads:
                self._small.append((data, meta))
                continue
            await self._drain_small()
            await self._upload(data, meta)

    def _encode(self, table: pa.Table, small: bool) -> tuple[bytes, PartMeta]:
        dmin, dmax = _min_max(table.column(DIFF))
        if self.ts is None:
            tmin, tmax = _min_max(table.column(TS))
            if tmin < 0 or tmax >= FOREVER:
                raise UsageError(f"times must be in [0, 2^63), got [{tmin}, {tmax}]")
        else:
            tmin = tmax = self.ts
        physical = codec.to_physical(table, self.schema)
        data = encode_small(physical) if small else encode_parquet(physical)
        meta = PartMeta(rows=table.num_rows, nbytes=len(data), min_ts=tmin, max_ts=tmax, min_diff=dmin, max_diff=dmax, ts=self.ts)
        return data, meta

    async def _drain_small(self) -> None:
        small, self._small = self._small, []
        for data, meta in small:
            await self._upload(data, meta)

    async def _upload(self, data: bytes, meta: PartMeta) -> None:
        key = part_key(self.shard_id, self.writer, self.clock() if self.clock else None)
        data = blob_bytes(data, part_schema(self.schema, meta))
        meta = replace(meta, key=key, nbytes=len(data))
        self._parts.append(meta)
        await self._upload_slots.acquire()

        async def put() -> None:
            try:
                await retry_idempotent(lambda: self.blob.set(key, data))
            finally:
                self._upload_slots.release()

        task = asyncio.create_task(put())
        self._uploads.add(task)
        task.add_done_callback(self._uploads.discard)
        # Surface a failed upload early instead of at finish().
        for t in [t for t in self._uploads if t.done()]:
            t.result()

    async def finish(self) -> BatchHandle:
        """Flush, wait for every upload, and return the handle."""
        if self._finished:
            raise UsageError("batch builder already finished")
        await self._flush()
        inline_total = sum(len(d) for d, _ in self._small)
        if self._parts or inline_total >= self.inline_threshold:
            await self._drain_small()
        parts = list(self._parts)
        if self._uploads:
            await asyncio.gather(*list(self._uploads))
        parts += [replace(meta, inline=data) for data, meta in self._small]
        self._small = []
        self._finished = True
        return BatchHandle(self.shard_id, codec.schema_to_bytes(self.schema), tuple(parts))

    async def abort(self) -> None:
        """Give up: wait for uploads in flight and delete every part written."""
        self._finished = True
        if self._uploads:
            await asyncio.gather(*list(self._uploads), return_exceptions=True)
        await asyncio.gather(*(self.blob.delete(p.key) for p in self._parts if p.key), return_exceptions=True)


async def fetch_part(blob: Blob, part: PartMeta) -> bytes:
    if part.inline is not None:
        return part.inline
    data = await retry_idempotent(lambda: blob.get(part.key))
    if data is None:
        raise DeterminateError(f"part {part.key} is missing from blob (deleted while still reachable?)")
    return data


def join_inline(parts: tuple[PartMeta, ...], schema: pa.Schema) -> tuple[PartMeta, ...]:
    """``parts`` (of a shard of ``schema``) with its inline parts joined
    into one, each row keeping its time (a ``_ts`` column): the commits of
    one apply, one row each, take one part's bytes and one entry in the
    shard's state instead of one each. Blob parts are kept as they are."""
    inline = [p for p in parts if p.inline is not None]
    if len(inline) < 2:
        return parts
    physical = pa.schema(list(codec.physical_schema(schema)) + [pa.field(TS, pa.int64(), False), pa.field(DIFF, pa.int64(), False)])
    tables = []
    for p in inline:
        table = read_encoded(p.inline, part_schema(schema, p))
        if p.ts is not None:
            table = table.append_column(pa.field(TS, pa.int64(), False), pa.repeat(pa.scalar(p.ts, pa.int64()), table.num_rows))
        tables.append(codec.cast_table(table.select(physical.names), physical))
    joined = pa.concat_tables(tables)
    data = encode_small(joined)
    part = PartMeta(rows=joined.num_rows, nbytes=len(data), min_ts=min(p.min_ts for p in inline), max_ts=max(p.max_ts for p in inline),
                    min_diff=min(p.min_diff for p in inline), max_diff=max(p.max_diff for p in inline), inline=data)
    return tuple(p for p in parts if p.inline is None) + (part,)


def decode_part(data: bytes, part: PartMeta, schema: pa.Schema) -> pa.Table:
    """A part's updates as a logical table: user columns, ``_ts``, ``_diff``."""
    table = read_encoded(data, part_schema(schema, part))
    if part.ts is not None:
        table = table.append_column(pa.field(TS, pa.int64(), False), pa.repeat(pa.scalar(part.ts, pa.int64()), table.num_rows))
    canonical = codec.updates_schema(schema)
    physical = codec.physical_schema(canonical)
    cols = []
    for f in physical:
        col = table.column(f.name)
        cols.append(col if col.type.equals(f.type) else col.cast(f.type))
    table = pa.Table.from_arrays(cols, schema=physical)
    return codec.to_logical(table, canonical)


async def adopt_parquet(blob: Blob, shard_id: str, schema: pa.Schema, writer: str, staged_prefix: str) -> BatchHandle | None:
    """A batch for ``shard_id`` made of the Parquet files a writer outside
    txngate (Spark's own Parquet writer) put under ``staged_prefix``
    (``blob.external_path`` of it), or None when they hold no rows.

    Each ``*.parquet`` file is checked to hold ``schema``'s physical
    columns and ``_diff`` (``UsageError`` if not: a part is updates),
    described by its footer (rows) and its ``_diff`` column (the part's
    diff range), and
    adopted as a part of ``writer`` at a placeholder time (commit it with
    ``rewrite_ts`` like any batch). Everything else there (markers,
    checksums, empty files) is deleted. On an error nothing is adopted
    that the caller could see; it deletes ``staged_prefix`` and the writer's
    parts."""
    wanted = [f.name for f in codec.physical_schema(schema)] + [DIFF]
    parts = []
    for meta in await blob.list(staged_prefix):
        name = meta.key.rsplit("/", 1)[-1]
        if not (name.startswith("part-") and name.endswith(".parquet")):
            await blob.delete(meta.key)
            continue
        footer = await asyncio.to_thread(_footer, await _local_or_bytes(blob, meta.key))
        if footer.num_rows == 0:
            await blob.delete(meta.key)
            continue
        missing = [c for c in wanted if c not in footer.schema.names]
        if missing:
            raise UsageError(f"adopting {meta.key!r} for shard {shard_id}: no column {missing[0]!r}")
        diffs = await asyncio.to_thread(_diff_range, await _local_or_bytes(blob, meta.key))
        key = part_key(shard_id, writer)
        await blob.adopt(meta.key, key)
        parts.append(PartMeta(rows=footer.num_rows, nbytes=meta.size, min_ts=0, max_ts=0, min_diff=diffs[0], max_diff=diffs[1], key=key, ts=0))
    if not parts:
        return None
    return BatchHandle(shard_id, codec.schema_to_bytes(schema), tuple(parts))


async def _local_or_bytes(blob: Blob, key: str) -> str | bytes:
    """A Parquet file to read: its local path, else its bytes."""
    path = blob.external_path(key)
    if path is not None:
        return path
    data = await blob.get(key)
    if data is None:
        raise UsageError(f"adopting {key!r}: it is gone")
    return data


def _parquet_file(source: str | bytes) -> pq.ParquetFile:
    return pq.ParquetFile(source if isinstance(source, str) else io.BytesIO(source))


def _footer(source: str | bytes) -> pq.FileMetaData:
    return _parquet_file(source).metadata


def _diff_range(source: str | bytes) -> tuple[int, int]:
    d = _parquet_file(source).read(columns=[DIFF]).column(DIFF)
    lo, hi = (x.as_py() for x in pc.min_max(d).values())
    return lo, hi
