"""Benchmark the Spark path against bare Spark and against the local engine.

On the embedded default (SQLite + a local folder) with Spark ``local[*]``,
prints, in one run:

* INSERT ... SELECT of --rows (20M) rows (id bigint, k int, v double,
  s text) through txngate on Spark, next to bare Spark writing the same
  rows (the same snapshot read) with ``df.write.parquet``: target <= 1.3x;
* a GROUP BY over --rows rows and over 1M rows on the Spark path and on
  the local path (cold: first read from Blob; warm: cached snapshot);
* the same GROUP BY at several sizes, and the crossover: the smallest size
  (and its estimated bytes read) at which Spark beats the local engine's
  cold run. That estimate sets ``txngate.spark_threshold``'s default.

Run: .venv/bin/python bench/spark.py [--rows 20000000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time

from _common import row

from planner import Database

GROUP_BY = "SELECT k, count(*) AS n, sum(v) AS total, max(s) AS top FROM {t} GROUP BY k ORDER BY k"


async def timed(session, sql: str) -> float:
    t0 = time.perf_counter()
    await session.execute(sql)
    return time.perf_counter() - t0


async def estimate(session, table: str) -> int:
    await session.execute("SET txngate.engine = auto")
    plan = [r[0] for r in (await session.execute(f"EXPLAIN SELECT count(*) FROM {table}"))[-1].rows]
    return int(next(line for line in plan if line.startswith("Estimated bytes read:")).split(":")[1])


async def group_by(s, table: str) -> tuple[float, float, float]:
    """(spark, local cold, local warm) seconds for GROUP_BY over ``table``."""
    await s.execute("SET txngate.engine = spark")
    await timed(s, GROUP_BY.format(t=table))  # Spark's own warm-up of the plan
    spark = await timed(s, GROUP_BY.format(t=table))
    await s.execute("SET txngate.engine = local")
    s.db.snapshots.forget((await s.db.catalog_at(await s.db.oracle.read_ts())).table(table, None, ("public",)).shard)
    cold = await timed(s, GROUP_BY.format(t=table))
    warm = await timed(s, GROUP_BY.format(t=table))
    return spark, cold, warm


async def bare_spark_write(db: Database, table: str, out_dir: str) -> float:
    """Bare Spark: read ``table``'s snapshot the way txngate does and write it
    with ``df.write.parquet`` (no txngate batches, no commit)."""
    from spark_exec.engine import snapshot_frame

    s = db.session()
    await s.execute("SELECT 1")
    catalog = await db.catalog_at(await db.oracle.read_ts())
    rel = catalog.table(table, None, ("public",))
    ts = await db.oracle.read_ts()
    leased = await db.txns.lease_parts(rel.shard, ts)
    spark = await db.spark.runtime.spark()
    try:
        def write():
            snapshot_frame(spark, leased, db.spark.access).write.mode("overwrite").parquet(out_dir)

        t0 = time.perf_counter()
        await asyncio.to_thread(write)
        return time.perf_counter() - t0
    finally:
        leased.release()


async def main(rows: int, args_repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="txngate-bench-spark-")
    db = await Database.open(f"sqlite://{folder}/consensus.db", f"file://{folder}/blob")
    s = db.session()
    try:
        await s.execute("SET txngate.engine = spark")
        t0 = time.perf_counter()
        await s.execute("CREATE TABLE src (id bigint, k int, v double precision, s text)")
        step = 5_000_000
        for lo in range(1, rows + 1, step):
            hi = min(rows, lo + step - 1)
            await s.execute(f"INSERT INTO src SELECT g, (g % 1000)::int, g / 7.0, 'name ' || (g % 100000) FROM generate_series({lo}, {hi}) g")
        print(f"setup: {rows:,} rows into src on Spark in {time.perf_counter() - t0:,.1f} s")

        inserts, bares = [], []
        for i in range(args_repeat):
            await s.execute(f"CREATE TABLE dst{i} (id bigint, k int, v double precision, s text)")
            for which in (("txngate", "bare") if i % 2 == 0 else ("bare", "txngate")):  # alternate: neither always runs on a warmer cache
                await db.client.maintenance.idle()  # no background compaction competing for the cores
                if which == "txngate":
                    inserts.append(await timed(s, f"INSERT INTO dst{i} SELECT * FROM src"))
                else:
                    bares.append(await bare_spark_write(db, "src", os.path.join(folder, "bare")))
        insert, bare = statistics.median(inserts), statistics.median(bares)
        print()
        print(f"(median of {args_repeat} runs each; txngate {', '.join(f'{x:.1f}' for x in inserts)} s; bare {', '.join(f'{x:.1f}' for x in bares)} s)")
        print(row("INSERT ... SELECT", "seconds", "rows/s", "vs bare"))
        print(row(f"txngate on Spark ({rows:,} rows)", insert, rows / insert, f"{insert / bare:.2f}x"))
        print(row("bare Spark df.write.parquet", bare, rows / bare, "1.00x"))

        sizes = sorted({n for n in (1_000_000, 2_000_000, 5_000_000, 10_000_000, rows) if n <= rows})
        for n in sizes:
            if n != rows:
                await s.execute(f"CREATE TABLE t{n} AS SELECT * FROM src WHERE id <= {n}")
        print()
        print(row("GROUP BY (seconds)", "est. bytes", "Spark", "local cold", "local warm"), "  faster")
        crossover = None
        await s.execute("SET txngate.engine = local")
        for n in sizes:
            table = "src" if n == rows else f"t{n}"
            nbytes = await estimate(s, table)
            await db.client.maintenance.idle()
            spark, cold, warm = await group_by(s, table)
            print(row(f"{n:,} rows", nbytes, spark, cold, warm), " ", "spark" if spark < cold else "local")
            if crossover is None and spark < cold:
                crossover = (n, nbytes)
        print()
        if crossover is None:
            print(f"crossover: the local engine was faster at every size up to {rows:,} rows")
        else:
            print(f"crossover: Spark beats the local engine's cold run from {crossover[0]:,} rows (~{crossover[1]:,} bytes read)")
    finally:
        await db.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=20_000_000)
    ap.add_argument("--repeat", type=int, default=5, help="runs of the INSERT comparison (the median is printed)")
    args = ap.parse_args()
    asyncio.run(main(args.rows, args.repeat))
