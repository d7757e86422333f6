"""OLTP figures at the Session API on the embedded default, beside the test
PostgreSQL at SERIALIZABLE in the same run (first part of issue "OLTP at
scale"; more figures join as the key index lands).

For each table size (--sizes, rows already in a keyed table):
* 1-row autocommit INSERT into the keyed table: p50 / p99 (ms);
* N clients (--clients) each in an explicit transaction inserting one
  distinct key, all reads before any commit: how many commit and how many
  get 40001 (PostgreSQL: all commit), and the wall time.

Run: .venv/bin/python bench/oltp.py [--sizes 10000,100000] [--clients 16]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

from _common import pct

import asyncpg

from planner import Database, SqlError
from tests.servers import PostgresServer


async def txngate_figures(size: int, clients: int, inserts: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(f"sqlite://{tmp}/c.db", f"file://{tmp}/blob", spark_master=None)
        try:
            s = db.session()
            await s.execute("CREATE TABLE k (id bigint PRIMARY KEY, v text)")
            await s.execute(f"INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, {size}) AS g")
            lat = []
            for i in range(inserts):
                t0 = time.perf_counter()
                await s.execute(f"INSERT INTO k VALUES ({size + 1 + i}, 'new')")
                lat.append((time.perf_counter() - t0) * 1000)
            base = size + inserts + 1
            sessions = [db.session() for _ in range(clients)]
            t0 = time.perf_counter()
            for i, c in enumerate(sessions):
                await c.execute("BEGIN")
                await c.execute(f"INSERT INTO k VALUES ({base + i}, 'c')")
            outcomes = []
            for c in sessions:
                try:
                    await c.execute("COMMIT")
                    outcomes.append("COMMIT")
                except SqlError as e:
                    outcomes.append(e.sqlstate)
            wall = time.perf_counter() - t0
            return {"p50": pct(lat, 50), "p99": pct(lat, 99), "committed": outcomes.count("COMMIT"),
                    "40001": outcomes.count("40001"), "wall": wall}
        finally:
            await db.close()


async def postgres_figures(dsn: str, size: int, clients: int, inserts: int) -> dict:
    conn = await asyncpg.connect(dsn)
    await conn.execute("DROP TABLE IF EXISTS k; CREATE TABLE k (id bigint PRIMARY KEY, v text)")
    await conn.execute(f"INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, {size}) AS g")
    lat = []
    for i in range(inserts):
        t0 = time.perf_counter()
        await conn.execute(f"INSERT INTO k VALUES ({size + 1 + i}, 'new')")
        lat.append((time.perf_counter() - t0) * 1000)
    base = size + inserts + 1
    conns = [await asyncpg.connect(dsn) for _ in range(clients)]
    t0 = time.perf_counter()
    for i, c in enumerate(conns):
        await c.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        await c.execute(f"INSERT INTO k VALUES ({base + i}, 'c')")
    outcomes = []
    for c in conns:
        try:
            await c.execute("COMMIT")
            outcomes.append("COMMIT")
        except asyncpg.PostgresError as e:
            outcomes.append(e.sqlstate)
    wall = time.perf_counter() - t0
    for c in conns + [conn]:
        await c.close()
    return {"p50": pct(lat, 50), "p99": pct(lat, 99), "committed": outcomes.count("COMMIT"),
            "40001": outcomes.count("40001"), "wall": wall}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--inserts", type=int, default=50)
    args = ap.parse_args()
    pg = PostgresServer().start()
    try:
        dsn = pg.url().replace("postgres://", "postgresql://").split("?")[0]
        print(f"cores: {os.cpu_count()}; embedded default (SQLite + local folder) vs PostgreSQL 15 SERIALIZABLE")
        print(f"{'rows':>9} {'system':>9} {'INSERT p50 ms':>14} {'p99 ms':>8} {f'{args.clients} txns: commit':>18} {'40001':>6} {'wall s':>7}")
        for size in (int(x) for x in args.sizes.split(",")):
            for name, figures in (("txngate", await txngate_figures(size, args.clients, args.inserts)),
                                  ("postgres", await postgres_figures(dsn, size, args.clients, args.inserts))):
                print(f"{size:>9} {name:>9} {figures['p50']:>14.2f} {figures['p99']:>8.2f} {figures['committed']:>18} "
                      f"{figures['40001']:>6} {figures['wall']:>7.2f}")
    finally:
        pg.stop()


if __name__ == "__main__":
    asyncio.run(main())
