"""Concurrent writers, compaction shape, GC safety and leases."""

from __future__ import annotations

import asyncio
import math

import pyarrow as pa

from storage.location import MemBlob, MemConsensus
from storage.persist import PersistClient, PersistConfig, field_for
from storage.persist.compact import LAZY_RUN, choose

SCHEMA = pa.schema([field_for("writer", "integer"), field_for("n", "bigint")])


def one(writer: int, n: int) -> pa.Table:
    return pa.table({"writer": pa.array([writer], pa.int32()), "n": pa.array([n], pa.int64())})


def as_rows(table: pa.Table) -> list:
    return sorted(tuple(r.values()) for r in table.to_pylist())


async def race_writers(client: PersistClient, shard: str, writers: int, per_writer: int) -> None:
    await client.create_shard(shard, SCHEMA)

    async def writer(wi: int) -> None:
        w = await client.open_writer(shard)
        for n in range(per_writer):
            upper = await w.fetch_upper()
            batch = await w.batch(one(wi, n), ts=upper)
            while True:
                out = await w.compare_and_append(batch, upper, upper + 1)
                if out.applied:
                    break
                upper = out.upper
                batch = batch.rewrite_ts(upper)  # same parts, new time

    await asyncio.gather(*(writer(i) for i in range(writers)))


async def test_racing_writers_on_postgres_lose_and_duplicate_nothing(durable_client, uniq):
    writers, per_writer = 8, 12
    await race_writers(durable_client, uniq, writers, per_writer)
    await durable_client.maintenance.idle()
    state = await durable_client.state(uniq)
    state.validate()
    assert state.upper == writers * per_writer
    r = await durable_client.open_reader(uniq)
    got = sorted((row["writer"], row["n"]) for row in (await r.snapshot_table(state.upper - 1)).to_pylist())
    assert got == [(w, n) for w in range(writers) for n in range(per_writer)]
    # Every time holds exactly one write: the upper advanced once per batch.
    for t in (0, 17, state.upper - 1):
        assert (await r.snapshot_table(t)).num_rows == t + 1


async def test_compaction_keeps_log_n_batches(mem_client):
    w = await mem_client.open_writer("tiers", SCHEMA)
    n = 600
    for i in range(n):
        await w.compare_and_append(await w.batch(one(0, i), ts=i), i, i + 1)
        await w.wait_idle()
        state = await mem_client.state("tiers")
        assert len(state.batches) <= math.floor(math.log2(i + 1)) + LAZY_RUN + 1, [b.rows for b in state.batches]
    assert choose(state) is None
    sizes = [b.rows for b in state.batches]
    assert sum(sizes) == n
    # Apart from a short tail of recent small batches, sizes halve at least.
    head = sizes[: max(0, len(sizes) - LAZY_RUN)]
    assert all(a >= 2 * b for a, b in zip(head, head[1:])), sizes
    r = await mem_client.open_reader("tiers")
    assert sorted(row["n"] for row in (await r.snapshot_table(n - 1)).to_pylist()) == list(range(n))


async def test_compaction_consolidates_below_since(mem_client):
    w = await mem_client.open_writer("cons", SCHEMA)
    r = await mem_client.open_reader("cons")
    # Insert then retract the same row at different times, plus a survivor.
    await w.compare_and_append(await w.batch(one(1, 1), ts=0), 0, 1)
    await w.compare_and_append(await w.batch(one(2, 2), ts=1), 1, 2)
    await w.compare_and_append(await w.batch(one(1, 1), ts=2, diff=-1), 2, 3)
    await w.wait_idle()
    await r.downgrade_since(2)
    await mem_client.compact("cons")
    # Force one more merge now that since is 2.
    state = await mem_client.state("cons")
    from storage.persist.compact import compact_run

    await compact_run(mem_client.machine("cons"), mem_client.blob, mem_client.config, list(state.batches))
    state = await mem_client.state("cons")
    assert len(state.batches) == 1 and state.batches[0].rows == 1, "insert and retraction were not consolidated"
    assert [row["writer"] for row in (await r.snapshot_table(2)).to_pylist()] == [2]


async def test_a_compaction_of_inline_batches_stays_inline_within_half_the_cap(mem_client):
    """Merging small inline batches writes nothing to Blob while the state's
    inline bytes stay within half their cap; past that, the output goes to
    Blob and the state stays under its cap."""
    from storage.persist.compact import compact_run

    mem_client.config.compaction = False
    mem_client.config.inline_threshold = 512  # each batch below it; the merged output above
    w = await mem_client.open_writer("inl", SCHEMA)
    for i in range(40):
        await w.compare_and_append(await w.batch(one(i % 3, i), ts=i), i, i + 1)
    state = await mem_client.state("inl")
    assert not state.blob_keys
    before = await (await mem_client.open_reader("inl")).snapshot_table(39)
    await compact_run(mem_client.machine("inl"), mem_client.blob, mem_client.config, list(state.batches))
    state = await mem_client.state("inl")
    assert len(state.batches) == 1 and state.inline_bytes > 512 and not state.blob_keys, "the merged output left the state"
    assert as_rows(await (await mem_client.open_reader("inl")).snapshot_table(39)) == as_rows(before)
    # with no room (the cap's half taken by others), the output goes to Blob
    mem_client.config.max_inline_bytes = 2 * state.inline_bytes
    for i in range(40, 80):
        await w.compare_and_append(await w.batch(one(i % 3, i), ts=i), i, i + 1)
    state = await mem_client.state("inl")
    await compact_run(mem_client.machine("inl"), mem_client.blob, mem_client.config, list(state.batches[1:]))
    state = await mem_client.state("inl")
    assert len(state.batches) == 2 and state.blob_keys and state.inline_bytes <= mem_client.config.max_inline_bytes


