"""Read handles: snapshots, listening, and holding back compaction and GC.

A ``ReadHandle`` is a registered reader of one shard with a lease. While its
lease is live it holds two things back:

* its ``since``: compaction never advances times past it, so a snapshot at
  any ``as_of >= since`` is exact;
* its ``seqno_since``: GC never deletes a blob reachable from any state at
  seqno >= it. Each snapshot registers the seqno of the state it reads in the
  handle; heartbeats set ``seqno_since`` to the oldest seqno still in use, so
  a long snapshot keeps its parts alive.

A background task heartbeats every third of the lease. A reader that stops
heartbeating (a crashed process) expires, and its holds are released.

``lease_parts(as_of)`` hands out the parts of a snapshot themselves (for an
engine that reads Parquet on its own, e.g. Spark): the state they come
from stays pinned, so GC keeps every one of them, until ``release()``.

``snapshot(as_of)`` waits until ``upper > as_of``, refuses ``as_of < since``
(UsageError), and streams the contents as Arrow record batches, part by part
(bounded memory) when no part holds a retraction; retractions force a
consolidation of the parts that hold times <= as_of in memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass
from typing import AsyncIterator

import pyarrow as pa
import pyarrow.compute as pc

from storage.errors import UsageError
from storage.location import Blob
from storage.persist import codec
from storage.persist import state as st
from storage.persist.batch import decode_part, fetch_part
from storage.persist.codec import DIFF, TS
from storage.persist.config import PersistConfig
from storage.persist.consolidate import collapse, consolidate, expand
from storage.persist.handle_base import ShardHandle
from storage.persist.machine import Machine

logger = logging.getLogger(__name__)

PREFETCH = 4
SMALL_DECODE_BYTES = 64 << 10
#: rows above which consolidating a snapshot runs on a thread
THREAD_ROWS = 50_000


@dataclass
class LeasedParts:
    """The parts holding a shard's updates at times <= ``as_of``, pinned
    against GC until ``release()``. A part with ``max_ts > as_of`` also holds
    later updates, which a reader must filter out by ``_ts``."""

    shard_id: str
    schema: pa.Schema
    as_of: int
    parts: tuple[st.PartMeta, ...]
    _release: object = None

    @property
    def nbytes(self) -> int:
        """Encoded (Parquet) bytes: what a reader fetches."""
        return sum(p.nbytes for p in self.parts)

    @property
    def needs_consolidation(self) -> bool:
        """Whether rows must be summed by their diffs (some retract, or count
        more than once); else every stored row is one row of the contents."""
        return any(p.min_diff != 1 or p.max_diff != 1 for p in self.parts)

    def release(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()


async def _consolidated(updates: pa.Table, then=lambda t: t) -> pa.Table:
    """``then(collapse(updates))``, on a thread when large (grouping every
    row of a big shard would stall the event loop for seconds)."""
    if updates.num_rows < THREAD_ROWS:
        return then(collapse(updates))
    return await asyncio.to_thread(lambda: then(collapse(updates)))


class ReadHandle(ShardHandle):
    def __init__(self, machine: Machine, blob: Blob, reader_id: str, config: PersistConfig):
        super().__init__(machine, blob, config)
        self.reader_id = reader_id
        self._in_use: Counter[int] = Counter()
        self._heartbeat_task: asyncio.Task | None = None
        self._expired = False
        # Pinning a state and heartbeating are serialized, so a heartbeat
        # never advances seqno_since past a state a snapshot is about to use.
        self._pin_lock = asyncio.Lock()

    @property
    def since(self) -> int:
        r = self.machine.state.readers.get(self.reader_id)
        if r is None:
            raise UsageError(f"reader {self.reader_id} of shard {self.shard_id} has expired")
        return r.since

    def start_heartbeats(self) -> None:
        if self._heartbeat_task is None:
            self._heartbeat_task = asyncio.create_task(self._heartbeat_loop())

    async def _heartbeat_loop(self) -> None:
        # Often enough that GC can release old state versions promptly, and
        # well within the lease.
        interval = min(self.config.reader_lease_ms / 3000, 30.0)
        while not self._expired:
            await asyncio.sleep(interval)
            try:
                await self.heartbeat()
            except UsageError:
                return  # expired by someone else; further use reports it
            except Exception:  # noqa: BLE001 - keep trying; the lease is long
                logger.warning("reader heartbeat failed", exc_info=True, extra={"shard": self.shard_id, "reader": self.reader_id})

    def _seqno_since(self, state: st.ShardState) -> int:
        return min(self._in_use) if self._in_use else state.seqno + 1

    async def heartbeat(self, *, since: int | None = None) -> None:
        lease = self.config.clock() + self.config.reader_lease_ms

        def t(s: st.ShardState):
            return st.heartbeat_reader(s, self.reader_id, since=since, seqno_since=self._seqno_since(s), lease_expires_at=lease), None

        async with self._pin_lock:
            await self.machine.apply(t)

    async def downgrade_since(self, since: int) -> None:
        """Promise never to read at times < ``since``; lets compaction advance."""
        await self.heartbeat(since=since)

    async def expire(self) -> None:
        self._expired = True
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
            self._heartbeat_task = None
        await self.machine.apply(lambda s: (st.expire_reader(s, self.reader_id), None))

    async def wait_for_upper(self, t: int, timeout: float | None = None) -> st.ShardState:
        """Block until every update at times <= ``t`` is known (upper > t)."""
        return await self.machine.wait_for(lambda s: s.upper > t, timeout)

    async def _pin(self, as_of: int, timeout: float | None) -> st.ShardState:
        if as_of < 0 or as_of >= st.FOREVER:
            raise UsageError(f"as_of {as_of} out of range")
        await self.wait_for_upper(as_of, timeout)
        return await self._hold(as_of)

    async def _hold(self, as_of: int, upper: int | None = None) -> st.ShardState:
        async with self._pin_lock:
            # The cached state is never older than this reader's own hold
            # (heartbeats run through this machine), so it is safe to read;
            # fetch only if it does not cover as_of (and ``upper``) yet.
            state = self.machine.state
            if (state is None or state.upper <= as_of or (upper is not None and state.upper < upper)
                    or self.reader_id not in state.readers):
                state = await self.machine.fetch()
            r = state.readers.get(self.reader_id)
            if r is None:
                raise UsageError(f"reader {self.reader_id} of shard {self.shard_id} has expired")
            if as_of < r.since:
                raise UsageError(f"cannot read shard {self.shard_id} as of {as_of}: since is {r.since}")
            assert r.seqno_since <= state.seqno, "reader hold is ahead of the state it reads"
            self._in_use[state.seqno] += 1
            return state

    def _unpin(self, state: st.ShardState) -> None:
        self._in_use[state.seqno] -= 1
        if self._in_use[state.seqno] <= 0:
            del self._in_use[state.seqno]

    async def _parts(self, state: st.ShardState, as_of: int):
        """Decoded parts with times <= as_of, fetched a few ahead."""
        schema = codec.schema_from_bytes(state.schema)
        wanted = [p for b in state.batches_for(as_of) for p in b.parts if p.min_ts <= as_of]
        queue: list[asyncio.Task] = []
        try:
            for i, part in enumerate(wanted):
                while len(queue) < PREFETCH and i + len(queue) < len(wanted):
                    queue.append(asyncio.create_task(fetch_part(self.blob, wanted[i + len(queue)])))
                data = await queue.pop(0)
                if part.nbytes < SMALL_DECODE_BYTES:
                    table = decode_part(data, part, schema)  # cheaper than a thread hop
                else:
                    table = await asyncio.to_thread(decode_part, data, part, schema)
                if part.max_ts > as_of:
                    table = table.filter(pc.less_equal(table.column(TS), as_of))
                yield part, table
        finally:
            for task in queue:
                task.cancel()

    async def estimate_bytes(self, as_of: int, *, timeout: float | None = None) -> int:
        """The encoded bytes a snapshot at ``as_of`` would fetch, from state
        metadata (nothing pinned: for deciding how to read, not reading)."""
        state = await self.wait_for_upper(as_of, timeout)
        return sum(p.nbytes for b in state.batches_for(as_of) for p in b.parts if p.min_ts <= as_of)

    async def lease_parts(self, as_of: int, *, timeout: float | None = None) -> LeasedParts:
        """The parts of the snapshot at ``as_of``, pinned until released."""
        state = await self._pin(as_of, timeout)
        parts = tuple(p for b in state.batches_for(as_of) for p in b.parts if p.min_ts <= as_of)
        return LeasedParts(self.shard_id, codec.schema_from_bytes(state.schema), as_of, parts, lambda: self._unpin(state))

    async def snapshot(self, as_of: int, *, timeout: float | None = None) -> AsyncIterator[pa.RecordBatch]:
        """The contents at ``as_of`` (rows with multiplicity), streamed."""
        state = await self._pin(as_of, timeout)
        try:
            retractions = any(p.min_diff < 0 for b in state.batches_for(as_of) for p in b.parts if p.min_ts <= as_of)
            if not retractions:
                async for _part, table in self._parts(state, as_of):
                    for batch in expand(table).to_batches():
                        yield batch
                return
            tables = [t async for _p, t in self._parts(state, as_of)]
            for batch in (await _consolidated(pa.concat_tables(tables), expand)).to_batches():
                yield batch
        finally:
            self._unpin(state)

    async def snapshot_table(self, as_of: int, *, timeout: float | None = None) -> pa.Table:
        batches = []
        async for batch in self.snapshot(as_of, timeout=timeout):
            batches.append(batch)
        schema = codec.schema_from_bytes(self.machine.state.schema)
        return pa.Table.from_batches(batches, schema=schema) if batches else schema.empty_table()

    async def snapshot_updates(self, as_of: int, *, timeout: float | None = None, consolidated: bool = True) -> pa.Table:
        """The consolidated updates at ``as_of``: user columns and ``_diff``
        (rows with non-zero multiplicity, negative ones included).

        ``consolidated=False``: when no update retracts anything, the updates
        are returned as they are (equal rows not summed): the same contents,
        without the cost of grouping every row."""
        state = await self._pin(as_of, timeout)
        try:
            schema = codec.schema_from_bytes(state.schema)
            tables = [t async for _p, t in self._parts(state, as_of)]
            updates = pa.concat_tables([codec.updates_schema(schema).empty_table()] + tables)
            if not consolidated and (updates.num_rows == 0 or pc.min(updates.column(DIFF)).as_py() > 0):
                return updates.drop_columns([TS])
            return await _consolidated(updates)
        finally:
            self._unpin(state)

    async def fetch_updates(self, lower: int, upper: int, *, timeout: float | None = None) -> pa.Table:
        """The updates (user columns, ``_ts``, ``_diff``) at times in
        ``[lower, upper)``, waiting until the shard's upper reaches
        ``upper``: consolidated when they hold a retraction; insertions
        alone come as written (the same collection: equal rows at one time
        are not summed, which would cost a grouping of every row, seconds
        after a large COPY). Requires ``lower - 1 >= since`` so no time in
        the range was advanced."""
        if upper <= lower:
            raise UsageError(f"empty range [{lower}, {upper})")
        await self.machine.wait_for(lambda s: s.upper >= upper, timeout)
        state = await self._hold(max(lower - 1, 0) if lower > 0 else 0, upper)
        if state.upper < upper:  # never report [lower, upper) from a state that does not hold all of it
            raise st.InvariantViolation(f"shard {self.shard_id}: fetch_updates to {upper} read a state with upper {state.upper}")
        try:
            schema = codec.schema_from_bytes(state.schema)
            tables = []
            for b in state.batches:
                if b.upper <= lower or b.lower >= upper:
                    continue
                for p in b.parts:
                    if p.max_ts < lower or p.min_ts >= upper:
                        continue
                    t = decode_part(await fetch_part(self.blob, p), p, schema)
                    if p.min_ts < lower or p.max_ts >= upper:
                        t = t.filter(pc.and_(pc.greater_equal(t.column(TS), lower), pc.less(t.column(TS), upper)))
                    tables.append(t)
            if not tables:
                return codec.updates_schema(schema).empty_table()
            updates = pa.concat_tables(tables)
            if pc.min(updates.column(DIFF)).as_py() > 0:
                return updates
            return consolidate(updates)
        finally:
            self._unpin(state)

    async def listen(self, as_of: int) -> AsyncIterator[tuple[pa.Table, int]]:
        """Updates at times > ``as_of`` as they become known: yields
        ``(updates, new_upper)`` where updates holds the updates (user
        columns, ``_ts``, ``_diff``) at times in [previous upper, new_upper),
        as ``fetch_updates`` gives them."""
        if as_of < self.since:
            raise UsageError(f"cannot listen to shard {self.shard_id} as of {as_of}: since is {self.since}")
        emitted = as_of + 1
        while True:
            state = await self.machine.wait_for(lambda s: s.upper > emitted)
            upper = state.upper
            updates = await self.fetch_updates(emitted, upper)
            emitted = upper
            yield updates, upper
            if upper >= st.FOREVER:
                return
