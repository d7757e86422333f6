"""Cost of PostgreSQL's exact numerics at the Session API, by table size,
beside the test PostgreSQL in the same run (issue "SQL answers exactly
PostgreSQL's").

For each size (--sizes), a table ``num (id, n numeric(12,3), m
numeric(9,2), i integer, f double precision, u numeric)`` loaded on both, then each
query's median time over --runs runs (warm: the table cached), and
whether txngate's answer is PostgreSQL's: "yes" digit for digit, "to N
places" equal but for the places PostgreSQL shows past N (its display
scale, or a quotient's places past the 20 txngate keeps), "NO" otherwise:
* ``sum(n / m)``, ``sum(n / 7)``, a WHERE on ``n / m``: per-row quotients
  (planner.bind._fixed_quotient, local_exec.numeric over whole columns),
  and ``sum(u / m)`` of an unconstrained numeric ``u`` (each value its scale);
* ``sum(n) / sum(m)``: one quotient per group (local_exec.numeric);
* ``sum(f::numeric)``, ``sum(round(f::numeric, 2))``: casts of doubles to
  numeric (local_exec.numeric's input, a Python call per row);
* ``sum(n * m)``: DuckDB's own decimal arithmetic, for scale.

Run: .venv/bin/python bench/numeric.py [--sizes 10000,100000,1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from _common import median, row

import psycopg

from planner import Database
from tests.planner.helpers import pg_text_answer, text_answer
from tests.servers import PostgresServer

QUERIES = [
    "SELECT sum(n / m) FROM num",
    "SELECT sum(n / 7) FROM num",
    "SELECT count(*) FROM num WHERE n / m > 100",
    "SELECT sum(u / m) FROM num",
    "SELECT sum(n) / sum(m) FROM num",
    "SELECT sum(f::numeric) FROM num",
    "SELECT sum(round(f::numeric, 2)) FROM num",
    "SELECT sum(n * m) FROM num",
]

LOAD = ("INSERT INTO num SELECT g, ((g::bigint * 7919) % 2000000 - 1000000)::numeric / 1000, (g % 9973 + 1)::numeric / 100, g % 1000, "
        "g / 8.0, ((g::bigint * 7919) % 2000000 - 1000000) * 0.001 FROM generate_series(1, {size}) g")


def agreement(ours, theirs) -> str:
    """"yes", "to N places" or "NO" (see the module docstring) for two text answers."""
    if ours == theirs:
        return "yes"
    try:
        (mine,), (pg,) = ours[1], theirs[1]
        a, b = Decimal(mine[0]), Decimal(pg[0])
    except (TypeError, ValueError, IndexError, InvalidOperation):
        return "NO"
    places = max(0, -a.as_tuple().exponent)
    return f"to {places} places" if a == b.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) else "NO"


async def measure(size: int, runs: int, pg_url: str) -> list[tuple]:
    out = []
    with tempfile.TemporaryDirectory() as tmp, psycopg.connect(pg_url, autocommit=True) as conn:
        db = await Database.open(f"sqlite://{tmp}/c.db", f"file://{tmp}/blob", spark_master=None)
        try:
            session = db.session()
            conn.execute("DROP TABLE IF EXISTS num")
            for sql in ("CREATE TABLE num (id integer PRIMARY KEY, n numeric(12,3), m numeric(9,2), i integer, f double precision, u numeric)",
                        LOAD.format(size=size)):
                await session.execute(sql)
                conn.execute(sql)
            conn.execute("VACUUM ANALYZE num")
            for q in QUERIES:
                same = agreement(await text_answer(session, q), pg_text_answer(conn, q))
                ours, theirs = [], []
                for _ in range(runs):
                    t0 = time.perf_counter()
                    await session.execute(q)
                    ours.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    conn.execute(q).fetchall()
                    theirs.append(time.perf_counter() - t0)
                out.append((size, q, median(ours) * 1000, median(theirs) * 1000, same))
        finally:
            await db.close()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    pg = PostgresServer().start()
    try:
        print(f"{os.cpu_count()} cores; embedded default vs PostgreSQL 15; median ms of {args.runs} warm runs")
        print(row("rows / query", "txngate ms", "PostgreSQL ms", "same answer", widths=(56, 12, 14, 16)))
        for size in (int(s) for s in args.sizes.split(",")):
            for size_, q, ours, theirs, same in await measure(size, args.runs, pg.url()):
                print(row(f"{size_:>9} {q[7:]}", f"{ours:.1f}", f"{theirs:.1f}", same, widths=(56, 12, 14, 16)))
    finally:
        pg.stop()


if __name__ == "__main__":
    asyncio.run(main())
