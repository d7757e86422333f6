"""The commit lifecycle: one way every transaction commits (seed 000,
"Timestamp selection"), and the contract on what its caller is told.

``Committer(txns, oracle).commit(txn, read_ts=..., reads=..., recompute=...)``
is the only place a transaction is committed, whatever its kind:

Every transaction of this process queues, and one leader commits the
queue as a *group*: each member's txns rows in one compare-and-append on
the txns shard (the member's sealed batches, re-timestamped to the group's
time, never rewritten).

* **write-only** members (``read_ts`` None: they read nothing a concurrent
  write could change) are always admitted; a group holding one commits at
  a fresh ``write_ts`` past the txns upper.
* **read-write** members (``read_ts`` given) are *validated* at the time
  ``at`` the group commits at, with the txns cache holding every commit
  below the upper (none can land in ``[upper, at)`` if the append wins):
  a member is admitted if no commit in ``(read_ts, at - 1]`` wrote
  anything it read (any of a shard it scanned, or one of the keys it
  looked up in a shard it read only by key: FoundationDB's resolver check,
  with the keys each commit record carries, ``storage.txns.keys``), and it
  read nothing an earlier admitted member of the group writes (such a
  member waits for the next group). Admitted members serialize in group
  order at ``at``. A member that fails validation is recomputed at a later
  read time (``recompute``, single statements: the client never sees
  40001) or fails with ``Conflict`` (explicit transactions: 40001).
  Serializable, and strict because ``read_ts`` comes from the oracle and
  the oracle hears of a commit before anyone is told of it.

``refresh`` moves a transaction's ``read_ts`` forward between its reads
when nothing it read so far was written since (CockroachDB's read
refresh): validation then starts there, so a commit is refused only for a
write after the statement that read what it wrote, not after BEGIN.

When the append loses (another process committed), the group is validated
again at the new upper. So N concurrent transactions cost one append, not N
appends racing for one timestamp.

The contract (what a caller, and so a client, may conclude):

1. ``commit`` returns ``Committed``: the transaction is durable. Its
   compare-and-append on the txns shard succeeded, and that alone is the
   commit point. What follows it — ``oracle.apply_write`` (later
   ``read_ts`` see it) is attempted at once and, if it fails, retried in
   the background; ``apply`` (batches moved into the data shards) and tidy
   run in the background (by the process of the latest commit to a shard,
   whose apply covers the earlier ones; any reader also finishes an
   unapplied commit, and ``on_commit`` hands the txn's in-memory writes to a cache of
   contents so key lookups need not wait for either). Until the
   oracle has heard, this process reads at or above the commit
   (``TxnsHandle.note_committed``), so its sessions read their own writes.
   A failure after the commit point never reaches the caller.
2. ``Conflict`` (40001): validation failed (or a shard written was dropped
   meanwhile). Nothing was written; every batch of the txn is deleted.
3. A ``LocationError`` that is not ``CommitUnknown`` (a storage outage
   before the commit point: writing batches, the oracle's ``write_ts``):
   nothing was committed.
4. ``CommitUnknown``: the compare-and-append was sent and its outcome could
   not be learned (the store stayed unreachable past the retry budget). The
   transaction may or may not be committed; the caller must say exactly
   that (the gateway ends the connection with 08006), never "rolled back".
5. Cancellation (a client's CancelRequest, a statement timeout) stops a
   commit while its batches are written (before it queues: nothing is
   committed) but not once it queued: the attempt runs to its end. If it
   committed, ``commit`` returns normally (the cancel came too late, as in
   PostgreSQL); if not, the cancellation is raised and nothing was
   written.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable

import pyarrow as pa

from storage.errors import CommitUnknown, Conflict, ShardNotRegistered
from storage.metrics import Histogram
from storage.oracle import Oracle
from storage.txns.handle import Txn, TxnsHandle
from storage.txns.keys import WHOLE, union

logger = logging.getLogger(__name__)

__all__ = ["Committed", "Committer", "read_only", "refresh"]


@dataclass
class Committed:
    ts: int
    attempts: int = 1
    recomputed: int = 0
    txn: Txn | None = None  # the txn that committed (a recompute makes a new one)


async def read_only(txns: TxnsHandle, oracle: Oracle, shards: list[str]) -> int:
    """A read timestamp at which every shard in ``shards`` is readable,
    held until ``txns.cache.release_history(ts)``."""
    ts = await txns.read_ts(oracle)
    try:
        for shard in shards:
            await txns.data_snapshot(shard, ts)
    except BaseException:
        txns.cache.release_history(ts)
        raise
    return ts


def refresh(txns: TxnsHandle, read_ts: int, reads: Iterable[str], points: dict[str, set[int]]) -> int:
    """Read refresh (CockroachDB's): a later read timestamp for a
    transaction that read ``reads`` (shards, whole) and ``points`` (shards
    by key) at ``read_ts``, when nothing of that was written since: every
    read it made reads the same at the new time, so the transaction may
    read on there and its commit validates from there. Later reads then
    see later commits (as a statement of PostgreSQL's READ COMMITTED
    does), and a commit is refused only for writes after them.

    The new time is the newest one this process's txns cache has
    absorbed (no round trip), held like ``read_ts`` until
    ``txns.cache.release_history``; the caller then releases ``read_ts``.
    Returns ``read_ts`` itself, nothing held anew, when there is nothing
    later or something read was written."""
    cache = txns.cache
    ts = cache.progress - 1
    if ts <= read_ts or _written_since(cache, read_ts, ts, reads, points):
        return read_ts
    cache.hold_history(ts)
    return ts


async def _to_the_end(fut: "asyncio.Future"):
    """Await ``fut`` (a commit attempt) even if the awaiting task is
    cancelled meanwhile: a commit cannot be taken back, so the caller must
    learn its outcome. Returns ``(result, cancelled)``."""
    cancelled = False
    while True:
        try:
            return await asyncio.shield(fut), cancelled
        except asyncio.CancelledError:
            if fut.done():
                raise  # the attempt itself was cancelled (shutdown)
            cancelled = True
        except CommitUnknown:
            raise  # cancelled or not, the caller must hear exactly this
        except Exception:
            if cancelled:  # nothing was committed: the cancel is the answer
                raise asyncio.CancelledError() from None
            raise


def _written_since(cache, lo: int, hi: int, reads: Iterable[str], points: dict[str, set[int]]) -> bool:
    """Validation: did a commit in ``(lo, hi]`` write what was read — any
    of a shard read whole, or one of the keys read of a shard read by key?"""
    whole = set(reads)
    if any(cache.changed_between(s, lo, hi) for s in whole):
        return True
    return any(cache.keys_changed_between(s, lo, hi, frozenset(keys)) for s, keys in list(points.items()) if s not in whole)


@dataclass
class _Member:
    """A transaction waiting in the commit queue."""

    txn: Txn
    fut: "asyncio.Future"
    read_ts: int | None  # None: write-only
    reads: Iterable[str]
    points: dict[str, set[int]]
    rows: list | None = None  # its txns rows, once sealed
    verdict: str = ""  # set by each validation: "in", "stale" (read what was written since) or "later"


#: Seconds the applier waits before applying, so the commits made meanwhile
#: are applied with it in one append per shard.
APPLY_DELAY = 0.1

#: "Whatever is committed": the announcer clamps it to the txns upper.
_WHATEVER_COMMITTED = 1 << 62


class _Stale(Exception):
    """Validation failed: something the transaction read was written after
    it read it; every commit below ``new_read + 1`` is known."""

    def __init__(self, new_read: int):
        super().__init__(new_read)
        self.new_read = new_read


def _resident(txns: list[Txn]) -> dict:
    """The updates a group's commit made to each shard that every member
    writing it still held in memory (all of the shard's updates at that ts)."""
    parts: dict[str, list] = {}
    partial: set[str] = set()
    for txn in txns:
        for shard in txn.shards:
            if shard in txn.resident:
                parts.setdefault(shard, []).append(txn.resident[shard])
            else:
                partial.add(shard)
    out = {}
    for shard, tables in parts.items():
        if shard in partial:
            continue
        try:
            out[shard] = tables[0] if len(tables) == 1 else pa.concat_tables(tables)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            continue
    return out


def _overlaps(m: _Member, wrote: dict[str, object]) -> bool:
    """Whether ``m`` read what an earlier member of its group writes
    (``wrote``: shard -> key hashes, or WHOLE)."""
    for shard, keys in wrote.items():
        if shard in m.reads:
            return True
        mine = m.points.get(shard)
        if mine and (keys is WHOLE or not keys.isdisjoint(mine)):
            return True
    return False


class Committer:
    """Commits transactions of one txns shard; one per process."""

    def __init__(self, txns: TxnsHandle, oracle: Oracle, *, max_group: int = 512):
        self.txns = txns
        self.oracle = oracle
        self.max_group = max_group
        self._queue: list[_Member] = []
        self._leader: asyncio.Task | None = None
        self._announced = 0  # the largest commit ts the oracle has heard of
        self._unannounced = 0  # the largest commit ts it has not (yet)
        self._announcer: asyncio.Task | None = None
        self._dirty: dict[str, int] = {}  # shard -> latest commit ts to apply
        self._applier: asyncio.Task | None = None
        #: told ``(ts, {shard: updates})`` of each commit: every update at
        #: ``ts`` of each shard whose writers all still held them in memory
        #: (``Txn.resident``), before they are applied, so a cache of
        #: contents advances without reading them back
        self.on_commit: Callable[[int, dict], None] | None = None
        # counters (bench, metrics)
        self.groups = 0
        self.txns_committed = 0
        self.conflicts = 0
        self.retries = 0
        self.deferred = 0  # post-commit steps left to the background
        self.latency = Histogram()  # seconds from commit() to Committed

    # -- the one entry point ------------------------------------------------------

    async def commit(
        self,
        txn: Txn,
        *,
        read_ts: int | None = None,
        reads: Iterable[str] = (),
        points: dict[str, set[int]] | None = None,
        recompute: Callable[[int], Awaitable[Txn]] | None = None,
        max_attempts: int = 1000,
    ) -> Committed:
        """Commit ``txn`` (see the module docstring for what each outcome
        means). ``reads``: the shards the transaction read whole at
        ``read_ts``; ``points``: shards it read only by key, with the key
        hashes (``storage.txns.keys``); both looked at afresh on each
        validation (a recompute may add some).
        ``recompute(new_read_ts)`` computes the transaction again (its new
        txn), for statements that may retry themselves."""
        points = points if points is not None else {}
        cache = self.txns.cache
        held: list[int] = []
        recomputed = 0
        started = time.monotonic()
        try:
            for attempt in range(1, max_attempts + 1):
                # its batches are written here, where a cancel (statement
                # timeout) may stop it: nothing is committed yet, and a slow
                # write does not hold up the leader and everyone it serves
                await txn.seal()
                fut = asyncio.get_running_loop().create_future()
                self._queue.append(_Member(txn, fut, read_ts, reads, points))
                if self._leader is None or self._leader.done():
                    self._leader = asyncio.create_task(self._lead())
                try:
                    ts, _cancelled = await _to_the_end(fut)  # the leader commits it whatever the caller does
                    self.latency.observe(time.monotonic() - started)
                    return Committed(ts, attempt, recomputed, txn)
                except _Stale as e:
                    cache.hold_history(e.new_read)  # held from read_ts by the caller until now
                    held.append(e.new_read)
                    await txn.abort()
                    if recompute is None:
                        self.conflicts += 1
                        raise Conflict("another transaction wrote what this transaction read, after it read it") from None
                    txn = await recompute(e.new_read)
                    read_ts = e.new_read
                    recomputed += 1
            await txn.abort()
            raise Conflict(f"the transaction did not commit in {max_attempts} attempts")
        finally:
            for ts in held:
                cache.release_history(ts)

    # -- the group commit ------------------------------------------------------------

    async def _lead(self) -> None:
        while self._queue:
            group, self._queue = self._queue[: self.max_group], self._queue[self.max_group:]
            later = await self._commit_group(group)
            self._queue[:0] = later

    async def _commit_group(self, group: list[_Member]) -> list[_Member]:
        """Commit what it can of ``group`` in one compare-and-append on the
        txns shard; returns the members left for the next group (they read
        what an earlier member writes)."""
        # A member writing a shard that was dropped meanwhile fails alone,
        # not the group (a drop racing the commit still fails the group: rare).
        cache = self.txns.cache
        if any(not cache.is_registered(s, cache.progress) for m in group for s in m.txn.shards):
            await cache.update_to(await self.txns.upper())  # registered since the cache last read (another process's DDL)?
        at = cache.progress
        kept = []
        for m in group:
            m.verdict = ""  # a member back from an earlier group is judged afresh
            gone = [s for s in m.txn.shards if not cache.is_registered(s, at)]
            if gone:
                m.fut.set_exception(ShardNotRegistered(f"data shard {gone[0]} is not registered in the txns set at {at}"))
                continue
            try:
                m.rows = await m.txn.seal()
            except BaseException as e:  # noqa: BLE001 - this member's writes failed: nothing of it is committed
                m.fut.set_exception(e)
                if isinstance(e, asyncio.CancelledError):
                    raise
                continue
            kept.append(m)
        group = kept
        if not group:
            return []
        try:
            ts = await self._commit_validated(group)
        except BaseException as e:  # noqa: BLE001 - every member in it gets the failure
            if isinstance(e, CommitUnknown):
                # If it did commit, the oracle hears of it once the store answers.
                self._announce_later(_WHATEVER_COMMITTED)
            for m in group:
                if m.verdict != "later" and not m.fut.done():
                    m.fut.set_exception(e)
            if isinstance(e, asyncio.CancelledError):
                raise
            return [m for m in group if m.verdict == "later"]
        accepted = [m for m in group if m.verdict == "in"]
        if accepted:
            assert self.txns.cache.progress > ts, "members admitted at a time that was not committed"
            await self._settle([m.txn for m in accepted], ts)
            self.groups += 1
            self.txns_committed += len(accepted)
        for m in group:
            if m.verdict == "in":
                m.fut.set_result(ts)
            elif m.verdict == "stale":
                self.retries += 1
                m.fut.set_exception(_Stale(self.txns.cache.progress - 1))
        return [m for m in group if m.verdict == "later"]

    async def _commit_validated(self, group: list[_Member]) -> int:
        """The compare-and-append of the group's valid members, at the txns
        upper (or, with write-only members, a fresh ``write_ts`` past it);
        sets each member's verdict. Returns the commit ts."""
        write_only = any(m.read_ts is None for m in group)
        while True:
            ts = await self.oracle.write_ts() if write_only else None

            def pick(cache, at: int):
                # Every commit below the upper is in the cache, and none
                # can land in [upper, at) if this append succeeds.
                rows, wrote = [], {}
                for m in group:
                    if m.read_ts is not None and _written_since(cache, m.read_ts, at - 1, m.reads, m.points):
                        m.verdict = "stale"
                    elif m.read_ts is not None and _overlaps(m, wrote):
                        m.verdict = "later"
                    else:
                        m.verdict = "in"
                        rows += m.rows
                        for shard in m.txn.shards:
                            keys = m.txn.written_keys(shard)
                            wrote[shard] = union(wrote[shard], keys) if shard in wrote else keys
                # An admitted member may have no rows (its writes came to
                # nothing): the group still commits, an empty append, so
                # its time is real when the oracle hears of it.
                return rows if any(m.verdict == "in" for m in group) else None

            result = await self.txns.commit_rows(ts, pick)
            if result.committed:
                return result.ts
            self.retries += 1
            if result.upper > ts + 1:
                # Someone committed above the oracle (a tidy at the txns
                # upper, or a commit the oracle has not heard of yet): make
                # sure the next write_ts is past it.
                await self.oracle.apply_write(result.upper - 1)

    # -- after the commit point -------------------------------------------------------

    async def _settle(self, txns: list[Txn], ts: int) -> None:
        """The steps after a commit at ``ts``, before anyone is told: none of
        them may fail the commit (contract 1). The oracle hears of it first
        (a client told COMMIT may read next through another process)."""
        self.txns.note_committed(ts)
        try:
            await self.oracle.apply_write(ts)
            self._announced = max(self._announced, ts)
        except Exception as e:  # noqa: BLE001 - committed: the oracle hears of it later
            logger.warning("commit at %s is durable; the oracle's apply_write failed (%s), retrying in the background", ts, e)
            self._announce_later(ts)
        if self.on_commit is not None:
            try:
                self.on_commit(ts, _resident(txns))
            except Exception:  # noqa: BLE001 - a cache that missed it reads the shard
                logger.warning("handing the commit at %s to its listener failed", ts, exc_info=True)
        for txn in txns:
            txn.resident = {}
            self._apply_later(txn, ts)

    def _apply_later(self, txn: Txn, ts: int) -> None:
        """Apply the commit at ``ts`` in the background: it is durable, and
        later reads at or above ``ts`` apply what they need themselves
        (idempotently). One applier task; the commits to a shard made while
        it works are applied together, in one append."""
        for shard in txn.shards:
            self._dirty[shard] = max(self._dirty.get(shard, 0), ts)
        if self._applier is None or self._applier.done():
            self._applier = asyncio.create_task(self._apply_dirty())

    async def _apply_dirty(self) -> None:
        while self._dirty:
            await asyncio.sleep(APPLY_DELAY)  # let more commits join this apply
            dirty, self._dirty = self._dirty, {}
            for shard, ts in sorted(dirty.items()):
                later = self.txns.cache.unapplied.get(shard)
                if later and later[-1] > ts and later[-1] != self._dirty.get(shard):
                    # another process committed to the shard after us: its
                    # applier applies ours with its own (two appliers racing
                    # for one shard lost half their compare-and-sets)
                    continue
                try:
                    await self.txns.apply_shard(shard, le=ts)
                except Exception as e:  # noqa: BLE001 - readers apply what they need themselves
                    self.deferred += 1
                    logger.warning("commits to %s up to %s are durable; applying them failed (%s): readers will finish it", shard, ts, e)

    def _announce_later(self, ts: int) -> None:
        self.deferred += 1
        self._unannounced = max(self._unannounced, ts)
        if self._announcer is None or self._announcer.done():
            self._announcer = asyncio.create_task(self._announce())

    async def _announce(self) -> None:
        """Tell the oracle of the largest unannounced commit, with backoff,
        until it has heard (apply_write is monotonic: the largest suffices)."""
        delay = 0.05
        while self._unannounced > self._announced:
            want = self._unannounced
            try:
                # Never past the txns upper: a commit of unknown outcome may
                # not have happened, and reads at a time wait for the upper.
                ts = min(want, await self.txns.upper() - 1)
                await self.oracle.apply_write(ts)
            except Exception as e:  # noqa: BLE001 - keep trying; the commit is durable
                logger.info("oracle apply_write(%s) still failing: %s", want, e)
                await asyncio.sleep(delay * (1 + random.random()))
                delay = min(delay * 2, 2.0)
                continue
            self._announced = max(self._announced, ts)
            if self._unannounced == want:
                self._unannounced = ts  # nothing committed above the upper

    async def settled(self) -> None:
        """Wait for the background steps of every commit so far (tests,
        shutdown)."""
        for task in (self._leader, self._applier, self._announcer):
            if task is not None and not task.done():
                await asyncio.shield(task)

    @property
    def apply_backlog(self) -> int:
        """Data shards with commits not yet applied."""
        return len(self._dirty)

    def validate(self) -> None:
        """Invariants: a commit the oracle has not heard of has an announcer
        working on it; a queued commit has no outcome yet; a shard left to
        apply has an applier working on it."""
        if self._unannounced > self._announced:
            assert self._announcer is not None and not self._announcer.done(), "an unannounced commit nobody announces"
        assert all(not m.fut.done() for m in self._queue), "a queued commit already has an outcome"
        if self._dirty:
            assert self._applier is not None and not self._applier.done(), "commits left to apply with no applier"


