"""A bounded cache of table contents, advanced incrementally.

For each data shard the cache keeps its consolidated contents (user columns
and ``_diff``) as of the latest timestamp read. A read at a later ``ts``
fetches only the updates in ``(cached ts, ts]`` from the shard (none when
nobody wrote: a repeated small SELECT reads no Blob at all) and folds them
in; a read at an older ``ts`` bypasses the cache. Entries are evicted least
recently used once their total size passes ``max_bytes``.

``lookup`` answers equality on one column from a hash index built over an
entry on first use (point SELECTs by key read one row instead of scanning).

Invariants: an entry at ``ts`` equals the shard's consolidated contents at
``ts`` (tests compare it with a full snapshot); entries only move forward;
the shard's since stays at or below an entry's ``ts`` (``held_ts``, which
the data since downgrades respect), so advancing it is always exact.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from storage.persist import DIFF, TS
from storage.persist.consolidate import collapse, expand
from storage.txns import TxnsHandle


@dataclass
class _Entry:
    ts: int
    updates: pa.Table  # user columns + _diff; consolidated once anything was retracted
    has_retractions: bool
    expanded: pa.Table | None = None  # expand(updates), kept until updates change
    indexes: dict | None = None  # column -> {value: [row positions in expanded]}

    def rows(self) -> pa.Table:
        if self.expanded is None:
            self.expanded = expand(self.updates)  # chunks as read: a scan needs no copy
        return self.expanded

    def changed(self) -> None:
        self.expanded, self.indexes = None, None


class SnapshotCache:
    def __init__(self, txns: TxnsHandle, *, max_bytes: int = 512 << 20):
        self.txns = txns
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self.hits = self.misses = 0

    async def read(self, shard: str, ts: int) -> pa.Table:
        """The contents of ``shard`` at ``ts`` (rows with multiplicity)."""
        await self.txns.data_snapshot(shard, ts)
        lock = self._locks.setdefault(shard, asyncio.Lock())
        async with lock:
            reader = await self.txns.data_reader(shard)
            entry = self._entries.get(shard)
            if entry is not None and entry.ts <= ts:
                self.hits += 1
                if entry.ts < ts:
                    new = await reader.fetch_updates(entry.ts + 1, ts + 1)
                    if new.num_rows:
                        new = new.drop_columns([TS])
                        retract = pc.min(new.column(DIFF)).as_py() < 0
                        merged = pa.concat_tables([entry.updates, new])
                        if retract or entry.has_retractions:
                            merged = collapse(merged)
                        entry.updates = merged
                        entry.has_retractions = entry.has_retractions or retract
                        entry.changed()
                    entry.ts = ts
                self._entries.move_to_end(shard)
                return entry.rows()
            self.misses += 1
            updates = await reader.snapshot_updates(ts, consolidated=False)
            if entry is None or entry.ts < ts:
                entry = _Entry(ts, updates, False)
                self._entries[shard] = entry
                self._entries.move_to_end(shard)
                self._evict()
                return entry.rows()
            return expand(updates)

    def held_ts(self, shard: str) -> int | None:
        """The time the cached contents of ``shard`` are at: its next read
        fetches only the updates after it, so the shard's since must not
        pass it (None: nothing cached)."""
        entry = self._entries.get(shard)
        return entry.ts if entry is not None else None

    def _evict(self) -> None:
        total = sum(e.updates.nbytes for e in self._entries.values())
        while total > self.max_bytes and len(self._entries) > 1:
            _shard, old = self._entries.popitem(last=False)
            total -= old.updates.nbytes

    async def lookup(self, shard: str, ts: int, column: str, value) -> pa.Table:
        """The rows of ``shard`` at ``ts`` whose ``column`` equals ``value``
        (a hash index over the cached contents, built on first use)."""
        table = await self.read(shard, ts)
        entry = self._entries.get(shard)
        if entry is None or entry.ts != ts or entry.expanded is not table:
            return table.filter(pc.equal(table.column(column), pa.scalar(value, table.schema.field(column).type)))
        if entry.indexes is None:
            entry.indexes = {}
            # one contiguous table for the indexes' positions (once per version)
            entry.expanded = table = table.combine_chunks()
        index = entry.indexes.get(column)
        if index is None:
            index = {}
            for i, v in enumerate(table.column(column).to_pylist()):
                index.setdefault(v, []).append(i)
            entry.indexes[column] = index
        return table.take(pa.array(index.get(value, ()), pa.int64()))

    def forget(self, shard: str) -> None:
        self._entries.pop(shard, None)
