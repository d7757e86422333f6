"""Protocol fuzzing: random and mutated frontend messages, before and after
startup. Whatever a connection receives, the server answers it or closes
it; it never stops serving: afterwards a fresh client still works, and the
server process is alive."""

from __future__ import annotations

import asyncio
import struct

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.gateway import pgraw as m

VALID = [
    m.query("SELECT 1"), m.query("BEGIN"), m.query("COMMIT"), m.query("SELECT $1"), m.parse("", "SELECT $1::int"),
    m.parse("s", "SELECT 1"), m.bind("", "", ("1",)), m.bind("", "s", (), (1,), (1,)), m.describe("P"), m.describe("S", "s"),
    m.execute("", 1), m.sync(), m.flush(), m.close("S", "s"), m.copy_data(b"1\n"), m.copy_done(), m.copy_fail("x"),
    m.query("COPY (SELECT 1) TO STDOUT"), m.query("CREATE TABLE IF NOT EXISTS fuzz_t (a int)"), m.query("COPY fuzz_t FROM STDIN"),
]


@st.composite
def mutated(draw) -> bytes:
    """A few valid messages, then some bytes flipped, cut, or lengths lied about."""
    data = bytearray(b"".join(draw(st.lists(st.sampled_from(VALID), min_size=1, max_size=6))))
    for _ in range(draw(st.integers(0, 4))):
        how = draw(st.sampled_from(["flip", "cut", "length", "insert"]))
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        if how == "flip":
            data[i] = draw(st.integers(0, 255))
        elif how == "cut":
            del data[i:]
        elif how == "length" and i + 5 <= len(data):
            data[i + 1:i + 5] = struct.pack("!i", draw(st.sampled_from([-1, 0, 3, 4, 1 << 30, 0x7FFFFFFF, draw(st.integers(-10, 200))])))
        else:
            data[i:i] = draw(st.binary(max_size=16))
    return bytes(data)


payloads = st.one_of(
    st.binary(max_size=200),  # raw garbage where a message is expected
    mutated(),
)


async def _send(port: int, startup: bool, payload: bytes) -> None:
    conn = await m.RawConnection.open("127.0.0.1", port)
    try:
        if startup:
            await conn.send(m.startup({"user": "txngate", "database": "txngate"}))
            await conn.read_until_ready()
        # a Sync, then zero bytes: they complete any message whose length
        # was lied about and then are no message at all, so the server
        # answers with an error or closes, rather than waiting for more
        await conn.send(payload + m.sync() + bytes(4096))
        await asyncio.wait_for(conn.read_until_ready(), 5)
    except (asyncio.TimeoutError, ConnectionError):
        pass  # the server waits for the rest of a message we lied about: fine
    finally:
        conn.writer.transport.abort()
        await conn.writer.wait_closed()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(startup=st.booleans(), payload=payloads)
def test_fuzzed_messages_never_stop_the_server(gateway, startup, payload):
    asyncio.run(_send(gateway.port, startup, payload))
    assert gateway.proc.poll() is None


