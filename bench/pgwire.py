"""Benchmark the PostgreSQL front end against the real PostgreSQL the tests
use, on this machine. For each server prints:

* ``SELECT 1`` round trips per second from one psycopg connection;
* point SELECT qps by primary key with pgbench (16 clients, -M prepared);
* rows/s streaming a --rows (1M) row, 4-column SELECT in text format (psycopg).

txngate runs as a ``txngate serve`` child process on the embedded default.
(buenavista, the issue's third comparison, is not run here: it needs its own
virtualenv; see the closing note of the pgwire issue.)

Run: .venv/bin/python bench/pgwire.py [--rows 1000000] [--seconds 5]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from _common import ROOT, row

import psycopg

from tests.gateway.conftest import Gateway
from tests.servers import PostgresServer


def select1(dsn: str, seconds: float) -> float:
    with psycopg.connect(dsn, autocommit=True) as conn:
        n, deadline = 0, time.perf_counter() + seconds
        start = time.perf_counter()
        while time.perf_counter() < deadline:
            conn.execute("SELECT 1").fetchone()
            n += 1
        return n / (time.perf_counter() - start)


def setup(dsn: str, rows: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS wide")
        conn.execute("CREATE TABLE wide (id bigint PRIMARY KEY, k integer, v double precision, s text)")
        with conn.cursor().copy("COPY wide FROM STDIN") as copy:
            for lo in range(0, rows, 100_000):
                copy.write("".join(f"{i}\t{i % 1000}\t{i / 7}\tname-{i}\n" for i in range(lo, min(rows, lo + 100_000))))


def point_qps(host: str, port: int, user: str, rows: int, seconds: float) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(f"\\set id random(0, {rows - 1})\nSELECT id, k, v, s FROM wide WHERE id = :id;\n")
    db = "txngate" if user == "txngate" else "postgres"
    res = subprocess.run(["pgbench", "-n", "-h", host, "-p", str(port), "-U", user, "-f", f.name, "-c", "16", "-j", "2",
                          "-T", str(int(seconds)), "-M", "prepared", db], capture_output=True, text=True, timeout=seconds + 120)
    os.unlink(f.name)
    m = re.search(r"tps = ([\d.]+)", res.stdout)
    if m is None or res.returncode != 0:
        raise RuntimeError(res.stdout + res.stderr)
    return float(m.group(1))


def stream(dsn: str) -> float:
    with psycopg.connect(dsn, autocommit=True) as conn:
        start = time.perf_counter()
        cur = conn.cursor()
        cur.execute("SELECT id, k, v, s FROM wide")
        n = 0
        while batch := cur.fetchmany(50_000):
            n += len(batch)
        return n / (time.perf_counter() - start)


def measure(name: str, dsn: str, host: str, port: int, user: str, args) -> dict:
    setup(dsn, args.rows)
    out = {"SELECT 1 round trips/s (1 connection)": select1(dsn, args.seconds),
           "point SELECT qps (pgbench, 16 clients)": point_qps(host, port, user, args.rows, args.seconds),
           f"streaming rows/s ({args.rows:,} rows x 4 columns, text)": stream(dsn)}
    print(f"  measured {name}", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    os.chdir(ROOT)
    results = {}
    with tempfile.TemporaryDirectory() as d:
        g = Gateway(d)
        try:
            results["txngate"] = measure("txngate", g.dsn(), "127.0.0.1", g.port, "txngate", args)
        finally:
            g.stop()
    with PostgresServer() as pg:
        dsn = f"host=127.0.0.1 port={pg.port} user=postgres dbname=postgres"
        results["PostgreSQL"] = measure("PostgreSQL", dsn, "127.0.0.1", pg.port, "postgres", args)
    print(row("", "txngate", "PostgreSQL", "txngate/PG", widths=(52, 14, 14, 12)))
    for key in results["txngate"]:
        a, b = results["txngate"][key], results["PostgreSQL"][key]
        print(row(key, a, b, f"{a / b:.2f}x", widths=(52, 14, 14, 12)))


if __name__ == "__main__":
    main()
