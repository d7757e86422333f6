"""Benchmark SQL at the Session API (planner + local engine) on this machine.

For the embedded default (SQLite + local folder) and for PostgreSQL + S3
(moto), prints:
* point SELECT by primary key on a --point-rows (1M) table: p50/p99;
* 1-row autocommit INSERT p50/p99 (into a table without keys: write-only);
* COPY FROM STDIN of --rows (10M) CSV rows, rows/s, next to the test
  PostgreSQL's own COPY of the same bytes into a plain table;
* GROUP BY over those rows (cold: first read from Blob; warm: cached), next
  to the same query on the test PostgreSQL.

Run: .venv/bin/python bench/sql.py [--rows 10000000] [--point-rows 1000000]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import tempfile
import time

from _common import pct, row

import asyncpg
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from planner import Database
from planner.copy import BytesSource
from tests.servers import PostgresServer, S3Server

GROUP_BY = "SELECT k, count(*) AS n, sum(v) AS total FROM big GROUP BY k ORDER BY k"


def csv_bytes(n: int) -> bytes:
    ids = pa.array(range(n), pa.int64())
    table = pa.table({"id": ids, "k": pc.cast(pc.bit_wise_and(ids, 1023), pa.int32()), "v": pc.divide(pc.cast(ids, pa.float64()), 7.0)})
    out = io.BytesIO()
    pacsv.write_csv(table, out, pacsv.WriteOptions(include_header=False))
    return out.getvalue()


def chunks(data: bytes, size: int = 1 << 20):
    view = memoryview(data)
    return [bytes(view[i : i + size]) for i in range(0, len(data), size)]


async def bench_database(name: str, db: Database, big_csv: bytes, point_csv: bytes, rows: int, point_rows: int) -> dict:
    s = db.session()
    out = {}
    # COPY
    await s.execute("CREATE TABLE big (id bigint, k integer, v double precision)")
    t0 = time.perf_counter()
    r = (await s.execute("COPY big FROM STDIN WITH (FORMAT csv)", copy_source=BytesSource(chunks(big_csv))))[-1]
    out["copy_s"] = time.perf_counter() - t0
    assert r.tag == f"COPY {rows}", r.tag
    # GROUP BY: cold then warm
    t0 = time.perf_counter()
    res = (await s.execute(GROUP_BY))[-1]
    out["group_cold_s"] = time.perf_counter() - t0
    warm = []
    for _ in range(3):
        t0 = time.perf_counter()
        res = (await s.execute(GROUP_BY))[-1]
        warm.append(time.perf_counter() - t0)
    out["group_warm_s"] = min(warm)
    out["group_rows"] = len(res.rows)
    await s.execute("DROP TABLE big")
    # point SELECT
    await s.execute("CREATE TABLE pt (id bigint PRIMARY KEY, k integer, v double precision)")
    await s.execute("COPY pt FROM STDIN WITH (FORMAT csv)", copy_source=BytesSource(chunks(point_csv)))
    await s.execute("SELECT * FROM pt WHERE id = 1")  # warm the snapshot cache
    lat = []
    rnd = random.Random(7)
    for _ in range(300):
        key = rnd.randrange(point_rows)
        t0 = time.perf_counter()
        res = (await s.execute("SELECT id, k, v FROM pt WHERE id = $1", [key]))[-1]
        lat.append(time.perf_counter() - t0)
        assert res.rows[0][0] == key
    out["point_p50_ms"], out["point_p99_ms"] = pct(lat, 50) * 1e3, pct(lat, 99) * 1e3
    await s.execute("DROP TABLE pt")
    # 1-row INSERT
    await s.execute("CREATE TABLE ins (id bigint, v text)")
    lat = []
    for i in range(300):
        t0 = time.perf_counter()
        await s.execute("INSERT INTO ins VALUES ($1, 'x')", [i])
        lat.append(time.perf_counter() - t0)
    out["insert_p50_ms"], out["insert_p99_ms"] = pct(lat, 50) * 1e3, pct(lat, 99) * 1e3
    return out


async def bench_postgres(pg: PostgresServer, big_csv: bytes) -> dict:
    pg.psql("DROP DATABASE IF EXISTS bench_sql")
    pg.psql("CREATE DATABASE bench_sql")
    conn = await asyncpg.connect(pg.url(database="bench_sql"))
    try:
        await conn.execute("CREATE TABLE big (id bigint, k integer, v double precision)")
        t0 = time.perf_counter()
        await conn.copy_to_table("big", source=io.BytesIO(big_csv), format="csv")
        copy_s = time.perf_counter() - t0
        await conn.execute("ANALYZE big")
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            await conn.fetch(GROUP_BY)
            times.append(time.perf_counter() - t0)
        return {"copy_s": copy_s, "group_s": min(times)}
    finally:
        await conn.close()


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--point-rows", type=int, default=1_000_000)
    args = ap.parse_args()
    big_csv, point_csv = csv_bytes(args.rows), csv_bytes(args.point_rows)
    print(f"COPY input: {args.rows:,} rows, {len(big_csv) / 1e6:.0f} MB of CSV")
    with tempfile.TemporaryDirectory() as tmp, PostgresServer() as pg, S3Server() as s3:
        ref = await bench_postgres(pg, big_csv)
        results = {}
        embedded = await Database.open(f"sqlite://{tmp}/consensus.db", f"file://{tmp}/blob")
        try:
            results["embedded"] = await bench_database("embedded", embedded, big_csv, point_csv, args.rows, args.point_rows)
        finally:
            await embedded.close()
        durable = await Database.open(pg.url(table="bench_consensus", pool_size=16), s3.url(prefix="bench-sql"))
        try:
            results["postgres+s3"] = await bench_database("postgres+s3", durable, big_csv, point_csv, args.rows, args.point_rows)
        finally:
            await durable.close()
    rows = args.rows
    print(row("measurement", "embedded", "postgres+s3", "PostgreSQL"))
    e, d = results["embedded"], results["postgres+s3"]
    print(row(f"point SELECT p50 ms ({args.point_rows:,} rows)", e["point_p50_ms"], d["point_p50_ms"], "-"))
    print(row("point SELECT p99 ms", e["point_p99_ms"], d["point_p99_ms"], "-"))
    print(row("1-row INSERT p50 ms", e["insert_p50_ms"], d["insert_p50_ms"], "-"))
    print(row("1-row INSERT p99 ms", e["insert_p99_ms"], d["insert_p99_ms"], "-"))
    print(row(f"COPY {rows:,} CSV rows, rows/s", rows / e["copy_s"], rows / d["copy_s"], rows / ref["copy_s"]))
    print(row("COPY vs PostgreSQL", f"{ref['copy_s'] / e['copy_s']:.2f}x", f"{ref['copy_s'] / d['copy_s']:.2f}x", "1.00x"))
    print(row(f"GROUP BY {rows:,} rows, cold s", e["group_cold_s"], d["group_cold_s"], "-"))
    print(row("GROUP BY warm s", e["group_warm_s"], d["group_warm_s"], ref["group_s"]))
    print(row("GROUP BY warm vs PostgreSQL", f"{ref['group_s'] / e['group_warm_s']:.1f}x", f"{ref['group_s'] / d['group_warm_s']:.1f}x", "1.0x"))


if __name__ == "__main__":
    asyncio.run(main())
