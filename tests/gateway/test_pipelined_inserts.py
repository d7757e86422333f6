"""Pipelined executions of one INSERT (executemany in psycopg and asyncpg,
pandas' to_sql) are written as one batch (``Session.run_batch``), and end
exactly as PostgreSQL's executions one after another: the same rows, the
same error at the same row, nothing of a failed block written. Checked
against PostgreSQL on a table with a serial key, a UNIQUE varchar(5), a
NOT NULL column, a foreign key and a CHECK, through both drivers, in and
outside transactions, with values the batch writes itself and values that
need the engine (dates, numerics, expressions)."""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal

import asyncpg
import psycopg

SCHEMA = [
    "DROP TABLE IF EXISTS bi_child",
    "DROP TABLE IF EXISTS bi_parent",
    "CREATE TABLE bi_parent (id int PRIMARY KEY)",
    "INSERT INTO bi_parent VALUES (1), (2), (3)",
    "CREATE TABLE bi_child (id serial PRIMARY KEY, code varchar(5) UNIQUE, n int NOT NULL CHECK (n < 1000), "
    "parent int REFERENCES bi_parent (id), at date, amount numeric(10, 2))",
]
INSERT = "INSERT INTO bi_child (code, n, parent) VALUES (%s, %s, %s)"


def _good(prefix: str, count: int) -> list[tuple]:
    return [(f"{prefix}{i}", i, 1 + i % 3) for i in range(count)]


def _with(rows: list[tuple], at: int, bad: tuple) -> list[tuple]:
    return rows[:at] + [bad] + rows[at:]


def psycopg_outcomes(dsn: str) -> list:
    out: list = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in SCHEMA:
            conn.execute(sql)

        def attempt(rows, *, sql=INSERT, transaction=False):
            try:
                if transaction:
                    with conn.transaction():
                        conn.cursor().executemany(sql, rows)
                else:
                    conn.cursor().executemany(sql, rows)
                out.append(None)
            except psycopg.Error as e:
                out.append(e.sqlstate)
            out.append(conn.execute("SELECT count(*), count(DISTINCT id) FROM bi_child").fetchone())

        attempt(_good("a", 40))
        attempt(_good("b", 40), transaction=True)
        attempt(_with(_good("c", 30), 17, ("a3", 5, 1)))  # a code already there: 23505 at row 18
        attempt(_with(_good("d", 30), 12, ("d1", 5, 1)), transaction=True)  # a code twice in the batch
        attempt(_with(_good("e", 30), 9, ("toolong", 5, 1)))  # 22001
        attempt(_with(_good("f", 30), 20, ("f-bad", 5, 9)), transaction=True)  # no such parent: 23503
        attempt(_with(_good("g", 30), 3, ("g-bad", None, 1)))  # 23502
        attempt(_with(_good("h", 30), 25, ("h-bad", 5000, 1)))  # 23514
        attempt([(f"k{i}", i, 2, dt.date(2024, 1, 1) + dt.timedelta(days=i), decimal.Decimal(i) / 4) for i in range(30)],
                sql="INSERT INTO bi_child (code, n, parent, at, amount) VALUES (%s, %s, %s, %s, %s)")
        attempt([(f"m{i}", i) for i in range(30)], sql="INSERT INTO bi_child (code, n) VALUES (upper(%s), %s * 2)", transaction=True)
        with conn.transaction():  # the block goes on after a batch: later statements see its rows
            conn.cursor().executemany(INSERT, _good("p", 20))
            out.append(conn.execute("SELECT count(*) FROM bi_child WHERE code LIKE 'p%'").fetchone())
        out.append(conn.execute("SELECT code, n, parent, at, amount FROM bi_child ORDER BY code").fetchall())
        ids = [r[0] for r in conn.execute("SELECT id FROM bi_child WHERE code LIKE 'a%' ORDER BY n").fetchall()]
        out.append(ids == sorted(ids))  # serial values in the order of the rows
    return out


def test_psycopg_executemany_as_in_postgres(gateway, pg_server):
    ours = psycopg_outcomes(gateway.dsn())
    assert ours == psycopg_outcomes(pg_server.url())
    assert ours[:12] == [None, (40, 40), None, (80, 80), "23505", (80, 80), "23505", (80, 80), "22001", (80, 80), "23503", (80, 80)]


async def asyncpg_outcomes(dsn: str) -> list:
    conn = await asyncpg.connect(dsn)
    out: list = []
    try:
        for sql in SCHEMA:
            await conn.execute(sql)
        sql = "INSERT INTO bi_child (code, n, parent, amount) VALUES ($1, $2, $3, $4)"
        await conn.executemany(sql, [(f"a{i}", i, 1 + i % 3, decimal.Decimal("1.25")) for i in range(60)])
        try:
            await conn.executemany(sql, [(f"b{i}", i, 1, None) for i in range(10)] + [("a7", 1, 1, None)])
        except asyncpg.PostgresError as e:
            out.append(e.sqlstate)
        async with conn.transaction():
            await conn.executemany(sql, [(f"c{i}", -i, None, None) for i in range(25)])
        out.append([tuple(r) for r in await conn.fetch("SELECT code, n, parent, amount FROM bi_child ORDER BY code")])
    finally:
        await conn.close()
    return out


def test_asyncpg_executemany_as_in_postgres(gateway, pg_server):
    ours = asyncio.run(asyncpg_outcomes(f"postgresql://txngate@127.0.0.1:{gateway.port}/txngate"))
    assert ours == asyncio.run(asyncpg_outcomes(pg_server.url().replace("postgres://", "postgresql://")))
    assert ours[0] == "23505" and len(ours[1]) == 85
