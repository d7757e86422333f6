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


async def figures(run, clients: list, size: int, inserts: int, conflict_error, sqlstate) -> dict:
    """The same workload through ``run(sql)`` (one connection) and
    ``clients`` (one connection each): the 1-row INSERT latencies, then one
    distinct-key INSERT per client in an explicit transaction, every commit
    after every insert."""
    await run("CREATE TABLE k (id bigint PRIMARY KEY, v text)")
    await run(f"INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, {size}) AS g")
    lat = []
    for i in range(inserts):
        t0 = time.perf_counter()
        await run(f"INSERT INTO k VALUES ({size + 1 + i}, 'new')")
        lat.append((time.perf_counter() - t0) * 1000)
    base = size + inserts + 1
    t0 = time.perf_counter()
    for i, c in enumerate(clients):
        await c("BEGIN ISOLATION LEVEL SERIALIZABLE")
        await c(f"INSERT INTO k VALUES ({base + i}, 'c')")
    outcomes = []
    for c in clients:
        try:
            await c("COMMIT")
            outcomes.append("COMMIT")
        except conflict_error as e:
            outcomes.append(sqlstate(e))
    wall = time.perf_counter() - t0
    return {"p50": pct(lat, 50), "p99": pct(lat, 99), "committed": outcomes.count("COMMIT"),
            "40001": outcomes.count("40001"), "wall": wall}


async def txngate_figures(size: int, clients: int, inserts: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(f"sqlite://{tmp}/c.db", f"file://{tmp}/blob", spark_master=None)
        try:
            sessions = [db.session() for _ in range(clients + 1)]
            return await figures(sessions[0].execute, [s.execute for s in sessions[1:]], size, inserts, SqlError, lambda e: e.sqlstate)
        finally:
            await db.close()


async def postgres_figures(dsn: str, size: int, clients: int, inserts: int) -> dict:
    conns = [await asyncpg.connect(dsn) for _ in range(clients + 1)]
    try:
        await conns[0].execute("DROP TABLE IF EXISTS k")
        return await figures(conns[0].execute, [c.execute for c in conns[1:]], size, inserts, asyncpg.PostgresError, lambda e: e.sqlstate)
    finally:
        for c in conns:
            await c.close()


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
