"""pgbench figures: txngate (``txngate serve`` on the embedded default, one
process) beside the test PostgreSQL in the same run, at its default
isolation and at SERIALIZABLE (issue "OLTP at scale").

For each scale (--scales), on each server: ``pgbench -i`` (its own schema,
COPY, VACUUM, ALTER TABLE ADD PRIMARY KEY), then for --seconds each:
* ``-S`` select-only, simple and prepared protocol, --select-clients clients;
* the TPC-B-like script, --clients clients, ``--max-tries 20``: tps,
  failed and retried transactions, and whether the balances agree (the sum
  of deltas in accounts, tellers, branches and history).
Printed with the machine's core count and txngate's worker processes
(``--workers``, default: one per core).

Run: .venv/bin/python bench/pgbench.py [--scales 1,16] [--seconds 30]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

from _common import gateway_and_postgres, row

import psycopg


BALANCES = """SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers),
                     (SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(delta) FROM pgbench_history)"""


def pgbench(target: dict, *args: str) -> str:
    res = subprocess.run(["pgbench", "-h", "127.0.0.1", "-p", str(target["port"]), "-U", target["user"], *args, target["db"]],
                         capture_output=True, text=True, env={**os.environ, **target.get("env", {})})
    if res.returncode != 0:
        sys.exit(f"pgbench {' '.join(args)} failed on {target['name']}:\n{res.stdout}{res.stderr}")
    return res.stdout


def figure(out: str, name: str) -> float:
    patterns = {
        "tps": r"tps = ([\d.]+)", "failed": r"number of failed transactions: \d+ \(([\d.]+)%\)",
        "retried": r"number of transactions retried: \d+ \(([\d.]+)%\)", "latency": r"latency average = ([\d.]+) ms",
    }
    found = re.search(patterns[name], out)
    return float(found.group(1)) if found else 0.0


def run(target: dict, scale: int, seconds: int, clients: int, select_clients: int) -> dict:
    pgbench(target, "-i", "-q", "-s", str(scale))
    out = {}
    for mode in ("simple", "prepared"):
        res = pgbench(target, "-S", "-M", mode, "-c", str(select_clients), "-j", "2", "-T", str(seconds))
        out[f"-S {mode} tps"] = figure(res, "tps")
    res = pgbench(target, "-c", str(clients), "-j", "2", "-T", str(seconds), "--max-tries", "20")
    out.update({"TPC-B tps": figure(res, "tps"), "TPC-B failed %": figure(res, "failed"), "TPC-B retried %": figure(res, "retried"),
                "TPC-B latency ms": figure(res, "latency")})
    with psycopg.connect(target["dsn"], autocommit=True) as conn:
        sums = conn.execute(BALANCES).fetchone()
    out["balances agree"] = "yes" if len(set(sums)) == 1 else f"NO {sums}"
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", default="1,16")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--clients", type=int, default=8, help="TPC-B clients")
    ap.add_argument("--select-clients", type=int, default=16)
    ap.add_argument("--workers", type=int, default=0, help="txngate serve --workers (0: one per core)")
    args = ap.parse_args()
    workers = args.workers or os.cpu_count()
    with gateway_and_postgres("pgbench", "--workers", str(workers)) as (gateway, pg):
        targets = [
            {"name": "txngate", "port": gateway.port, "user": "txngate", "db": "txngate", "dsn": gateway.dsn()},
            {"name": "PostgreSQL", "port": pg.port, "user": "postgres", "db": "pgbench", "dsn": pg.url(database="pgbench")},
            {"name": "PG serial.", "port": pg.port, "user": "postgres", "db": "pgbench", "dsn": pg.url(database="pgbench"),
             "env": {"PGOPTIONS": "-c default_transaction_isolation=serializable"}},
        ]
        with psycopg.connect(pg.url(database="pgbench"), autocommit=True) as conn:
            durability = ", ".join(f"{k}={conn.execute(f'SHOW {k}').fetchone()[0]}" for k in ("fsync", "synchronous_commit"))
        print(f"pgbench, {args.seconds} s per figure, {os.cpu_count()} cores; txngate: {workers} worker process(es), embedded default")
        print(f"durability: txngate's commits are on disk when acknowledged (SQLite synchronous=full, blobs fsynced); "
              f"the test PostgreSQL runs with {durability}")
        for scale in (int(s) for s in args.scales.split(",")):
            results = {t["name"]: run(t, scale, args.seconds, args.clients, args.select_clients) for t in targets}
            print(f"\nscale {scale} ({scale * 100_000:,} accounts), -S with {args.select_clients} clients, TPC-B with {args.clients}")
            print(row("", *results))
            for key in next(iter(results.values())):
                print(row(key, *(r[key] for r in results.values())))


if __name__ == "__main__":
    main()
