"""Property-based model test: random appends (some racing with a stale
expected upper), since downgrades, compactions, GC runs and snapshots against
a reference model that just keeps every update. Every snapshot at any time
in [since, upper) must equal the model's consolidated contents there, and
the shard state must validate after every step.

Runs on in-memory locations, and a shorter run on PostgreSQL + S3."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.location import MemBlob, MemConsensus, open_blob, open_consensus
from storage.persist import DIFF, TS, PersistClient, PersistConfig, field_for
from storage.persist.machine import Machine

SCHEMA = pa.schema([field_for("k", "integer"), field_for("v", "text")])

update = st.tuples(st.integers(0, 3), st.sampled_from(["a", "b", None]), st.integers(0, 2), st.sampled_from([1, 1, 1, 2, -1]))
op = st.one_of(
    st.tuples(st.just("append"), st.lists(update, max_size=6), st.integers(1, 3)),
    st.tuples(st.just("race"), st.integers(-3, 3).filter(lambda d: d != 0)),
    st.tuples(st.just("since"), st.integers(0, 3)),
    st.tuples(st.just("compact")),
    st.tuples(st.just("gc")),
    st.tuples(st.just("read"), st.floats(0, 1)),
)


class Model:
    def __init__(self) -> None:
        self.updates: list[tuple[int, str | None, int, int]] = []
        self.upper = 0
        self.since = 0

    def contents(self, as_of: int) -> Counter:
        c: Counter = Counter()
        for k, v, t, d in self.updates:
            if t <= as_of:
                c[(k, v)] += d
        return +c if all(x >= 0 for x in c.values()) else Counter({r: n for r, n in c.items() if n != 0})


async def run_ops(client: PersistClient, ops) -> int:
    shard = f"model-{uuid.uuid4().hex[:8]}"
    model = Model()
    w = await client.open_writer(shard, SCHEMA)
    r = await client.open_reader(shard, heartbeats=False)
    reads = 0
    for o in ops:
        kind = o[0]
        if kind == "append":
            _, ups, width = o
            ups = [(k, v, model.upper + min(dt, width - 1), d) for k, v, dt, d in ups]
            table = pa.table({
                "k": pa.array([u[0] for u in ups], pa.int32()),
                "v": pa.array([u[1] for u in ups], pa.string()),
                TS: pa.array([u[2] for u in ups], pa.int64()),
                DIFF: pa.array([u[3] for u in ups], pa.int64()),
            })
            batch = await w.batch(table) if ups else None
            out = await w.compare_and_append(batch, model.upper, model.upper + width)
            assert out.applied
            model.updates += ups
            model.upper += width
        elif kind == "race":
            expected = model.upper + o[1]
            if expected < 0:
                continue
            out = await w.compare_and_append(None, expected, max(expected, model.upper) + 1)
            assert not out.applied and out.upper == model.upper
        elif kind == "since":
            model.since = min(model.upper, model.since + o[1])
            await r.downgrade_since(model.since)
        elif kind == "compact":
            await client.compact(shard)
        elif kind == "gc":
            await r.heartbeat()
            await client.gc(shard)
        elif kind == "read":
            if model.upper <= model.since:
                continue
            as_of = model.since + int(o[1] * (model.upper - 1 - model.since))
            got = await r.snapshot_updates(as_of)
            counts = Counter({(row["k"], row["v"]): row[DIFF] for row in got.to_pylist()})
            assert counts == model.contents(as_of), f"as_of {as_of}"
            reads += 1
        state = await client.state(shard)
        state.validate(max_inline_bytes=client.config.max_inline_bytes)
        assert state.upper == model.upper and state.since == model.since
        # a process that knows nothing reads the same state from the log
        # (the head and its chain of change records, whatever GC truncated)
        fresh = Machine(client.machine(shard).key.removeprefix("shard/"), client.consensus, max_inline_bytes=client.config.max_inline_bytes)
        assert await fresh.fetch() == await client.machine(shard).fetch()
        client.machine(shard).validate()
    # Finally every readable time agrees with the model.
    for as_of in range(model.since, model.upper):
        got = await r.snapshot_updates(as_of)
        assert Counter({(row["k"], row["v"]): row[DIFF] for row in got.to_pylist()}) == model.contents(as_of)
    await client.maintenance.idle()
    return reads


def small_config() -> PersistConfig:
    # Tiny parts and inline threshold so batches span several parts, some
    # inline and some in Blob.
    return PersistConfig(part_bytes=600, inline_threshold=700, gc_every_seqnos=7)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, min_size=1, max_size=30))
def test_model_on_memory(ops):
    async def main():
        client = PersistClient(MemBlob(), MemConsensus(), small_config())
        try:
            await run_ops(client, ops)
        finally:
            await client.close()

    asyncio.run(main())


def test_model_on_postgres_and_s3(pg_server, s3_server):
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.lists(op, min_size=5, max_size=25))
    def run(ops):
        async def main():
            consensus = await open_consensus(pg_server.url())
            blob = await open_blob(s3_server.url(prefix=f"model-{uuid.uuid4().hex[:8]}"))
            client = PersistClient(blob, consensus, small_config())
            try:
                await run_ops(client, ops)
            finally:
                await client.close()
                await blob.close()
                await consensus.close()

        asyncio.run(main())

    run()
