"""Results stream with backpressure: a large SELECT is computed batch by
batch as the client reads, so the server's memory does not grow with the
result, a client that stops reading holds back only its own query, and a
client that goes away mid-result stops the work."""

from __future__ import annotations

import time

import psutil
import psycopg
import pytest

from tests.gateway import pgraw as m
from tests.servers import Gateway

ROWS = 3_000_000
QUERY = f"SELECT i, i * 2 AS j, 'row ' || i AS s FROM generate_series(1, {ROWS}) t(i)"


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident size (VmHWM), in MiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.fixture
def fresh_gateway(tmp_path):
    g = Gateway(str(tmp_path))
    yield g
    g.stop()


async def _connect(port: int) -> m.RawConnection:
    conn = await m.RawConnection.open("127.0.0.1", port)
    await conn.send(m.startup({"user": "txngate", "database": "txngate"}))
    assert (await conn.read_until_ready())[-1] == ("Z", "I")
    return conn


async def test_large_select_streams_in_bounded_memory_with_backpressure(fresh_gateway):
    g = fresh_gateway
    with psycopg.connect(g.dsn(), autocommit=True) as warm:  # engine and catalog loaded before the baseline
        warm.execute("SELECT count(*) FROM generate_series(1, 100000) t(i)").fetchone()
    base = peak_rss_mib(g.proc.pid)
    conn = await _connect(g.port)
    await conn.send(m.query(QUERY))
    reader = conn.reader
    received, paused = 0, False
    other_answers = 0
    while True:
        chunk = await reader.read(1 << 20)
        assert chunk, "connection closed mid-result"
        received += len(chunk)
        if not paused and received > 8 << 20:
            # stop reading for a while: the server must wait for us, not buffer
            # the rest; meanwhile another session is served as usual
            paused = True
            cpu_before = psutil.Process(g.proc.pid).cpu_times()
            deadline = time.monotonic() + 2.0
            with psycopg.connect(g.dsn(), autocommit=True) as other:
                while time.monotonic() < deadline:
                    assert other.execute("SELECT 41 + 1").fetchone() == (42,)
                    other_answers += 1
            assert peak_rss_mib(g.proc.pid) - base < 200
        if chunk.endswith(b"Z\x00\x00\x00\x05I"):
            break
    assert other_answers > 50, "another session was held back by a client that stopped reading"
    # ~3M DataRows of about 40 bytes: over 100 MiB went through the socket
    assert received > 100 << 20
    growth = peak_rss_mib(g.proc.pid) - base
    assert growth < 200, f"server memory grew {growth:.0f} MiB while streaming {received >> 20} MiB"
    assert cpu_before is not None
    await conn.close()


async def test_client_gone_mid_result_stops_the_query(fresh_gateway):
    g = fresh_gateway
    conn = await m.RawConnection.open("127.0.0.1", g.port)
    await conn.send(m.startup({"user": "txngate", "database": "txngate"}))
    pid = next(msg[1][0] for msg in await conn.read_until_ready() if msg[0] == "K")
    await conn.send(m.query(QUERY.replace(str(ROWS), str(50 * ROWS))))
    assert (await conn.read())[0] == "T"
    assert (await conn.read())[0] == "D"
    with psycopg.connect(g.dsn(), autocommit=True) as probe:
        assert pid in [r[0] for r in probe.execute("SELECT pid FROM pg_stat_activity")]
        conn.writer.transport.abort()  # gone mid-result, without a Terminate
        await conn.writer.wait_closed()
        # the server notices at its next write, stops the query and ends the
        # session, long before 150M rows could have been computed
        deadline = time.monotonic() + 20
        while pid in [r[0] for r in probe.execute("SELECT pid FROM pg_stat_activity")]:
            assert time.monotonic() < deadline, "the abandoned query kept running"
