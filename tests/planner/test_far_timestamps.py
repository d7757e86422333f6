"""Dates and timestamps Python's datetime cannot hold (BC years, PostgreSQL's
``infinity`` and ``-infinity``) in keys and in small tables: uniqueness
checks, point reads and writes by key, ON CONFLICT, and the consolidation
of a small table's versions all compare them as Arrow stores them
(``storage.persist.comparable``). Each statement ends on txngate as on the
real PostgreSQL (tag and rows, or SQLSTATE, message and DETAIL), and the
tables hold the same rows after."""

from __future__ import annotations

import asyncpg
import pytest

from planner.errors import SqlError
from values import format_column
from tests.planner.helpers import beside_postgres, outcome, pg_outcome

SETUP = [
    "CREATE TABLE far (t timestamp PRIMARY KEY, d date UNIQUE, n integer)",
    "CREATE TABLE far_log (t timestamp, n integer)",
]

STATEMENTS: list[tuple[str, list]] = [
    ("INSERT INTO far VALUES ('0097-02-16 17:32:01 BC', '0044-03-15 BC', 1)", []),
    ("INSERT INTO far VALUES ('infinity', 'infinity', 2), ('-infinity', '-infinity', 3)", []),
    ("INSERT INTO far VALUES ('2020-02-29 10:00', '2020-02-29', 4)", []),
    ("INSERT INTO far VALUES ('infinity', '2021-01-01', 5)", []),
    ("INSERT INTO far VALUES ('1999-01-01', '0044-03-15 BC', 6)", []),
    ("INSERT INTO far VALUES ('0097-02-16 17:32:01 BC', '1999-01-01', 7)", []),
    ("INSERT INTO far VALUES ('infinity', '2022-01-01', 8) ON CONFLICT (t) DO UPDATE SET n = far.n + 10", []),
    ("INSERT INTO far VALUES ('-infinity', '2022-01-02', 9) ON CONFLICT DO NOTHING", []),
    ("UPDATE far SET n = n + 1 WHERE t = timestamp '0097-02-16 17:32:01 BC'", []),
    ("UPDATE far SET n = 40 WHERE d = 'infinity'", []),
    ("SELECT n FROM far WHERE t = 'infinity'", []),
    ("SELECT t, n FROM far WHERE t IN ('-infinity', '0097-02-16 17:32:01 BC'::timestamp) ORDER BY n", []),
    ("DELETE FROM far WHERE t = '-infinity' RETURNING n, t::text", []),
    ("INSERT INTO far_log VALUES ('infinity', 1), ('0097-02-16 17:32:01 BC', 2), ('-infinity', 3)", []),
    ("UPDATE far_log SET n = n * 10 WHERE t = 'infinity'", []),
    ("DELETE FROM far_log WHERE t = '-infinity'", []),
    # BC input (DuckDB's timestamp cast reads the suffix as AD)
    ("INSERT INTO far_log SELECT timestamp '0001-02-16 01:02:03 BC', 4 WHERE timestamp '0001-02-16 BC' < '0001-01-01'", []),
    ("INSERT INTO far_log VALUES ('0000-01-01 BC', 5)", []),
    ("INSERT INTO far_log SELECT '0044-03-15 BC'::date, 6 WHERE '0097-02-16 17:32:01 bc'::timestamptz < '0001-01-01 00:00:00+00'", []),
]


CHECK = "SELECT t, d, n FROM far ORDER BY n"
LOG = "SELECT t, n FROM far_log ORDER BY n"


async def text_rows(session, sql) -> list[tuple]:
    """The rows as the gateway sends them (PostgreSQL's text format)."""
    result = (await session.execute(sql))[-1]
    columns = [format_column(result.table.column(i), t).to_pylist() if t != "integer" else result.table.column(i).to_pylist()
               for i, (_n, t) in enumerate(result.columns)]
    return list(zip(*columns))


async def pg_text_rows(conn, sql) -> list[tuple]:
    return [tuple(r.values()) for r in await conn.fetch(sql)]


async def test_far_timestamps_end_as_in_postgres(db, pg_url):
    async with beside_postgres(db, pg_url, SETUP, ["far", "far_log"]) as (s, conn):
        for name in ("timestamp", "timestamptz", "date"):  # every value as text, as psql shows it
            await conn.set_type_codec(name, encoder=str, decoder=str, schema="pg_catalog", format="text")
        for sql, params in STATEMENTS:
            assert await outcome(s, sql, params) == await pg_outcome(conn, sql, params), sql
            assert await text_rows(s, CHECK) == await pg_text_rows(conn, CHECK), sql
            assert await text_rows(s, LOG) == await pg_text_rows(conn, LOG), sql
        # the key shown in a uniqueness violation's DETAIL
        duplicate = "INSERT INTO far VALUES ('-infinity', '0044-03-15 BC', 11)"
        with pytest.raises(SqlError) as mine:
            await s.execute(duplicate)
        with pytest.raises(asyncpg.UniqueViolationError) as theirs:
            await conn.execute(duplicate)
        assert (mine.value.sqlstate, mine.value.detail) == (theirs.value.sqlstate, theirs.value.detail)
        # the small tables' versions, consolidated (in Python) by compaction, read back alike
        await db.client.maintenance.idle()
        assert await text_rows(s, CHECK) == await pg_text_rows(conn, CHECK)
        assert await text_rows(s, LOG) == await pg_text_rows(conn, LOG)
