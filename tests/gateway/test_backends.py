"""Operators see and stop what runs (through ``txngate serve``):
pg_stat_activity lists every session with its state, last query and its
start; pg_cancel_backend stops another session's statement (57014, the
session goes on), pg_terminate_backend ends another session (FATAL 57P01)
while the asking session is served; a pid that is no session gives false."""

from __future__ import annotations

import asyncio
import signal

import psycopg
import pytest

SLOW = "SELECT count(*) FROM generate_series(0, 199999999) t(x) WHERE md5(x::text) < 'a'"


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
        waits = "SELECT state, wait_event_type, wait_event, xact_start IS NOT NULL FROM pg_stat_activity WHERE pid = %s"
        assert await (await admin.execute(waits, [pid])).fetchone() == ("idle", "Client", "ClientRead", False)
        assert await (await admin.execute(waits, [me])).fetchone() == ("active", None, None, True)
        await victim.execute("BEGIN")
        assert await (await admin.execute(waits, [pid])).fetchone() == ("idle in transaction", "Client", "ClientRead", True)
        await victim.execute("ROLLBACK")

        slow = asyncio.ensure_future(victim.execute(SLOW))
        await _running(admin, pid)
        assert await (await admin.execute(waits, [pid])).fetchone() == ("active", "Extension", "DuckDB", True)
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


def test_sigterm_drains(tmp_path):
    """SIGTERM: a statement running in one session (a commit of 50k rows)
    answers and its rows are there after a restart; an idle session ends
    with FATAL 57P01; the process exits 0 and new connections are refused."""
    from tests.servers import Gateway

    gateway = Gateway(str(tmp_path), "--spark-master", "none")
    idle = psycopg.connect(gateway.dsn(), autocommit=True)
    busy = psycopg.connect(gateway.dsn(), autocommit=True)
    busy.execute("CREATE TABLE drained (id bigint PRIMARY KEY, v text)")
    answered = {}

    def write():
        try:
            answered["tag"] = busy.execute("INSERT INTO drained SELECT g, md5(g::text) FROM generate_series(1, 50000) g").statusmessage
        except psycopg.Error as e:
            answered["error"] = e

    import threading

    writer = threading.Thread(target=write)
    writer.start()
    for _ in range(200):  # until the INSERT runs
        if idle.execute("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'INSERT INTO drained%'").fetchone()[0]:
            break
    gateway.proc.send_signal(signal.SIGTERM)
    writer.join(60)
    assert answered.get("tag") == "INSERT 0 50000", answered
    with pytest.raises(psycopg.errors.AdminShutdown):
        idle.execute("SELECT 1")
    assert gateway.proc.wait(timeout=60) == 0
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(gateway.dsn(), connect_timeout=3)
    gateway.log.close()
    again = Gateway(str(tmp_path), "--spark-master", "none")
    try:
        with psycopg.connect(again.dsn(), autocommit=True) as conn:
            assert conn.execute("SELECT count(*), count(DISTINCT v) FROM drained").fetchone() == (50000, 50000)
    finally:
        again.stop()


def test_log_min_duration_statement(gateway):
    import json

    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        conn.execute("SELECT 'not logged'")
        conn.execute("SET log_min_duration_statement = 0")
        conn.execute("SELECT 'logged' AS x")
        conn.execute("SET log_min_duration_statement = '1h'")
        conn.execute("SELECT 'too fast to log'")
    lines = [json.loads(x) for x in gateway.output().splitlines() if x.startswith("{")]
    logged = [x["statement"] for x in lines if x.get("msg") == "duration"]
    assert "SELECT 'logged' AS x" in logged and all(isinstance(x["duration_ms"], float) for x in lines if x.get("msg") == "duration")
    assert not any("not logged" in s or "too fast" in s for s in logged)
