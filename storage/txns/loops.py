"""The commit loops the planner drives (seed 000, "Timestamp selection").

* ``read_only``: one ``read_ts`` from the oracle; each input shard made
  readable there (``data_snapshot``); the caller reads at it, and releases
  the hold on it (``txns.cache.release_history``) when done.
* ``write_only``: see ``group.commit_write_only``.
* ``read_then_write``: read at ``read_ts``, write at ``write_ts = read_ts +
  1``, so no write can land between what was read and what is written. If
  the commit loses, take a new ``read_ts`` (at least the txns upper - 1); if
  none of the inputs was written in between (the txns cache knows every
  write per shard), commit the same batches at the new ``write_ts`` without
  recomputing; otherwise recompute.

A write is acknowledged (these functions return) only after it is committed
and ``apply_write`` made it visible; the apply follows before returning.
The read timestamp in use is held in the txns cache throughout, so no data
shard's since passes it (``TxnsHandle.downgrade_data_sinces``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from storage.oracle import Oracle
from storage.txns.group import commit_write_only
from storage.txns.handle import Txn, TxnsHandle

__all__ = ["RtwResult", "commit_write_only", "read_only", "read_then_write"]


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


@dataclass
class RtwResult:
    ts: int
    attempts: int
    recomputed: int


async def read_then_write(
    txns: TxnsHandle,
    oracle: Oracle,
    inputs: list[str],
    compute: Callable[[int], Awaitable[Txn]],
    *,
    max_attempts: int = 1000,
    start: tuple[int, Txn] | None = None,
) -> RtwResult:
    """Run ``compute(read_ts)`` (which reads ``inputs`` at ``read_ts`` and
    returns the txn to write) and commit its result at ``read_ts + 1``.

    ``start``: a txn the caller already computed at a ``read_ts`` (saves
    computing it twice). ``inputs`` is read again after every ``compute``, so
    a compute may add the shards it found it had to read."""
    if start is not None:
        read_ts, txn = start
        txns.cache.hold_history(read_ts)
    else:
        read_ts = await read_only(txns, oracle, inputs)
    try:
        if start is None:
            txn = await compute(read_ts)
        recomputed = 0
        for attempt in range(1, max_attempts + 1):
            result = await txn.commit_at(read_ts + 1)
            if result.committed:
                await oracle.apply_write(result.ts)
                await txn.apply(result.ts)
                return RtwResult(result.ts, attempt, recomputed)
            new_read = max(await oracle.read_ts(), result.upper - 1)  # >= read_ts, which is held
            txns.cache.hold_history(new_read)
            txns.cache.release_history(read_ts)
            old_read, read_ts = read_ts, new_read
            for shard in inputs:
                await txns.data_snapshot(shard, new_read)
            if any(txns.cache.changed_between(s, old_read, new_read) for s in inputs):
                await txn.abort()
                txn = await compute(new_read)
                recomputed += 1
        await txn.abort()
        raise TimeoutError(f"read-then-write did not commit in {max_attempts} attempts")
    finally:
        txns.cache.release_history(read_ts)
