"""Benchmark the storage locations on this machine.

Prints:
* Consensus compare-and-set per second on PostgreSQL (1 connection
  sequential; 8 tasks on 8 keys; 8 tasks racing on 1 key, successes and
  losses counted) and on SQLite, next to the ceiling: the same number of
  plain asyncpg INSERTs of the same rows into the same kind of table on the
  same server;
* Blob PUT/GET latency p50 and throughput for 1 KiB and 8 MiB values on the
  local folder and on S3 (moto's server).

Starts its own PostgreSQL 15 and S3 server (tests/servers.py). Run:
    .venv/bin/python bench/locations.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid

from _common import pct, row

import asyncpg

from storage.location import open_blob, open_consensus
from tests.servers import PostgresServer, S3Server

PAYLOAD = os.urandom(200)  # about the size of a shard state diff


async def cas_sequential(consensus, seconds: float) -> float:
    key = f"seq-{uuid.uuid4().hex}"
    expected = None
    n = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        assert await consensus.compare_and_set(key, expected, PAYLOAD)
        expected = 0 if expected is None else expected + 1
        n += 1
    return n / (time.perf_counter() - start)


async def cas_many_keys(consensus, tasks: int, seconds: float) -> float:
    deadline = time.perf_counter() + seconds
    counts = [0] * tasks

    async def worker(i: int) -> None:
        key = f"many-{uuid.uuid4().hex}"
        expected = None
        while time.perf_counter() < deadline:
            assert await consensus.compare_and_set(key, expected, PAYLOAD)
            expected = 0 if expected is None else expected + 1
            counts[i] += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(tasks)))
    return sum(counts) / (time.perf_counter() - start)


async def cas_one_key(consensus, tasks: int, seconds: float) -> tuple[float, int, int]:
    key = f"one-{uuid.uuid4().hex}"
    assert await consensus.compare_and_set(key, None, PAYLOAD)
    deadline = time.perf_counter() + seconds
    wins = losses = 0

    async def worker() -> None:
        nonlocal wins, losses
        expected = 0
        while time.perf_counter() < deadline:
            if await consensus.compare_and_set(key, expected, PAYLOAD):
                wins += 1
                expected += 1
            else:
                losses += 1
                expected = (await consensus.head(key)).seqno

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(tasks)))
    elapsed = time.perf_counter() - start
    return (wins + losses) / elapsed, wins, losses


async def insert_ceiling(url: str, tasks: int, seconds: float) -> float:
    """Plain INSERTs of the same rows, one connection per task."""
    conns = [await asyncpg.connect(url) for _ in range(tasks)]
    await conns[0].execute(
        "CREATE TABLE IF NOT EXISTS plain_insert (shard text, seqno bigint, data bytea, PRIMARY KEY (shard, seqno))"
    )
    deadline = time.perf_counter() + seconds
    counts = [0] * tasks

    async def worker(i: int) -> None:
        key = f"plain-{uuid.uuid4().hex}"
        conn = conns[i]
        while time.perf_counter() < deadline:
            await conn.execute("INSERT INTO plain_insert (shard, seqno, data) VALUES ($1, $2, $3)", key, counts[i], PAYLOAD)
            counts[i] += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(tasks)))
    rate = sum(counts) / (time.perf_counter() - start)
    for c in conns:
        await c.close()
    return rate


async def bench_consensus(pg: PostgresServer, tmp: str, seconds: float) -> None:
    print("\nConsensus compare_and_set (200-byte entries)")
    print(row("", "ops/s", "ceiling/s", "ratio"))
    pg1 = await open_consensus(pg.url(pool_size=1))
    pg8 = await open_consensus(pg.url(pool_size=8))
    seq = await cas_sequential(pg1, seconds)
    ceiling1 = await insert_ceiling(pg.url(), 1, seconds)
    print(row("postgres: 1 connection, sequential", seq, ceiling1, f"{seq / ceiling1:.0%}"))
    many = await cas_many_keys(pg8, 8, seconds)
    ceiling8 = await insert_ceiling(pg.url(), 8, seconds)
    print(row("postgres: 8 tasks on 8 keys", many, ceiling8, f"{many / ceiling8:.0%}"))
    rate, wins, losses = await cas_one_key(pg8, 8, seconds)
    print(row("postgres: 8 tasks on 1 key", rate, "", ""), f"  wins {wins:,}, losses {losses:,}")
    await pg1.close()
    await pg8.close()

    for sync in ("full", "normal"):
        sq = await open_consensus(f"sqlite://{tmp}/bench-{sync}.db?synchronous={sync}")
        seq = await cas_sequential(sq, seconds)
        many = await cas_many_keys(sq, 8, seconds)
        rate, wins, losses = await cas_one_key(sq, 8, seconds)
        print(row(f"sqlite (synchronous={sync}): sequential", seq))
        print(row(f"sqlite (synchronous={sync}): 8 tasks, 8 keys", many))
        print(row(f"sqlite (synchronous={sync}): 8 tasks, 1 key", rate), f"  wins {wins:,}, losses {losses:,}")
        await sq.close()


async def bench_blob(name: str, blob, size: int, seconds: float) -> None:
    value = os.urandom(size)
    keys = []
    put_lat: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(put_lat) < 3:
        key = f"bench/{uuid.uuid4().hex}"
        t = time.perf_counter()
        await blob.set(key, value)
        put_lat.append(time.perf_counter() - t)
        keys.append(key)
    get_lat: list[float] = []
    for key in keys:
        t = time.perf_counter()
        got = await blob.get(key)
        get_lat.append(time.perf_counter() - t)
        assert got is not None and len(got) == size
    mb = size / 1e6
    print(
        row(
            f"{name} {'1 KiB' if size < 1e6 else '8 MiB'}",
            f"{pct(put_lat, 50) * 1e3:.2f} ms",
            f"{mb / pct(put_lat, 50):.1f} MB/s",
            f"{pct(get_lat, 50) * 1e3:.2f} ms",
            f"{mb / pct(get_lat, 50):.1f} MB/s",
        )
    )
    await asyncio.gather(*(blob.delete(k) for k in keys))


async def main(seconds: float) -> None:
    with tempfile.TemporaryDirectory(prefix="txngate-bench-") as tmp, PostgresServer() as pg, S3Server() as s3:
        await bench_consensus(pg, tmp, seconds)
        print("\nBlob (sequential, one value at a time)")
        print(row("", "PUT p50", "PUT MB/s", "GET p50", "GET MB/s"))
        fs = await open_blob(f"file://{tmp}/blob")
        s3blob = await open_blob(s3.url(prefix="bench"))
        for size in (1024, 8 * 1024 * 1024):
            await bench_blob("fs", fs, size, seconds)
            await bench_blob("s3 (moto)", s3blob, size, seconds)
        await s3blob.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="duration of each measurement")
    asyncio.run(main(parser.parse_args().seconds))
