"""Writes on Spark committed through the txns shard: atomic and
serializable against concurrent small writers; a commit that loses the
race with unchanged inputs is re-timestamped (no second job, no new part);
changed inputs rerun the job; a task that fails mid-write leaves nothing
visible and no part behind."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from planner.errors import SqlError
from tests.planner.helpers import rows

pytestmark = pytest.mark.asyncio(loop_scope="package")

N = 20_000


async def _shard(db, table: str) -> str:
    return (await db.catalog_at(await db.oracle.read_ts())).table(table, None, ("public",)).shard


async def _spark_parts(db, table: str) -> set[str]:
    """Keys of parts Spark executors wrote for ``table`` that are in Blob."""
    shard = await _shard(db, table)
    return {m.key for m in await db.blob.list(f"{shard}/p/") if "/p/spark-" in m.key}


async def _state_parts(db, table: str) -> set[str]:
    """Keys of the parts ``table``'s shard state holds (what reads see)."""
    shard = await _shard(db, table)
    await db.txns.data_snapshot(shard, await db.oracle.read_ts())
    state = await (await db.txns.data_reader(shard)).machine.fetch()
    return {p.key for b in state.batches for p in b.parts if p.key is not None}


async def _setup(s, *tables: str) -> None:
    await s.execute("CREATE TABLE IF NOT EXISTS src (id bigint, k int, v double precision, s text)")
    if not (await rows(s, "SELECT count(*) FROM src"))[0][0]:
        await s.execute(f"INSERT INTO src SELECT g, g % 10, g * 0.5, 'row ' || g FROM generate_series(1, {N}) g")
    for t in tables:
        await s.execute(f"CREATE TABLE {t} (id bigint, k int, v double precision, s text)")


async def test_insert_select_races_small_writers(sdb):
    s = sdb.session()
    await _setup(s, "dst", "other")
    await s.execute("SET txngate.engine = spark")
    runtime = sdb.spark.runtime
    jobs = runtime.jobs_started
    done = asyncio.Event()
    during = {"dst": 0, "other": 0}
    seen_by_reader: set[int] = set()

    async def writer(table: str, base: int):
        w = sdb.session()
        i = 0
        while not done.is_set():
            i += 1
            await w.execute(f"INSERT INTO {table} VALUES ({base + i}, -1, 0, 'small')")
            if runtime.jobs_started > jobs:
                during[table] += 1
        return i

    async def reader():
        r = sdb.session()
        await r.execute("SET txngate.engine = local")
        while not done.is_set():
            seen_by_reader.add((await rows(r, "SELECT count(*) FROM dst WHERE k >= 0"))[0][0])

    async def big():
        try:
            return await s.execute("INSERT INTO dst SELECT * FROM src")
        finally:
            done.set()

    sdb.client.config.compaction = False  # keep the committed parts as written, to compare with Blob below
    try:
        await _race_checks(sdb, s, big, writer, reader, during, runtime, jobs, seen_by_reader)
    finally:
        sdb.client.config.compaction = True


async def _race_checks(sdb, s, big, writer, reader, during, runtime, jobs, seen_by_reader):
    result, n_dst, n_other, _ = await asyncio.gather(big(), writer("dst", 10_000_000), writer("other", 20_000_000), reader())
    assert result[-1].command_tag() == f"INSERT 0 {N}"
    assert during["dst"] + during["other"] > 0, "no small write committed while the Spark job ran"
    assert runtime.jobs_started - jobs == 1, "unchanged inputs: the lost commit is re-timestamped, not recomputed"
    await s.execute("SET txngate.engine = local")
    assert (await rows(s, "SELECT count(*), count(*) FILTER (WHERE k >= 0), count(*) FILTER (WHERE k = -1) FROM dst"))[0] == (N + n_dst, N, n_dst)
    assert (await rows(s, "SELECT count(*) FROM other"))[0][0] == n_other
    assert seen_by_reader <= {0, N}, f"a reader saw a partial INSERT ... SELECT: {sorted(seen_by_reader)}"
    assert (await rows(s, "SELECT sum(id) FROM dst WHERE k >= 0"))[0][0] == N * (N + 1) // 2
    # the parts in Blob are exactly the committed ones, all from the one job
    # (one writer id): the retry re-timestamped them, wrote none
    written = await _spark_parts(sdb, "dst")
    assert written and written <= await _state_parts(sdb, "dst")
    assert len({k.split("/p/")[1].split("/")[0] for k in written}) == 1


