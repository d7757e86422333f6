"""Hostile statements beside a probe session (issue "Fault tolerance and
operability"): while one session sends a huge statement, another runs
``SELECT 1`` in a loop; printed per statement and size, for txngate
(``txngate serve``, embedded default) and PostgreSQL in the same run: the
huge statement's seconds, and the probe's count, p50, p99 and max latency.

Statements: a string literal of --mb MB (``SELECT length('xx...')``) and an
IN list of integers of about --mb MB (``SELECT count(*) FROM t WHERE id IN
(0, 1, ...)``).

Then the bank of the fault suite (``tests/gateway/test_fault_suite.py``):
transfers in explicit transactions from --clients psycopg clients for
--seconds, on two ``txngate serve`` processes over PostgreSQL + S3 and on
PostgreSQL SERIALIZABLE: transfers/s and the share of attempts that got
40001 (PostgreSQL's deadlocks, 40P01, counted with them). And recovery: seconds from a gateway's SIGKILL until a restarted
gateway commits a transfer, and from PostgreSQL's crash (immediate
shutdown) until a gateway commits one again.

Run: .venv/bin/python bench/faults.py [--mb 20] [--clients 8] [--seconds 10] [--only statements|bank]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from _common import gateway_and_postgres, pct, row

import pathlib
import random
import tempfile

import psycopg

from tests.gateway.test_fault_suite import ACCOUNTS, START, Bank
from tests.servers import PostgresServer, S3Server


async def probed(dsn: str, sql: str) -> tuple[float, list[float]]:
    big = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    probe = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    try:
        t0 = time.perf_counter()
        task = asyncio.ensure_future(big.execute(sql))
        latencies = []
        while not task.done():
            t1 = time.perf_counter()
            await (await probe.execute("SELECT 1")).fetchone()
            latencies.append(time.perf_counter() - t1)
            await asyncio.sleep(0.005)
        await (await task).fetchall()
        return time.perf_counter() - t0, latencies
    finally:
        await big.close()
        await probe.close()


async def main(mb: int) -> None:
    literal = "SELECT length('" + "x" * (mb << 20) + "')"
    ids = ", ".join(str(i) for i in range((mb << 20) // 8))
    in_list = f"SELECT count(*) FROM probe_t WHERE id IN ({ids})"
    with gateway_and_postgres("faults") as (gateway, pg):
        servers = {"txngate": gateway.dsn(), "PostgreSQL": f"host=127.0.0.1 port={pg.port} user=postgres dbname=faults"}
        for dsn in servers.values():
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("CREATE TABLE probe_t (id bigint PRIMARY KEY)")
                conn.execute("INSERT INTO probe_t SELECT g FROM generate_series(1, 100000) g")
        print(f"{mb} MB statements, a probe session running SELECT 1 meanwhile\n")
        print(row("statement / server", "seconds", "probes", "p50 ms", "p99 ms", "max ms", widths=(30, 10, 10, 10, 10, 10)))
        for label, sql in (("string literal", literal), ("IN list", in_list)):
            for name, dsn in servers.items():
                seconds, lat = await probed(dsn, sql)
                ms = [x * 1000 for x in lat]
                print(row(f"{label} / {name}", f"{seconds:.2f}", len(ms), f"{pct(ms, 50):.1f}", f"{pct(ms, 99):.1f}", f"{max(ms, default=0):.1f}",
                          widths=(30, 10, 10, 10, 10, 10)))


BANK_DDL = ("CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL)",
            "CREATE TABLE transfers (tid text NOT NULL, src integer NOT NULL, dst integer NOT NULL, amount integer NOT NULL)",
            f"INSERT INTO acct SELECT g, {START} FROM generate_series(0, {ACCOUNTS - 1}) g")


async def _run_bank(bank: Bank, clients: int, seconds: float) -> tuple[float, float]:
    """Transfers/s committed and the share of attempts refused with 40001."""
    acked, seen = len(bank.acked), dict(bank.seen)
    bank.stop = False
    tasks = [asyncio.ensure_future(bank.client(c)) for c in range(clients)]
    await asyncio.sleep(seconds)  # the measuring window
    bank.stop = True
    await asyncio.gather(*tasks)
    done = len(bank.acked) - acked
    conflicts = bank.seen.get("40001", 0) - seen.get("40001", 0)
    return done / seconds, conflicts / max(1, done + conflicts)


async def _postgres_bank(dsn: str, clients: int, seconds: float) -> tuple[float, float]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in BANK_DDL:
            conn.execute(sql)
    counts = {"ok": 0, "40001": 0}
    deadline = time.monotonic() + seconds

    async def client(c: int) -> None:
        rng = random.Random(c)
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            await conn.execute("SET default_transaction_isolation = 'serializable'")
            await conn.commit()
            n = 0
            while time.monotonic() < deadline:
                n += 1
                a, b = rng.sample(range(ACCOUNTS), 2)
                amount = rng.randint(1, 50)
                try:
                    await conn.execute("UPDATE acct SET bal = bal - %s WHERE id = %s", (amount, a))
                    await conn.execute("UPDATE acct SET bal = bal + %s WHERE id = %s", (amount, b))
                    await conn.execute("INSERT INTO transfers VALUES (%s, %s, %s, %s)", (f"{c}-{n}", a, b, amount))
                    await conn.commit()
                    counts["ok"] += 1
                except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
                    await conn.rollback()  # both are PostgreSQL's "retry me" (40001, 40P01)
                    counts["40001"] += 1

    await asyncio.gather(*(client(c) for c in range(clients)))
    return counts["ok"] / seconds, counts["40001"] / max(1, counts["ok"] + counts["40001"])


async def _first_commit_after(bank: Bank, started: float) -> float:
    """Seconds from ``started`` until a transfer commits (one client)."""
    target = len(bank.acked) + 1
    bank.stop = False
    task = asyncio.ensure_future(bank.client(99))
    async with bank.progress:
        await bank.progress.wait_for(lambda: len(bank.acked) >= target)
    elapsed = time.monotonic() - started
    bank.stop = True
    await task
    return elapsed


async def bank(clients: int, seconds: float) -> None:
    with PostgresServer(crash_safe=True) as pg, S3Server() as s3:
        pg.psql("CREATE DATABASE bank")
        pg.psql("CREATE DATABASE bank_pg")
        b = Bank(pathlib.Path(tempfile.mkdtemp(prefix="bench-faults-")), pg, s3)
        try:
            with psycopg.connect(b.gateways[0].dsn(), autocommit=True) as conn:
                for sql in BANK_DDL:
                    conn.execute(sql)
            print(f"\nbank: {clients} clients, {seconds:.0f} s, {ACCOUNTS} accounts (transfers in explicit transactions, retried on 40001)\n")
            print(row("server", "transfers/s", "40001 share", widths=(52, 14, 14)))
            tps, share = await _run_bank(b, clients, seconds)
            print(row("txngate, 2 gateways, PostgreSQL + S3", f"{tps:.1f}", f"{share:.0%}", widths=(52, 14, 14)))
            tps, share = await _postgres_bank(pg.url(database="bank_pg").replace("postgres://", "postgresql://"), clients, seconds)
            print(row("PostgreSQL 15 SERIALIZABLE", f"{tps:.1f}", f"{share:.0%}", widths=(52, 14, 14)))

            victim, survivor = b.gateways
            started = time.monotonic()
            victim.proc.kill()
            victim.proc.wait()
            victim.log.close()
            b.gateways = [b.start_gateway()]  # the survivor is left out: the restarted one must serve
            kill = await _first_commit_after(b, started)
            b.gateways.append(survivor)
            started = time.monotonic()
            pg.crash_restart()
            crash = await _first_commit_after(b, started)
            print(f"\nrecovery: gateway SIGKILL -> restarted gateway's first commit {kill:.2f} s; "
                  f"PostgreSQL crash -> first commit {crash:.2f} s")
        finally:
            for g in b.gateways:
                if g.proc.poll() is None:
                    g.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=20)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--only", choices=["statements", "bank"], default=None)
    args = ap.parse_args()
    if args.only != "bank":
        asyncio.run(main(args.mb))
    if args.only != "statements":
        asyncio.run(bank(args.clients, args.seconds))
