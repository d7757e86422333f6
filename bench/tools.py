"""Tool figures: what a pandas or SQLAlchemy user waits for, through
``txngate serve`` (embedded default, one process) beside the test
PostgreSQL in the same run (issue "Real tools work unmodified").

For --rows rows of a 4-column frame (int key, text, float, bool):
* pandas ``to_sql`` with its default (one INSERT per row, executemany in
  one transaction) and with ``method="multi"`` (multi-row VALUES, chunks
  of 1,000): rows/s;
* pandas ``read_sql`` of the whole table: rows/s.

Run: .venv/bin/python bench/tools.py [--rows 20000]
"""

from __future__ import annotations

import argparse
import os
import time

from _common import gateway_and_postgres, row

import pandas as pd
import sqlalchemy as sa


def figures(url: str, rows: int) -> dict:
    engine = sa.create_engine(url)
    frame = pd.DataFrame({"id": range(rows), "name": [f"n{i}" for i in range(rows)], "x": [i * 0.5 for i in range(rows)],
                          "flag": [i % 2 == 0 for i in range(rows)]})
    out = {}
    for label, method, chunks in (("to_sql rows/s (row by row)", None, None), ("to_sql rows/s (multi, 1000)", "multi", 1000)):
        t0 = time.perf_counter()
        frame.to_sql("frame", engine, if_exists="replace", index=False, method=method, chunksize=chunks)
        out[label] = rows / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    back = pd.read_sql("SELECT * FROM frame", engine)
    out["read_sql rows/s"] = len(back) / (time.perf_counter() - t0)
    assert len(back) == rows and back["id"].sum() == sum(range(rows))
    engine.dispose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20_000)
    args = ap.parse_args()
    with gateway_and_postgres("tools") as (gateway, pg):
        results = {
            "txngate": figures(f"postgresql+psycopg://txngate@127.0.0.1:{gateway.port}/txngate", args.rows),
            "PostgreSQL": figures(f"postgresql+psycopg://postgres@127.0.0.1:{pg.port}/tools", args.rows),
        }
    print(f"pandas {pd.__version__} through SQLAlchemy {sa.__version__} + psycopg, {args.rows:,} rows, {os.cpu_count()} cores; "
          "txngate: one process, embedded default")
    print(row("", *results))
    for key in next(iter(results.values())):
        print(row(key, *(r[key] for r in results.values())))


if __name__ == "__main__":
    main()
