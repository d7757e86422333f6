"""Implicit transaction blocks and transactional settings, as PostgreSQL
has them, through real clients, asserting the same outcome on txngate and
on PostgreSQL:

* the extended protocol's statements before a Sync commit together or not
  at all: asyncpg's and psycopg's executemany that fail on one row write no
  row, a psycopg pipeline commits at each Sync (a half-written batch was a
  wrong outcome: txngate committed each statement on its own);
* the statements of one query string likewise, and a ROLLBACK, COMMIT or
  BEGIN among them ends or takes over the block, as in PostgreSQL;
* SAVEPOINT and VACUUM in a block are refused, and the block rolls back;
* settings changed in a transaction that rolls back are restored, SET
  LOCAL and set_config(..., true) last until the transaction ends (a
  set_config(..., true) outside one, for its statement), set_config takes
  parameters;
* any error aborts an explicit transaction, one in Bind too.
"""

from __future__ import annotations

import asyncio

import asyncpg
import psycopg


def _rows(conn) -> list:
    return conn.execute("SELECT array_agg(id ORDER BY id) FROM tb").fetchone()[0]


def _attempt(conn, out: list, fn) -> None:
    """Run ``fn``; note its error's SQLSTATE (None: none), the rows after it and the transaction status."""
    try:
        fn()
        out.append(None)
    except psycopg.Error as e:
        out.append(e.sqlstate)
    status = conn.info.transaction_status
    if status != psycopg.pq.TransactionStatus.IDLE:
        conn.execute("ROLLBACK")
    out.append((_rows(conn), status.name))


def _pipeline(conn, *batches):
    """The statements of each batch pipelined, a Sync after each batch."""
    def run():
        with conn.pipeline() as pl:
            for i, batch in enumerate(batches):
                for sql in batch:
                    conn.execute(sql)
                if i < len(batches) - 1:
                    pl.sync()
    return run


def psycopg_outcomes(dsn: str) -> list:
    out: list = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(f"{d.severity} {d.message_primary}"))
        conn.execute("DROP TABLE IF EXISTS tb")
        conn.execute("CREATE TABLE tb (id int PRIMARY KEY, v text)")
        bad = [(1, "a"), (2, "b"), (1, "again"), (3, "c")]

        def executemany():
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO tb VALUES (%s, %s)", bad)
        _attempt(conn, out, executemany)
        _attempt(conn, out, _pipeline(conn, ["INSERT INTO tb VALUES (10)", "INSERT INTO tb VALUES (11)"],
                                      ["INSERT INTO tb VALUES (12)", "INSERT INTO tb VALUES (10)"]))
        for script in ("INSERT INTO tb VALUES (20); ROLLBACK; INSERT INTO tb VALUES (21)",
                       "INSERT INTO tb VALUES (22); COMMIT; INSERT INTO tb VALUES (22)",
                       "INSERT INTO tb VALUES (23); BEGIN; INSERT INTO tb VALUES (24)",
                       "INSERT INTO tb VALUES (25); SAVEPOINT s",
                       "INSERT INTO tb VALUES (26); VACUUM tb",
                       "INSERT INTO tb VALUES (27); SELECT 1 / 0"):
            _attempt(conn, out, lambda: conn.execute(script))
        for batches in ((["INSERT INTO tb VALUES (30)", "ROLLBACK", "INSERT INTO tb VALUES (31)"],),
                        (["INSERT INTO tb VALUES (32)", "BEGIN", "INSERT INTO tb VALUES (33)"],),
                        (["INSERT INTO tb VALUES (34)", "SAVEPOINT s"],),
                        (["INSERT INTO tb VALUES (35)", "VACUUM tb"],)):
            _attempt(conn, out, _pipeline(conn, *batches))
        out.append(notices)

        def shown():
            return conn.execute("SELECT current_setting('statement_timeout'), current_setting('application_name')").fetchone()
        for settings, end in ((["SET LOCAL statement_timeout = '7s'", "SET application_name = 'kept'"], "COMMIT"),
                              (["SET application_name = 'undone'", "SELECT set_config('statement_timeout', '9min', true)"], "ROLLBACK")):
            conn.execute("BEGIN")
            for sql in settings:
                conn.execute(sql)
            out.append(shown())
            conn.execute(end)
            out.append(shown())
        conn.execute("SET LOCAL statement_timeout = '7s'")  # outside a transaction: a warning, nothing set
        _attempt(conn, out, lambda: conn.execute("SET application_name = 'failed'; SELECT 1 / 0"))
        out.append(shown())
        out.append(notices[-1:])
        # set_config with parameters; a local one outside a transaction lasts for its statement
        out.append(conn.execute("SELECT set_config(%s, %s, false)", ["application_name", "given"]).fetchone())
        out.append(conn.execute("SELECT set_config('statement_timeout', %s, %s)", ["3s", True]).fetchone())
        out.append(shown())
    return out


