"""Benchmark durable shards (storage.persist) on this machine.

Prints:
* 1-row write + compare_and_append latency p50/p99 on PostgreSQL + S3
  (moto), with the batch inline in the state and with it in S3;
* snapshot throughput of a 10M-row, 4-column shard from a local-folder Blob
  into Arrow (rows/s);
* the batch count after 10,000 one-row appends with compaction running in
  the background (embedded default: SQLite + local folder);
* the Blob bytes written by ``rewrite_ts`` of a written batch.

Starts its own PostgreSQL and S3 servers. Run:
    .venv/bin/python bench/shards.py [--rows 10000000] [--appends 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import tempfile
import time

from _common import pct, row

import pyarrow as pa

from storage.location import CountingBlob, open_blob, open_consensus
from storage.persist import PersistClient, PersistConfig, field_for
from tests.servers import PostgresServer, S3Server

SCHEMA = pa.schema([field_for("id", "bigint"), field_for("k", "integer"), field_for("v", "double precision"), field_for("s", "text")])


def one_row(i: int) -> pa.Table:
    return pa.table({"id": pa.array([i], pa.int64()), "k": pa.array([i % 100], pa.int32()), "v": [i * 0.5], "s": [f"row {i}"]})


async def small_appends(pg: PostgresServer, s3: S3Server, n: int) -> None:
    print("\n1-row compare_and_append on PostgreSQL + S3 (moto)")
    print(row("", "total p50", "total p99", "CaA p50", "CaA p99"))
    consensus = await open_consensus(pg.url())
    blob = await open_blob(s3.url(prefix="bench-shards"))
    for label, threshold in (("inline batch", 4096), ("batch in S3", 0)):
        client = PersistClient(blob, consensus, PersistConfig(inline_threshold=threshold))
        w = await client.open_writer(f"small-{threshold}", SCHEMA)
        total, caa = [], []
        for i in range(n):
            t0 = time.perf_counter()
            batch = await w.batch(one_row(i), ts=i)
            t1 = time.perf_counter()
            assert (await w.compare_and_append(batch, i, i + 1)).applied
            t2 = time.perf_counter()
            total.append(t2 - t0)
            caa.append(t2 - t1)
        ms = lambda x: f"{x * 1e3:.2f} ms"  # noqa: E731
        print(row(label, ms(pct(total, 50)), ms(pct(total, 99)), ms(pct(caa, 50)), ms(pct(caa, 99))))
        await client.close()
    await blob.close()
    await consensus.close()


async def snapshot_throughput(folder: str, rows: int) -> None:
    consensus = await open_consensus(f"sqlite://{folder}/snap.db")
    blob = await open_blob(f"file://{folder}/snap-blob")
    client = PersistClient(blob, consensus, PersistConfig(compaction=False))
    w = await client.open_writer("snap", SCHEMA)
    builder = w.builder(ts=0)
    chunk = 1_000_000
    t0 = time.perf_counter()
    for start in range(0, rows, chunk):
        ids = pa.array(range(start, min(rows, start + chunk)), pa.int64())
        strings = pa.array([f"s{i % 1000}" for i in range(len(ids))])
        await builder.add(pa.table({"id": ids, "k": ids.cast(pa.int32(), safe=False), "v": ids.cast(pa.float64()), "s": strings}))
    handle = await builder.finish()
    await w.compare_and_append(handle, 0, 1)
    write_s = time.perf_counter() - t0
    r = await client.open_reader("snap")
    best = math.inf
    for _ in range(3):
        t0 = time.perf_counter()
        seen = 0
        async for batch in r.snapshot(0):
            seen += batch.num_rows
        best = min(best, time.perf_counter() - t0)
        assert seen == rows
    print(f"\nSnapshot of a {rows:,}-row, 4-column shard (local folder, {len(handle.parts)} parts, {handle.nbytes / 2**20:.0f} MiB Parquet)")
    print(row("write (builder + append)", f"{rows / write_s / 1e6:.2f} M rows/s"))
    print(row("snapshot into Arrow (best of 3)", f"{rows / best / 1e6:.2f} M rows/s", "target >= 5"))
    await client.close()
    await consensus.close()


async def compaction_shape(folder: str, appends: int) -> None:
    consensus = await open_consensus(f"sqlite://{folder}/tiers.db?synchronous=normal")
    blob = await open_blob(f"file://{folder}/tiers-blob?fsync=false")
    client = PersistClient(blob, consensus, PersistConfig())
    w = await client.open_writer("tiers", SCHEMA)
    most = 0
    t0 = time.perf_counter()
    for i in range(appends):
        await w.compare_and_append(await w.batch(one_row(i), ts=i), i, i + 1)
        most = max(most, len(w.machine.state.batches))
    elapsed = time.perf_counter() - t0
    await w.wait_idle()
    final = len((await client.state("tiers")).batches)
    print(f"\nBatches after {appends:,} one-row appends, compaction in the background (SQLite + local folder)")
    print(row("batches at the end", final, f"target <= {2 * math.log2(appends):.0f}"))
    print(row("most batches seen while appending", most))
    print(row("appends/s with compaction running", f"{appends / elapsed:,.0f}"))
    await client.close()
    await consensus.close()


async def rewrite_bytes(folder: str) -> None:
    consensus = await open_consensus(f"sqlite://{folder}/rts.db")
    blob = CountingBlob(await open_blob(f"file://{folder}/rts-blob"))
    client = PersistClient(blob, consensus, PersistConfig(inline_threshold=0))
    w = await client.open_writer("rts", SCHEMA)
    batch = await w.batch(pa.concat_tables([one_row(i) for i in range(10_000)]), ts=0)
    written = blob.put_bytes
    moved = batch.rewrite_ts(100)
    await w.compare_and_append(moved, 0, 101)
    print("\nrewrite_ts of a 10,000-row batch")
    print(row("bytes written by the batch", written))
    print(row("data bytes written by rewrite_ts + append", blob.put_bytes - written, "target 0"))
    await client.close()
    await consensus.close()


async def main(args) -> None:
    with tempfile.TemporaryDirectory(prefix="txngate-bench-") as tmp:
        with PostgresServer() as pg, S3Server() as s3:
            await small_appends(pg, s3, args.small)
        await snapshot_throughput(tmp, args.rows)
        await compaction_shape(tmp, args.appends)
        await rewrite_bytes(tmp)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--appends", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1000, help="1-row appends per latency measurement")
    asyncio.run(main(parser.parse_args()))
