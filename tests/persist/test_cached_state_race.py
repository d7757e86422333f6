"""A process's cached shard state never moves backwards, so a reader never
reads an older state than one it already waited for.

The race (two gateway processes on one store): this process's reader
heartbeats (``downgrade_since``, holding its pin lock); its compare-and-set
lands, but the answer is slow to arrive; meanwhile the other process
appends, and a ``fetch_updates`` here fetches that newer head, then waits
for the pin lock. When the heartbeat's answer arrives, the machine used to
install the heartbeat's own (now older) state over the newer one, and
``fetch_updates`` read that state: the other process's append was silently
missing, and the txns cache, which had absorbed nothing of it, counted its
rows retracted twice (``count -1``) once they were tidied.
"""

from __future__ import annotations

import asyncio

import pyarrow as pa

from storage.location import MemBlob, MemConsensus
from storage.location.consensus import Consensus
from storage.persist import PersistClient, PersistConfig, field_for

SCHEMA = pa.schema([field_for("n", "bigint")])


class SlowAnswers(Consensus):
    """Forwards to ``inner``; while ``hold`` is set, a compare-and-set takes
    effect at once but its answer waits for ``release``."""

    kind = "slow-answers"

    def __init__(self, inner: Consensus):
        self.inner = inner
        self.hold = False
        self.landed = asyncio.Event()
        self.release = asyncio.Event()

    async def head(self, key):
        return await self.inner.head(key)

    async def compare_and_set(self, key, expected, data):
        won = await self.inner.compare_and_set(key, expected, data)
        if self.hold:
            self.hold = False
            self.landed.set()
            await self.release.wait()
        return won

    async def scan(self, key, from_seqno=0, limit=None):
        return await (self.inner.scan(key, from_seqno) if limit is None else self.inner.scan(key, from_seqno, limit))

    async def truncate(self, key, before):
        return await self.inner.truncate(key, before)

    async def list_keys(self):
        return await self.inner.list_keys()

    async def close(self):
        pass


async def test_a_slow_heartbeat_answer_does_not_hide_a_newer_append_from_fetch_updates():
    blob, consensus = MemBlob(), MemConsensus()
    slow = SlowAnswers(consensus)
    here = PersistClient(blob, slow, PersistConfig(compaction=False))
    there = PersistClient(blob, consensus, PersistConfig(compaction=False))
    try:
        await there.create_shard("s", SCHEMA)
        w = await there.open_writer("s")
        await w.compare_and_append(await w.batch(pa.table({"n": pa.array([1], pa.int64())}), ts=0), 0, 1)
        reader = await here.open_reader("s", heartbeats=False)
        assert (await reader.fetch_updates(0, 1)).column("n").to_pylist() == [1]

        slow.hold = True
        heartbeat = asyncio.create_task(reader.downgrade_since(0))
        await slow.landed.wait()  # the heartbeat's CaS is in the log; its answer is on its way
        # The other process appends meanwhile.
        await w.compare_and_append(await w.batch(pa.table({"n": pa.array([2], pa.int64())}), ts=1), 1, 2)
        fetch = asyncio.create_task(reader.fetch_updates(1, 2))
        while reader.machine.state.upper < 2:  # it fetches the new head, then waits for the pin lock
            await asyncio.sleep(0)
        assert not fetch.done()
        slow.release.set()
        await heartbeat
        assert (await fetch).column("n").to_pylist() == [2], "fetch_updates missed an append it had waited for"
        head = await consensus.head("shard/s")
        assert reader.machine.state.seqno == head.seqno, "the cached state went backwards"
    finally:
        await here.close()
        await there.close()
