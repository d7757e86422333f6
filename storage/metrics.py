"""Measurements any layer records and an operator reads: latency
histograms and metric families in the shape Prometheus expects.

A layer keeps its own counters (plain ints on the object that counts) and
``Histogram``s where the thing happens (a commit in ``storage.txns``, a
statement in ``planner``); ``family`` turns a value into one metric family
— a JSON-able dict ``{"name", "type", "help", "samples": [[labels, value],
...]}`` — so families travel between worker processes as they are, and the
gateway renders them (``gateway.metrics``).

Invariants: a histogram's buckets are cumulative and end with ``+Inf``,
whose count is the histogram's count; a counter never goes down.
"""

from __future__ import annotations

import bisect

#: upper bounds (seconds) of the latency buckets: 0.5 ms to 30 s
BOUNDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Histogram:
    """Counts of observations (seconds) by bucket, with their sum."""

    def __init__(self) -> None:
        self._counts = [0] * (len(BOUNDS) + 1)  # the last: above every bound
        self._sum = 0.0

    def observe(self, seconds: float) -> None:
        self._counts[bisect.bisect_left(BOUNDS, seconds)] += 1
        self._sum += seconds

    @property
    def count(self) -> int:
        return sum(self._counts)

    def snapshot(self) -> dict:
        """``{"buckets": [[le, cumulative count], ...], "sum", "count"}``."""
        buckets, total = [], 0
        for bound, n in zip(list(BOUNDS) + ["+Inf"], self._counts):
            total += n
            buckets.append([bound, total])
        return {"buckets": buckets, "sum": self._sum, "count": total}


def family(name: str, kind: str, help_text: str, value, label: str | None = None) -> dict:
    """One metric family: ``value`` a number (or a histogram's snapshot);
    with ``label``, a dict from that label's values to numbers."""
    assert kind in ("counter", "gauge", "histogram"), kind
    if label is None:
        samples = [[{}, value]]
    else:
        samples = [[{label: str(k)}, v] for k, v in sorted(value.items())]
    return {"name": name, "type": kind, "help": help_text, "samples": samples}
