"""Txns under failure and load: commit-then-timeout, a seeded stress run
with injected faults checked against a reference commit log, a bank
workload, group commit, and the read-then-write loop."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pyarrow as pa

from storage.errors import LocationError
from storage.location import FaultConfig, FaultyBlob, FaultyConsensus
from storage.oracle import MemOracle
from storage.persist import PersistClient, PersistConfig, field_for
from storage.txns import Committer, TxnsHandle, read_only
from tests.txns.conftest import ROWS, Env, rows


async def test_commit_then_timeout_is_found_committed(env):
    faulty = FaultyConsensus(env.consensus, seed=1)
    client = PersistClient(env.blob, faulty, PersistConfig())
    env.clients.append(client)
    txns = await TxnsHandle.open(client)
    (d0,) = await env.shards(txns, "d0")
    t = txns.begin()
    await t.write(d0, rows(1, 2, 3))
    ts = await txns.upper()
    # The commit's CaS lands, then the caller sees a timeout.
    faulty.inject_once("compare_and_set", "indeterminate-applied")
    result = await t.commit_at(ts)
    assert result.committed and result.ts == ts
    assert faulty.counts["compare_and_set:indeterminate-applied"] == 1
    # Retrying the same commit is not a second commit: the ts is closed now.
    again = await t.commit_at(ts)
    assert not again.committed
    await txns.apply_le(ts)
    table = await txns.read(d0, ts)
    assert sorted(table.column("id").to_pylist()) == [1, 2, 3], "data duplicated or lost"
    txns.validate()


def consolidated(log: list[tuple[int, str, int, int]], shard: str, ts: int) -> Counter:
    c: Counter = Counter()
    for t, s, i, d in log:
        if s == shard and t <= ts:
            c[i] += d
    return +c


async def stress(env: Env, seed: int, workers: int, ops: int, faults: bool) -> tuple[int, int]:
    rng = random.Random(seed)
    consensus = FaultyConsensus(env.consensus, seed=seed, config=FaultConfig(determinate=0.04, indeterminate=0.04) if faults else None)
    blob = FaultyBlob(env.blob, seed=seed + 1, config=FaultConfig(determinate=0.02) if faults else None)
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    setup = await TxnsHandle.open(PersistClient(env.blob, env.consensus, PersistConfig()))
    shards = await env.shards(setup, "s0", "s1", "s2", "s3")
    log: list[tuple[int, str, int, int]] = []  # (commit ts, shard, id, diff)
    reads: list[tuple[str, int, Counter]] = []

    async def worker(w: int) -> None:
        client = PersistClient(blob, consensus, PersistConfig(retry_timeout_s=10))
        env.clients.append(client)
        txns = await TxnsHandle.open(client)
        mine: list[tuple[str, int]] = []
        for n in range(ops):
            try:
                if rng.random() < 0.6:
                    t = txns.begin()
                    writes = []
                    for shard in rng.sample(shards, rng.randint(1, 3)):
                        new = [w * 100_000 + n * 10 + k for k in range(rng.randint(1, 3))]
                        await t.write(shard, rows(*new))
                        writes += [(shard, i, 1) for i in new]
                        if mine and rng.random() < 0.3:
                            s, i = mine.pop(rng.randrange(len(mine)))
                            await t.write(s, rows(i), diff=-1)
                            writes.append((s, i, -1))
                    while True:
                        ts = await oracle.write_ts()
                        result = await t.commit_at(ts)
                        if result.committed:
                            break
                    log.extend((ts, s, i, d) for s, i, d in writes)
                    mine += [(s, i) for s, i, d in writes if d > 0]
                    await oracle.apply_write(ts)
                    await t.apply(ts)
                else:
                    shard = rng.choice(shards)
                    ts = await oracle.read_ts()
                    table = await txns.read(shard, ts)
                    reads.append((shard, ts, Counter(table.column("id").to_pylist())))
            except LocationError:
                continue  # an injected failure that outlasted the retries: the op is lost, not half-done

    await asyncio.gather(*(worker(w) for w in range(workers)))
    consensus.config.off()
    blob.config.off()
    checker = await TxnsHandle.open(PersistClient(env.blob, env.consensus, PersistConfig()))
    for shard, ts, got in reads:
        want = consolidated(log, shard, ts)
        assert got == want, f"read of {shard} at {ts} differs from the commit log: extra {got - want}, missing {want - got}"
    times = sorted({t for t, *_ in log})
    for ts in times[:: max(1, len(times) // 25)] + times[-1:]:
        for shard in shards:
            got = Counter((await checker.read(shard, ts)).column("id").to_pylist())
            assert got == consolidated(log, shard, ts), f"{shard} at {ts}"
    checker.validate()
    return len({t for t, *_ in log}), len(reads)


async def test_seeded_stress_with_faults_on_memory(mem_env):
    commits, reads = await stress(mem_env, seed=42, workers=8, ops=25, faults=True)
    assert commits > 50 and reads > 30


async def test_seeded_stress_on_postgres_and_s3(durable_env):
    commits, reads = await stress(durable_env, seed=7, workers=8, ops=8, faults=True)
    assert commits > 15 and reads > 5


async def late_answers(seed: int, handles: int = 2, ops: int = 40) -> Counter:
    """Two gateway processes' txns handles on one store whose writes answer
    late (they took effect; meanwhile the other process and this one's
    other tasks see them), GC after every other state change, every kind
    of txns work at random from two tasks per handle. Every handle stays
    valid after every step, and at the end each cache holds exactly the
    txns shard's rows (a fresh handle's)."""
    from storage.location import MemBlob, MemConsensus
    from storage.persist import InvariantViolation

    blob, consensus, oracle = MemBlob(), MemConsensus(), MemOracle()
    config = lambda: PersistConfig(gc_every_seqnos=2, max_inline_bytes=6000, inline_threshold=600, reader_lease_ms=1500)  # noqa: E731
    clients = [PersistClient(blob, FaultyConsensus(consensus, seed=seed * 7 + i, config=FaultConfig(late=0.3, max_latency_s=0.004)),
                             config()) for i in range(handles)]
    stats: Counter = Counter()
    try:
        hs = [await TxnsHandle.open(c) for c in clients]
        shards = []
        for n in range(3):
            await clients[0].create_shard(f"s{n}", ROWS)
            await hs[0].register(f"s{n}", 0)
            shards.append(f"s{n}")
        next_id = [0]

        async def worker(h: TxnsHandle, rng: random.Random) -> None:
            for _ in range(ops):
                op = rng.random()
                try:
                    if op < 0.45:
                        t = h.begin()
                        for shard in rng.sample(shards, rng.randint(1, 2)):
                            next_id[0] += 1
                            await t.write(shard, rows(*range(next_id[0] * 10, next_id[0] * 10 + rng.randint(1, 3))))
                        while not (result := await t.commit_at(await oracle.write_ts())).committed:
                            pass
                        await oracle.apply_write(result.ts)
                        if rng.random() < 0.7:
                            await t.apply(result.ts)
                        stats["commits"] += 1
                    elif op < 0.6:
                        await h.read(rng.choice(shards), max(await oracle.read_ts(), 1))
                    elif op < 0.7:
                        await h.apply_le(await h.upper() - 1)
                    elif op < 0.8:
                        await h.tidy()
                    elif op < 0.9:
                        await h.compact_to(await h.upper() - 1)
                    elif op < 0.95:
                        await h.follow()
                    else:
                        await h.client.gc(h.txns_id)
                except LocationError:
                    stats["location errors"] += 1
                for other in hs:
                    other.validate()

        await asyncio.gather(*(worker(h, random.Random(seed * 100 + i * 10 + w)) for i, h in enumerate(hs) for w in range(2)))
        fresh = await TxnsHandle.open(PersistClient(blob, consensus, config()))
        clients.append(fresh.client)
        for h in hs:
            await h.cache.update_to(await fresh.upper())
            await fresh.cache.update_to(await fresh.upper())
            if h.cache.contents != fresh.cache.contents:
                raise InvariantViolation(f"seed {seed}: a cache differs from the txns shard")
            h.validate()
        stats["late"] += sum(c.consensus.counts["late"] for c in clients[:handles])
        return stats
    finally:
        for c in clients:
            await c.close()


async def test_gateways_with_late_answers_absorb_every_txns_row_once():
    """The race behind 'txns row ... retracted twice' (a write's late answer
    installed a state older than one another task had fetched, and a read
    of the txns shard silently missed another process's commit): seeded,
    several seeds, each checked step by step."""
    total: Counter = Counter()
    for seed in range(6):
        total += await late_answers(seed)
    assert total["commits"] > 150 and total["late"] > 300, total


async def read_then_write(committer: Committer, inputs, compute):
    """Compute at a fresh read timestamp and commit through the lifecycle,
    recomputing when an input changed."""
    txns = committer.txns
    read_ts = await read_only(txns, committer.oracle, inputs)
    try:
        return await committer.commit(await compute(read_ts), read_ts=read_ts, reads=inputs, recompute=compute)
    finally:
        txns.cache.release_history(read_ts)


BANK = pa.schema([field_for("id", "bigint"), field_for("balance", "bigint")])


async def test_bank_transfers_preserve_the_total(env):
    setup = await env.txns()
    a, b = await env.shards(setup, "bank_a", "bank_b", schema=BANK)
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    t = setup.begin()
    for shard, base in ((a, 0), (b, 100)):
        await t.write(shard, pa.table({"id": pa.array(range(base, base + 5), pa.int64()), "balance": pa.array([100] * 5, pa.int64())}))
    await Committer(setup, oracle).commit(t)
    total = 1000
    rng = random.Random(3)
    sums: list[int] = []

    handles: list = []  # every process's handle, whose data sinces a tidier moves
    done = asyncio.Event()

    async def transfers(n: int) -> None:
        txns = await env.txns()
        handles.append(txns)
        for _ in range(n):
            async def compute(read_ts: int):
                accounts = []
                for shard in (a, b):
                    for row in (await txns.read(shard, read_ts)).to_pylist():
                        accounts.append((shard, row["id"], row["balance"]))
                (fs, fid, fbal), (ts_, tid, tbal) = rng.sample(accounts, 2)
                amount = rng.randint(1, 30)
                txn = txns.begin()
                for shard, i, old, new in ((fs, fid, fbal, fbal - amount), (ts_, tid, tbal, tbal + amount)):
                    await txn.write(shard, pa.table({"id": pa.array([i], pa.int64()), "balance": pa.array([old], pa.int64())}), diff=-1)
                    await txn.write(shard, pa.table({"id": pa.array([i], pa.int64()), "balance": pa.array([new], pa.int64())}))
                return txn

            await read_then_write(Committer(txns, oracle), [a, b], compute)

    async def transfers_tidied(n: int) -> None:
        try:
            await transfers(n)
        finally:
            done.set()

    async def auditor(n: int) -> None:
        txns = await env.txns()
        handles.append(txns)
        for _ in range(n):
            ts = await read_only(txns, oracle, [a, b])
            try:
                s = 0
                for shard in (a, b):
                    table = await (await txns.data_reader(shard)).snapshot_table(ts)
                    assert table.num_rows == 5, "an account vanished or doubled"
                    s += sum(table.column("balance").to_pylist())
                sums.append(s)
            finally:
                txns.cache.release_history(ts)

    async def tidier() -> None:
        """Data shard sinces move up as far as each process's held reads
        allow, all along: no read may find its timestamp below a since."""
        moved = 0
        while not done.is_set():
            for txns in handles:
                moved += await txns.downgrade_data_sinces()
            await asyncio.sleep(0.001)
        assert moved > 0

    await asyncio.gather(transfers(6), transfers(6), transfers_tidied(6), auditor(10), auditor(10), tidier())
    assert sums and all(s == total for s in sums), sums
    final = await read_only(setup, oracle, [a, b])
    balances = [(await setup.read(s, final)).column("balance").to_pylist() for s in (a, b)]
    assert sum(map(sum, balances)) == total


async def test_group_commit_merges_concurrent_writers(env):
    txns = await env.txns()
    (d0, d1) = await env.shards(txns, "d0", "d1")
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    group = Committer(txns, oracle)
    before = txns.commits

    async def writer(i: int) -> int:
        t = txns.begin()
        await t.write(d0 if i % 2 else d1, rows(i))
        return (await group.commit(t)).ts

    stamps = await asyncio.gather(*(writer(i) for i in range(64)))
    assert group.txns_committed == 64
    assert group.groups < 64 and txns.commits - before == group.groups
    last = max(stamps)
    assert await oracle.read_ts() >= last, "acknowledged before apply_write"
    got = sorted((await txns.read(d0, last)).column("id").to_pylist() + (await txns.read(d1, last)).column("id").to_pylist())
    assert got == list(range(64))
    # Each writer's rows are visible exactly at its acknowledged ts.
    for i, ts in enumerate(stamps[:8]):
        shard = d0 if i % 2 else d1
        assert i in (await txns.read(shard, ts)).column("id").to_pylist()


async def test_read_then_write_skips_recomputation_when_inputs_unchanged(env):
    txns = await env.txns()
    src, dst, other = await env.shards(txns, "src", "dst", "other")
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    t = txns.begin()
    await t.write(src, rows(1, 2, 3))
    await Committer(txns, oracle).commit(t)
    computes = []

    async def copy(read_ts: int):
        computes.append(read_ts)
        txn = txns.begin()
        await txn.write(dst, await txns.read(src, read_ts))
        if len(computes) == 1:
            # Someone commits above our write_ts to an unrelated shard: our
            # commit loses, but our input did not change.
            intruder = txns.begin()
            await intruder.write(other, rows(9))
            assert (await intruder.commit_at(read_ts + 5)).committed
        return txn

    result = await read_then_write(Committer(txns, oracle), [src], copy)
    # validated past the intruder's commit instead of recomputed
    assert result.recomputed == 0 and len(computes) == 1 and result.ts > computes[0] + 5
    assert sorted((await txns.read(dst, result.ts)).column("id").to_pylist()) == [1, 2, 3]

    computes.clear()

    async def copy_again(read_ts: int):
        computes.append(read_ts)
        txn = txns.begin()
        await txn.write(dst, await txns.read(src, read_ts))
        if len(computes) == 1:
            # This time the input itself changes under us: recompute.
            change = txns.begin()
            await change.write(src, rows(4))
            assert (await change.commit_at(read_ts + 5)).committed
        return txn

    result = await read_then_write(Committer(txns, oracle), [src], copy_again)
    assert result.recomputed == 1 and len(computes) == 2
    final = sorted((await txns.read(dst, result.ts)).column("id").to_pylist())
    assert final == [1, 1, 2, 2, 3, 3, 4], "the second copy must see the changed input"


async def test_large_txn_spills_to_blob_in_bounded_buffers(mem_env):
    txns = await mem_env.txns()
    (d0,) = await mem_env.shards(txns, "d0")
    t = txns.begin()
    for start in range(0, 200_000, 20_000):
        await t.write(d0, rows(*range(start, start + 20_000)))
        assert sum(t._buffer_bytes.values()) < 2 * (1 << 20), "the txn kept more than its spill threshold in memory"
    r = await t.commit_at(await txns.upper())
    assert r.committed
    await t.apply(r.ts)
    assert (await txns.read(d0, r.ts)).num_rows == 200_000


async def test_batch_written_elsewhere_and_merged_txns(env):
    txns = await env.txns()
    (d0, d1) = await env.shards(txns, "d0", "d1")
    # A batch written by another client (as a Spark executor would), sent as bytes.
    other = env.client()
    w = await other.open_writer(d0)
    from storage.persist import BatchHandle

    wire = (await w.batch(rows(50, 51), ts=0)).to_bytes()
    t1 = txns.begin()
    t1.write_batch(BatchHandle.from_bytes(wire))
    t2 = txns.begin()
    await t2.write(d1, rows(60))
    t1.merge(t2)
    r = await t1.commit_at(await txns.upper())
    assert r.committed
    await t1.apply(r.ts)
    assert sorted((await txns.read(d0, r.ts)).column("id").to_pylist()) == [50, 51]
    assert (await txns.read(d1, r.ts)).column("id").to_pylist() == [60]


async def test_group_commit_takes_txns_queued_during_an_apply(mem_env, monkeypatch):
    """A txn submitted while the previous group's apply hangs (and nobody
    submits after it) must still be committed."""
    txns = await mem_env.txns()
    (d0,) = await mem_env.shards(txns, "d0")
    group = Committer(txns, MemOracle())
    release = asyncio.Event()
    applying = asyncio.Event()
    real_apply = type(txns).apply_shard

    async def slow_apply(self, shard, le):
        applying.set()
        await release.wait()
        return await real_apply(self, shard, le)

    monkeypatch.setattr(type(txns), "apply_shard", slow_apply)
    first = txns.begin()
    await first.write(d0, rows(1))
    ts1 = (await group.commit(first)).ts  # acknowledged; its apply now hangs
    await applying.wait()
    second = txns.begin()
    await second.write(d0, rows(2))
    pending = asyncio.create_task(group.commit(second))
    await asyncio.sleep(0)
    release.set()
    ts2 = (await asyncio.wait_for(pending, 10)).ts
    assert ts2 > ts1
    assert sorted((await txns.read(d0, ts2)).column("id").to_pylist()) == [1, 2]


async def test_group_commit_serves_writers_that_keep_committing(env):
    """Txns submitted while the leader waits for an apply must not strand."""
    txns = await env.txns()
    (d0,) = await env.shards(txns, "d0")
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    group = Committer(txns, oracle, max_group=8)

    async def writer(w: int) -> list[int]:
        out = []
        for n in range(6):
            t = txns.begin()
            await t.write(d0, rows(w * 100 + n))
            out.append((await asyncio.wait_for(group.commit(t), 60)).ts)
        return out

    stamps = await asyncio.gather(*(writer(w) for w in range(16)))
    assert group.txns_committed == 96
    last = max(max(s) for s in stamps)
    got = sorted((await txns.read(d0, last)).column("id").to_pylist())
    assert got == sorted(w * 100 + n for w in range(16) for n in range(6))


async def test_a_transaction_with_no_rows_commits_a_real_time(env):
    """A read-write transaction whose writes came to nothing still commits
    (an empty append): the oracle must never hear of a time the txns shard
    did not reach, or every later read waits for it forever."""
    txns = await env.txns()
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    committer = Committer(txns, oracle)
    read_ts = await txns.read_ts(oracle)
    txns.cache.release_history(read_ts)
    done = await committer.commit(txns.begin(), read_ts=read_ts)
    upper = await txns.upper()
    assert upper > done.ts and await oracle.read_ts() < upper
    assert await committer.commit(txns.begin(), read_ts=await oracle.read_ts())  # and reads at it do not wait
    committer.validate()


async def test_the_last_committer_to_a_shard_applies_for_both(env, monkeypatch):
    """Two processes commit to one shard, one after the other: the first's
    applier leaves the apply to the second (whose covers both), so their
    appliers do not race for the shard's compare-and-sets; the data shard
    holds both commits once both appliers are done."""
    # the first applier waits long enough for the second commit to be made
    # and read (a loaded machine took more than the usual 0.1 s for it)
    monkeypatch.setattr("storage.txns.commit.APPLY_DELAY", 1.0)
    a, b = await env.txns(), await env.txns()
    (d0,) = await env.shards(a, "d0")
    oracle = MemOracle() if env.kind == "mem" else env.oracle
    first, second = Committer(a, oracle), Committer(b, oracle)
    t = a.begin()
    await t.write(d0, rows(1))
    one = await first.commit(t)
    t = b.begin()
    await t.write(d0, rows(2))
    two = await second.commit(t)
    await a.cache.update_to(two.ts + 1)  # a knows of b's commit before its applier runs
    writer_a = await a.client.open_writer(d0)
    attempts = writer_a.machine.cas_attempts
    await first.settled()
    await second.settled()
    assert writer_a.machine.cas_attempts == attempts, "the first applier made no compare-and-set on the shard"
    assert (await (await b.client.open_writer(d0)).fetch_upper()) > two.ts, "b applied both"
    assert sorted((await b.read(d0, two.ts)).column("id").to_pylist()) == [1, 2]
    assert (await b.read(d0, one.ts)).column("id").to_pylist() == [1]
    a.validate()
    b.validate()
