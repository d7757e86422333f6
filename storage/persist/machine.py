"""Applying shard transitions through Consensus.

A ``Machine`` owns the cached ``ShardState`` of one shard in one process and
is the only place that writes the shard's Consensus log (key
``shard/<id>``). Every change follows the loop of the design (seed 003,
"State machine usage"):

    state = cached or fetched head
    new = transition(state)            # pure; None means nothing to do
    CaS(key, expected=state.seqno, new.encode())
    won  -> cache new (seqno + 1), done
    lost -> fetch the head, run the transition again

Location errors: a determinate failure is retried with backoff within
``retry_timeout_s``; an indeterminate one (the CaS may have won) is resolved
by refetching and running the transition again, so every transition must be
idempotent against its own application (registrations check membership;
compare_and_append checks the writer's idempotency token). Nothing is ever
applied twice. If that refetch fails too, the call raises
``IndeterminateError``, never a determinate one.

Records (``state.py``): a transition is written as its *change* from the
state before while the chain of changes since the last whole record stays
short (``CHAIN_MAX`` records, and no more bytes than that whole record, or
``CHAIN_MIN_BYTES``), else whole. A process that knows the state at seqno
``s`` catches up by reading the records after ``s`` (``scan``) and applying
them; one that knows none, or fell behind past ``FETCH_SCAN`` records or a
truncation, reads the head and the chain from its base. GC truncates
Consensus no further than the base of the chain it knows (``chain_base``),
so the head can always be read.

Invariants: the cached state only moves forward in seqno (a compare-and-set
whose answer comes after another task fetched a newer head leaves the newer
one); every state this machine writes passed ``validate()``; the cached
state's chain base is at or below its seqno (``validate``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from typing import Callable, TypeVar

from storage.errors import DeterminateError, IndeterminateError, UsageError
from storage.location import Consensus
from storage.persist.retry import retry_idempotent
from storage.persist.state import InvariantViolation, ShardState, change_base

logger = logging.getLogger(__name__)

T = TypeVar("T")


#: Compare-and-sets ``create`` makes, each of unknown outcome, before it
#: gives up (each one is retried within ``retry_timeout_s`` first).
CREATE_ATTEMPTS = 5

#: Change records a chain may hold before the next record is whole.
CHAIN_MAX = 64
#: Bytes of change records a chain may hold whatever the size of its base.
CHAIN_MIN_BYTES = 64 << 10
#: Records a fetch reads after the cached seqno before it reads the head
#: and its chain instead.
FETCH_SCAN = CHAIN_MAX + 1


def consensus_key(shard_id: str) -> str:
    return f"shard/{shard_id}"


class Machine:
    def __init__(self, shard_id: str, consensus: Consensus, *, max_inline_bytes: int, retry_timeout_s: float = 30.0):
        self.shard_id = shard_id
        self.key = consensus_key(shard_id)
        self.consensus = consensus
        self.max_inline_bytes = max_inline_bytes
        self.retry_timeout_s = retry_timeout_s
        self.state: ShardState | None = None
        #: the seqno of the whole record the cached state's chain starts
        #: from, the bytes of that record and of the changes after it, and
        #: how many changes there are
        self.chain_base: int | None = None
        self._whole_bytes = 0
        self._chain_bytes = 0
        self._chain_len = 0
        self._changed = asyncio.Condition()
        #: one transition of this process in flight at a time: tasks of one
        #: process (a commit, a compaction, a reader's heartbeat) that raced
        #: lost a third of the txns shard's compare-and-sets to each other,
        #: each loss a refetch and decode of the whole state
        self._applying = asyncio.Lock()
        self.cas_attempts = 0
        self.cas_losses = 0

    async def _retry(self, op: Callable[[], "asyncio.Future[T]"]) -> T:
        return await retry_idempotent(op, self.retry_timeout_s, on=DeterminateError)

    async def fetch(self) -> ShardState | None:
        """Read the records after the cached state into it (never moving it
        backwards); the head and its chain when nothing is cached or the
        cache fell far behind."""
        known, chain = self.state, self._chain()
        if known is not None:
            records = await self._retry(lambda: self.consensus.scan(self.key, known.seqno + 1, FETCH_SCAN))
            if records and records[0].seqno == known.seqno + 1 and len(records) < FETCH_SCAN:
                await self._absorb(known, chain, records)
                return self.state
            if not records:
                return self.state
        head = await self._retry(lambda: self.consensus.head(self.key))
        if head is None:
            return self.state
        if self.state is None or head.seqno > self.state.seqno:
            base = change_base(head.data)
            records = [head] if base is None else await self._retry(lambda: self.consensus.scan(self.key, base, head.seqno - base + 1))
            if not records or records[0].seqno != (head.seqno if base is None else base) or change_base(records[0].data) is not None:
                raise InvariantViolation(f"{self.key}: the chain of the record at seqno {head.seqno} does not start at a whole record")
            await self._absorb(None, (None, 0, 0, 0), records)
        return self.state

    def _chain(self) -> tuple:
        """The cached state's chain: its base, the bytes of the whole
        record there and of the changes after it, how many changes."""
        return self.chain_base, self._whole_bytes, self._chain_bytes, self._chain_len

    async def _absorb(self, state: ShardState | None, chain: tuple, records: list) -> None:
        """Apply ``records`` (contiguous, the first one after ``state``, or
        whole when ``state`` is None; ``chain``: ``state``'s) and cache the
        result if it is newer."""
        base, whole, chain, length = chain
        for record in records:
            state = ShardState.decode(record.data, record.seqno, state)
            if change_base(record.data) is None:
                base, whole, chain, length = record.seqno, len(record.data), 0, 0
            else:
                chain, length = chain + len(record.data), length + 1
        state.validate()
        if self.state is None or state.seqno > self.state.seqno:
            self._cache(state, base, whole, chain, length)
            async with self._changed:
                self._changed.notify_all()

    def _cache(self, state: ShardState, base: int, whole: int, chain: int, length: int) -> None:
        self.state, self.chain_base, self._whole_bytes, self._chain_bytes, self._chain_len = state, base, whole, chain, length

    def _record(self, state: ShardState, new: ShardState) -> tuple[bytes, tuple]:
        """The record of ``new`` (the state after the cached ``state``):
        its change while the chain stays short, else whole. Returns the
        record and ``new``'s chain once it is written."""
        assert state is self.state, "a record is made from the cached state"
        base, whole, chain, length = self._chain()
        if base is not None and length < CHAIN_MAX:
            data = new.encode_change(state, base)
            if data is not None and chain + len(data) <= max(CHAIN_MIN_BYTES, whole):
                return data, (base, whole, chain + len(data), length + 1)
        data = new.encode()
        return data, (new.seqno, len(data), 0, 0)

    async def current(self) -> ShardState:
        state = self.state or await self.fetch()
        if state is None:
            raise UsageError(f"shard {self.shard_id} does not exist")
        return state

    async def create(self, initial: ShardState) -> ShardState:
        """Write seqno 0 if the shard does not exist yet; return the head."""
        initial.validate()
        for _attempt in range(CREATE_ATTEMPTS):
            if await self.fetch() is not None:
                break
            try:
                await self._retry(lambda: self.consensus.compare_and_set(self.key, None, initial.encode()))
            except IndeterminateError:
                pass  # the fetch finds out (an attempt that did not land is made again)
        return await self.current()

    async def apply(self, transition: Callable[[ShardState], tuple[ShardState | None, T]]) -> tuple[ShardState, T]:
        """Run ``transition`` on the latest state until its result is durable
        (after any other transition of this process: they queue)."""
        async with self._applying:
            return await self._apply(transition)

    async def _apply(self, transition: Callable[[ShardState], tuple[ShardState | None, T]]) -> tuple[ShardState, T]:
        state = await self.current()
        uncertain = False  # an earlier attempt of this call may have won
        try:
            while True:
                new, out = transition(state)
                if new is None:
                    return state, out
                new = dataclasses.replace(new, seqno=state.seqno + 1)
                try:
                    new.validate(max_inline_bytes=self.max_inline_bytes)
                except InvariantViolation:
                    logger.error("transition broke an invariant", extra={"shard": self.shard_id, "seqno": state.seqno})
                    raise
                self.cas_attempts += 1
                data, chain = self._record(state, new)
                try:
                    won = await self._retry(lambda: self.consensus.compare_and_set(self.key, state.seqno, data))
                except IndeterminateError:
                    won = False  # find out: refetch and run the transition again
                    uncertain = True
                if won:
                    # A fetch by another task of this process may have cached
                    # a newer head while this CaS's answer was on its way
                    # (another process wrote after it): never go back to ours.
                    if new.seqno > self.state.seqno:
                        self._cache(new, *chain)
                    async with self._changed:
                        self._changed.notify_all()
                    return new, out
                self.cas_losses += 1
                state = await self.fetch()
                assert state is not None
                uncertain = False  # the transition runs on a state that shows it
        except DeterminateError as e:
            if uncertain:  # the refetch that would have found out failed
                raise IndeterminateError(f"{self.key}: the outcome of a compare-and-set is unknown: {e}") from e
            raise

    def validate(self) -> None:
        """Invariants: a cached state knows the base of its chain, at or
        below its seqno; a chain stays within its bounds."""
        if self.state is None:
            return
        assert self.chain_base is not None and self.chain_base <= self.state.seqno, "a cached state without the base of its chain"
        assert self._chain_len <= CHAIN_MAX and self.state.seqno == self.chain_base + self._chain_len, "a chain out of step"

    async def wait_for(self, predicate: Callable[[ShardState], bool], timeout: float | None = None) -> ShardState:
        """Block until the state satisfies ``predicate``, polling Consensus
        (with backoff) for changes made by other processes."""
        # Uppers and sinces only move forward, so a cached state that already
        # satisfies the predicate is as good as a fresh one.
        if self.state is not None and predicate(self.state):
            return self.state
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.001
        while True:
            state = await self.fetch()
            if state is not None and predicate(state):
                return state
            wait = delay if deadline is None else min(delay, max(0.0, deadline - time.monotonic()))
            if deadline is not None and wait <= 0:
                raise asyncio.TimeoutError(f"shard {self.shard_id}: condition not reached in {timeout}s")
            try:
                async with self._changed:
                    await asyncio.wait_for(self._changed.wait(), wait)
                delay = 0.001
            except asyncio.TimeoutError:
                delay = min(delay * 2, 0.1)
