"""Garbage collection: deleting what no reader can reach.

A blob is *reachable* while some state at a seqno >= ``min_seqno`` names it,
where ``min_seqno`` is the oldest ``seqno_since`` of any live reader (or the
head's seqno when there are none). One GC run:

1. expires readers and writers whose leases ran out (releasing their holds);
2. scans the retained log, splits the blob keys into those named by states
   at seqnos >= min_seqno (live) and those named only by older states
   (dead), and deletes the dead ones;
3. lists the shard's prefix in Blob and deletes *orphans*: parts no retained
   state names (a crashed writer's, or a batch that lost its race and was
   never cleaned up) whose creation time (in the key) is older than the
   grace period, so an in-flight batch not yet appended is never touched;
4. truncates Consensus before min_seqno, only after the deletes (a crash in
   between just repeats the deletes next time).

It never deletes a reachable blob: live keys are computed from the same
states readers pin, and a state newer than the scan only names keys written
after it (younger than the grace period) or keys already live.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from storage.location import Blob, Consensus
from storage.persist import state as st
from storage.persist.batch import key_created_ms
from storage.persist.config import PersistConfig
from storage.persist.machine import Machine


@dataclass
class GcReport:
    min_seqno: int
    deleted: int
    orphans: int
    truncated: int
    expired_readers: int
    expired_writers: int


async def collect_garbage(machine: Machine, blob: Blob, consensus: Consensus, config: PersistConfig) -> GcReport:
    now = config.clock()
    before = await machine.current()
    state, _ = await machine.apply(lambda s: (st.expire_leases(s, now), None))
    expired_readers = len(set(before.readers) - set(state.readers))
    expired_writers = len(set(before.writers) - set(state.writers))
    min_seqno = min([r.seqno_since for r in state.readers.values()] + [state.seqno])

    entries = await consensus.scan(machine.key, 0)
    live: set[str] = set()
    named: set[str] = set()
    for e in entries:
        keys = st.ShardState.decode(e.data, e.seqno).blob_keys
        named |= keys
        if e.seqno >= min_seqno:
            live |= keys
    # States written after the scan began: their keys are live too.
    head = await machine.fetch()
    live |= head.blob_keys
    named |= head.blob_keys
    dead = named - live

    grace_before = now - config.gc_grace_ms
    listed = await blob.list(f"{machine.shard_id}/")
    orphans = [
        m.key for m in listed
        if m.key not in named and (key_created_ms(m.key) or now) < grace_before
    ]
    await asyncio.gather(*(blob.delete(k) for k in sorted(dead) + orphans))

    truncated = 0
    if entries and entries[0].seqno < min_seqno:
        truncated = await consensus.truncate(machine.key, min_seqno)
    await machine.apply(lambda s: (st.mark_gc(s), None))
    return GcReport(min_seqno, len(dead), len(orphans), truncated, expired_readers, expired_writers)
