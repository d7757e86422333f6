"""Commit outcomes and storage outages as a real client sees them (psycopg
3 against an in-process gateway whose storage calls fail on cue): a commit
whose post-commit steps fail is COMMIT; a commit of unknown outcome ends
the connection with FATAL 08006; an outage is 57P03 and the session goes
on. No ``internal error`` text reaches the client."""

from __future__ import annotations

import os
import signal
import time

import psycopg
import pytest

from gateway import Server
from planner.database import Database
from storage.errors import CommitUnknown, DeterminateError, IndeterminateError
from tests.planner.test_commit_outcomes import Failing
from tests.servers import S3Server


@pytest.fixture
async def served(tmp_path):
    db = await Database.open(f"sqlite://{tmp_path}/consensus.db", f"file://{tmp_path}/blob", spark_master=None)
    server = Server(db, "127.0.0.1", 0)
    await server.start()
    dsn = f"host=127.0.0.1 port={server.port} user=txngate dbname=txngate"
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute("CREATE TABLE acct (id integer PRIMARY KEY, v integer)")
        await conn.execute("INSERT INTO acct VALUES (1, 100), (2, 100)")
    yield db, dsn
    await server.close()
    await db.close()


async def balances(dsn):
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        return await (await conn.execute("SELECT v FROM acct ORDER BY id")).fetchall()


async def transfer(conn):
    await conn.execute("UPDATE acct SET v = v - 10 WHERE id = 1")
    await conn.execute("UPDATE acct SET v = v + 10 WHERE id = 2")


async def test_commit_whose_oracle_update_fails_is_acknowledged(served, monkeypatch):
    db, dsn = served
    Failing(monkeypatch, db.oracle, "apply_write", IndeterminateError("oracle apply_write: connection was closed"))
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        await transfer(conn)
        await conn.commit()  # raises if the client is told anything but COMMIT
        assert await (await conn.execute("SELECT v FROM acct ORDER BY id")).fetchall() == [(90,), (110,)]
    await db.committer.settled()
    assert await balances(dsn) == [(90,), (110,)]


async def test_commit_of_unknown_outcome_ends_the_connection_with_08006(served, monkeypatch):
    db, dsn = served
    Failing(monkeypatch, db.txns, "commit_rows", CommitUnknown("consensus compare_and_set: timeout"), after=True)
    conn = await psycopg.AsyncConnection.connect(dsn)
    await transfer(conn)
    with pytest.raises(psycopg.OperationalError) as info:
        await conn.commit()
    assert info.value.sqlstate == "08006"
    assert "internal error" not in str(info.value)
    assert conn.closed or conn.broken
    await conn.close()
    await db.committer.settled()
    assert await balances(dsn) == [(90,), (110,)], "it did commit: whole, once"


async def test_storage_outage_is_57p03_and_the_session_goes_on(served, monkeypatch):
    db, dsn = served
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        Failing(monkeypatch, db.oracle, "read_ts", DeterminateError("oracle read_ts: no connection"), times=1)
        with pytest.raises(psycopg.errors.CannotConnectNow) as info:
            await conn.execute("SELECT v FROM acct")
        assert "internal error" not in str(info.value) and info.value.diag.message_detail
        assert await (await conn.execute("SELECT count(*) FROM acct")).fetchone() == (2,)


@pytest.fixture
async def stalling_s3(tmp_path):
    """A gateway on its own moto S3 server, which the test may stop (SIGSTOP:
    requests are accepted and never answered, as a stalled S3 behaves)."""
    with S3Server() as s3:
        db = await Database.open(f"sqlite://{tmp_path}/consensus.db", s3.url(prefix="stall"), spark_master=None)
        server = Server(db, "127.0.0.1", 0)
        await server.start()
        try:
            yield s3, db, f"host=127.0.0.1 port={server.port} user=txngate dbname=txngate"
        finally:
            os.kill(s3.pid, signal.SIGCONT)
            await server.close()
            await db.close()


async def test_statement_timeout_interrupts_a_wait_on_a_stalled_s3(stalling_s3, tmp_path):
    s3, db, dsn = stalling_s3
    # a second process's view of the store, whose cache holds no batch
    cold = await Database.open(f"sqlite://{tmp_path}/consensus.db", s3.url(prefix="stall"), spark_master=None)
    cold_server = Server(cold, "127.0.0.1", 0)
    await cold_server.start()
    cold_dsn = f"host=127.0.0.1 port={cold_server.port} user=txngate dbname=txngate"
    try:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn, \
                await psycopg.AsyncConnection.connect(cold_dsn, autocommit=True) as other:
            await conn.execute("CREATE TABLE big (id bigint, pad text)")
            await conn.execute("INSERT INTO big SELECT g, repeat('x', 20) FROM generate_series(1, 200000) g")  # its batch goes to S3
            for c in (conn, other):
                await c.execute("SET statement_timeout = '700ms'")
            os.kill(s3.pid, signal.SIGSTOP)
            try:
                started = time.monotonic()  # a write whose batch cannot reach S3
                with pytest.raises(psycopg.errors.QueryCanceled) as info:
                    await conn.execute("INSERT INTO big SELECT g, repeat('y', 20) FROM generate_series(1, 200000) g")
                assert "statement timeout" in str(info.value)
                assert time.monotonic() - started < 10, "cancelled at the timeout, not when S3 answered"
                started = time.monotonic()  # a read of batches no cache holds
                with pytest.raises(psycopg.errors.QueryCanceled):
                    await other.execute("SELECT count(*) FROM big")
                assert time.monotonic() - started < 10
                assert await (await other.execute("SELECT 1")).fetchone() == (1,), "the session goes on"
            finally:
                os.kill(s3.pid, signal.SIGCONT)
            await conn.execute("SET statement_timeout = 0")
            assert await (await conn.execute("SELECT count(*), min(pad) FROM big")).fetchone() == (200000, "x" * 20), "the timed-out INSERT wrote nothing"
    finally:
        await cold_server.close()
        await cold.close()
