"""Operators see and stop what runs (through ``txngate serve``):
pg_stat_activity lists every session with its state, last query and its
start; pg_cancel_backend stops another session's statement (57014, the
session goes on), pg_terminate_backend ends another session (FATAL 57P01)
while the asking session is served; a pid that is no session gives false."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

SLOW = "SELECT count(*) FROM range(200000000) t(x) WHERE md5(x::text) < 'a'"


async def _running(admin, pid: int) -> None:
    """Until the session ``pid`` shows as active with the slow query (polling its state, bounded)."""
    for _ in range(200):
        row = await (await admin.execute("SELECT state, query FROM pg_stat_activity WHERE pid = %s", [pid])).fetchone()
        if row is not None and row[0] == "active" and row[1] == SLOW:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"session {pid} never showed its query: {row}")


async def test_stat_activity_cancel_and_terminate(gateway):
    victim = await psycopg.AsyncConnection.connect(gateway.dsn(), autocommit=True, application_name="victim")
    admin = await psycopg.AsyncConnection.connect(gateway.dsn(), autocommit=True)
    try:
        pid = victim.info.backend_pid
        await victim.execute("SELECT 41 + 1")
        rows = await (await admin.execute(
            "SELECT pid, usename, application_name, state, query, backend_start <= query_start, query_start <= now() "
            "FROM pg_stat_activity WHERE backend_type = 'client backend' ORDER BY pid")).fetchall()
        assert (pid, "txngate", "victim", "idle", "SELECT 41 + 1", True, True) in rows
        me = admin.info.backend_pid
        assert [r[3] for r in rows if r[0] == me] == ["active"]

        slow = asyncio.ensure_future(victim.execute(SLOW))
        await _running(admin, pid)
        assert await (await admin.execute("SELECT pg_cancel_backend(%s)", [pid])).fetchone() == (True,)
        with pytest.raises(psycopg.errors.QueryCanceled):
            await slow
        assert await (await victim.execute("SELECT 1")).fetchone() == (1,)

        slow = asyncio.ensure_future(victim.execute(SLOW))
        await _running(admin, pid)
        ended = await (await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'victim'")).fetchall()
        assert ended == [(True,)]
        with pytest.raises(psycopg.errors.AdminShutdown):
            await slow
        assert victim.closed or victim.broken
        assert await (await admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])).fetchone() in ((0,), (1,))
        assert await (await admin.execute("SELECT pg_cancel_backend(999999), pg_terminate_backend(999998)")).fetchone() == (False, False)
        assert await (await admin.execute("SELECT 2")).fetchone() == (2,)
    finally:
        await victim.close()
        await admin.close()
