"""Dates, timestamps and intervals sent as text parameters (psycopg's
extended protocol) are read as PostgreSQL reads them, as constants are:
BC years (DuckDB's cast read them as AD, a silent wrong value), the free
forms, PostgreSQL's interval forms; and a text cast to a timestamp when
the statement runs keeps its BC. Each ends on txngate as on PostgreSQL."""

from __future__ import annotations

import psycopg

STATEMENTS = [
    ("INSERT INTO dp (id, t) VALUES (1, %s)", ["0097-02-16 17:32:01 BC"]),
    ("INSERT INTO dp (id, t) VALUES (2, %s::timestamp)", ["Feb 10 17:32:01 1997"]),
    ("INSERT INTO dp (id, t) VALUES (3, %s::text::timestamp)", ["0044-03-15 10:00 BC"]),
    ("INSERT INTO dp (id, d) VALUES (4, %s)", ["January 8, 1999"]),
    ("INSERT INTO dp (id, i) VALUES (5, %s)", ["-1 days +02:03"]),
    ("INSERT INTO dp (id, i) VALUES (6, %s::interval)", ["P1Y2M3DT4H5M6.7S"]),
    ("INSERT INTO dp (id, s) VALUES (7, %s)", ["0001-02-03 04:05:06 BC"]),
]
CHECK = ("SELECT id, t < '0001-01-01' AS bc, extract(epoch FROM t)::bigint AS e, d - date '1999-01-01' AS dd, "
         "extract(epoch FROM i)::bigint AS ie, s::timestamp < '0001-01-01' AS sbc FROM dp ORDER BY id")


def run(dsn: str) -> list:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS dp")
        conn.execute("CREATE TABLE dp (id integer PRIMARY KEY, t timestamp, d date, i interval, s text)")
        for sql, params in STATEMENTS:
            conn.execute(sql, params)
        return conn.execute(CHECK).fetchall()


def test_datetime_parameters_as_in_postgres(gateway, pg_server):
    ours = run(gateway.dsn())
    assert ours == run(pg_server.url())
    assert ours[0][1] is True and ours[2][1] is True and ours[6][5] is True  # BC kept
