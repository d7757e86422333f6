"""The commit lifecycle: one way every transaction commits (seed 000,
"Timestamp selection"), and the contract on what its caller is told.

``Committer(txns, oracle).commit(txn, read_ts=..., reads=..., recompute=...)``
is the only place a transaction is committed, whatever its kind:

* **write-only** (``read_ts`` None: it read nothing a concurrent write could
  change): queued with every other write-only transaction of this process
  and committed as one group (merged batches, one compare-and-append) at a
  fresh ``write_ts``; when another commit wins that timestamp, the same
  sealed batches are re-timestamped to a later one, never rewritten.
* **read-write** (``read_ts`` given): committed at ``read_ts + 1``, so
  nothing can land between what it read and what it writes. When the
  compare-and-append loses to the txns upper ``u``, the transaction is
  *validated*: if no commit in ``(read_ts, u - 1]`` wrote anything it
  read (any of a shard it scanned, or one of the keys it looked up in a
  shard it read only by key: FoundationDB's resolver check, with the keys
  each commit record carries, ``storage.txns.keys``), it commits at ``u`` instead with the same batches (its reads
  are still true at ``u - 1``); otherwise it is recomputed at ``u - 1``
  (``recompute``, single statements: the client never sees 40001) or fails
  with ``Conflict`` (explicit transactions: 40001). Serializable, and
  strict because ``read_ts`` comes from the oracle.

The contract (what a caller, and so a client, may conclude):

1. ``commit`` returns ``Committed``: the transaction is durable. Its
   compare-and-append on the txns shard succeeded, and that alone is the
   commit point. What follows it — ``oracle.apply_write`` (later
   ``read_ts`` see it), ``apply`` (batches moved into the data shards) and
   tidy — is attempted at once and, if it fails, finished in the background
   with retries (any reader also finishes an unapplied commit). Until the
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
5. Cancellation (a client's CancelRequest) does not interrupt a commit
   attempt once it started: the attempt runs to its end. If it committed,
   ``commit`` returns normally (the cancel came too late, as in PostgreSQL);
   if not, the cancellation is raised and nothing was written.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable

from storage.errors import CommitUnknown, Conflict, ShardNotRegistered
from storage.oracle import Oracle
from storage.txns.handle import CommitResult, Txn, TxnsHandle

logger = logging.getLogger(__name__)

__all__ = ["Committed", "Committer", "read_only"]


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


class Committer:
    """Commits transactions of one txns shard; one per process."""

    def __init__(self, txns: TxnsHandle, oracle: Oracle, *, max_group: int = 512):
        self.txns = txns
        self.oracle = oracle
        self.max_group = max_group
        self._queue: list[tuple[Txn, asyncio.Future]] = []
        self._leader: asyncio.Task | None = None
        self._applying: asyncio.Task | None = None
        self._announced = 0  # the largest commit ts the oracle has heard of
        self._unannounced = 0  # the largest commit ts it has not (yet)
        self._announcer: asyncio.Task | None = None
        # counters (bench, metrics)
        self.groups = 0
        self.txns_committed = 0
        self.conflicts = 0
        self.retries = 0
        self.deferred = 0  # post-commit steps left to the background

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
        if read_ts is None:
            return await self._commit_grouped(txn)
        return await self._commit_read_write(txn, read_ts, reads, points or {}, recompute, max_attempts)

    # -- read-write -----------------------------------------------------------------

    async def _commit_read_write(self, txn, read_ts, reads, points, recompute, max_attempts) -> Committed:
        cache = self.txns.cache
        held: list[int] = []
        recomputed = 0
        try:
            for attempt in range(1, max_attempts + 1):
                result = await self._attempt(txn, read_ts + 1, apply=True)
                if result.committed:
                    self.txns_committed += 1
                    return Committed(result.ts, attempt, recomputed, txn)
                self.retries += 1
                new_read = result.upper - 1  # every commit below is known
                cache.hold_history(new_read)
                held.append(new_read)
                await cache.update_to(result.upper)
                if not _written_since(cache, read_ts, new_read, reads, points):
                    read_ts = new_read  # what it read is still true: commit later
                    continue
                await txn.abort()
                if recompute is None:
                    self.conflicts += 1
                    raise Conflict("another transaction wrote what this transaction read, after it read it")
                txn = await recompute(new_read)
                read_ts = new_read
                recomputed += 1
            await txn.abort()
            raise Conflict(f"the transaction did not commit in {max_attempts} attempts")
        finally:
            for ts in held:
                cache.release_history(ts)

    async def _attempt(self, txn: Txn, ts: int, *, apply: bool) -> CommitResult:
        """One compare-and-append at ``ts`` and, if it commits, the steps
        after the commit point; run to the end even if the caller is
        cancelled (contract 5)."""
        attempt = asyncio.ensure_future(self._cas_and_settle(txn, ts, apply=apply))
        result, cancelled = await _to_the_end(attempt)
        if cancelled and not result.committed:
            raise asyncio.CancelledError()
        return result

    async def _cas_and_settle(self, txn: Txn, ts: int, *, apply: bool) -> CommitResult:
        try:
            result = await txn.commit_at(ts)
        except CommitUnknown:
            # If it did commit, it is at ts: once the store answers, the
            # oracle hears of whatever is committed up to there.
            self._announce_later(ts)
            raise
        if result.committed:
            await self._settle(txn, result.ts, apply=apply)
        return result

    # -- write-only, grouped ----------------------------------------------------------

    async def _commit_grouped(self, txn: Txn) -> Committed:
        fut = asyncio.get_running_loop().create_future()
        self._queue.append((txn, fut))
        if self._leader is None or self._leader.done():
            self._leader = asyncio.create_task(self._lead())
        ts, _cancelled = await _to_the_end(fut)  # the leader commits it whatever the caller does
        return Committed(ts, txn=txn)

    async def _lead(self) -> None:
        while True:
            while self._queue:
                group, self._queue = self._queue[: self.max_group], self._queue[self.max_group:]
                await self._commit_group(group)
            if self._applying is not None:
                await self._applying
                self._applying = None
            # Txns queued while we awaited the last apply saw a live leader
            # and started none: take them too before leaving.
            if not self._queue:
                return

    async def _commit_group(self, group: list[tuple[Txn, asyncio.Future]]) -> None:
        # A member writing a shard that was dropped meanwhile fails alone,
        # not the group (a drop racing the merge still fails the group: rare).
        at = self.txns.cache.progress
        kept = []
        for txn, fut in group:
            gone = [s for s in txn.shards if not self.txns.cache.is_registered(s, at)]
            if gone:
                await txn.abort()
                fut.set_exception(ShardNotRegistered(f"data shard {gone[0]} is not registered in the txns set at {at}"))
            else:
                kept.append((txn, fut))
        group = kept
        if not group:
            return
        merged = self.txns.begin()
        try:
            for txn, _ in group:
                merged.merge(txn)
            ts = await self._commit_write_only(merged)
        except BaseException as e:  # noqa: BLE001 - every caller gets the failure
            for _, fut in group:
                if not fut.done():
                    fut.set_exception(e)
            await merged.abort()
            if isinstance(e, asyncio.CancelledError):
                raise
            return
        for _, fut in group:
            if not fut.done():
                fut.set_result(ts)
        self.groups += 1
        self.txns_committed += len(group)
        # Apply in the background while the next group commits; at most one
        # apply in flight (applies are idempotent and per shard in ts order,
        # so overlapping them would be safe, just wasteful).
        if self._applying is not None:
            await self._applying
        self._applying = asyncio.create_task(self._apply(merged, ts))

    async def _commit_write_only(self, txn: Txn) -> int:
        """Commit at a fresh ``write_ts`` until it sticks; returns the ts."""
        while True:
            ts = await self.oracle.write_ts()
            result = await self._cas_and_settle(txn, ts, apply=False)
            if result.committed:
                return ts
            self.retries += 1
            if result.upper > ts + 1:
                # Someone committed above the oracle (a tidy at the txns
                # upper, or a commit the oracle has not heard of yet): make
                # sure the next write_ts is past it.
                await self.oracle.apply_write(result.upper - 1)

    # -- after the commit point -------------------------------------------------------

    async def _settle(self, txn: Txn, ts: int, *, apply: bool) -> None:
        """The steps after a commit at ``ts``: none of them may fail the
        commit (contract 1)."""
        self.txns.note_committed(ts)
        try:
            await self.oracle.apply_write(ts)
            self._announced = max(self._announced, ts)
        except Exception as e:  # noqa: BLE001 - committed: the oracle hears of it later
            logger.warning("commit at %s is durable; the oracle's apply_write failed (%s), retrying in the background", ts, e)
            self._announce_later(ts)
        if apply:
            await self._apply(txn, ts)

    async def _apply(self, txn: Txn, ts: int) -> None:
        try:
            await txn.apply(ts)
        except Exception as e:  # noqa: BLE001 - readers apply what they need themselves
            self.deferred += 1
            logger.warning("commit at %s is durable; applying it failed (%s): readers will finish it", ts, e)

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
        for task in (self._leader, self._applying, self._announcer):
            if task is not None and not task.done():
                await asyncio.shield(task)

    def validate(self) -> None:
        """Invariants: a commit the oracle has not heard of has an announcer
        working on it; a queued commit has no outcome yet."""
        if self._unannounced > self._announced:
            assert self._announcer is not None and not self._announcer.done(), "an unannounced commit nobody announces"
        assert all(not fut.done() for _, fut in self._queue), "a queued commit already has an outcome"


