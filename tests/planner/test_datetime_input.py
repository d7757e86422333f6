"""Date, timestamp and boolean text read as PostgreSQL reads it, where
DuckDB's own reading differs (each silently, or by refusing): a date or
timestamp in DateStyle's field order and two-digit years, BC years, text
compared with a date or timestamp column (typed by the column, as
PostgreSQL types an unknown literal), PostgreSQL's boolean words, and the
free forms (``values.datetimes``: month names, AM/PM, zone abbreviations,
offsets and names, compact dates). Every statement answers on txngate as
on the real PostgreSQL, as text.

And now(): the start of the transaction, the same for every statement in
it (DuckDB's is each statement's own), where statement_timestamp() moves."""

from __future__ import annotations

import asyncio

import asyncpg

from planner.errors import SqlError
from values import format_column
from tests.planner.helpers import beside_postgres

SETUP = [
    "CREATE TABLE dt (id integer PRIMARY KEY, d date, t timestamp, b boolean)",
    "INSERT INTO dt VALUES (1, '2003-01-02', '2003-01-02 10:00', true), (2, '1999-01-08', '0097-02-16 17:32:01 BC', false)",
]

QUERIES = [
    "SELECT date '01/02/03', timestamp '01/02/03 10:00', timestamp '1/8/99 10:00', timestamptz '01/02/03T17:32:01+02'",
    "SELECT timestamp '97-02-10 17:32:01'",
    "SELECT timestamp '1997-02-10 17:32:01', date '0044-03-15 BC', timestamp '0001-02-16 01:02:03 BC' < timestamp '0001-01-01'",
    "SELECT date '0000-01-01 BC'",
    "SELECT id FROM dt WHERE d = '01/02/03'",
    "SELECT id FROM dt WHERE '1/8/99' = d",
    "SELECT id FROM dt WHERE d IN ('01/02/03', '2020-01-01') ORDER BY id",
    "SELECT id FROM dt WHERE d BETWEEN '01/01/99' AND '01/09/99'",
    "SELECT id FROM dt WHERE t = '0097-02-16 17:32:01 BC'",
    "SELECT id FROM dt WHERE t < '0001-01-01' ORDER BY id",
    "SELECT bool '   f           ', bool 'on', bool 'of', bool 'TRU', 'yes'::boolean, 'n'::bool",
    "SELECT bool 'o'",
    "SELECT id FROM dt WHERE b = 'of'",
    "INSERT INTO dt VALUES (3, '01/02/03', '1/8/99 10:00', 'off') RETURNING d, t, b",
]


#: free-form texts, each read as date, timestamp and timestamptz
FREE_FORMS = [
    "Mon Feb 10 17:32:01 1997 PST", "Mon Feb 10 17:32:01.999999 1997 PST", "Feb 10 17:32:01 1997 -0800",
    "Feb 10 5:32PM 1997", "Feb-10-1997 17:32:01 PST", "02-10-1997 17:32:01 PST", "19970210 173201 -0800",
    "19970210 173201 America/New_York", "19970710 173201 America/New_York", "19970710 173201 America/Does_not_exist",
    "1997-06-10 18:32:01 PDT", "1997-02-10 17:32:01 -08:00", "2000-03-15 08:14:01 GMT+8", "2000-03-15 02:14:05 MST+7:00",
    "Feb 16 17:32:01 0097 BC", "Feb 16 17:32:01 5097 BC", "Feb 29 17:32:01 1997", "Feb 29 2000 BC",
    "10 Feb 1997", "February 10, 1997", "1997 Feb 10", "Feb 10 97", "10-Feb-97", "1997-Feb-10",
    "Jan 1 2000 12:00 AM", "Jan 1 2000 12:00 PM", "Jan 1 2000 13:00 PM", "1/2/2000 10:00 PM", "12/31/1999 11:59:59 PM EST",
    "Sat, 01 Jan 2000 10:00:00 GMT", "Sat, 01 Jan 2000 10:00:00 +0100", "2000-07-01 10:00:00 Europe/Paris",
    "Feb 10 1997 10:00:00.123456789", "Feb 10 1997 24:00:00", "Dec 31 1999 23:59:59 -03:30",
]


#: month names with numbers DateStyle orders (its field order), each read as a date
ORDERED = ["January 8, 99 BC", "08-Jan-99", "Jan-08-99", "1999-08-Jan", "08 Jan 99", "Jan 08 99", "99-Jan-08", "1999 Jan 8"]


async def text_answer(session, sql):
    try:
        result = (await session.execute(sql))[-1]
    except SqlError as e:
        return (e.sqlstate, e.message)
    cols = [format_column(result.table.column(i), t).to_pylist() for i, (_n, t) in enumerate(result.columns)]
    return [tuple(r) for r in zip(*cols)]


async def pg_text_answer(conn, sql):
    try:
        return [tuple(str(v) if v is not None else None for v in r.values()) for r in await conn.fetch(sql)]
    except asyncpg.PostgresError as e:
        return (e.sqlstate, e.args[0])


async def test_datetime_and_boolean_input_as_in_postgres(db, pg_url):
    async with beside_postgres(db, pg_url, SETUP, ["dt"]) as (s, conn):
        for name in ("timestamp", "timestamptz", "date", "bool", "int4"):  # as psql shows them
            await conn.set_type_codec(name, encoder=str, decoder=str, schema="pg_catalog", format="text")
        for sql in QUERIES + [f"SELECT '{text}'::{t}" for text in FREE_FORMS for t in ("date", "timestamp", "timestamptz")]:
            assert await text_answer(s, sql) == await pg_text_answer(conn, sql), sql


async def test_month_names_in_every_datestyle(db, pg_url):
    async with beside_postgres(db, pg_url, []) as (s, conn):
        await conn.set_type_codec("date", encoder=str, decoder=str, schema="pg_catalog", format="text")
        for style in ("ISO, MDY", "ISO, DMY", "ISO, YMD"):
            await s.execute(f"SET datestyle = '{style}'")
            await conn.execute(f"SET datestyle = '{style}'")
            for text in ORDERED:
                sql = f"SELECT '{text}'::date /* {style} */"  # a new text: asyncpg's cached plan folded the constant
                assert await text_answer(s, sql) == await pg_text_answer(conn, sql), (style, sql)


async def test_now_is_the_transaction_start(db):
    s = db.session()
    await s.execute("BEGIN")
    first = (await s.execute("SELECT now(), current_timestamp, transaction_timestamp(), statement_timestamp()"))[-1].rows[0]
    await asyncio.sleep(0.01)  # a later statement: statement_timestamp() moves, now() does not
    later = (await s.execute("SELECT now(), 'now'::timestamptz, statement_timestamp()"))[-1].rows[0]
    await s.execute("COMMIT")
    assert first[0] == first[1] == first[2] == later[0] == later[1]
    assert later[2] > first[3] >= first[0]
    after = (await s.execute("SELECT now()"))[-1].rows[0][0]
    assert after > later[0]  # the next transaction's
