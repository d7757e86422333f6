"""Shard semantics at the persist API: compare_and_append, snapshots,
listen, re-timestamping, transmittable batches, idempotency."""

from __future__ import annotations

import asyncio

import pyarrow as pa
import pytest

from storage.errors import UsageError
from storage.location import CountingBlob, FaultConfig, FaultyBlob, FaultyConsensus, MemBlob, MemConsensus
from storage.persist import DIFF, TS, BatchHandle, PersistClient, PersistConfig, adopt_parquet, field_for

SCHEMA = pa.schema([field_for("k", "bigint"), field_for("v", "text")])


def rows(*pairs) -> pa.Table:
    return pa.table({"k": pa.array([p[0] for p in pairs], pa.int64()), "v": [p[1] for p in pairs]})


def as_set(table: pa.Table) -> list:
    return sorted(tuple(r.values()) for r in table.to_pylist())


async def test_compare_and_append_mismatch_returns_actual_upper(client, uniq):
    w = await client.open_writer(uniq, SCHEMA)
    b = await w.batch(rows((1, "a")), ts=0)
    assert (await w.compare_and_append(b, 0, 5)).applied
    b2 = await w.batch(rows((2, "b")), ts=3)
    out = await w.compare_and_append(b2, 3, 6)
    assert not out.applied and out.upper == 5
    # The losing batch's parts are the caller's: re-timestamp and retry.
    out = await w.compare_and_append(b2.rewrite_ts(5), 5, 6)
    assert out.applied and out.upper == 6
    r = await client.open_reader(uniq)
    assert as_set(await r.snapshot_table(5)) == [(1, "a"), (2, "b")]
    assert as_set(await r.snapshot_table(4)) == [(1, "a")]
    (await client.state(uniq)).validate()


async def test_invalid_appends_are_usage_errors(mem_client):
    w = await mem_client.open_writer("inv", SCHEMA)
    b = await w.batch(rows((1, "a")), ts=7)
    with pytest.raises(UsageError, match="outside"):
        await w.compare_and_append(b, 0, 5)
    with pytest.raises(UsageError, match="non-empty"):
        await w.compare_and_append(None, 3, 3)
    other = await mem_client.open_writer("other", pa.schema([field_for("x", "integer")]))
    ob = await other.batch(pa.table({"x": pa.array([1], pa.int32())}), ts=0)
    with pytest.raises(UsageError, match="written for shard"):
        await w.compare_and_append(ob, 0, 1)
    with pytest.raises(UsageError, match="different schema"):
        await mem_client.create_shard("inv", pa.schema([field_for("k", "integer")]))


async def test_snapshot_refuses_before_since_and_blocks_until_upper(mem_client):
    w = await mem_client.open_writer("blk", SCHEMA)
    r = await mem_client.open_reader("blk")
    await w.compare_and_append(await w.batch(rows((1, "a")), ts=0), 0, 2)
    await r.downgrade_since(1)
    with pytest.raises(UsageError, match="since is 1"):
        await r.snapshot_table(0)
    pending = asyncio.create_task(r.snapshot_table(5))
    await asyncio.sleep(0.01)
    assert not pending.done(), "snapshot at 5 returned while upper was 2"
    await w.compare_and_append(await w.batch(rows((2, "b")), ts=4), 2, 6)
    assert as_set(await asyncio.wait_for(pending, 5)) == [(1, "a"), (2, "b")]
    with pytest.raises(asyncio.TimeoutError):
        await r.snapshot_table(100, timeout=0.05)


async def test_retractions_and_multiplicity(client, uniq):
    w = await client.open_writer(uniq, SCHEMA)
    r = await client.open_reader(uniq)
    await w.compare_and_append(await w.batch(rows((1, "a"), (1, "a"), (2, "b")), ts=0), 0, 1)
    await w.compare_and_append(await w.batch(rows((1, "a")), ts=1, diff=-1), 1, 2)
    await w.compare_and_append(await w.batch(rows((3, "c")), ts=2, diff=3), 2, 3)
    assert as_set(await r.snapshot_table(0)) == [(1, "a"), (1, "a"), (2, "b")]
    assert as_set(await r.snapshot_table(1)) == [(1, "a"), (2, "b")]
    assert as_set(await r.snapshot_table(2)) == [(1, "a"), (2, "b"), (3, "c"), (3, "c"), (3, "c")]
    updates = await r.snapshot_updates(2)
    assert sorted(zip(updates.column("k").to_pylist(), updates.column(DIFF).to_pylist())) == [(1, 1), (2, 1), (3, 3)]


async def test_listen_yields_updates_with_progress(mem_client):
    w = await mem_client.open_writer("lis", SCHEMA)
    r = await mem_client.open_reader("lis")
    await w.compare_and_append(await w.batch(rows((1, "a")), ts=0), 0, 1)
    it = r.listen(0).__aiter__()
    nxt = asyncio.create_task(it.__anext__())
    await w.compare_and_append(await w.batch(rows((2, "b")), ts=3), 1, 5)
    updates, upper = await asyncio.wait_for(nxt, 5)
    assert upper == 5
    assert updates.select(["k", TS, DIFF]).to_pylist() == [{"k": 2, TS: 3, DIFF: 1}]
    await w.compare_and_append(await w.batch(rows((2, "b")), ts=5, diff=-1), 5, 7)
    updates, upper = await asyncio.wait_for(it.__anext__(), 5)
    assert upper == 7 and updates.select(["k", TS, DIFF]).to_pylist() == [{"k": 2, TS: 5, DIFF: -1}]
    await it.aclose()


