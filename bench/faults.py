"""Hostile statements beside a probe session (issue "Fault tolerance and
operability"): while one session sends a huge statement, another runs
``SELECT 1`` in a loop; printed per statement and size, for txngate
(``txngate serve``, embedded default) and PostgreSQL in the same run: the
huge statement's seconds, and the probe's count, p50, p99 and max latency.

Statements: a string literal of --mb MB (``SELECT length('xx...')``) and an
IN list of integers of about --mb MB (``SELECT count(*) FROM t WHERE id IN
(0, 1, ...)``).

Run: .venv/bin/python bench/faults.py [--mb 20]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from _common import gateway_and_postgres, pct, row

import psycopg


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


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=20)
    asyncio.run(main(ap.parse_args().mb))
