"""Interval input read as PostgreSQL's DecodeInterval reads it
(``values.intervals``: DuckDB refused most of these forms and wrapped
around on large values), and printed as PostgreSQL prints it (a positive
field after a negative one carries a ``+``). Each literal answers on
txngate as on the real PostgreSQL: the interval as text, or the SQLSTATE.
An interval whose time Arrow's nanoseconds cannot hold is refused (0A000),
never wrapped."""

from __future__ import annotations

import asyncpg

from planner.errors import SqlError
from values import format_column
from tests.planner.helpers import beside_postgres

TEXTS = [
    "+02:00", "-1 days +02:03", "-1 days +1 hours", "+1 -1:00:00", "1-2", "-1-2 3", "1 2:03", "1 2:03:04", "3 4:05:06.7",
    "12:34", "12:34.5678", "-12:34.5", "@ 1 hour @ 42 minutes @ 20 seconds", "2 minutes ago 5 days", "42 days 2 seconds ago ago",
    "-1 year 2 months 1 day 23 hours 45 min +12.34 sec", "10 years -11 month -12 days +13:14", "hour 5 months",
    "1.5 weeks", "1.5 months", "0.1 years", "1 year 1.5 days 3.5 hours", "3 centuries", "2 millennium", "1 decade",
    "100000000y 10mon -1000000000d -100000h -10min -10.000001s ago", "0 years 0 mons 1 days 2 hours 3 mins 4.000005 secs",
    "1 day 1 day", "1 second 2 seconds", "10 milliseconds 20 milliseconds", "5.5 seconds 3 milliseconds", "1:20:05 5 microseconds",
    "1 2", "123 11", "1e3 seconds", "", "@ 30 eons ago",
    "2147483648 days", "2147483647 months 1 year", "2562047 hours",
    "P1Y2M3DT4H5M6.7S", "P-1Y-2M-3DT-4H-5M-6.7S", "P1W", "P0.5W", "P1.5M", "P.1Y0M3DT4H5M6S", "P1Y1Y", "P0Y", "PT10", "PT10:30",
    "PT-0.1S", "P0002", "P0002-10", "P0002-10-15", "P0002-10-15T10:30:20", "P00021015T103020", "P0002-10-15T1S", "P0002T1S",
    # the alternative format of any widths, and fields past their range (22015) or sums past an interval's (22008): were 22007
    "P2147483648", "P-2147483649", "P1-2147483647-2147483647", "P0.1-2147483647-00", "P00-0.1-2147483647", "P1-2-3", "P1-2-3T4:5:6.5",
    "P0.5-1", "PT2562047788.1:00:54.775807", "PT", "P1DT", "P1-2-3-4", "P1Y-2", "PT1:2:3:4", "P+1Y", "P1YT2", "PT1.5:30",
]


async def answer(session, sql):
    try:
        result = (await session.execute(sql))[-1]
    except SqlError as e:
        return e.sqlstate
    return format_column(result.table.column(0), "interval").to_pylist()[0]


async def pg_answer(conn, sql):
    try:
        return await conn.fetchval(sql)
    except asyncpg.PostgresError as e:
        return e.sqlstate


async def test_interval_input_as_in_postgres(db, pg_url):
    async with beside_postgres(db, pg_url, []) as (s, conn):
        await conn.set_type_codec("interval", encoder=str, decoder=str, schema="pg_catalog", format="text")
        for text in TEXTS:
            sql = f"SELECT interval '{text}'"
            assert await answer(s, sql) == await pg_answer(conn, sql), sql
        # beyond Arrow's nanoseconds: refused, never wrapped around
        assert await answer(s, "SELECT interval '9223372036854775807 microseconds'") == "0A000"
        assert await answer(s, "SELECT '2562047788:00:54.775807'::interval") == "0A000"
