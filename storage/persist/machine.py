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

Invariants: the cached state only moves forward in seqno (a compare-and-set
whose answer comes after another task fetched a newer head leaves the newer
one); every state this machine writes passed ``validate()``.
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
from storage.persist.state import InvariantViolation, ShardState

logger = logging.getLogger(__name__)

T = TypeVar("T")


#: Compare-and-sets ``create`` makes, each of unknown outcome, before it
#: gives up (each one is retried within ``retry_timeout_s`` first).
CREATE_ATTEMPTS = 5


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
        """Read the head of the log into the cache (never moving it backwards)."""
        head = await self._retry(lambda: self.consensus.head(self.key))
        if head is None:
            return self.state
        if self.state is None or head.seqno > self.state.seqno:
            self.state = ShardState.decode(head.data, head.seqno).validate()
            async with self._changed:
                self._changed.notify_all()
        return self.state

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
                data = new.encode()
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
                        self.state = new
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
