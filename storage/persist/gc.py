"""Garbage collection: deleting what no reader can reach.

Blob keys are write-once, so a key leaves the reachable set exactly once:
when a compaction replaces the batch that named it. ``state.replace_batches`` records such keys in the state's
``retired`` list with the seqno ``R`` from which no state names them. A
reader may use any state at a seqno >= its ``seqno_since``; so with
``min_seqno`` the oldest ``seqno_since`` of any live reader (or the head's
seqno when there is none), a retired key is unreachable once ``R <=
min_seqno``.

One GC run:

1. expires readers and writers whose leases ran out (releasing their holds);
2. deletes retired keys with ``R <= min_seqno``;
3. lists the shard's prefix in Blob and deletes *orphans*: parts no state
   names, no retired entry covers and the client's ``orphan_guard`` (a hook
   for the layer above, e.g. batches committed in the txns shard but not yet
   applied here) does not claim (a crashed writer's, or a batch that lost
   its race and was never cleaned up) whose creation time (in the key) is
   older than the grace period, so an in-flight batch not yet appended is
   never touched;
4. records the deletions in the state (``finish_gc``) and truncates
   Consensus before ``min_seqno`` (or the base of the head's chain of
   change records, if older: ``Machine``). A crash between a delete and its record
   just repeats the (idempotent) delete next time.

Only the head state is read: the cost of GC does not grow with the log.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from storage.location import Blob, Consensus
from storage.persist import state as st
from storage.persist.batch import key_created_ms
from storage.persist.config import PersistConfig
from storage.persist.machine import Machine
from storage.persist.retry import retry_idempotent


@dataclass
class GcReport:
    min_seqno: int
    deleted: int
    orphans: int
    truncated: int
    expired_readers: int
    expired_writers: int


async def collect_garbage(machine: Machine, blob: Blob, consensus: Consensus, config: PersistConfig, guard=None) -> GcReport:
    """One GC run. ``guard(shard_id)``, when given, returns blob keys that
    must be treated as live although no state names them yet (batches a
    layer above has committed elsewhere but not appended here)."""
    now = config.clock()
    before = await machine.fetch()
    state, _ = await machine.apply(lambda s: (st.expire_leases(s, now), None))
    expired_readers = len(set(before.readers) - set(state.readers))
    expired_writers = len(set(before.writers) - set(state.writers))
    min_seqno = min([r.seqno_since for r in state.readers.values()] + [state.seqno])

    dead = {key for retired_at, key in state.retired if retired_at <= min_seqno}
    known = state.blob_keys | {key for _, key in state.retired}
    grace_before = now - config.gc_grace_ms
    listed = await retry_idempotent(lambda: blob.list(f"{machine.shard_id}/"))
    # Re-read the head after listing: a key appended meanwhile is named there.
    head = await machine.fetch()
    known |= head.blob_keys | {key for _, key in head.retired}
    if guard is not None:
        known |= set(await guard(machine.shard_id))
    orphans = [m.key for m in listed if m.key not in known and (key_created_ms(m.key) or now) < grace_before]
    await asyncio.gather(*(retry_idempotent(lambda k=k: blob.delete(k)) for k in sorted(dead) + orphans))

    await machine.apply(lambda s: (st.finish_gc(s, dead), None))
    # Truncation is idempotent (and never removes the head), so any failure
    # can be retried. It keeps the whole record the head's chain of changes
    # starts from (at or past the base of the chain this machine knows).
    before_seqno = min(min_seqno, machine.chain_base if machine.chain_base is not None else min_seqno)
    truncated = await retry_idempotent(lambda: consensus.truncate(machine.key, before_seqno))
    return GcReport(min_seqno, len(dead), len(orphans), truncated, expired_readers, expired_writers)
