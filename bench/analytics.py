"""The 22-query decision-support workload (tests/tpch: TPC-H's schema and
queries, data from tpchgen-cli) on txngate (``txngate serve``, embedded
default, no Spark), PostgreSQL 15 and bare DuckDB over the same CSV files,
in one run (issue "SQL answers exactly PostgreSQL's").

First one pass over the 22 queries on txngate and on DuckDB, timed as a
whole (the first reads of each table: txngate copies the large tables a
query reads again into DuckDB's own storage in the background,
local_exec.native). Then prints, per query: the seconds on each (best of
--repeat runs after one warm-up; a query PostgreSQL has not answered
within --pg-timeout seconds shows as a timeout and is left out of the
ratios), whether txngate's
answer equals PostgreSQL's (tests/tpch.compare), then the load times, the
geometric means of txngate/PostgreSQL and txngate/DuckDB, the worst
txngate/DuckDB query, and the cores used. Last, the gateway restarts on
its folder and two passes over the queries are timed (the first reads the
tables from storage again).

Run: .venv/bin/python bench/analytics.py [--scale 0.1] [--repeat 3] [--pg-timeout 120]
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time

from _common import gateway_and_postgres, row

import duckdb
import psycopg

from tests import tpch


def timed(run, repeat: int, timeout: float | None = None):
    """(best seconds, answer) of ``run`` over ``repeat`` runs after a warm-up;
    (None, None) when it times out."""
    best, answer = math.inf, None
    for i in range(repeat + 1):
        t0 = time.perf_counter()
        try:
            answer = run()
        except psycopg.errors.QueryCanceled:
            return None, None
        elapsed = time.perf_counter() - t0
        if i:
            best = min(best, elapsed)
        if timeout is not None and elapsed > timeout / 2:
            return elapsed, answer  # too slow to repeat
    return best, answer


def duckdb_answers(folder: str):
    con = duckdb.connect()
    for sql in tpch.DDL:
        con.execute(sql)
    t0 = time.perf_counter()
    for t in tpch.TABLES:
        con.execute(f"COPY {t} FROM '{os.path.join(folder, t + '.csv')}' (FORMAT csv, HEADER)")
    return con, time.perf_counter() - t0


def after_restart(gateway, sum_best: float) -> None:
    """Restart the gateway on its folder and time two passes over the 22
    queries: the first reads every table from storage again, the second
    should cost what the queries cost before (a cache too small for the
    tables made every query read them again)."""
    from tests.servers import Gateway

    folder = os.path.dirname(gateway.log.name)
    gateway.stop()
    again = Gateway(folder, "--spark-master", "none")
    try:
        conn = psycopg.connect(again.dsn(), autocommit=True)
        passes = []
        for _ in range(2):
            t0 = time.perf_counter()
            for sql in tpch.queries().values():
                tpch.run(conn, sql)
            passes.append(time.perf_counter() - t0)
        conn.close()
        print(f"after a restart, one pass over the 22 queries, s: first {passes[0]:.2f}, second {passes[1]:.2f} "
              f"(the best times above add up to {sum_best:.2f})")
    finally:
        again.stop()


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pg-timeout", type=float, default=120.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = tpch.generate(args.scale, os.path.join(tmp, "data"))
        with gateway_and_postgres("tpch") as (gateway, pg):
            ours = psycopg.connect(f"host=127.0.0.1 port={gateway.port} user=txngate dbname=txngate", autocommit=True)
            theirs = psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=tpch", autocommit=True)
            theirs.execute(f"SET statement_timeout = '{int(args.pg_timeout * 1000)}'")
            loads = {}
            for label, conn in (("txngate", ours), ("PostgreSQL", theirs)):
                t0 = time.perf_counter()
                tpch.load(conn, folder)
                loads[label] = time.perf_counter() - t0
            duck, loads["DuckDB"] = duckdb_answers(folder)
            print(f"TPC-H scale {args.scale}, {os.cpu_count()} cores; txngate: one process, embedded default, no Spark\n")
            first = {}
            for label, run in (("txngate", lambda sql: tpch.run(ours, sql)), ("DuckDB", lambda sql: duck.execute(sql).fetchall())):
                t0 = time.perf_counter()
                for sql in tpch.queries().values():
                    run(sql)
                first[label] = time.perf_counter() - t0
            print(f"first pass over the 22 queries, s: txngate {first['txngate']:.2f}, DuckDB {first['DuckDB']:.2f}\n")
            print(row("query", "txngate s", "PostgreSQL s", "DuckDB s", "same answer", widths=(10, 12, 14, 12, 14)))
            ratios_pg, ratios_duck, answered, same, sum_best = [], [], 0, 0, 0.0
            for n, sql in tpch.queries().items():
                t_ours, got = timed(lambda: tpch.run(ours, sql), args.repeat)
                t_pg, expected = timed(lambda: tpch.run(theirs, sql), args.repeat, args.pg_timeout)
                t_duck, _ = timed(lambda: duck.execute(sql).fetchall(), args.repeat)
                answered += got is not None
                sum_best += t_ours
                verdict = "?" if expected is None else ("yes" if not tpch.compare(n, sql, expected, got) else "NO")
                same += verdict == "yes"
                if t_pg is not None:
                    ratios_pg.append(t_ours / t_pg)
                ratios_duck.append((n, t_ours / t_duck))
                print(row(f"Q{n}", f"{t_ours:.3f}", "timeout" if t_pg is None else f"{t_pg:.3f}", f"{t_duck:.3f}", verdict,
                          widths=(10, 12, 14, 12, 14)))
            worst = max(ratios_duck, key=lambda x: x[1])
            print()
            print(f"load (COPY of every table), s: txngate {loads['txngate']:.1f}, PostgreSQL {loads['PostgreSQL']:.1f}, "
                  f"DuckDB (from the files) {loads['DuckDB']:.1f}")
            print(f"answered {answered}/22, the same as PostgreSQL {same}/22 (differences listed in tests/tpch)")
            print(f"geometric mean txngate / PostgreSQL: {geomean(ratios_pg):.3f} ({len(ratios_pg)} queries PostgreSQL answered in time)")
            print(f"geometric mean txngate / DuckDB: {geomean([r for _n, r in ratios_duck]):.2f}; worst Q{worst[0]}: {worst[1]:.1f}x")
            ours.close()
            theirs.close()
            after_restart(gateway, sum_best)


if __name__ == "__main__":
    main()
