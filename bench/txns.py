"""Benchmark transactions (storage.txns + storage.oracle) on this machine.

For PostgreSQL consensus + oracle with S3 (moto) blobs, and for the embedded
default (SQLite + local folder), prints:
* 1-row write txns/s with 1, 8 and 64 concurrent writers, with and without
  group commit, and the commit latency p50/p99 seen by a writer;
* read-after-write latency: from a commit's acknowledgement to a read at a
  fresh read_ts that sees it;
* the Blob bytes written by a retried (contended) commit.

Run: .venv/bin/python bench/txns.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from _common import pct, row

import pyarrow as pa

from storage.location import CountingBlob, open_blob, open_consensus
from storage.oracle import open_oracle
from storage.persist import PersistClient, PersistConfig, field_for
from storage.txns import Committer, TxnsHandle
from tests.servers import PostgresServer, S3Server

SCHEMA = pa.schema([field_for("id", "bigint"), field_for("v", "text")])


def one(i: int) -> pa.Table:
    return pa.table({"id": pa.array([i], pa.int64()), "v": [f"row {i}"]})


async def run_writers(txns: TxnsHandle, oracle, shard: str, writers: int, seconds: float, grouped: bool) -> tuple[float, list[float]]:
    group = Committer(txns, oracle) if grouped else None
    deadline = time.perf_counter() + seconds
    latencies: list[float] = []
    counter = 0

    async def writer(w: int) -> None:
        nonlocal counter
        while time.perf_counter() < deadline:
            counter += 1
            t = txns.begin()
            await t.write(shard, one(counter))
            t0 = time.perf_counter()
            if group is not None:
                await group.commit(t)
            else:
                await Committer(txns, oracle).commit(t)
            latencies.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(writers)))
    return len(latencies) / (time.perf_counter() - start), latencies


async def read_after_write(txns: TxnsHandle, oracle, shard: str, n: int) -> list[float]:
    group = Committer(txns, oracle)
    reader = await txns.data_reader(shard)
    out = []
    for i in range(n):
        t = txns.begin()
        await t.write(shard, one(-i - 1))
        await group.commit(t)
        t0 = time.perf_counter()
        ts = await oracle.read_ts()
        await txns.data_snapshot(shard, ts)
        got = await reader.snapshot_table(ts)
        out.append(time.perf_counter() - t0)
        assert got.num_rows > 0
    return out


async def retry_bytes(blob: CountingBlob, txns: TxnsHandle, shard: str) -> tuple[int, int]:
    """Blob bytes written by a commit that lost its first attempt and was
    retried at a later ts, and the data parts the shard holds afterwards."""
    loser = txns.begin()
    await loser.write(shard, pa.table({"id": pa.array(range(10_000), pa.int64()), "v": ["x"] * 10_000}))
    await loser.seal()  # the data is written once, here
    winner = txns.begin()
    await winner.write(shard, one(0))
    u = await txns.upper()
    await winner.commit_at(u + 10)
    before = blob.put_bytes
    lost = await loser.commit_at(u + 5)
    assert not lost.committed
    assert (await loser.commit_at(lost.upper)).committed
    parts = len(await blob.list(f"{shard}/"))
    return blob.put_bytes - before, parts


async def bench_env(label: str, consensus_url: str, blob_url: str, oracle_url: str, seconds: float) -> None:
    consensus = await open_consensus(consensus_url)
    blob = CountingBlob(await open_blob(blob_url))
    oracle = await open_oracle(oracle_url)
    client = PersistClient(blob, consensus, PersistConfig())
    txns = await TxnsHandle.open(client)
    print(f"\n{label}")
    print(row("1-row write txns", "txns/s", "commit p50", "commit p99"))
    results = {}
    for grouped in (False, True):
        for writers in (1, 8, 64):
            shard = f"w{writers}{'g' if grouped else 'n'}"
            await client.create_shard(shard, SCHEMA)
            await txns.register(shard, 0)
            rate, lat = await run_writers(txns, oracle, shard, writers, seconds, grouped)
            results[(grouped, writers)] = rate
            name = f"{writers} writers, {'group commit' if grouped else 'no grouping'}"
            print(row(name, f"{rate:,.0f}", f"{pct(lat, 50) * 1e3:.1f} ms", f"{pct(lat, 99) * 1e3:.1f} ms"))
    print(row("group commit speed-up at 64 writers", f"{results[(True, 64)] / results[(False, 64)]:.1f}x", "target >= 5x"))
    await client.create_shard("raw", SCHEMA)
    await txns.register("raw", 0)
    raw = await read_after_write(txns, oracle, "raw", 200)
    print(row("read-after-write", f"p50 {pct(raw, 50) * 1e3:.2f} ms", f"p99 {pct(raw, 99) * 1e3:.2f} ms"))
    await client.create_shard("retry", SCHEMA)
    await txns.register("retry", 0)
    written, parts = await retry_bytes(blob, txns, "retry")
    print(row("Blob bytes written by a lost + retried commit", f"{written:,}", f"parts: {parts}", "target 0"))
    await client.close()
    await oracle.close()
    await consensus.close()


async def main(seconds: float) -> None:
    with PostgresServer() as pg, S3Server() as s3:
        await bench_env("PostgreSQL consensus + oracle, S3 (moto) blobs", pg.url(pool_size=16), s3.url(prefix="bench-txns"), pg.url(), seconds)
    with tempfile.TemporaryDirectory(prefix="txngate-bench-") as tmp:
        await bench_env("Embedded default: SQLite + local folder", f"sqlite://{tmp}/consensus.db", f"file://{tmp}/blob", f"sqlite://{tmp}/consensus.db", seconds)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    asyncio.run(main(parser.parse_args().seconds))