async def test_rewrite_ts_writes_no_data():
    blob = CountingBlob(MemBlob())
    client = PersistClient(blob, MemConsensus(), PersistConfig(inline_threshold=0))
    w = await client.open_writer("rts", SCHEMA)
    batch = await w.batch(rows(*[(i, f"v{i}") for i in range(1000)]), ts=0)
    puts, put_bytes = blob.puts, blob.put_bytes
    assert puts >= 1 and put_bytes > 1000
    moved = batch.rewrite_ts(41)
    assert (await w.compare_and_append(moved, 0, 42)).applied
    assert (blob.puts, blob.put_bytes) == (puts, put_bytes), "re-timestamping wrote data"
    assert moved.keys == batch.keys
    r = await client.open_reader("rts")
    assert (await r.snapshot_table(40)).num_rows == 0
    assert (await r.snapshot_table(41)).num_rows == 1000
    # Per-row-time batches cannot be re-timestamped.
    per_row = await w.batch(pa.table({"k": pa.array([1], pa.int64()), "v": ["x"], TS: pa.array([50], pa.int64())}))
    with pytest.raises(UsageError):
        per_row.rewrite_ts(60)
    await client.close()


async def test_transmittable_batch_committed_by_another_client(client, uniq):
    """A batch written by one client (as a Spark executor would) is sent as
    bytes and appended by another with its own handles."""
    w = await client.open_writer(uniq, SCHEMA)
    wire = (await w.batch(rows((1, "remote"), (2, "remote")), ts=0)).to_bytes()
    other = PersistClient(client.blob, client.consensus, PersistConfig(clock=client.config.clock))
    w2 = await other.open_writer(uniq)
    handle = BatchHandle.from_bytes(wire)
    assert (await w2.compare_and_append(handle, 0, 1)).applied
    r = await client.open_reader(uniq)
    assert as_set(await r.snapshot_table(0)) == [(1, "remote"), (2, "remote")]
    await other.close()


async def test_indeterminate_failures_never_apply_twice():
    """Appends through a Consensus that injects indeterminate failures (some
    applied-then-timed-out): every acknowledged append is there exactly once."""
    inner = MemConsensus()
    faulty = FaultyConsensus(inner, seed=11, config=FaultConfig(determinate=0.1, indeterminate=0.3))
    blob = FaultyBlob(MemBlob(), seed=12, config=FaultConfig(determinate=0.05))
    client = PersistClient(blob, faulty, PersistConfig(compaction=False, retry_timeout_s=5))
    w = await client.open_writer("faults", SCHEMA)
    acked = []
    for i in range(60):
        while True:
            try:
                batch = await w.batch(rows((i, "x")), ts=i)
                break
            except Exception:  # noqa: BLE001 - a blob failure while writing: write again
                continue
        out = await w.compare_and_append(batch, i, i + 1)
        assert out.applied
        acked.append(i)
    assert faulty.counts["compare_and_set:indeterminate-applied"] > 3
    assert faulty.counts["compare_and_set:indeterminate-lost"] > 3
    faulty.config.off()
    blob.config.off()
    fresh = PersistClient(blob, inner, PersistConfig())
    r = await fresh.open_reader("faults")
    got = (await r.snapshot_table(59)).column("k").to_pylist()
    assert sorted(got) == acked
    (await fresh.state("faults")).validate()
    await client.close()
    await fresh.close()


async def test_same_token_retry_is_recognised(mem_client):
    w = await mem_client.open_writer("tok", SCHEMA)
    b = await w.batch(rows((1, "a")), ts=0)
    first = await w.compare_and_append(b, 0, 1, token="t-1")
    again = await w.compare_and_append(b, 0, 1, token="t-1")
    assert first.applied and not first.already
    assert again.applied and again.already
    r = await mem_client.open_reader("tok")
    assert (await r.snapshot_table(0)).num_rows == 1


async def test_faults_with_compaction_and_gc_lose_no_part():
    """Compaction and GC under indeterminate Consensus failures: an output
    that landed although its CaS 'timed out' must never be deleted."""
    inner = MemConsensus()
    faulty = FaultyConsensus(inner, seed=5, config=FaultConfig(indeterminate=0.3))
    blob = MemBlob()
    client = PersistClient(blob, faulty, PersistConfig(inline_threshold=0, gc_every_seqnos=5, retry_timeout_s=5))
    w = await client.open_writer("cg", SCHEMA)
    for i in range(80):
        await w.compare_and_append(await w.batch(rows((i, "x")), ts=i), i, i + 1)
        if i % 10 == 9:
            await w.wait_idle()
            await client.gc("cg")
    await w.wait_idle()
    assert faulty.counts["compare_and_set:indeterminate-applied"] > 5
    faulty.config.off()
    state = await client.state("cg")
    state.validate()
    missing = [k for k in state.blob_keys if await blob.get(k) is None]
    assert missing == [], f"{len(missing)} reachable parts were deleted"
    r = await client.open_reader("cg")
    assert sorted((await r.snapshot_table(79)).column("k").to_pylist()) == list(range(80))
    await client.close()


