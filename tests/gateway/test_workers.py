"""``txngate serve --workers 2``: two gateway processes on one port, one
store. Connections land on both; a write through one is read through the
other; pg_stat_activity on either lists the sessions of both;
pg_cancel_backend, pg_terminate_backend and a client's CancelRequest reach
a backend of the other worker."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from gateway.peers import owner
from tests.gateway.test_backends import SLOW, _running
from tests.servers import Gateway


@pytest.fixture(scope="module")
def workers(tmp_path_factory):
    g = Gateway(str(tmp_path_factory.mktemp("workers")), "--workers", "2", "--spark-master", "none")
    g.wait_output("worker 1 of 2")
    g.wait_output("worker 2 of 2")
    yield g
    if g.proc.poll() is None:
        assert g.stop() == 0


async def _one_on_each(g) -> tuple[list, list]:
    """Connections until each worker has one (bounded); returns (on worker
    0, on worker 1)."""
    on: dict[int, list] = {0: [], 1: []}
    for _ in range(64):
        c = await psycopg.AsyncConnection.connect(g.dsn(), autocommit=True)
        on[owner(c.info.backend_pid)].append(c)
        if on[0] and on[1]:
            return on[0], on[1]
    raise AssertionError(f"64 connections all reached one worker: {[len(v) for v in on.values()]}")


async def test_two_workers_share_the_store_and_see_each_others_sessions(workers):
    first, second = await _one_on_each(workers)
    a, b = first[0], second[0]
    try:
        await a.execute("CREATE TABLE w (id integer PRIMARY KEY, v text)")
        await a.execute("INSERT INTO w VALUES (1, 'from a')")
        assert await (await b.execute("SELECT v FROM w WHERE id = 1")).fetchone() == ("from a",), "a commit is read on the other worker"
        await b.execute("SELECT 'marker of b'")
        rows = await (await a.execute("SELECT pid, state, query FROM pg_stat_activity ORDER BY pid")).fetchall()
        assert (b.info.backend_pid, "idle", "SELECT 'marker of b'") in rows
        assert (a.info.backend_pid, "active", "SELECT pid, state, query FROM pg_stat_activity ORDER BY pid") in rows

        pid = b.info.backend_pid
        slow = asyncio.ensure_future(b.execute(SLOW))
        await _running(a, pid)
        assert await (await a.execute("SELECT pg_cancel_backend(%s)", [pid])).fetchone() == (True,)
        with pytest.raises(psycopg.errors.QueryCanceled):
            await slow
        assert await (await b.execute("SELECT 1")).fetchone() == (1,)

        # a client's CancelRequest, on a new connection to either worker
        for _ in range(4):
            slow = asyncio.ensure_future(b.execute(SLOW))
            await _running(a, pid)
            await b.cancel_safe()
            with pytest.raises(psycopg.errors.QueryCanceled):
                await slow

        slow = asyncio.ensure_future(b.execute(SLOW))
        await _running(a, pid)
        assert await (await a.execute("SELECT pg_terminate_backend(%s)", [pid])).fetchone() == (True,)
        with pytest.raises(psycopg.errors.AdminShutdown):
            await slow
        assert await (await a.execute("SELECT pg_cancel_backend(%s)", [pid + 7])).fetchone() == (False,)
    finally:
        for c in first + second:
            await c.close()