async def test_gc_never_deletes_what_a_long_snapshot_reads(mem_client, clock):
    mem_client.config.inline_threshold = 0  # every part in Blob
    mem_client.config.compaction = False
    w = await mem_client.open_writer("gc", SCHEMA)
    for i in range(8):
        await w.compare_and_append(await w.batch(one(0, i), ts=i), i, i + 1)
    slow = await mem_client.open_reader("gc")
    fast = await mem_client.open_reader("gc")
    old_keys = (await mem_client.state("gc")).blob_keys
    # The slow reader starts streaming and stops after the first part.
    stream = slow.snapshot(7).__aiter__()
    first = await stream.__anext__()
    # Meanwhile: compaction replaces every batch, then GC runs. The long
    # snapshot's state is pinned, so none of its parts may go.
    assert await mem_client.compact("gc") > 0
    await fast.heartbeat()
    report = await mem_client.gc("gc")
    assert report.deleted == 0
    assert None not in [await mem_client.blob.get(k) for k in old_keys]
    rest = [b async for b in stream]
    assert sum(b.num_rows for b in [first, *rest]) == 8
    # Once the snapshot is done and the reader heartbeats, its hold moves on
    # and the replaced parts are deleted.
    await slow.heartbeat()
    report = await mem_client.gc("gc")
    assert report.deleted == len(old_keys)
    assert [await mem_client.blob.get(k) for k in old_keys] == [None] * len(old_keys)
    assert (await fast.snapshot_table(7)).num_rows == 8
    (await mem_client.state("gc")).validate()


