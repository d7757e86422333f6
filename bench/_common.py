"""Helpers shared by the benchmarks: server start-up and timing."""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def pct(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) of ``samples``."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def median(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


class Timer:
    def __enter__(self) -> "Timer":
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start


def row(*cells, widths=(44, 14, 14, 14)) -> str:
    out = []
    for cell, width in zip(cells, widths + (14,) * len(cells)):
        text = f"{cell:,.1f}" if isinstance(cell, float) else (f"{cell:,}" if isinstance(cell, int) else str(cell))
        out.append(text.ljust(width) if not out else text.rjust(width))
    return "".join(out)


@contextlib.contextmanager
def gateway_and_postgres(database: str, *extra: str):
    """A ``txngate serve`` (embedded default in a temp folder, no Spark;
    ``extra`` flags) and the test PostgreSQL with an empty ``database``, for
    the benchmarks that put a client against both."""
    from tests.servers import Gateway, PostgresServer

    with tempfile.TemporaryDirectory() as tmp, PostgresServer() as pg:
        gateway = Gateway(tmp, "--spark-master", "none", *extra)
        try:
            pg.psql(f"CREATE DATABASE {database}")
            yield gateway, pg
        finally:
            gateway.stop()
