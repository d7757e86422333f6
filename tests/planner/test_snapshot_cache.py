"""The snapshot cache: contents advanced incrementally equal full snapshots,
and a repeated read touches no Blob."""

from __future__ import annotations

import random

import pyarrow as pa

from local_exec import SnapshotCache
from storage.location import CountingBlob, MemBlob, MemConsensus
from storage.oracle import MemOracle
from storage.persist import PersistClient, PersistConfig, field_for
from storage.txns import TxnsHandle, commit_write_only

SCHEMA = pa.schema([field_for("k", "integer"), field_for("v", "text")])


def as_multiset(table: pa.Table) -> list:
    return sorted((r["k"], r["v"]) for r in table.to_pylist())


async def test_incremental_contents_equal_full_snapshots():
    blob = CountingBlob(MemBlob())
    client = PersistClient(blob, MemConsensus(), PersistConfig(inline_threshold=0))
    txns = await TxnsHandle.open(client)
    oracle = MemOracle()
    await client.create_shard("d", SCHEMA)
    await txns.register("d", 0)
    cache = SnapshotCache(txns)
    rng = random.Random(9)
    live: list[tuple[int, str]] = []
    for step in range(40):
        t = txns.begin()
        inserts = [(rng.randint(0, 5), rng.choice("ab")) for _ in range(rng.randint(0, 3))]
        if inserts:
            await t.write("d", pa.table({"k": pa.array([i for i, _ in inserts], pa.int32()), "v": [v for _, v in inserts]}))
        if live and rng.random() < 0.4:
            gone = live.pop(rng.randrange(len(live)))
            await t.write("d", pa.table({"k": pa.array([gone[0]], pa.int32()), "v": [gone[1]]}), diff=-1)
        live += inserts
        if t.shards:
            await commit_write_only(txns, oracle, t)
        ts = await oracle.read_ts()
        got = await cache.read("d", ts)
        full = await txns.read("d", ts)
        assert as_multiset(got) == as_multiset(full) == sorted(live), f"step {step}"
    assert cache.hits > 30
    # A repeated read with nothing new reads no Blob.
    gets = blob.gets
    for _ in range(5):
        await cache.read("d", ts)
    assert blob.gets == gets
    await client.close()