def test_server_answers_after_fuzzing(gateway):
    with psycopg.connect(gateway.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT 40 + 2").fetchone() == (42,)
    assert gateway.proc.poll() is None


async def test_oversized_and_malformed_messages_are_fatal(gateway):
    for bad in (b"Q" + struct.pack("!i", 0x7FFFFFFF), b"Q" + struct.pack("!i", 2), m.parse("", "SELECT 1") + m.raw(b"B", b"\x00\x00\xff\xff") + m.sync()):
        conn = await m.RawConnection.open("127.0.0.1", gateway.port)
        await conn.send(m.startup({"user": "txngate", "database": "txngate"}))
        await conn.read_until_ready()
        await conn.send(bad)
        answer = await asyncio.wait_for(conn.read_until_ready(), 10)
        errors = [msg[1] for msg in answer if msg[0] == "E"]
        assert errors and errors[0]["C"] == "08P01", answer
        if bad[:1] == b"Q":
            assert errors[0]["S"] == "FATAL" and answer[-1] == ("closed",)
        await conn.close()


async def test_a_broken_message_inside_copy_data_is_fatal_08p01(gateway):
    """COPY FROM STDIN, then a message whose length is impossible: FATAL
    08P01 and the connection closes (not an internal error), nothing of the
    COPY is written, and the server serves the next client."""
    conn = await m.RawConnection.open("127.0.0.1", gateway.port)
    await conn.send(m.startup({"user": "txngate", "database": "txngate"}))
    await conn.read_until_ready()
    await conn.send(m.query("CREATE TABLE IF NOT EXISTS copy_broken (a int)"))
    await conn.read_until_ready()
    await conn.send(m.query("COPY copy_broken FROM STDIN"), m.copy_data(b"1\n"))
    assert (await asyncio.wait_for(conn.read(), 10))[0] == "G"  # CopyInResponse
    await conn.send(b"d" + struct.pack("!i", 0))
    answer = await asyncio.wait_for(conn.read_until_ready(), 10)
    errors = [msg[1] for msg in answer if msg[0] == "E"]
    assert errors and errors[0]["C"] == "08P01" and errors[0]["S"] == "FATAL" and answer[-1] == ("closed",), answer
    with psycopg.connect(gateway.dsn(), autocommit=True) as other:
        assert other.execute("SELECT count(*) FROM copy_broken").fetchone() == (0,)


async def _on_one_worker(dsn: str) -> tuple[psycopg.AsyncConnection, psycopg.AsyncConnection]:
    """Two connections served by the same worker process (bounded tries)."""
    from gateway.peers import owner

    first = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    for _ in range(64):
        other = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        if owner(other.info.backend_pid) == owner(first.info.backend_pid):
            return first, other
        await other.close()
    raise AssertionError("no second connection reached the first one's worker")


async def test_a_huge_statement_does_not_stall_another_session(gateway):
    """A 20 MB string literal, a 4 MB IN list and a 100,000-row VALUES
    list, while another session of
    the same worker process runs SELECT 1 in a loop: the answers are right
    and the probe is never held up for long (before: a 20 MB literal held
    every session of its process for over a second at a time)."""
    big, probe = await _on_one_worker(gateway.dsn())
    try:
        await big.execute("CREATE TABLE IF NOT EXISTS huge_in (id bigint PRIMARY KEY)")
        await big.execute("INSERT INTO huge_in SELECT g FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING")
        literal = "x" * (20 << 20)
        ids = ", ".join(str(i) for i in range(0, 1_000_000, 2))
        await big.execute("CREATE TABLE IF NOT EXISTS huge_values (id bigint PRIMARY KEY, v text)")
        values = ", ".join(f"({i}, 'row {i}')" for i in range(100_000))
        for sql, expected in ((f"SELECT length('{literal}'), md5('{literal}') = md5(repeat('x', {20 << 20}))", (20 << 20, True)),
                              (f"SELECT count(*) FROM huge_in WHERE id IN ({ids})", (500,)),
                              (f"INSERT INTO huge_values VALUES {values}", 100_000)):
            task = asyncio.ensure_future(big.execute(sql))
            waits = []
            while not task.done():
                started = asyncio.get_running_loop().time()
                assert await (await probe.execute("SELECT 1")).fetchone() == (1,)
                waits.append(asyncio.get_running_loop().time() - started)
            cursor = await task
            assert (cursor.rowcount if sql.startswith("INSERT") else await cursor.fetchone()) == expected
            # The 100,000-row VALUES list still holds the probe 0.6-1.0 s on 2 cores (as at 5ca9f42: its parse and
            # rows are Python work the event loop waits behind); the literal and the IN list, 0.1-0.2 s.
            bound = 2.0 if sql.startswith("INSERT") else 1.0
            assert waits and max(waits) < bound, f"the probe waited {max(waits):.2f} s behind {sql[:30]}..."
    finally:
        await big.close()
        await probe.close()
