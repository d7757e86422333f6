"""Compaction: keeping a shard's batch list short and its data consolidated.

Selection is size-tiered (seed 003, "Compaction"): ignoring a trailing empty
batch, find the leftmost adjacent pair where the older batch holds fewer
than twice the rows of the newer one, and merge everything from there to the
end, once that run holds ``LAZY_RUN`` batches. Under a stream of equal
appends this behaves like a binary counter that carries in groups: a shard
of n rows keeps at most about log2(n) + LAZY_RUN batches, and every row is
rewritten O(log n) times. A small shard holding retractions is merged whole
instead (``CONSOLIDATE_ROWS``), so they cancel the rows they retract.

Merging reads the inputs' parts, advances times below the shard's since (see
``consolidate.advance``) and consolidates. Parts already near the target
size that hold no retractions are reused as they are (no rewrite; the output
batch points at the same blobs), so compacting large insert-only batches
costs no data I/O. Inputs with retractions are consolidated together, in
memory, up to ``MAX_CONSOLIDATE_BYTES``; beyond that they are re-encoded
part by part without cross-part consolidation (still correct, just less
compact). An output small enough stays inline in the state, as its inputs
were (``inline_room``).

The result is installed with a CaS that checks the inputs are still present
and contiguous (``state.replace_batches``); if another compactor got there
first, the output parts this run wrote are deleted. The head is read once
before the output is written, so a run another process finished meanwhile
writes nothing (with two gateway processes each compacting after its own
appends, half the outputs were written to Blob only to be deleted). Writers never wait for
compaction: it runs in background tasks started by ``Maintenance``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import uuid
from dataclasses import dataclass

import pyarrow as pa

from storage.location import Blob
from storage.persist import codec
from storage.persist import state as st
from storage.persist.batch import BatchBuilder, decode_part, fetch_part
from storage.persist.config import PersistConfig
from storage.persist.consolidate import advance, consolidate
from storage.persist.machine import Machine

logger = logging.getLogger(__name__)

MAX_CONSOLIDATE_BYTES = 256 << 20
COMPACTOR = "compactor"


#: Merge a run of small batches only once this many have piled up (unless
#: the shard has more batches than its size justifies): one merge of eight
#: tiny batches costs about what a merge of two does. (At four, the txns
#: shard was compacted after every second commit, a sixth of a one-row
#: INSERT's CPU; at eight, 1-row INSERTs cost 10-15% less.)
LAZY_RUN = 8


#: A shard of at most this many rows, some of them retractions, is merged
#: whole once ``LAZY_RUN`` batches pile up and its since has passed into
#: the second: its retractions meet the rows they cancel, which size tiers
#: would keep apart until the newer batches grew to half the older ones
#: (the txns shard, whose every row is retracted soon after it is written,
#: kept thousands of rows for tens live).
CONSOLIDATE_ROWS = 8192


def choose(state: st.ShardState) -> list[st.BatchMeta] | None:
    """The run of batches to merge next, or None if the shape is fine."""
    batches = list(state.batches)
    if batches and not batches[-1].parts:
        batches.pop()
    if len(batches) >= LAZY_RUN and batches[1].lower <= state.since and sum(b.rows for b in batches) <= CONSOLIDATE_ROWS \
            and any(p.min_diff < 0 for b in batches for p in b.parts):
        return batches  # (only once the since lets newer updates meet the oldest batch's: else it would rewrite them for nothing)
    for i in range(len(batches) - 1):
        older, newer = batches[i].rows, batches[i + 1].rows
        if older < 2 * newer or older == 0:
            run = batches[i:]
            total = sum(b.rows for b in batches)
            if len(run) < LAZY_RUN and len(batches) <= math.log2(total + 1) + LAZY_RUN:
                return None
            return run
    return None


def inline_room(state: st.ShardState, inputs: list[st.BatchMeta], config: PersistConfig) -> int:
    """The bytes below which a compaction's output stays inline: at least
    ``config.inline_threshold``, and up to what keeps the state's inline
    bytes within half their cap once the inputs are gone. Merging small
    inline batches (the txns shard's, a small table's updates) then costs
    no Blob write and no Parquet encode, where a 5 KB output of the txns
    shard went to Blob (with its fsync) about every third commit; the other
    half of the cap stays free for appends, which would otherwise move to
    Blob themselves."""
    others = state.inline_bytes - sum(b.inline_bytes for b in inputs)
    return max(config.inline_threshold, config.max_inline_bytes // 2 - others)


@dataclass
class CompactionResult:
    applied: bool
    inputs: int
    rows_in: int
    rows_out: int
    bytes_written: int


async def compact_run(machine: Machine, blob: Blob, config: PersistConfig, inputs: list[st.BatchMeta]) -> CompactionResult:
    state = await machine.current()
    schema = codec.schema_from_bytes(state.schema)
    since = state.since
    upper = inputs[-1].upper
    parts = [(b, p) for b in inputs for p in b.parts]
    retractions = any(p.min_diff < 0 for _, p in parts)
    total = sum(p.nbytes for _, p in parts)
    builder = BatchBuilder(blob, machine.shard_id, schema, COMPACTOR, part_bytes=config.part_bytes,
                           inline_threshold=inline_room(state, inputs, config), clock=config.clock)
    reused: list[st.PartMeta] = []

    def merge(datas: list[bytes], metas: list[st.PartMeta]) -> pa.Table:
        tables = [advance(decode_part(d, m, schema), since, upper) for d, m in zip(datas, metas)]
        return consolidate(pa.concat_tables(tables))

    async def merge_chunk(metas: list[st.PartMeta]) -> None:
        datas = await asyncio.gather(*(fetch_part(blob, m) for m in metas))
        await builder.add(await asyncio.to_thread(merge, datas, metas))

    try:
        if retractions and total <= MAX_CONSOLIDATE_BYTES:
            await merge_chunk([p for _, p in parts])
        else:
            # Reuse big insert-only parts as they are; merge the rest in
            # chunks of about one part's worth of encoded bytes.
            keep_at = config.part_bytes // 4
            chunk: list[st.PartMeta] = []
            chunk_bytes = 0
            for _, p in parts:
                if p.key is not None and p.nbytes >= keep_at and p.min_diff >= 0:
                    reused.append(p)
                    continue
                chunk.append(p)
                chunk_bytes += p.nbytes
                if chunk_bytes >= keep_at:
                    await merge_chunk(chunk)
                    chunk, chunk_bytes = [], 0
            if chunk:
                await merge_chunk(chunk)
        if st.run_start(await machine.fetch(), [b.id for b in inputs]) is None:
            # another process compacted them meanwhile (it appended too): a
            # small output is not written at all, a big one's parts go now
            await builder.abort()
            return CompactionResult(False, len(inputs), sum(b.rows for b in inputs), 0, 0)
        handle = await builder.finish()
    except BaseException:
        await builder.abort()
        raise
    written = handle.parts
    output = st.BatchMeta(uuid.uuid4().hex[:16], inputs[0].lower, upper, since, tuple(reused) + tuple(written))
    ids = [b.id for b in inputs]

    def t(s: st.ShardState):
        if any(b.id == output.id for b in s.batches):
            return None, True  # our own earlier attempt landed (indeterminate CaS)
        new = st.replace_batches(s, ids, output)
        if new is not None and new.inline_bytes > config.max_inline_bytes:
            return None, False
        return new, new is not None

    _, applied = await machine.apply(t)
    if not applied:
        await handle.delete(blob)
    return CompactionResult(
        applied, len(inputs), sum(b.rows for b in inputs), sum(p.rows for p in output.parts), handle.nbytes
    )


class Maintenance:
    """Background compaction and GC started after appends, at most one of
    each per shard per process. Failures are logged, never raised to writers."""

    def __init__(self, config: PersistConfig, gc_fn):
        self.config = config
        self._gc_fn = gc_fn
        self._running: dict[tuple[str, str], asyncio.Task] = {}
        self.finished = {"compact": 0, "gc": 0}  # runs done (metrics)
        self.failed = {"compact": 0, "gc": 0}

    def __call__(self, handle, state: st.ShardState) -> None:
        shard = handle.shard_id
        if self.config.compaction and choose(state) is not None:
            self._spawn((shard, "compact"), self._compact_loop(handle.machine, handle.blob))
        if state.seqno - state.gc_seqno >= self.config.gc_every_seqnos:
            self._spawn((shard, "gc"), self._gc_fn(shard))

    def _spawn(self, key: tuple[str, str], coro) -> None:
        task = self._running.get(key)
        if task is not None and not task.done():
            coro.close()
            return
        task = asyncio.create_task(self._guard(key, coro))
        self._running[key] = task

    async def _guard(self, key, coro) -> None:
        try:
            await coro
            self.finished[key[1]] += 1
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001
            self.failed[key[1]] += 1
            logger.warning("background %s of shard %s failed", key[1], key[0], exc_info=True)

    def running(self, kind: str) -> int:
        """Background runs of ``kind`` ("compact" or "gc") under way: the backlog."""
        return sum(1 for (_s, k), t in self._running.items() if k == kind and not t.done())

    async def _compact_loop(self, machine: Machine, blob: Blob) -> None:
        while True:
            inputs = choose(await machine.current())
            if inputs is None:
                return
            await compact_run(machine, blob, self.config, inputs)

    async def idle(self) -> None:
        while any(not t.done() for t in self._running.values()):
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def close(self) -> None:
        for t in self._running.values():
            t.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
        self._running.clear()
