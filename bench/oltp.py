"""OLTP figures at the Session API on the embedded default, beside the test
PostgreSQL at SERIALIZABLE in the same run (issue "OLTP at scale"; pgbench
and many-client figures are still to join).

For each table size (--sizes, rows already in a keyed table), one session:
* p50 / p99 (ms) of 1-row autocommit INSERT, UPDATE by key, DELETE by key,
  and a point SELECT right after a write (the first read of a new version);
* N clients (--clients) each in an explicit transaction inserting one
  distinct key, all reads before any commit: how many commit and how many
  get 40001 (PostgreSQL: all commit), and the wall time.

Then, through ``txngate serve`` (``--workers``, default one per core) on
PostgreSQL consensus and S3 (moto) beside PostgreSQL itself: --many
clients (asyncpg) each inserting 1-row autocommit INSERTs into a keyed
table for --seconds: committed txns/s and 40001s.

Run: .venv/bin/python bench/oltp.py [--sizes 10000,1000000] [--clients 16] [--ops 50] [--many 64] [--seconds 10]
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


async def _latencies(run, statements) -> list[float]:
    lat = []
    for sql in statements:
        t0 = time.perf_counter()
        await run(sql)
        lat.append((time.perf_counter() - t0) * 1000)
    return lat


async def figures(run, clients: list, size: int, ops: int, conflict_error, sqlstate) -> dict:
    """The same workload through ``run(sql)`` (one connection) and
    ``clients`` (one connection each): 1-row INSERT, UPDATE by key, DELETE
    by key and a point SELECT right after a write (latencies in ms), then
    one distinct-key INSERT per client in an explicit transaction, every
    commit after every insert."""
    await run("CREATE TABLE k (id bigint PRIMARY KEY, v text)")
    await run(f"INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, {size}) AS g")
    await run("SELECT v FROM k WHERE id = 1")  # warm: the first read of a table loads it
    out = {
        "INSERT": await _latencies(run, [f"INSERT INTO k VALUES ({size + 1 + i}, 'new')" for i in range(ops)]),
        "UPDATE": await _latencies(run, [f"UPDATE k SET v = 'u' WHERE id = {1 + i * 7}" for i in range(ops)]),
        "DELETE": await _latencies(run, [f"DELETE FROM k WHERE id = {2 + i * 7}" for i in range(ops)]),
    }
    after_write = []
    for i in range(ops):
        await run(f"UPDATE k SET v = 'w' WHERE id = {3 + i * 7}")
        after_write += await _latencies(run, [f"SELECT v FROM k WHERE id = {4 + i * 7}"])
    out["SELECT after write"] = after_write
    base = size + ops + 1
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
    return {"latency": out, "committed": outcomes.count("COMMIT"), "40001": outcomes.count("40001"),
            "wall": time.perf_counter() - t0}


async def txngate_figures(size: int, clients: int, ops: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(f"sqlite://{tmp}/c.db", f"file://{tmp}/blob", spark_master=None)
        try:
            sessions = [db.session() for _ in range(clients + 1)]
            return await figures(sessions[0].execute, [s.execute for s in sessions[1:]], size, ops, SqlError, lambda e: e.sqlstate)
        finally:
            await db.close()


async def postgres_figures(dsn: str, size: int, clients: int, ops: int) -> dict:
    conns = [await asyncpg.connect(dsn) for _ in range(clients + 1)]
    try:
        await conns[0].execute("DROP TABLE IF EXISTS k")
        return await figures(conns[0].execute, [c.execute for c in conns[1:]], size, ops, asyncpg.PostgresError, lambda e: e.sqlstate)
    finally:
        for c in conns:
            await c.close()


async def _insert_storm(dsn: str, clients: int, seconds: float) -> tuple[float, int]:
    """``clients`` connections inserting distinct keys, one autocommit
    INSERT at a time, for ``seconds``: (committed per second, 40001s)."""
    conns = [await asyncpg.connect(dsn) for _ in range(clients)]
    try:
        await conns[0].execute("DROP TABLE IF EXISTS storm")
        await conns[0].execute("CREATE TABLE storm (id bigint PRIMARY KEY, v text)")
        done, conflicts = 0, 0
        stop = time.perf_counter() + seconds

        async def client(n: int, conn) -> None:
            nonlocal done, conflicts
            i = 0
            while time.perf_counter() < stop:
                try:
                    await conn.execute("INSERT INTO storm VALUES ($1, 'x')", n * 10_000_000 + i)
                    done += 1
                except asyncpg.PostgresError as e:
                    if e.sqlstate != "40001":
                        raise
                    conflicts += 1
                i += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(client(n, c) for n, c in enumerate(conns)))
        return done / (time.perf_counter() - t0), conflicts
    finally:
        for c in conns:
            await c.close()


def many_clients(pg: PostgresServer, clients: int, seconds: float, workers: int) -> None:
    from tests.servers import Gateway, S3Server

    pg.psql("DROP DATABASE IF EXISTS storm_store")
    pg.psql("CREATE DATABASE storm_store")
    with tempfile.TemporaryDirectory() as tmp, S3Server() as s3:
        gateway = Gateway(tmp, "--spark-master", "none", "--workers", str(workers),
                          "--consensus", pg.url(database="storm_store"), "--blob", s3.url("storm"))
        try:
            print(f"\n{clients} clients, 1-row autocommit INSERTs of distinct keys for {seconds:g} s "
                  f"(txngate: {workers} workers, PostgreSQL consensus + S3 (moto)); {os.cpu_count()} cores")
            for name, dsn in (("txngate", f"postgresql://txngate@127.0.0.1:{gateway.port}/txngate"),
                              ("postgres", pg.url().replace("postgres://", "postgresql://").split("?")[0])):
                rate, conflicts = asyncio.run(_insert_storm(dsn, clients, seconds))
                print(f"{name:>9}: {rate:10,.0f} txns/s committed, {conflicts} x 40001")
        finally:
            gateway.stop()


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--ops", type=int, default=50, help="statements timed per kind")
    ap.add_argument("--many", type=int, default=64, help="clients of the INSERT storm (0: skip it)")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--workers", type=int, default=0, help="txngate serve --workers (0: one per core)")
    args = ap.parse_args()
    pg = PostgresServer().start()
    try:
        dsn = pg.url().replace("postgres://", "postgresql://").split("?")[0]
        print(f"cores: {os.cpu_count()}; embedded default (SQLite + local folder) vs PostgreSQL 15 SERIALIZABLE; "
              f"{args.ops} statements per kind, one session; latencies in ms")
        print(f"{'rows':>9} {'system':>9} {'statement':>19} {'p50':>8} {'p99':>8}")
        tails = []
        for size in (int(x) for x in args.sizes.split(",")):
            for name, got in (("txngate", await txngate_figures(size, args.clients, args.ops)),
                              ("postgres", await postgres_figures(dsn, size, args.clients, args.ops))):
                for kind, lat in got["latency"].items():
                    print(f"{size:>9} {name:>9} {kind:>19} {pct(lat, 50):>8.2f} {pct(lat, 99):>8.2f}")
                tails.append((size, name, got))
        print(f"\n{'rows':>9} {'system':>9} {f'{args.clients} explicit txns, distinct keys: commit':>44} {'40001':>6} {'wall s':>7}")
        for size, name, got in tails:
            print(f"{size:>9} {name:>9} {got['committed']:>44} {got['40001']:>6} {got['wall']:>7.2f}")
        if args.many:
            await asyncio.to_thread(many_clients, pg, args.many, args.seconds, args.workers or os.cpu_count())
    finally:
        pg.stop()


if __name__ == "__main__":
    asyncio.run(main())
