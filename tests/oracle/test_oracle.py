"""The timestamp oracle contract on every implementation, including under 8
concurrent processes sharing one store."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from storage.oracle import open_oracle


@pytest.fixture(params=["postgres", "sqlite", "mem"])
def oracle_url(request, tmp_path, uniq):
    if request.param == "postgres":
        return request.getfixturevalue("pg_server").url(timeline=f"t{uniq}")
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/oracle.db"
    return "mem://"


async def test_contract(oracle_url):
    o = await open_oracle(oracle_url)
    try:
        w1 = await o.write_ts()
        w2 = await o.write_ts()
        assert w2 > w1 >= int(time.time() * 1000) - 60_000
        assert await o.read_ts() < w1
        await o.apply_write(w2)
        r = await o.read_ts()
        assert r >= w2
        w3 = await o.write_ts()
        assert w3 > r
        # Applying an old write never moves read_ts back.
        await o.apply_write(w1)
        assert await o.read_ts() == r
        # Applying a write from the future pushes write_ts past it.
        await o.apply_write(w3 + 1000)
        assert await o.write_ts() > w3 + 1000
    finally:
        await o.close()


def _hammer(url: str, n: int) -> list[tuple[str, int, int, int]]:
    """(op, value, invoked_ns, returned_ns) for n rounds of write/apply/read."""

    async def main():
        o = await open_oracle(url)
        out = []
        try:
            for _ in range(n):
                t0 = time.monotonic_ns()
                w = await o.write_ts()
                t1 = time.monotonic_ns()
                out.append(("write", w, t0, t1))
                await o.apply_write(w)
                t2 = time.monotonic_ns()
                out.append(("applied", w, t1, t2))
                r = await o.read_ts()
                t3 = time.monotonic_ns()
                out.append(("read", r, t2, t3))
        finally:
            await o.close()
        return out

    return asyncio.run(main())


@pytest.mark.parametrize("kind", ["postgres", "sqlite"])
async def test_eight_processes(kind, request, tmp_path, uniq):
    url = request.getfixturevalue("pg_server").url(timeline=f"p{uniq}") if kind == "postgres" else f"sqlite://{tmp_path}/o.db"
    first = await open_oracle(url)  # create the store before the race
    await first.close()
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(8, mp_context=ctx) as pool:
        futures = [asyncio.wrap_future(pool.submit(_hammer, url, 60)) for _ in range(8)]
        histories = await asyncio.gather(*futures)
    writes = [w for h in histories for op, w, _, _ in h if op == "write"]
    assert len(set(writes)) == len(writes) == 8 * 60, "write_ts handed out a timestamp twice"
    for h in histories:
        own = [w for op, w, _, _ in h if op == "write"]
        assert own == sorted(own) and len(set(own)) == len(own), "write_ts went backwards within a process"
    # Real-time order: a write_ts that returned before another was requested is smaller.
    ws = sorted(((t0, t1, w) for h in histories for op, w, t0, t1 in h if op == "write"))
    by_resp = sorted(ws, key=lambda x: x[1])
    for i, (t0, t1, w) in enumerate(ws):
        earlier = [x for x in by_resp[: i + 1] if x[1] < t0]
        if earlier:
            assert w > max(x[2] for x in earlier)
    # read_ts >= every write applied before the read began, and < every write requested after it returned.
    applied = sorted((t1, w) for h in histories for op, w, _, t1 in h if op == "applied")
    reads = [(t0, t1, r) for h in histories for op, r, t0, t1 in h if op == "read"]
    for t0, t1, r in reads:
        done = [w for t, w in applied if t < t0]
        assert not done or r >= max(done)
        later = [w for s, _, w in ws if s > t1]
        assert not later or r < min(later)


async def _turns(n: int = 10) -> None:
    """Let the event loop run every task that is ready (no wall time)."""
    for _ in range(n):
        await asyncio.sleep(0)


async def test_coalesced_reads_start_after_their_calls():
    """A call made while a read is in flight is answered by the next read,
    shared by every call that arrived meanwhile; one caller's cancellation
    leaves the others their answer; an error reaches every caller of its
    round and no later one."""
    from storage.oracle.oracle import Coalesced

    started, release, fail = [], [], []

    async def read():
        started.append(len(started) + 1)
        gate = asyncio.Event()
        release.append(gate)
        await gate.wait()
        if fail:
            raise fail.pop()
        return started[-1]

    reads = Coalesced(read)
    a = asyncio.create_task(reads())
    await _turns()
    assert started == [1]
    b, c, d = (asyncio.create_task(reads()) for _ in range(3))
    await _turns()
    assert started == [1]  # b, c, d wait for the next round: the one in flight began before them
    release[0].set()
    assert await a == 1
    await _turns()
    assert started == [1, 2]
    d.cancel()
    fail.append(OSError("down"))
    release[1].set()
    for t in (b, c):
        with pytest.raises(OSError):
            await t
    with pytest.raises(asyncio.CancelledError):
        await d
    e = asyncio.create_task(reads())
    await _turns()
    release[2].set()
    assert await e == 3 and reads.rounds == 3
    reads.validate()


async def test_concurrent_reads_see_every_earlier_apply(pg_server, uniq):
    """Many sessions' read_ts at once (sharing queries) each see every
    write applied before the call was made."""
    o = await open_oracle(pg_server.url(timeline=f"t{uniq}"))
    try:
        async def reader(applied: list[int]) -> None:
            for _ in range(20):
                floor = applied[-1]
                assert await o.read_ts() >= floor

        async def writer(applied: list[int]) -> None:
            for _ in range(20):
                ts = await o.write_ts()
                await o.apply_write(ts)
                applied.append(ts)

        applied = [await o.read_ts()]
        await asyncio.gather(writer(applied), *(reader(applied) for _ in range(16)))
        assert o._read_ts.rounds < 16 * 20
    finally:
        await o.close()