def test_psycopg_blocks_as_in_postgres(gateway, pg_server):
    ours = psycopg_outcomes(gateway.dsn())
    assert ours == psycopg_outcomes(pg_server.url())
    assert ours[1] == (None, "IDLE")  # the failed executemany wrote no row


async def asyncpg_outcomes(dsn: str) -> list:
    conn = await asyncpg.connect(dsn)
    out: list = []
    try:
        await conn.execute("DROP TABLE IF EXISTS tba; CREATE TABLE tba (id int PRIMARY KEY, v text)")
        try:
            await conn.executemany("INSERT INTO tba VALUES ($1, $2)", [(1, "a"), (2, "b"), (2, "again")])
        except asyncpg.PostgresError as e:
            out.append(e.sqlstate)
        out.append([tuple(r) for r in await conn.fetch("SELECT id, v FROM tba ORDER BY id")])
        await conn.executemany("INSERT INTO tba VALUES ($1, $2)", [(i, str(i)) for i in range(10, 60)])
        out.append(await conn.fetchval("SELECT count(*) FROM tba"))
        async with conn.transaction():  # a Bind error (a bad parameter) aborts the transaction
            await conn.execute("INSERT INTO tba VALUES (100, 'x')")
            try:
                await conn.execute("INSERT INTO tba VALUES ($1::int, 'y')", "not a number")
            except (asyncpg.PostgresError, asyncpg.DataError) as e:
                out.append(type(e).__name__)
            try:
                await conn.execute("INSERT INTO tba VALUES (101, 'z')")
            except asyncpg.PostgresError as e:
                out.append(e.sqlstate)
    except asyncpg.PostgresError as e:
        out.append(("transaction", e.sqlstate))
    finally:
        out.append(await conn.fetchval("SELECT count(*) FROM tba"))
        await conn.close()
    return out


def test_asyncpg_executemany_is_atomic_as_in_postgres(gateway, pg_server):
    ours = asyncio.run(asyncpg_outcomes(f"postgresql://txngate@127.0.0.1:{gateway.port}/txngate"))
    assert ours == asyncio.run(asyncpg_outcomes(pg_server.url().replace("postgres://", "postgresql://")))
    assert ours[:3] == ["23505", [], 50]


def test_now_is_the_statements_or_the_blocks_start(gateway):
    """now() through the extended protocol is the start of its statement
    (it was the last simple query's: a stale time), and one value for the
    statements of a pipeline, as PostgreSQL's transaction start."""
    import datetime as dt

    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.pgconn.exec_(b"SELECT 1")  # a simple query
        before = dt.datetime.now(dt.timezone.utc)
        now, clock = conn.execute("SELECT now(), clock_timestamp() WHERE %s", [True]).fetchone()
        assert before <= now <= clock
        with conn.pipeline():
            first = conn.execute("SELECT now(), %s::int", [1])
            second = conn.execute("SELECT now(), %s::int", [2])
        assert first.fetchone()[0] == second.fetchone()[0] >= now