async def test_changed_input_reruns_the_job(sdb):
    s = sdb.session()
    await _setup(s, "dst2")
    await s.execute("SET txngate.engine = spark")
    runtime = sdb.spark.runtime
    jobs = runtime.jobs_started
    wrote = asyncio.Event()

    async def change_src_once():
        w = sdb.session()
        while runtime.jobs_started == jobs:
            await asyncio.sleep(0.01)  # polls for the job to start; the race itself is not timed
        await w.execute(f"INSERT INTO src VALUES ({N + 1}, 1, 1.0, 'late')")
        wrote.set()

    result, _ = await asyncio.gather(s.execute("INSERT INTO dst2 SELECT * FROM src WHERE k = 1"), change_src_once())
    assert wrote.is_set()
    assert runtime.jobs_started - jobs == 2, "a changed input must rerun the job"
    assert result[-1].command_tag() == f"INSERT 0 {N // 10 + 1}"
    await s.execute("SET txngate.engine = local")
    assert (await rows(s, "SELECT count(*) FROM dst2"))[0][0] == N // 10 + 1
    await s.execute(f"DELETE FROM src WHERE id = {N + 1}")


@pytest.mark.parametrize("failing, state, extra", [
    ("CASE WHEN id = 19990 THEN NULL ELSE v END", "23502", ""),  # NOT NULL in the SQL of Spark's own writer
    ("CASE WHEN id = 19990 THEN v / 0 ELSE v END", "22012", ""),  # Spark's own evaluation
    ("CASE WHEN id = 19990 THEN NULL ELSE v END", "23502", ", u uuid"),  # a uuid column: executors' batch writer, conform() there
])
async def test_failed_task_leaves_nothing(sdb, failing, state, extra):
    s = sdb.session()
    table = f"strict_{state}_{len(extra)}"
    await _setup(s)
    await s.execute(f"CREATE TABLE {table} (id bigint, v double precision NOT NULL{extra})")
    await s.execute("SET txngate.engine = spark")
    old_part_bytes = sdb.spark.part_bytes
    sdb.spark.part_bytes = 16 << 10  # the batch writer uploads many parts before the failing row
    try:
        with pytest.raises(SqlError) as info:
            await s.execute(f"INSERT INTO {table} (id, v) SELECT id, {failing.replace('v / 0', 'id / 0')} FROM src")
    finally:
        sdb.spark.part_bytes = old_part_bytes
    assert info.value.sqlstate == state
    await s.execute("SET txngate.engine = local")
    assert (await rows(s, f"SELECT count(*) FROM {table}"))[0][0] == 0
    assert await _spark_parts(sdb, table) == set(), "orphan parts of the failed job remain"
    # the table still takes a good statement on Spark
    await s.execute("SET txngate.engine = spark")
    await s.execute(f"INSERT INTO {table} (id, v) SELECT id, v FROM src WHERE id <= 10")
    await s.execute("SET txngate.engine = local")
    assert (await rows(s, f"SELECT count(*) FROM {table}"))[0][0] == 10


async def test_unconstrained_numeric_refuses_lost_digits_on_spark(sdb):
    """Spark's writer refuses, as the local one does (22003), a value an
    unconstrained numeric column would keep rounded; exact ones are kept."""
    s = sdb.session()
    await _setup(s)
    await s.execute("CREATE TABLE exact (id bigint, n numeric)")
    await s.execute("SET txngate.engine = spark")
    with pytest.raises(SqlError) as info:
        await s.execute("INSERT INTO exact SELECT id, CASE WHEN id = 19990 THEN 0.123456789012 ELSE id END FROM src")
    assert info.value.sqlstate == "22003"
    await s.execute("INSERT INTO exact SELECT id, CASE WHEN id = 3 THEN 0.1234567890 ELSE id * 0.25 END FROM src WHERE id <= 4")
    with pytest.raises(SqlError) as info:
        await s.execute("UPDATE exact SET n = n / 7")  # (run locally: Spark's UPDATE would change the old rows' type)
    assert info.value.sqlstate == "22003"
    await s.execute("SET txngate.engine = local")
    assert await rows(s, "SELECT n FROM exact ORDER BY id") == [(Decimal("0.25"),), (Decimal("0.5"),), (Decimal("0.123456789"),), (Decimal(1),)]


