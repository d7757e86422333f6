"""local_exec.intervals: justify_days, justify_hours and justify_interval
give PostgreSQL's months, days and time for seeded random intervals of
every sign mix (compared as PostgreSQL's text of the result)."""

from __future__ import annotations

import random

import psycopg

from local_exec.intervals import FUNCTIONS
from values import format_interval


def test_justified_as_postgres(pg_server):
    rng = random.Random(3)
    day = 86_400_000_000
    cases = [(rng.randint(-30, 30), rng.randint(-70, 70), rng.choice([0, rng.randint(-3 * day, 3 * day), rng.randint(-day, day)]))
             for _ in range(150)]
    with psycopg.connect(pg_server.url()) as conn:
        for months, days, micros in cases:
            text = f"{months} mons {days} days {micros} microseconds"
            for name, fn in FUNCTIONS.items():
                expected = conn.execute(f"SELECT {name}(interval '{text}')::text").fetchone()[0]
                assert format_interval(*fn(months, days, micros)) == expected, (name, text)
