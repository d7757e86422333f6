"""A shard's log records each state as its change from the one before
(``ShardState.encode_change``) in short chains from a whole record
(``Machine``): every process reads the same states from them, however far
behind it is and whatever GC truncated."""

from __future__ import annotations

import pyarrow as pa

from storage.location import MemBlob, MemConsensus
from storage.persist import PersistClient, PersistConfig, field_for
from storage.persist.machine import CHAIN_MAX, FETCH_SCAN, Machine
from storage.persist.state import change_base

SCHEMA = pa.schema([field_for("k", "integer"), field_for("v", "text")])


def rows(start: int, n: int = 1) -> pa.Table:
    return pa.table({"k": pa.array(range(start, start + n), pa.int32()), "v": pa.array(["x" * 40] * n, pa.string())})


def fresh(client: PersistClient, shard: str) -> Machine:
    return Machine(shard, client.consensus, max_inline_bytes=client.config.max_inline_bytes)


async def test_commits_of_tiny_batches_write_records_of_their_size():
    """The inline batches a state holds are written once, in the record
    of the append that added them, not again by every later seqno."""
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig(compaction=False))
    try:
        w = await client.open_writer("s", SCHEMA)
        for i in range(40):
            await w.append(await w.batch(rows(i), ts=i), i + 1)
        state = await client.state("s")
        assert state.inline_bytes > 4000, "the state holds every batch inline"
        records = await client.consensus.scan("shard/s")
        last = records[-1]
        assert change_base(last.data) is not None
        assert len(last.data) < len(state.encode()) / 4, (len(last.data), len(state.encode()))
        assert await fresh(client, "s").fetch() == state
    finally:
        await client.close()


async def test_chains_stay_short_and_any_process_catches_up():
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig(compaction=False, gc_every_seqnos=10**9))
    other = PersistClient(MemBlob(), client.consensus, PersistConfig(compaction=False, gc_every_seqnos=10**9))
    try:
        w = await client.open_writer("s", SCHEMA)
        behind = other.machine("s")
        await behind.fetch()
        n = 3 * CHAIN_MAX
        for i in range(n):
            await w.append(await w.batch(rows(i), ts=i), i + 1)
            if i == 5:
                assert await behind.fetch() == await client.state("s"), "a few records behind: read and applied"
        records = await client.consensus.scan("shard/s")
        wholes = [r.seqno for r in records if change_base(r.data) is None]
        assert len(wholes) >= n // CHAIN_MAX, "a whole record at least every CHAIN_MAX"
        assert all(change_base(r.data) <= r.seqno for r in records if change_base(r.data) is not None)
        assert n > FETCH_SCAN
        assert await behind.fetch() == await client.state("s"), "far behind: the head and its chain"
        behind.validate()
        client.machine("s").validate()
    finally:
        await client.close()
        await other.close()


async def test_gc_keeps_the_whole_record_the_head_depends_on():
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig(compaction=False, gc_every_seqnos=10**9))
    try:
        w = await client.open_writer("s", SCHEMA)
        for i in range(CHAIN_MAX + 10):
            await w.append(await w.batch(rows(i), ts=i), i + 1)
        report = await client.gc("s")
        records = await client.consensus.scan("shard/s")
        head = records[-1]
        base = change_base(head.data)
        assert base is not None and records[0].seqno <= base, "truncated, but not past the head's base"
        assert report.truncated > 0
        assert await fresh(client, "s").fetch() == await client.state("s")
    finally:
        await client.close()
