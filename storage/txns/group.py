"""Group commit: concurrent write-only transactions submitted to one process
are merged and committed at one timestamp with one compare-and-append.

Callers ``await group.commit(txn)``. While a group is being committed, new
submissions queue; the next leader round takes them all (up to
``max_group``), merges their writes (rows for the same data shard become one
batch), and runs the write-only loop: a ``write_ts`` from the oracle,
``commit_at``, on a lost race a new ``write_ts`` (the sealed batches are
reused, only re-timestamped). Every caller is acknowledged only once the
commit is durable and ``apply_write`` has made it visible to later
``read_ts``; then the group is applied, overlapping the next group's
commit (readers wait for the apply they need). If the commit fails, every caller
gets the error and nothing of the group is visible.
"""

from __future__ import annotations

import asyncio
import logging

from storage.oracle import Oracle
from storage.txns.handle import Txn, TxnsHandle

logger = logging.getLogger(__name__)


class GroupCommitter:
    def __init__(self, txns: TxnsHandle, oracle: Oracle, *, max_group: int = 512):
        self.txns = txns
        self.oracle = oracle
        self.max_group = max_group
        self._queue: list[tuple[Txn, asyncio.Future]] = []
        self._leader: asyncio.Task | None = None
        self._applying: asyncio.Task | None = None
        self.groups = 0
        self.txns_committed = 0

    async def commit(self, txn: Txn) -> int:
        """Commit ``txn`` with whatever else is waiting; returns its commit ts."""
        fut = asyncio.get_running_loop().create_future()
        self._queue.append((txn, fut))
        if self._leader is None or self._leader.done():
            self._leader = asyncio.create_task(self._lead())
        return await fut

    async def _lead(self) -> None:
        while True:
            while self._queue:
                await self._commit_group()
            if self._applying is not None:
                await self._applying
                self._applying = None
            # Txns queued while we awaited the last apply saw a live leader
            # and started none: take them too before leaving.
            if not self._queue:
                return

    async def _commit_group(self) -> None:
        group, self._queue = self._queue[: self.max_group], self._queue[self.max_group :]
        merged = self.txns.begin()
        try:
            for txn, _ in group:
                merged.merge(txn)
            ts = await commit_write_only(self.txns, self.oracle, merged, apply=False)
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

    async def _apply(self, txn: Txn, ts: int) -> None:
        try:
            await txn.apply(ts)
        except Exception:  # noqa: BLE001 - readers apply what they need themselves
            logger.warning("group apply at %s failed; readers will finish it", ts, exc_info=True)


async def commit_write_only(txns: TxnsHandle, oracle: Oracle, txn: Txn, *, apply: bool = True) -> int:
    """The write-only loop: commit at a fresh ``write_ts`` until it sticks,
    then ``apply_write`` (and apply). Returns the commit ts."""
    while True:
        ts = await oracle.write_ts()
        result = await txn.commit_at(ts)
        if result.committed:
            await oracle.apply_write(ts)
            if apply:
                await txn.apply(ts)
            return ts
        if result.upper > ts + 1:
            # Someone committed above the oracle (e.g. a tidy at the txns
            # upper); make sure the next write_ts is past it.
            await oracle.apply_write(result.upper - 1)