async def _stage(blob, key: str, data: bytes) -> None:
    """Put ``data`` at ``key`` as a writer outside txngate does."""
    import os

    path = blob.external_path(key)
    if path is None:
        await blob.set(key, data)
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def _parquet(table: pa.Table) -> bytes:
    import io

    import pyarrow.parquet as pq

    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


@pytest.mark.parametrize("client", ["mem", "durable"], indirect=True)
async def test_adopted_parquet_files_become_a_batch(client, uniq):
    """Parquet files written from outside (Spark's writer) become one batch
    of parts: checked, described by their footers, moved to part keys; the
    other files there are removed; a file without the shard's columns is
    refused."""
    blob, staged = client.blob, f"{uniq}/staged/w1/"
    ones = pa.array([1, 1], pa.int64())
    await _stage(blob, staged + "part-0.parquet", _parquet(rows((1, "a"), (2, "b")).append_column(DIFF, ones)))
    with_diffs = rows((3, "c"), (1, "a")).append_column(DIFF, pa.array([2, -1], pa.int64()))
    await _stage(blob, staged + "part-1.parquet", _parquet(with_diffs))
    await _stage(blob, staged + "part-2.parquet", _parquet(pa.table({"k": pa.array([], pa.int64()), "v": pa.array([], pa.string()), DIFF: pa.array([], pa.int64())})))
    await _stage(blob, staged + "_SUCCESS", b"")
    await client.create_shard(uniq, SCHEMA)
    batch = await adopt_parquet(blob, uniq, SCHEMA, "spark-w1", staged)
    assert [(p.rows, p.min_diff, p.max_diff) for p in batch.parts] == [(2, 1, 1), (2, -1, 2)]
    assert all(p.key.startswith(f"{uniq}/p/spark-w1/") for p in batch.parts)
    assert await blob.list(staged) == []
    w = await client.open_writer(uniq)
    assert (await w.compare_and_append(batch.rewrite_ts(0), 0, 1)).applied
    contents = await (await client.open_reader(uniq)).snapshot_table(0)
    assert as_set(contents) == [(2, "b"), (3, "c"), (3, "c")]
    await _stage(blob, f"{uniq}/staged/w2/part-0.parquet", _parquet(rows((4, "d"))))  # no _diff: not updates
    with pytest.raises(UsageError):
        await adopt_parquet(blob, uniq, SCHEMA, "spark-w2", f"{uniq}/staged/w2/")


@pytest.mark.parametrize("kind", ["indeterminate-lost", "indeterminate-applied"])
async def test_create_shard_survives_a_create_of_unknown_outcome(kind):
    """Creating a shard whose first compare-and-set ends indeterminately
    finds out from the head: made again if it did not land (it reported a
    shard that does not exist), kept if it did."""
    consensus = FaultyConsensus(MemConsensus())
    consensus.inject_once("compare_and_set", kind)
    client = PersistClient(MemBlob(), consensus)
    try:
        state = await client.create_shard("s", pa.schema([field_for("n", "bigint")]))
        assert state.seqno == 0 and state.shard_id == "s"
        assert consensus.counts[f"compare_and_set:{kind}"] == 1
    finally:
        await client.close()


async def test_an_append_advances_since_holds_in_its_compare_and_set():
    """``compare_and_append(..., downgrade=Downgrade(...))`` moves a reader's
    since and a critical since forward with the append, in one
    compare-and-set; a hold only moves forward, one that is gone is left
    alone, and a lost append moves nothing."""
    from storage.persist import Downgrade

    client = PersistClient(MemBlob(), MemConsensus())
    try:
        w = await client.open_writer("s", SCHEMA)
        r = await client.open_reader("s", heartbeats=False)
        await client.register_critical("s", "keeper")
        table = pa.table({"k": pa.array([1], pa.int64()), "v": ["a"]})
        out = await w.compare_and_append(await w.batch(table, ts=0), 0, 5,
                                         downgrade=Downgrade(readers=((r.reader_id, 3), ("gone", 9)), critical=(("keeper", 4),)))
        assert out.applied
        state = await client.state("s")
        assert (state.readers[r.reader_id].since, state.critical["keeper"], state.since) == (3, 4, 3)
        assert "gone" not in state.readers
        lost = await w.compare_and_append(None, 0, 6, downgrade=Downgrade(readers=((r.reader_id, 4),)))
        assert not lost.applied and (await client.state("s")).readers[r.reader_id].since == 3
        await w.compare_and_append(None, 5, 6, downgrade=Downgrade(readers=((r.reader_id, 1),), critical=(("keeper", 2),)))
        state = await client.state("s")
        assert (state.readers[r.reader_id].since, state.critical["keeper"]) == (3, 4), "holds only move forward"
        state.validate()
    finally:
        await client.close()
