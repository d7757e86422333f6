"""The snapshot cache: contents advanced incrementally equal full snapshots,
and a repeated read touches no Blob."""

from __future__ import annotations

import random

import pyarrow as pa

from local_exec import SnapshotCache
from planner.catalog import CATALOG_SHARD
from planner.database import Database
from storage.location import CountingBlob, MemBlob, MemConsensus
from storage.oracle import MemOracle
from storage.persist import PersistClient, PersistConfig, field_for
from storage.txns import Committer, TxnsHandle

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
            await Committer(txns, oracle).commit(t)
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


async def test_updated_tables_consolidate_once_sinces_move(db):
    """Every UPDATE appends the old rows retracted and the new ones added;
    once the data shard's since moves past them, compaction cancels them, so
    a table updated many times stays near its live size. A transaction
    whose read_ts is older still reads its snapshot exactly (the since never
    passes a held read_ts), and the snapshot cache keeps advancing
    incrementally."""
    s, reader = db.session(), db.session()
    await s.execute("CREATE TABLE hot (id int, v int)")
    await s.execute("INSERT INTO hot SELECT g, 0 FROM generate_series(1, 500) g")
    await reader.execute("BEGIN; SELECT sum(v) FROM hot")  # holds its read_ts from here on
    shard = (await db.catalog_at(await db.oracle.read_ts())).lookup("hot", None, ("public",)).shard
    for i in range(1, 21):
        await s.execute("UPDATE hot SET v = v + 1")
        if i == 10:
            await db.downgrade_sinces()
            held = (await db.client.inspect(shard))["since"]
    assert (await reader.execute("SELECT sum(v), count(*) FROM hot"))[-1].rows == [(0, 500)], "the old snapshot, exactly"
    assert held <= reader.work.read_ts, "the since stayed at the open transaction's read_ts"
    await reader.execute("COMMIT")
    await db.committer.settled()  # every UPDATE applied (in the background)
    before = (await db.client.inspect(shard))["batches"]["rows"]
    assert await db.downgrade_sinces() >= 1
    since = (await db.client.inspect(shard))["since"]
    assert since > held
    await s.execute("UPDATE hot SET v = v + 1")  # an append: compaction runs with the new since
    await db.committer.settled()  # applied in the background
    await db.client.maintenance.idle()
    after = (await db.client.inspect(shard))["batches"]["rows"]
    assert before >= 500 + 20 * 1000, before  # every version of every row, before
    assert after <= 500 + 2 * 1000, (before, after)  # the history cancelled out (the newest updates are above the since)
    assert (await s.execute("SELECT sum(v), count(*), count(DISTINCT v) FROM hot"))[-1].rows == [(21 * 500, 500, 1)]


async def test_a_restarted_gateway_reads_the_catalog_once(tmp_path):
    """After a restart the txns cache knows no catalog write (they are
    older than what it loaded), yet the catalog is read from storage once,
    not for every statement."""
    urls = (f"sqlite://{tmp_path}/consensus.db", f"file://{tmp_path}/blob")
    first = await Database.open(*urls, spark_master=None)
    await first.session().execute("CREATE TABLE t (id integer PRIMARY KEY, v integer); INSERT INTO t VALUES (1, 0)")
    await first.close()
    db = await Database.open(*urls, spark_master=None)
    try:
        reads = []
        real = db.txns.read

        async def counting(shard, ts, **kw):
            reads.append(shard)
            return await real(shard, ts, **kw)

        db.txns.read = counting
        s = db.session()
        for i in range(10):
            await s.execute("UPDATE t SET v = v + 1 WHERE id = 1; SELECT v FROM t WHERE id = 1")
        assert (await s.execute("SELECT v FROM t"))[-1].rows == [(10,)]
        assert reads.count(CATALOG_SHARD) == 1
    finally:
        await db.close()


async def test_another_gateways_commits_are_read_from_the_txns_shard(two):
    """A gateway's point reads follow another gateway's commits from their
    batches in the txns shard: nothing is applied or read from the data
    shard for them (with two processes, each applied the other's commits
    with a compare-and-set and read them back), and the answers are right."""
    from tests.planner.helpers import rows

    a, b = two
    held = []
    b.committer._apply_later = lambda txn, ts: held.append((txn, ts))  # b's commits stay unapplied meanwhile
    try:
        sa, sb = a.session(), b.session()
        await sb.execute("INSERT INTO k VALUES (1, 'a@x', 1), (2, 'b@x', 2)")
        assert await rows(sa, "SELECT v FROM k WHERE id = 1") == [(1,)]
        before = dict(a.snapshots.stats)
        for i in range(6):
            await sb.execute(f"UPDATE k SET v = v + 10 WHERE id = {1 + i % 2}")
            assert await rows(sa, f"SELECT v FROM k WHERE id = {1 + i % 2}") == [(1 + i % 2 + 10 * (i // 2 + 1),)]
        after = a.snapshots.stats
        assert after["committed"] - before.get("committed", 0) == 12  # each UPDATE: a row retracted, a row added
        assert after["fetched"] == before.get("fetched", 0) and after["loaded"] == before.get("loaded", 0)
        assert await rows(sa, "SELECT id, v FROM k ORDER BY id") == [(1, 31), (2, 32)]
    finally:
        del b.committer._apply_later
        for txn, ts in held:
            b.committer._apply_later(txn, ts)


async def test_tables_within_the_budget_stay_and_a_growing_one_makes_room():
    """Tables whose contents fit the budget are read once, however they are
    interleaved (a budget too small for them reread every table at every
    query: TPC-H at SF 1 after a restart, 1.5 s a query); a table that
    grows past the budget by new versions evicts the least recently used
    others, never itself."""
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig())
    txns = await TxnsHandle.open(client)
    oracle = MemOracle()
    for d in ("a", "b", "c"):
        await client.create_shard(d, SCHEMA)
        await txns.register(d, 0)
    t = txns.begin()
    for d in ("a", "b", "c"):
        await t.write(d, pa.table({"k": pa.array(range(1000), pa.int32()), "v": ["x" * 20] * 1000}))
    await Committer(txns, oracle).commit(t)
    ts = await oracle.read_ts()
    cache = SnapshotCache(txns)
    for d in ("a", "b", "c"):
        await cache.read(d, ts)
    one = cache.kept()["a"]
    cache.max_bytes = 4 * one  # room for the three
    loaded = cache.stats["loaded"]
    for _ in range(3):
        for d in ("a", "b", "c"):
            await cache.read(d, ts)
    assert cache.stats["loaded"] == loaded
    t = txns.begin()
    await t.write("c", pa.table({"k": pa.array(range(1000, 5000), pa.int32()), "v": ["y" * 20] * 4000}))
    await Committer(txns, oracle).commit(t)
    ts = await oracle.read_ts()
    assert (await cache.read("c", ts)).num_rows == 5000  # c grew past the room left: a and b go, c stays
    assert list(cache.kept()) == ["c"]
    await client.close()
