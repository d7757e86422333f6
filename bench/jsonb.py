"""Benchmark json/jsonb at the Session API on the embedded default, next to
the test PostgreSQL running the same statements on the same rows.

jsonb's semantics (canonical text, PostgreSQL's operators) run as Python
functions inside DuckDB (local_exec/jsonb.py), so their cost is per row;
this prints it:
* INSERT ... SELECT of --rows jsonb documents (each put in canonical form);
* ``->>`` equality, ``@>`` containment and ``sum((doc->>'n')::int)`` over
  them, warm (the table cached), best of --repeat runs;
* the same on PostgreSQL, and the per-row cost on txngate.

Run: .venv/bin/python bench/jsonb.py [--rows 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from _common import row

import asyncpg

from planner import Database
from tests.servers import PostgresServer

LOAD = ("INSERT INTO j SELECT g, jsonb_build_object('k', 'v' || (g % 10), 'n', g, 'tags', jsonb_build_array(g, g + 1)) "
        "FROM generate_series(1, {rows}) g")
QUERIES = {
    "doc->>'k' = 'v3'": "SELECT count(*) FROM j WHERE doc->>'k' = 'v3'",
    "doc @> '{\"k\": \"v3\"}'": "SELECT count(*) FROM j WHERE doc @> '{\"k\": \"v3\"}'",
    "sum((doc->>'n')::int)": "SELECT sum((doc->>'n')::int) FROM j",
}


async def best(run, repeat: int) -> tuple[float, object]:
    times, answer = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = await run()
        times.append(time.perf_counter() - start)
    return min(times), answer


async def main(rows: int, repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="txngate-bench-jsonb-")
    db = await Database.open(f"sqlite://{folder}/consensus.db", f"file://{folder}/blob", spark_master="none")
    pg_server = PostgresServer().start()
    try:
        s = db.session()
        pg = await asyncpg.connect(pg_server.url())
        await s.execute("CREATE TABLE j (id integer, doc jsonb)")
        await pg.execute("CREATE TABLE j (id integer, doc jsonb)")
        start = time.perf_counter()
        await s.execute(LOAD.format(rows=rows))
        ours = time.perf_counter() - start
        start = time.perf_counter()
        await pg.execute(LOAD.format(rows=rows))
        theirs = time.perf_counter() - start
        await pg.execute("ANALYZE j")
        print(f"jsonb, {rows:,} documents, embedded default (warm), best of {repeat}")
        print(row("statement", "txngate", "PostgreSQL", "txngate/row"))
        print(row("INSERT ... SELECT jsonb_build_object", f"{ours:.2f} s", f"{theirs:.2f} s", f"{ours / rows * 1e6:.1f} us"))
        for label, sql in QUERIES.items():
            ours, got = await best(lambda: s.execute(sql), repeat)
            theirs, expected = await best(lambda: pg.fetchval(sql), repeat)
            assert got[-1].rows[0][0] == expected, (label, got[-1].rows, expected)
            print(row(label, f"{ours:.3f} s", f"{theirs:.3f} s", f"{ours / rows * 1e6:.1f} us"))
        await pg.close()
    finally:
        await db.close()
        pg_server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.rows, args.repeat))
