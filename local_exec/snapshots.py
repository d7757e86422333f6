"""A bounded cache of table contents, advanced incrementally and searchable by key.

For each data shard the cache keeps its contents as ``Runs`` (sorted runs
and a tail of the newest updates, see ``local_exec.runs``) as of the latest
timestamp read. A read at a later ``ts`` fetches only the updates in
``(cached ts, ts]`` from the shard (none when nobody wrote: a repeated
small SELECT reads no Blob at all) and adds them to the tail; a read at a
time the runs still cover (an explicit transaction's older ``read_ts``) is
answered exactly from them; an older one bypasses the cache. Entries are
evicted least recently used once their total size passes ``max_bytes``.

A commit of this process hands its writes over (``note_commit``, from the
committer's ``on_commit``, before they are applied to the shard): when
every write to a shard after an entry's time is one handed over, the entry
advances from them without reading the shard or waiting for the apply, so
a session's next key lookup after its own write costs no Blob read. Another
process's commits are read from their batches in the txns shard while it
holds them (before they are tidied), so a gateway of several processes
does not apply each other's commits (a compare-and-set on the data shard)
and read them back from the shard to answer a point query.

``lookup`` answers equality on key columns (uniqueness checks, point
SELECT/UPDATE/DELETE) by binary search in the runs: its cost does not grow
with the table. Sorting a run and merging runs run on a thread when large,
so a big table never stalls the event loop.

Invariants: an entry covering ``ts`` equals the shard's consolidated
contents at ``ts`` (tests compare it with a full snapshot); entries only
move forward; the shard's since stays at or below an entry's ``ts``
(``held_ts``, which the data since downgrades respect), so advancing it is
always exact. ``stats`` counts the rows each kind of work touched (tests
assert a point statement's cost does not depend on the table's size).
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict

import pyarrow as pa

from local_exec.runs import Runs, key_tuples, matching
from storage.persist import DIFF, TS, cast_table, expand
from storage.txns import TxnsHandle

#: Work on more rows than this (sorting a run, merging runs, materializing
#: contents) goes to a thread, so the event loop keeps serving other sessions.
THREAD_ROWS = 2_000
#: Handed-over commits kept per shard (the oldest go first: a miss reads the shard).
NOTED_MAX = 256


async def _offload(rows: int, fn, *args):
    if rows > THREAD_ROWS:
        return await asyncio.to_thread(fn, *args)
    return fn(*args)


class SnapshotCache:
    def __init__(self, txns: TxnsHandle, *, max_bytes: int = 512 << 20):
        self.txns = txns
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Runs] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        #: shard -> commit ts -> updates (user columns, ``_diff``) handed over
        self._noted: dict[str, dict[int, pa.Table]] = {}
        self.hits = self.misses = 0
        #: rows touched: "fetched" (new updates), "loaded" (full snapshots),
        #: "sorted" (runs ordered by a key), "merged" (runs folded),
        #: "scanned" (contents materialized), "searched" (lookups' matches),
        #: "handed" (updates taken without reading the shard), "committed"
        #: (of them, other processes' commits read from the txns shard)
        self.stats: Counter = Counter()

    async def read(self, shard: str, ts: int) -> pa.Table:
        """The contents of ``shard`` at ``ts`` (rows with multiplicity)."""
        async with self._locks.setdefault(shard, asyncio.Lock()):
            entry = await self._at(shard, ts)
            if entry is None:
                return await self._full(shard, ts)
            self.stats["scanned"] += entry.num_rows
            return await _offload(entry.num_rows, entry.rows, ts)

    async def lookup(self, shard: str, ts: int, cols, keys: pa.Table | list[tuple]) -> pa.Table:
        """The rows of ``shard`` at ``ts`` whose ``cols`` equal a row of
        ``keys`` (a table of those columns, or ``key_tuples`` of one; keys
        with a NULL match nothing)."""
        cols = tuple(cols)
        entry = self._entries.get(shard)
        if entry is not None and entry.covers(ts) and entry.num_rows == 0:
            return entry.tail.drop_columns([TS, DIFF]).slice(0, 0)  # an empty table: no key to look for
        wanted = keys if isinstance(keys, list) else await _offload(keys.num_rows, key_tuples, keys, cols)
        async with self._locks.setdefault(shard, asyncio.Lock()):
            entry = await self._at(shard, ts)
            if entry is None:
                rows = await self._full(shard, ts)
                return rows.filter(matching(rows, cols, wanted))
            for run in entry.unsorted(cols):
                self.stats["sorted"] += run.num_rows
                await _offload(run.num_rows, run.sort, cols)
            found = await _offload(len(wanted), entry.search, cols, wanted, ts)  # under the shard's lock: the entry holds still
            self.stats["searched"] += found.num_rows
            return found

    def note_commit(self, ts: int, writes: dict[str, pa.Table]) -> None:
        """The updates (user columns, ``_diff``) a commit at ``ts`` made to
        each shard, all of them (``Txn.resident``): kept for the cached
        shards until their entries pass ``ts``."""
        for shard, updates in writes.items():
            entry = self._entries.get(shard)
            if entry is None or entry.ts >= ts or updates.column_names != entry.schema.names:
                continue
            if not updates.schema.equals(entry.schema):
                try:
                    updates = cast_table(updates, entry.schema)
                except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
                    continue
            noted = self._noted.setdefault(shard, {})
            if len(noted) >= NOTED_MAX:
                noted.pop(min(noted))
            noted[ts] = updates

    async def _handed(self, shard: str, entry: Runs, ts: int) -> bool:
        """Advance ``entry`` to ``ts`` from what was written since its time,
        if all of it is known without reading the shard: commits of this
        process handed over, and other processes' commits whose rows the
        txns shard still holds (``TxnsHandle.committed_updates``); False
        when the shard must be read."""
        times = await self.txns.writes_between(shard, entry.ts, ts)
        if times is None:
            return False
        noted = self._noted.get(shard, {})
        missing = [t for t in times if t not in noted]
        if missing:  # another process's commits: from their batches, while the txns shard holds them
            committed = await self.txns.committed_updates(shard, missing)
            if committed is None:
                return False
            try:
                noted = {**noted, **{t: cast_table(updates, entry.schema)
                                     for t, updates in committed.items()}}
            except (ValueError, pa.ArrowTypeError, pa.ArrowNotImplementedError):  # (ArrowInvalid is a ValueError)
                return False
            self.stats["committed"] += sum(updates.num_rows for updates in committed.values())
        parts = [noted[t].append_column(TS, pa.repeat(pa.scalar(t, pa.int64()), noted[t].num_rows)) for t in times]
        updates = pa.concat_tables(parts) if parts else entry.tail.schema.empty_table()
        self.stats["handed"] += updates.num_rows
        entry.advance(updates, ts)
        kept = self._noted.get(shard, {})
        for t in [t for t in kept if t <= ts]:
            del kept[t]
        reader = await self.txns.data_reader(shard)
        entry.synced = max(entry.synced, min(ts, reader.known_upper - 1))
        moved = entry.upkeep_rows()
        if moved:
            self.stats["merged"] += moved
            await _offload(moved, entry.upkeep)
        return True

    async def _at(self, shard: str, ts: int) -> Runs | None:
        """The entry of ``shard`` advanced to cover ``ts`` (created from a
        snapshot on a miss), or None when ``ts`` is older than it covers.
        Nothing written since the entry's time but commits handed over: it
        moves to ``ts`` without reading the shard."""
        entry = self._entries.get(shard)
        rows = entry.num_rows if entry is not None else 0
        handed = entry is not None and entry.ts < ts and await self._handed(shard, entry, ts)
        if not handed and (entry is None or not entry.covers(ts)):
            await self.txns.data_snapshot(shard, ts)
        reader = await self.txns.data_reader(shard)
        if entry is not None and entry.ts < ts:
            new = await reader.fetch_updates(entry.ts + 1, ts + 1)
            entry.synced = ts
            self.stats["fetched"] += new.num_rows
            entry.advance(new, ts)
            moved = entry.upkeep_rows()
            if moved:
                self.stats["merged"] += moved
                await _offload(moved, entry.upkeep)
        if entry is not None and entry.covers(ts):
            self.hits += 1
            self._entries.move_to_end(shard)
            if entry.num_rows > rows:
                self._evict()  # it grew: the others make room (never it, the most recent)
            return entry
        self.misses += 1
        if entry is not None:
            return None  # older than the entry: read from the shard
        updates = await reader.snapshot_updates(ts, consolidated=False)
        self.stats["loaded"] += updates.num_rows
        entry = self._entries[shard] = Runs(ts, updates)
        self._evict()
        return entry

    async def _full(self, shard: str, ts: int) -> pa.Table:
        await self.txns.data_snapshot(shard, ts)
        reader = await self.txns.data_reader(shard)
        updates = await reader.snapshot_updates(ts, consolidated=False)
        self.stats["loaded"] += updates.num_rows
        return expand(updates)

    def held_ts(self, shard: str) -> int | None:
        """The time the cached contents of ``shard`` were last read from the
        shard at (at or below the time they are at): its next read fetches
        only the updates after it, so the shard's since must not pass it
        (None: nothing cached)."""
        entry = self._entries.get(shard)
        return entry.synced if entry is not None else None

    def _evict(self) -> None:
        total = sum(e.nbytes for e in self._entries.values())
        while total > self.max_bytes and len(self._entries) > 1:
            shard, old = self._entries.popitem(last=False)
            self._noted.pop(shard, None)
            total -= old.nbytes

    def kept(self) -> dict[str, int]:
        """The shards whose contents are kept, least recently used first,
        with their sizes in bytes."""
        return {shard: entry.nbytes for shard, entry in self._entries.items()}

    def forget(self, shard: str) -> None:
        self._entries.pop(shard, None)
        self._noted.pop(shard, None)