async def test_ctas_and_refresh_on_spark(sdb):
    s = sdb.session()
    await _setup(s)
    await s.execute("SET txngate.engine = spark")
    assert (await s.execute("CREATE TABLE agg AS SELECT k, count(*) AS n, sum(v) AS total FROM src GROUP BY k"))[-1].command_tag() == "SELECT 10"
    await s.execute("CREATE MATERIALIZED VIEW mv AS SELECT k, count(*) AS n FROM src WHERE k < 3 GROUP BY k")
    await s.execute("SET txngate.engine = local")
    await s.execute(f"INSERT INTO src VALUES ({N + 5}, 0, 1.0, 'new')")
    await s.execute("SET txngate.engine = spark")
    await s.execute("REFRESH MATERIALIZED VIEW mv")
    await s.execute("SET txngate.engine = local")
    assert await rows(s, "SELECT k, n FROM mv ORDER BY k") == [(0, N // 10 + 1), (1, N // 10), (2, N // 10)]
    assert await rows(s, "SELECT k, n, total FROM agg WHERE k = 3") == [(3, N // 10, sum(i * 0.5 for i in range(3, N + 1, 10)))]
    await s.execute(f"DELETE FROM src WHERE id = {N + 5}")


async def test_explain_shows_choice_and_estimate(sdb):
    s = sdb.session()
    await _setup(s)
    plan = "\n".join(r[0] for r in await rows(s, "EXPLAIN SELECT k, count(*) FROM src GROUP BY k"))
    assert "Engine: local (DuckDB): estimate below txngate.spark_threshold" in plan
    estimate = int(plan.split("Estimated bytes read: ")[1].split()[0])
    assert estimate > 0
    # not the estimate itself: background compaction may shrink src's
    # history between the two EXPLAINs
    await s.execute("SET txngate.spark_threshold = '1B'")
    plan = "\n".join(r[0] for r in await rows(s, "EXPLAIN SELECT k, count(*) FROM src GROUP BY k"))
    assert "Engine: spark: estimate at or above txngate.spark_threshold" in plan and "Spark query: SELECT" in plan
    jobs = sdb.spark.runtime.jobs_started
    assert len(await rows(s, "SELECT k, count(*) FROM src GROUP BY k")) == 10
    assert sdb.spark.runtime.jobs_started == jobs + 1, "auto routing above the threshold runs on Spark"
    await s.execute("SET txngate.engine = local")
    assert "Engine: local (DuckDB): txngate.engine = local" in "\n".join(r[0] for r in await rows(s, "EXPLAIN SELECT count(*) FROM src"))


async def test_update_and_delete_on_spark(sdb):
    s = sdb.session()
    await _setup(s, "upd")
    await s.execute("ALTER TABLE upd ADD COLUMN tag varchar(8)")
    await s.execute("INSERT INTO upd (id, k, v, s) SELECT id, k, v, s FROM src WHERE id <= 1000")
    await s.execute("INSERT INTO upd (id, k, v, s) SELECT id, k, v, s FROM src WHERE id <= 10")  # duplicates: each copy counts
    await s.execute("SET txngate.engine = spark")
    jobs = sdb.spark.runtime.jobs_started
    assert (await s.execute("UPDATE upd AS u SET v = u.v * 2, tag = 'k' || u.k WHERE u.k = 3"))[-1].command_tag() == "UPDATE 101"
    assert (await s.execute("DELETE FROM upd WHERE id > 990"))[-1].command_tag() == "DELETE 10"
    with pytest.raises(SqlError) as info:
        await s.execute("UPDATE upd SET tag = 'much too long' WHERE k = 4")
    assert info.value.sqlstate == "22001"
    assert sdb.spark.runtime.jobs_started - jobs == 3
    await s.execute("SET txngate.engine = local")
    assert await rows(s, "SELECT count(*), count(tag), sum(v) FILTER (WHERE k = 3) FROM upd") == [
        (1000, 100, 2 * (sum(i * 0.5 for i in range(3, 991, 10)) + 3 * 0.5))
    ]
    assert await rows(s, "SELECT DISTINCT tag FROM upd WHERE tag IS NOT NULL") == [("k3",)]
