"""Consensus under concurrency: racing CaS is linearizable, truncation racing
CaS never loses the head. Runs on every implementation; SQLite also across
processes sharing one file."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

from storage.location import open_consensus
from tests.location.linearizability import Op, check_history

RACE_SECONDS = 2.0


async def race_worker(consensus, key: str, name: str, until_ns: int) -> list[Op]:
    """Loop: read the head, try to CaS on top of it; record every operation."""
    ops: list[Op] = []
    n = 0
    while time.monotonic_ns() < until_ns:
        inv = time.monotonic_ns()
        head = await consensus.head(key)
        resp = time.monotonic_ns()
        ops.append(Op(name, "head", inv, resp, seqno=head.seqno if head else None, data=head.data if head else b""))
        data = f"{name}:{n}".encode()
        n += 1
        expected = head.seqno if head else None
        await asyncio.sleep(0)  # let other tasks interleave even on the in-memory log
        inv = time.monotonic_ns()
        ok = await consensus.compare_and_set(key, expected, data)
        resp = time.monotonic_ns()
        ops.append(Op(name, "cas", inv, resp, expected=expected, data=data, ok=ok))
    return ops


async def test_16_tasks_racing_cas_are_linearizable(consensus, uniq):
    until = time.monotonic_ns() + int(RACE_SECONDS * 1e9)
    histories = await asyncio.gather(*(race_worker(consensus, uniq, f"t{i}", until) for i in range(16)))
    ops = [op for h in histories for op in h]
    final = [(e.seqno, e.data) for e in await consensus.scan(uniq)]
    counts = check_history(ops, final)
    # Exactly one winner per seqno, no gaps, and real contention happened.
    assert counts["writes"] == len(final) > 10
    assert counts["failures"] > 0
    assert final[0][0] == 0 and final[-1][0] == len(final) - 1


def _process_race(url: str, key: str, proc: int, until_ns: int) -> list[Op]:
    async def main() -> list[Op]:
        c = await open_consensus(url)
        try:
            hs = await asyncio.gather(*(race_worker(c, key, f"p{proc}t{i}", until_ns) for i in range(4)))
            return [op for h in hs for op in h]
        finally:
            await c.close()

    return asyncio.run(main())


async def test_sqlite_4_processes_racing_cas_are_linearizable(tmp_path, uniq):
    url = f"sqlite://{tmp_path}/shared.db"
    c = await open_consensus(url)  # create the file and schema first
    try:
        until = time.monotonic_ns() + int(RACE_SECONDS * 1e9) + int(1.5e9)  # allow for process start
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(4, mp_context=ctx) as pool:
            futures = [asyncio.wrap_future(pool.submit(_process_race, url, uniq, p, until)) for p in range(4)]
            histories = await asyncio.gather(*futures)
        ops = [op for h in histories for op in h]
        final = [(e.seqno, e.data) for e in await c.scan(uniq)]
        counts = check_history(ops, final)
        assert counts["writes"] == len(final) > 10
        winners = {op.worker[:2] for op in ops if op.kind == "cas" and op.ok}
        assert len(winners) == 4, f"every process should win some seqnos, winners: {winners}"
    finally:
        await c.close()


async def test_truncate_racing_cas_never_loses_head(consensus, uniq):
    assert await consensus.compare_and_set(uniq, None, b"start")
    until = time.monotonic_ns() + int(1.0e9)
    observed_heads: list[int] = []
    truncations = 0

    async def writer(name: str):
        n = 0
        while time.monotonic_ns() < until:
            head = await consensus.head(uniq)
            assert head is not None, "head vanished"
            await asyncio.sleep(0)
            await consensus.compare_and_set(uniq, head.seqno, f"{name}:{n}".encode())
            n += 1

    async def truncator():
        nonlocal truncations
        while time.monotonic_ns() < until:
            head = await consensus.head(uniq)
            assert head is not None, "head vanished"
            await asyncio.sleep(0)
            await consensus.truncate(uniq, head.seqno)
            truncations += 1

    async def observer():
        while time.monotonic_ns() < until:
            entries = await consensus.scan(uniq)
            assert entries, "scan found an empty log: the head was truncated"
            seqnos = [e.seqno for e in entries]
            assert seqnos == list(range(seqnos[0], seqnos[-1] + 1)), f"gap after truncation: {seqnos}"
            if observed_heads:
                assert seqnos[-1] >= observed_heads[-1], "head went backwards"
            observed_heads.append(seqnos[-1])
            await asyncio.sleep(0)

    await asyncio.gather(*(writer(f"w{i}") for i in range(6)), truncator(), truncator(), observer())
    entries = await consensus.scan(uniq)
    head = await consensus.head(uniq)
    assert entries and entries[-1] == head
    assert truncations > 0 and head.seqno > 5
    assert entries[0].seqno > 0, "truncation never took effect"