async def test_expired_reader_lease_releases_its_holds(mem_client, clock):
    w = await mem_client.open_writer("lease", SCHEMA)
    stale = await mem_client.open_reader("lease", heartbeats=False)
    live = await mem_client.open_reader("lease", heartbeats=False)
    for i in range(4):
        await w.compare_and_append(await w.batch(one(0, i), ts=i), i, i + 1)
    await live.downgrade_since(3)
    state = await mem_client.state("lease")
    assert state.since == 0, "the stale reader holds since back"
    seqno_hold = state.readers[stale.reader_id].seqno_since
    clock.advance(mem_client.config.reader_lease_ms // 2)
    await live.heartbeat()
    clock.advance(mem_client.config.reader_lease_ms // 2 + 1)
    report = await mem_client.gc("lease")
    assert report.expired_readers == 1
    state = await mem_client.state("lease")
    assert stale.reader_id not in state.readers and state.since == 3
    assert report.min_seqno > seqno_hold
    # The expired reader learns it on its next use.
    import pytest

    from storage.errors import UsageError

    with pytest.raises(UsageError, match="expired"):
        await stale.snapshot_table(3)


async def test_orphaned_parts_are_removed_after_the_grace_period(clock):
    blob = MemBlob()
    client = PersistClient(blob, MemConsensus(), PersistConfig(clock=clock, inline_threshold=0))
    w = await client.open_writer("orph", SCHEMA)
    kept = await w.batch(one(0, 0), ts=0)
    await w.compare_and_append(kept, 0, 1)
    orphan = await w.batch(one(0, 1), ts=1)  # written, never appended (crashed writer)
    report = await client.gc("orph")
    assert report.orphans == 0 and await blob.get(orphan.keys[0]) is not None
    clock.advance(client.config.gc_grace_ms + 1)
    report = await client.gc("orph")
    assert report.orphans == 1
    assert await blob.get(orphan.keys[0]) is None
    assert await blob.get(kept.keys[0]) is not None
    await client.close()


async def test_consensus_log_is_truncated(mem_client):
    mem_client.config.gc_every_seqnos = 10
    w = await mem_client.open_writer("trunc", SCHEMA)
    for i in range(60):
        await w.compare_and_append(await w.batch(one(0, i), ts=i), i, i + 1)
    await w.wait_idle()
    state = await mem_client.state("trunc")
    retained = await mem_client.consensus.scan("shard/trunc")
    assert len(retained) < 30, f"{len(retained)} seqnos retained of {state.seqno + 1}"
    assert retained[-1].seqno == state.seqno


async def test_leased_parts_survive_compaction_and_gc_until_released(mem_client, clock):
    """What Spark reads: the parts of a snapshot handed out by
    ``lease_parts`` stay in Blob, whatever compaction and GC do, until the
    lease is released and the reader heartbeats."""
    mem_client.config.inline_threshold = 0
    mem_client.config.compaction = False
    w = await mem_client.open_writer("leased", SCHEMA)
    n = LAZY_RUN + 2  # enough batches for a compaction
    for i in range(n):
        await w.compare_and_append(await w.batch(one(0, i), ts=i), i, i + 1)
    r = await mem_client.open_reader("leased")
    leased = await r.lease_parts(n - 1)
    assert sum(p.rows for p in leased.parts) == n and not leased.needs_consolidation
    assert leased.nbytes == sum(p.nbytes for p in leased.parts) > 0
    keys = [p.key for p in leased.parts]
    assert await mem_client.compact("leased") > 0
    await r.heartbeat()
    assert (await mem_client.gc("leased")).deleted == 0
    assert None not in [await mem_client.blob.get(k) for k in keys]
    leased.release()
    leased.release()  # idempotent
    await r.heartbeat()
    assert (await mem_client.gc("leased")).deleted == len(keys)
    assert [await mem_client.blob.get(k) for k in keys] == [None] * len(keys)
    # a snapshot with a retraction must be consolidated by whoever reads it
    await w.compare_and_append(await w.batch(one(0, 0).append_column("_diff", pa.array([-1], pa.int64())), ts=n), n, n + 1)
    again = await r.lease_parts(n)
    assert again.needs_consolidation
    again.release()


async def test_a_run_another_process_compacted_writes_nothing():
    """Two processes compact the same run (each after its own appends): the
    one that finishes second finds its inputs gone before writing its output
    and writes nothing to Blob (it wrote its output, then deleted it)."""
    from storage.location import CountingBlob
    from storage.persist.compact import compact_run

    blob, consensus = MemBlob(), MemConsensus()
    config = PersistConfig(compaction=False, inline_threshold=0, max_inline_bytes=0)
    counting = CountingBlob(blob)
    a, b = PersistClient(counting, consensus, config), PersistClient(blob, consensus, config)
    try:
        w = await b.open_writer("s", SCHEMA)
        for i in range(LAZY_RUN):
            await w.append(await w.batch(one(0, i), ts=i), i + 1)
        stale = await a.machine("s").fetch()  # process a sees the run...
        inputs = choose(stale)
        assert inputs is not None and len(inputs) == LAZY_RUN
        assert (await compact_run(b.machine("s"), blob, config, inputs)).applied  # ...which b compacts first
        puts, deletes = counting.puts, counting.deletes
        result = await compact_run(a.machine("s"), counting, config, inputs)
        assert not result.applied
        assert (counting.puts, counting.deletes) == (puts, deletes), "nothing written, nothing to delete"
        state = await b.machine("s").fetch()
        assert len(state.batches) == 1 and state.batches[0].rows == LAZY_RUN
    finally:
        await a.close()
        await b.close()


async def test_a_small_shard_with_retractions_is_merged_whole_once_its_since_passes():
    """Retractions of rows in an older, bigger batch meet them only if the
    merge takes that batch too: a small shard holding retractions is merged
    whole once its since has passed into its second batch (size tiers
    merged the newer batches among themselves, and nothing cancelled)."""
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig(compaction=False))
    try:
        w = await client.open_writer("s", SCHEMA)
        await client.register_critical("s", "holder")
        base = pa.concat_tables([one(0, n) for n in range(100)])
        await w.append(await w.batch(base, ts=0), 1)
        for i in range(LAZY_RUN):
            gone = pa.concat_tables([one(0, n) for n in range(5 * i, 5 * i + 5)])
            await w.append(await w.batch(gone, ts=1 + i, diff=-1), 2 + i)
        state = await client.machine("s").fetch()
        assert choose(state) == list(state.batches[1:]), "before the since moves: size tiers, the newer batches"
        await client.downgrade_critical("s", "holder", LAZY_RUN + 1)
        state = await client.machine("s").fetch()
        assert choose(state) == list(state.batches)
        await client.compact("s")
        state = await client.machine("s").fetch()
        assert sum(b.rows for b in state.batches) == 100 - 5 * LAZY_RUN
    finally:
        await client.close()


async def test_transitions_of_one_process_do_not_race():
    """A process's appends, compactions and heartbeats on one shard take
    turns at its compare-and-set (``Machine.apply`` queues them): with
    every consensus call slow, none loses to another of the same process
    (each loss cost a refetch and decode of the whole state)."""
    from storage.location.faults import FaultConfig, FaultyConsensus

    consensus = FaultyConsensus(MemConsensus(), seed=7, config=FaultConfig(latency=1.0, max_latency_s=0.002))
    client = PersistClient(MemBlob(), consensus, PersistConfig())
    w = await client.open_writer("turns", SCHEMA)
    r = await client.open_reader("turns")
    upper = 0
    for i in range(40):
        batch = await w.batch(one(0, i), ts=upper)
        heartbeat = asyncio.create_task(r.heartbeat())
        await w.compare_and_append(batch, upper, upper + 1)
        await heartbeat
        upper += 1
    await w.wait_idle()
    machine = client.machine("turns")
    state = await client.state("turns")
    assert client.maintenance.finished["compact"] > 0 and len(state.batches) < 20
    assert machine.cas_attempts >= 40 + 40 and machine.cas_losses == 0
    await client.close()
