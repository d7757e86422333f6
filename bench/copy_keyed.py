"""A keyed COPY at scale: TPC-H's lineitem (6M rows at scale 1, primary
key (l_orderkey, l_linenumber)) loaded by COPY through psycopg into
txngate (``txngate serve --workers 1``, embedded default) and into the test
PostgreSQL, in one run: seconds, rows/s, and the gateway's peak RSS (its
VmHWM; the issue "OLTP at scale" asks for at most 1.5 GB at scale 1).
Data from tpchgen-cli.

Run: .venv/bin/python bench/copy_keyed.py [--scale 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import psycopg  # noqa: E402

from _common import gateway_and_postgres  # noqa: E402
from tests.tpch import DDL  # noqa: E402

LINEITEM = next(sql for sql in DDL if sql.startswith("CREATE TABLE lineitem"))


def status_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def copy(conn, path: str) -> float:
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        f.readline()  # the header
        with conn.cursor().copy("COPY lineitem FROM STDIN WITH (FORMAT csv)") as cp:
            while chunk := f.read(1 << 20):
                cp.write(chunk)
    return time.perf_counter() - t0


def count(conn) -> tuple[int, float]:
    """The table's rows, and the seconds the first query after the COPY took."""
    t0 = time.perf_counter()
    n = conn.execute("SELECT count(*) FROM lineitem").fetchone()[0]
    return n, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cli = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
        subprocess.run([cli, "csv", "-s", str(args.scale), "--tables=lineitem", f"--output-dir={tmp}"], check=True, capture_output=True)
        path = os.path.join(tmp, "lineitem.csv")
        with gateway_and_postgres("copykeyed", "--workers", "1") as (gateway, pg):
            pid = gateway.proc.pid
            ours = psycopg.connect(f"host=127.0.0.1 port={gateway.port} user=txngate dbname=txngate", autocommit=True)
            theirs = psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=copykeyed", autocommit=True)
            for conn in (ours, theirs):
                conn.execute(LINEITEM)
            before = status_kib(pid, "VmRSS")
            t_ours = copy(ours, path)
            peak = status_kib(pid, "VmHWM")  # the COPY's, before anything reads the table
            n_ours, first_ours = count(ours)
            t_pg = copy(theirs, path)
            n_pg, first_pg = count(theirs)
            print(f"COPY of lineitem, scale {args.scale} ({os.path.getsize(path) / 2**20:.0f} MiB of CSV), primary key "
                  f"(l_orderkey, l_linenumber), {os.cpu_count()} cores; txngate: one worker, embedded default")
            print(f"{'':12}{'rows':>12}{'seconds':>10}{'rows/s':>12}{'peak RSS MiB':>14}{'first count(*) s':>18}")
            print(f"{'txngate':12}{n_ours:>12,}{t_ours:>10.1f}{n_ours / t_ours:>12,.0f}{peak / 1024:>14.0f}{first_ours:>18.2f}"
                  f"   (RSS before the COPY {before / 1024:.0f} MiB)")
            print(f"{'PostgreSQL':12}{n_pg:>12,}{t_pg:>10.1f}{n_pg / t_pg:>12,.0f}{'':>14}{first_pg:>18.2f}")
            ours.close()
            theirs.close()


if __name__ == "__main__":
    main()
