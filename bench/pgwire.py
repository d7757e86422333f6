"""Benchmark the PostgreSQL front end against the real PostgreSQL the tests
use, on this machine. For each server prints:

* ``SELECT 1`` round trips per second from one psycopg connection;
* point SELECT qps by primary key with pgbench (16 clients, -M simple:
  buenavista answers pgbench's extended-protocol modes with errors);
* rows/s streaming a --rows (1M) row, 4-column SELECT in text format (psycopg).

Three servers: txngate (a ``txngate serve`` child process on the embedded
default), the real PostgreSQL the tests use, and buenavista 0.5 serving an
in-memory DuckDB, installed on first run into its own virtualenv under
``.bench/buenavista`` (buenavista 0.5 needs duckdb < 2, so it cannot share
txngate's environment).

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

from tests.servers import Gateway
from tests.servers import PostgresServer, free_port


def select1(dsn: str, seconds: float) -> float:
    with psycopg.connect(dsn, autocommit=True) as conn:
        n, deadline = 0, time.perf_counter() + seconds
        start = time.perf_counter()
        while time.perf_counter() < deadline:
            conn.execute("SELECT 1").fetchone()
            n += 1
        return n / (time.perf_counter() - start)


BUENAVISTA_VENV = os.path.join(ROOT, ".bench", "buenavista")
BUENAVISTA_PACKAGES = ["buenavista==0.5.0", "duckdb==1.5.6", "pyarrow==26.0.1", "python-dateutil==2.9.0.post0"]


class Buenavista:
    """buenavista's DuckDB example server in its own virtualenv."""

    def __init__(self):
        python = os.path.join(BUENAVISTA_VENV, "bin", "python")
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", BUENAVISTA_VENV], check=True)
            subprocess.run([python, "-m", "pip", "install", "-q", *BUENAVISTA_PACKAGES], check=True)
        self.port = free_port()
        env = dict(os.environ, BUENAVISTA_HOST="127.0.0.1", BUENAVISTA_PORT=str(self.port))
        self.proc = subprocess.Popen([python, "-u", "-m", "buenavista.examples.duckdb_postgres"], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()
        while line and "Listening" not in line:
            line = self.proc.stdout.readline()
        if "Listening" not in line:
            raise RuntimeError("buenavista did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def setup_buenavista(dsn: str, rows: int) -> None:
    """The same table, built in DuckDB (buenavista has no COPY)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS wide")
        conn.execute("CREATE TABLE wide AS SELECT i::bigint AS id, (i % 1000)::integer AS k, i / 7.0 AS v, 'name-' || i AS s "
                     f"FROM generate_series(0, {rows - 1}) AS t(i)")


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
    db = {"txngate": "txngate", "postgres": "postgres"}.get(user, user)
    res = subprocess.run(["pgbench", "-n", "-h", host, "-p", str(port), "-U", user, "-f", f.name, "-c", "16", "-j", "2",
                          "-T", str(int(seconds)), "-M", "simple", db], capture_output=True, text=True, timeout=seconds + 120)
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


def measure(name: str, dsn: str, host: str, port: int, user: str, args, load=setup) -> dict:
    load(dsn, args.rows)
    # Warm-up, unmeasured, on every server alike: caches filled (txngate's
    # snapshot and key index, DuckDB's and PostgreSQL's buffers) and the
    # load's background work (txngate's compaction) done.
    point_qps(host, port, user, args.rows, 3)
    out = {"SELECT 1 round trips/s (1 connection)": select1(dsn, args.seconds),
           "point SELECT qps (pgbench -M simple, 16 clients)": point_qps(host, port, user, args.rows, args.seconds),
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
    bv = Buenavista()
    try:
        results["buenavista"] = measure("buenavista", f"host=127.0.0.1 port={bv.port} user=bench dbname=bench", "127.0.0.1", bv.port,
                                        "bench", args, load=setup_buenavista)
    finally:
        bv.stop()
    widths = (52, 13, 13, 13, 11, 11)
    print(row("", "txngate", "PostgreSQL", "buenavista", "vs PG", "vs bv", widths=widths))
    for key in results["txngate"]:
        a, b, c = results["txngate"][key], results["PostgreSQL"][key], results["buenavista"][key]
        print(row(key, a, b, c, f"{a / b:.2f}x", f"{a / c:.2f}x", widths=widths))


if __name__ == "__main__":
    main()
