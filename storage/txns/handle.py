"""The txns handle: atomic writes to any number of data shards.

One txns shard per environment coordinates many data shards (seed 000). The
handle does four things, each idempotent so any number of processes can do
them at once and a crash at any point loses nothing:

* **commit**: ``txn.commit_at(ts)`` is *one* compare-and-append on the txns
  shard, at ``[upper, ts + 1)``, adding a row ``(shard, ts, batch)`` per
  batch the txn wrote. That single write makes the txn durable and logically
  advances the upper of every registered data shard to ``ts + 1``. It
  fails, returning the txns upper, if ``ts`` is already closed. The batches
  were written before (with a placeholder time), so retrying at a later
  ``ts`` re-timestamps them: no data is rewritten or re-uploaded.
* **apply**: moves committed batches into their data shards with
  compare-and-append, per shard in ts order. A write at ``ts`` is applied
  iff the data shard's upper is past ``ts``, so applying twice is harmless.
* **tidy**: retracts the rows of applied writes, bundled into the next
  commit; so the txns shard holds only outstanding work and registrations.
* **data snapshot**: to read data shard ``d`` at ``T``: wait for the txns
  upper to pass ``T``, apply ``d``'s writes at or below ``T``, then fill
  ``(latest write, T]`` with an empty append. A shard nobody wrote to for an
  hour is read without waiting for any write.
* **data sinces**: this process's reader of each data shard holds the
  shard's since; ``downgrade_data_sinces`` moves it up to the oldest time
  the process may still read at (``TxnsCache.read_bound``), so compaction
  can consolidate history away (an updated row's old versions and their
  retractions cancel). Read timestamps come from ``read_ts``, which holds
  them (and, while the oracle answers, the floor below any answer).

Every write to the txns shard follows one loop: bring the cache up to the
txns upper ``u``, compute the rows from the cache as of ``u`` (so a
registration, forget or tidy that is already there is not written again),
compare-and-append at ``u``; on a lost race, repeat.

Invariants: the txns since (a critical since held as ``txns``) never passes
the earliest unapplied write; the empty fill of a data shard never covers an
unapplied write (it only runs once every write at or below ``T`` is applied
and the txns upper is past ``T``); a data shard reader's since never passes
a read timestamp held by work of its process.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Callable

import pyarrow as pa

from storage.errors import CommitUnknown, DeterminateError, IndeterminateError, ShardNotRegistered, UsageError
from storage.persist import DIFF, TS, BatchHandle, Downgrade, LeasedParts, PersistClient, ReadHandle, WriteHandle
from storage.persist.batch import BatchBuilder, decode_part, fetch_part, join_inline
from storage.txns.cache import TXNS_SCHEMA, Row, TxnsCache
from storage.txns.keys import WHOLE, attach, union

logger = logging.getLogger(__name__)

_BACKGROUND: set[asyncio.Task] = set()


def _in_background(coro) -> None:
    """Run a cleanup without anyone waiting for it (its failure is logged)."""

    def done(task: asyncio.Task) -> None:
        _BACKGROUND.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("cleanup of an aborted txn failed: %s", task.exception())

    task = asyncio.get_running_loop().create_task(coro)
    _BACKGROUND.add(task)
    task.add_done_callback(done)

CRITICAL = "txns"
#: Timestamps the cache's reader may trail what the cache has read before
#: ``follow`` moves it (a busy process's commits move it as they go).
FOLLOW_LAG = 16
#: Buffered rows per data shard per txn before they are spilled to a batch.
SPILL_BYTES = 1 << 20
#: Advance the txns shard's since after this many commits by this handle.
COMPACT_EVERY = 64


@dataclass(frozen=True)
class CommitResult:
    committed: bool
    #: On success the commit ts; on failure the txns upper that beat it.
    ts: int
    upper: int


class TxnsHandle:
    def __init__(self, client: PersistClient, txns_id: str, writer: WriteHandle, cache: TxnsCache):
        self.client = client
        self.txns_id = txns_id
        self.writer = writer
        self.cache = cache
        self._data_writers: dict[str, WriteHandle] = {}
        self._data_readers: dict[str, ReadHandle] = {}
        self._tidy: set[Row] = set()
        self._lock = asyncio.Lock()  # serializes this process's txns writes
        self.commits = 0
        self.commit_losses = 0
        #: compare-and-appends on the txns shard another process won first
        self.append_losses = 0
        self._compactor: asyncio.Task | None = None
        client.orphan_guard = self._committed_keys

    # -- opening ----------------------------------------------------------------

    @classmethod
    async def open(cls, client: PersistClient, txns_id: str = "txns", init_ts: int = 0) -> "TxnsHandle":
        """Open (creating if needed) the txns shard, with times <= init_ts closed,
        and finish any apply a crashed process left behind."""
        await client.create_shard(txns_id, TXNS_SCHEMA)
        writer = await client.open_writer(txns_id)
        await client.register_critical(txns_id, CRITICAL)
        if await writer.fetch_upper() == 0:
            await writer.compare_and_append(None, 0, init_ts + 1)
        reader = await client.open_reader(txns_id)
        cache = TxnsCache(reader)
        await cache.load()
        self = cls(client, txns_id, writer, cache)
        upper = await writer.fetch_upper()
        await cache.update_to(upper)
        await self.apply_le(upper - 1)
        return self

    async def _data_writer(self, shard: str) -> WriteHandle:
        w = self._data_writers.get(shard)
        if w is None:
            w = await self.client.open_writer(shard)
            self._data_writers[shard] = w
        return w

    async def data_reader(self, shard: str) -> ReadHandle:
        r = self._data_readers.get(shard)
        if r is None:
            r = await self.client.open_reader(shard)
            self._data_readers[shard] = r
        return r

    # -- the txns write loop ----------------------------------------------------

    async def upper(self) -> int:
        return await self.writer.fetch_upper()

    async def _write_txns(self, ts: int | None, rows_fn) -> CommitResult:
        """Append the rows ``rows_fn(cache)`` (plus pending tidies) at ``ts``
        (None: at the current upper). Returns the result of the attempt."""
        async with self._lock:
            u = self.writer.upper  # a guess; a stale one just loses the CaA once
            while True:
                await self.cache.update_to(u)
                at = u if ts is None else ts
                if at < u:
                    self.commit_losses += 1
                    return CommitResult(False, at, u)
                rows = rows_fn(self.cache, at)
                if rows is None:
                    return CommitResult(True, at, u)  # nothing to do (idempotent no-op)
                # a row gone from the contents was tidied by another process: forget it
                # (kept, the set grew without bound, and so did the cost of every write)
                self._tidy = {r for r in self._tidy if self.cache.contents.get(r)}
                tidy = list(self._tidy)
                updates = [(s, t, b, d) for s, t, b, d in rows] + [(s, t, b, -1) for s, t, b in tidy]
                batch = None
                if updates:
                    table = pa.table({
                        "shard": pa.array([x[0] for x in updates], pa.string()),
                        "ts": pa.array([x[1] for x in updates], pa.int64()),
                        "batch": pa.array([x[2] for x in updates], pa.binary()),
                        TS: pa.array([at] * len(updates), pa.int64()),
                        DIFF: pa.array([x[3] for x in updates], pa.int64()),
                    })
                    try:
                        batch = await self.writer.batch(table, inline_threshold=self._inline_room())
                    except IndeterminateError as e:  # a blob write: nothing is committed before the CaS
                        raise DeterminateError(f"writing the txns batch: {e}") from e
                out = await self.writer.compare_and_append(batch, u, at + 1, downgrade=self._holds_at(u, at))
                if out.applied:
                    self._tidy.difference_update(tidy)
                    self.commits += 1
                    async with self.cache._lock:
                        self.cache.absorb_own(u, at + 1, updates, at)
                    await self.cache.update_to(at + 1)
                    if self.commits % COMPACT_EVERY == 0:
                        self._spawn_compact(at)
                    return CommitResult(True, at, at + 1)
                self.append_losses += 1
                if batch is not None:
                    await batch.delete(self.client.blob)
                u = out.upper if out.upper != u else await self.writer.fetch_upper()

    def _inline_room(self) -> int:
        """The encoded size below which a txns write stays inline in the
        shard's state: half the room its state has left (at least the
        default). A group commit's rows carry its members' small batches,
        often past the default 4 KB: each went to Blob (a Parquet encode, a
        put, and a get in every other process)."""
        config = self.client.config
        if config.inline_threshold <= 0:
            return config.inline_threshold  # nothing inline (tests of the Blob path)
        return max(config.inline_threshold, (config.max_inline_bytes - self.writer.machine.state.inline_bytes) // 2)

    def _holds_at(self, u: int, at: int) -> Downgrade:
        """The since holds an append at ``at`` (the txns upper being ``u``,
        the cache holding everything below it) advances with it: the
        critical since to the earliest write still unapplied (this one at
        the latest), as ``compact_to`` would; this process's reader to
        there too, but never past what the cache has read. So compactions
        consolidate applied-and-tidied rows away as they go, where they used
        to wait for a ``compact_to`` (a txns shard of thousands of rows for
        tens live, rewritten by every merge)."""
        critical = self.cache.unapplied_below(at)
        return Downgrade(readers=((self.cache.reader.reader_id, min(critical, u - 1)),), critical=((CRITICAL, critical),))

    # -- registration -------------------------------------------------------------

    async def register(self, shard: str, ts: int) -> int:
        """Add ``shard`` to the txns set at ``ts`` (or the earliest usable time
        after it if ``ts`` is closed). Idempotent: returns the registration time."""
        await self.client.machine(shard).current()  # the data shard must exist

        existing: list[int] = []  # the registration found, if the shard was registered already

        def rows(cache: TxnsCache, at: int):
            existing[:] = [reg] if (reg := cache.registration_ts(shard)) is not None else []
            return None if existing else [(shard, at, b"", 1)]

        while True:
            u = await self.upper()
            result = await self._write_txns(max(ts, u), rows)
            if result.committed:
                # (not read back from the cache: another process may forget
                # the shard right after, and the cache may have read that)
                return existing[0] if existing else result.ts

    async def forget(self, shard: str, ts: int) -> int:
        """Remove ``shard`` from the txns set at ``ts`` (or later), after
        applying its pending writes. Idempotent: returns the forget time."""
        await self.apply_shard(shard, le=None)

        def rows(cache: TxnsCache, at: int):
            reg = cache.registration_ts(shard)
            if reg is None:
                return None
            # Writes this handle applied are retracted by this same commit
            # (tidy rides along); any other pending write must be applied first.
            if any((shard, ts, b) not in self._tidy for ts, b in cache.unapplied_writes(shard)):
                raise _Retry()
            return [(shard, reg, b"", -1)]

        while True:
            u = await self.upper()
            try:
                result = await self._write_txns(max(ts, u), rows)
            except _Retry:
                await self.apply_shard(shard, le=None)
                continue
            if result.committed:
                regs = self.cache.registrations.get(shard, [])
                return regs[-1][1] if regs and regs[-1][1] is not None else result.ts

    # -- transactions -------------------------------------------------------------

    def begin(self) -> "Txn":
        return Txn(self)

    async def commit_rows(self, ts: int | None, rows) -> CommitResult:
        """The commit point of a transaction (``storage.txns.commit`` owns the
        contract): ``CommitUnknown`` when the compare-and-append was sent and
        its outcome could not be learned; any other error means nothing was
        committed. ``ts`` None: at the txns upper. ``rows``: the txns rows,
        or ``rows(cache, at)`` choosing them (None: nothing to commit) once
        the cache holds every commit below the upper, none of which can land
        in ``[upper, at)`` if the commit succeeds (so a transaction
        validated there is valid at ``at``)."""
        def make(cache: TxnsCache, at: int):
            chosen = rows(cache, at) if callable(rows) else rows
            if chosen is None:
                return None
            for shard in {r[0] for r in chosen}:
                if not cache.is_registered(shard, at):
                    raise ShardNotRegistered(f"data shard {shard} is not registered in the txns set at {at}")
            return [(s, at, b, 1) for s, _t, b in chosen]

        try:
            try:
                return await self._write_txns(ts, make)
            except ShardNotRegistered:
                # The cache was brought to this process's last known upper,
                # which may be stale: a registration since then is read
                # before the shard is called unregistered.
                upper = await self.upper()
                if self.cache.progress >= upper:
                    raise
                await self.cache.update_to(upper)
                return await self._write_txns(ts, make)
        except CommitUnknown:
            raise
        except IndeterminateError as e:
            raise CommitUnknown(f"commit at {ts}: {e}") from e

    def note_committed(self, ts: int) -> None:
        """A commit at ``ts`` by this process: its later reads are at or above
        it, whether or not the oracle has heard of it yet."""
        self.cache.read_floor = max(self.cache.read_floor, ts)

    # -- apply and tidy -------------------------------------------------------------

    async def apply_le(self, ts: int) -> int:
        """Apply every committed write at or below ``ts``; returns how many
        were applied by this call."""
        await self.cache.update_to(ts + 1)
        shards = sorted({s for s, t, _b in self.cache.all_unapplied(ts)})
        counts = await asyncio.gather(*(self.apply_shard(s, le=ts) for s in shards))
        return sum(counts)

    async def apply_shard(self, shard: str, le: int | None) -> int:
        """Apply ``shard``'s committed writes (at or below ``le``), in ts order."""
        pending = self.cache.unapplied_writes(shard, le)
        if not pending:
            return 0
        w = await self._data_writer(shard)
        applied = 0
        by_ts: dict[int, list[bytes]] = {}
        for ts, b in pending:
            by_ts.setdefault(ts, []).append(b)
        # One append for every pending write (each part keeps its own time):
        # a shard written by many commits since its last apply costs one CaS.
        times = sorted(by_ts)
        upper = w.upper  # cached; uppers only grow, and a stale one loses the CaA once
        while True:
            todo = [ts for ts in times if ts >= upper]  # below the upper: applied already (by us, or another process)
            if not todo:
                break
            parts = join_inline(tuple(p for ts in todo for b in by_ts[ts] for p in BatchHandle.from_bytes(b).rewrite_ts(ts).parts), w.schema)
            merged = replace(BatchHandle.from_bytes(by_ts[todo[0]][0]), parts=parts)
            out = await w.compare_and_append(merged, upper, todo[-1] + 1)
            if out.applied:
                applied += len(todo)
                break
            upper = out.upper
        for ts in times:
            self._tidy.update((shard, ts, b) for b in by_ts[ts])
        return applied

    def _spawn_compact(self, ts: int) -> None:
        """Advance the txns since in the background (it clamps itself at the
        earliest unapplied write), so applied rows consolidate away."""
        if self._compactor is not None and not self._compactor.done():
            return

        async def run() -> None:
            try:
                await self.compact_to(ts)
            except Exception:  # noqa: BLE001 - only an optimization; next time
                logger.warning("txns compact_to failed", exc_info=True)

        self._compactor = asyncio.create_task(run())

    async def tidy(self) -> None:
        """Retract applied writes now (normally bundled into the next commit)."""
        if any(self.cache.contents.get(r) for r in self._tidy):
            await self._write_txns(None, lambda cache, at: [])

    # -- compaction -------------------------------------------------------------------

    async def compact_to(self, ts: int) -> int:
        """Let the txns shard forget history below ``ts``, but never past the
        earliest unapplied write. Returns the since requested."""
        await self.cache.update_to(await self.upper())
        since = self.cache.unapplied_below(ts)
        await self.client.downgrade_critical(self.txns_id, CRITICAL, since)
        # The cache's own reader must trail what it has absorbed.
        await self.cache.reader.downgrade_since(min(since, self.cache.progress - 1))
        self.cache.trim_history(min(since, self.cache.progress))
        return since

    async def follow(self) -> bool:
        """Read the txns shard up to its upper and let go of what this
        process's cache has read: its reader's since (an idle process's,
        which no commit of its own advances, held the shard's since where
        it opened, and every compaction of the txns shard rewrote all its
        history), and the cache's write history below the earliest write
        still unapplied. Returns whether the since moved (at most one
        compare-and-set, when it lags by ``FOLLOW_LAG`` or more)."""
        await self.cache.update_to(await self.upper())
        progress = self.cache.progress
        self.cache.trim_history(self.cache.unapplied_below(progress))
        if progress - 1 - self.cache.reader.since < FOLLOW_LAG:
            return False
        await self.cache.reader.downgrade_since(progress - 1)
        return True

    async def downgrade_data_sinces(self, frontier: Callable[[str], int | None] = lambda shard: None) -> int:
        """Let compaction forget the history of the data shards this process
        reads: move each reader's since up to the oldest time the process may
        still read at (and to at most ``frontier(shard)``, another reader's
        need, when not None); only shards written since their since.
        Returns how many moved."""
        moved = 0
        for shard, reader in list(self._data_readers.items()):
            target = self.cache.read_bound()
            extra = frontier(shard)
            if extra is not None:
                target = min(target, extra)
            if target <= reader.since or not self.cache.written_after(shard, reader.since):
                continue
            try:
                await reader.downgrade_since(target)
                moved += 1
            except Exception:  # noqa: BLE001 - only lets compaction do more; next time
                logger.debug("downgrading the since of %s failed", shard, exc_info=True)
        return moved

    # -- reads ------------------------------------------------------------------------

    async def read_ts(self, oracle) -> int:
        """A read timestamp from ``oracle``, held until the caller's
        ``cache.release_history(ts)``, so no data shard's since passes it.
        While the oracle answers, the read floor is held instead: the answer
        is at least the floor (the largest timestamp this process handed out
        or committed at), and a since may not pass it meanwhile."""
        floor = self.cache.read_floor
        self.cache.hold_history(floor)
        try:
            # The oracle's answers never go back, but a commit of ours it has
            # not heard of yet (note_committed) may be above them.
            ts = max(await oracle.read_ts(), floor)
            self.cache.hold_history(ts)
            self.cache.read_floor = max(self.cache.read_floor, ts)
        finally:
            self.cache.release_history(floor)
        return ts

    async def written_between(self, shard: str, lo: int, ts: int, *, timeout: float | None = None) -> bool:
        """Whether some write to data shard ``shard`` committed at a time in
        ``(lo, ts]`` (True when the txns cache no longer knows). A reader
        holding the contents at ``lo`` learns from False that they are the
        contents at ``ts`` too, without touching the data shard (no apply
        to wait for, no empty append to fill the gap)."""
        times = await self.writes_between(shard, lo, ts, timeout=timeout)
        return times is None or bool(times)

    async def writes_between(self, shard: str, lo: int, ts: int, *, timeout: float | None = None) -> list[int] | None:
        """The times of the writes to data shard ``shard`` committed in
        ``(lo, ts]``, in order (None when the txns cache no longer knows):
        a reader holding the contents at ``lo`` and the updates of each of
        these writes has the contents at ``ts`` without reading the shard."""
        await self.writer.machine.wait_for(lambda s: s.upper > ts, timeout)
        await self.cache.update_to(ts + 1)
        return self.cache.writes_between(shard, lo, ts)

    async def committed_updates(self, shard: str, times: list[int]) -> dict[int, pa.Table] | None:
        """The updates (user columns and ``_diff``) of ``shard``'s writes
        committed at ``times`` (as ``writes_between`` gives them), read from
        their batches while the txns shard still holds their rows (until
        tidied): a reader advances past another process's commits without
        applying them or reading the data shard. None when the rows of one
        of them are gone (the caller reads the shard)."""
        wanted = set(times)
        batches = {t: [BatchHandle.from_bytes(b).rewrite_ts(t) for b in bs] for t, bs in self.cache.writes_at(shard, wanted).items()}
        if len(batches) < len(wanted):
            return None
        schema = (await self._data_writer(shard)).schema
        out = {}
        for t, handles in batches.items():
            parts = [p for h in handles for p in h.parts]
            try:
                tables = [decode_part(await fetch_part(self.client.blob, p), p, schema).drop_columns([TS]) for p in parts]
            except DeterminateError:  # a part in Blob compacted away once applied: the shard has its rows
                return None
            out[t] = tables[0] if len(tables) == 1 else pa.concat_tables(tables)
        return out

    async def latest_write(self, shard: str, ts: int, *, timeout: float | None = None) -> int | None:
        """The time of the latest write to ``shard`` at or below ``ts``, once
        the txns upper is past ``ts``; None when the txns cache does not know
        it (no write it remembers, or history it has forgotten)."""
        await self.writer.machine.wait_for(lambda s: s.upper > ts, timeout)
        await self.cache.update_to(ts + 1)
        version = self.cache.latest_write_le(shard, ts)
        if version is None or self.cache.changed_between(shard, version, ts):
            return None
        return version

    async def data_snapshot(self, shard: str, ts: int, *, timeout: float | None = None) -> None:
        """Make data shard ``shard`` readable at ``ts``: every write at or
        below ``ts`` applied and its upper past ``ts``."""
        await self.writer.machine.wait_for(lambda s: s.upper > ts, timeout)
        await self.cache.update_to(ts + 1)
        if not self.cache.is_registered(shard, ts) and self.cache.registration_ts(shard) is None:
            raise UsageError(f"data shard {shard} is not registered in the txns set at {ts}")
        await self.apply_shard(shard, le=ts)
        w = await self._data_writer(shard)
        upper = w.upper
        while True:
            if upper > ts:
                return
            # Every write at or below ts is applied (above) and the txns
            # upper is past ts, so [upper, ts] holds no write: fill it.
            out = await w.compare_and_append(None, upper, ts + 1)
            if out.applied:
                return
            upper = out.upper

    async def estimate_bytes(self, shard: str, ts: int) -> int:
        """The encoded bytes of data shard ``shard``'s snapshot at ``ts``."""
        await self.data_snapshot(shard, ts)
        return await (await self.data_reader(shard)).estimate_bytes(ts)

    async def lease_parts(self, shard: str, ts: int) -> LeasedParts:
        """The parts of data shard ``shard``'s snapshot at ``ts``, pinned
        against GC until released (for engines that read Parquet themselves)."""
        await self.data_snapshot(shard, ts)
        return await (await self.data_reader(shard)).lease_parts(ts)

    async def read(self, shard: str, ts: int) -> pa.Table:
        """The contents of data shard ``shard`` at ``ts`` (convenience)."""
        await self.data_snapshot(shard, ts)
        return await (await self.data_reader(shard)).snapshot_table(ts)

    async def _committed_keys(self, shard: str) -> set[str]:
        """Blob keys of ``shard``'s committed, unapplied batches: GC of the
        data shard must not take them for orphans."""
        try:
            await self.cache.update_to(await self.upper())
        except Exception:  # noqa: BLE001 - be conservative: claim nothing new
            pass
        keys: set[str] = set()
        for _ts, b in self.cache.unapplied_writes(shard):
            keys.update(BatchHandle.from_bytes(b).keys)
        return keys

    @property
    def tidy_backlog(self) -> int:
        """Applied writes this handle is to retract with its next write."""
        return len(self._tidy)

    def validate(self) -> None:
        self.cache.validate()


class _Retry(Exception):
    pass


class Txn:
    """Writes to any number of registered data shards, committed at one ts.

    Rows are buffered per shard and spilled to a batch (Parquet parts in
    Blob, with a placeholder time) every ``SPILL_BYTES``, so a transaction of
    any size runs in bounded memory. Sealing turns the buffers into batches
    once; retried commits reuse them.
    """

    def __init__(self, handle: TxnsHandle):
        self.handle = handle
        self._buffers: dict[str, list[tuple[pa.Table, int]]] = {}
        self._buffer_bytes: dict[str, int] = {}
        self._builders: dict[str, BatchBuilder] = {}
        self._more_builders: list[tuple[str, BatchBuilder]] = []  # from merges
        self._batches: dict[str, list[BatchHandle]] = {}
        self._written: dict[str, frozenset] = {}  # shard -> key hashes written (absent: WHOLE)
        self._sealed = False
        #: after ``seal``: per shard whose every write was still buffered,
        #: those writes (user columns and ``_diff``); see ``resident``
        self.resident: dict[str, pa.Table] = {}

    @property
    def shards(self) -> set[str]:
        return set(self._buffers) | set(self._builders) | set(self._batches)

    async def write(self, shard: str, rows: pa.Table, diff: int = 1) -> None:
        """Add rows (diff +1 inserts, -1 retracts) to ``shard``."""
        if self._sealed:
            raise UsageError("transaction already sealed for commit")
        self._buffers.setdefault(shard, []).append((rows, diff))
        # nbytes counts a slice's own rows (the total buffer size of a row sliced from a large run is the run's)
        size = self._buffer_bytes.get(shard, 0) + rows.nbytes
        self._buffer_bytes[shard] = size
        if size >= SPILL_BYTES:
            await self._spill(shard)

    def note_written(self, shard: str, keys: frozenset) -> None:
        """Say which keys (``storage.txns.keys.key_hash``) this txn's writes
        to ``shard`` touch, once they are all made: a reader of other keys
        of ``shard`` then does not conflict with it. Without a note, the
        whole shard counts as written."""
        if self._sealed:
            raise UsageError("transaction already sealed for commit")
        self._written[shard] = frozenset(keys)

    def written_keys(self, shard: str):
        """The key hashes this txn says it writes in ``shard`` (``WHOLE``: it
        did not say)."""
        return self._written.get(shard, WHOLE)

    def write_batch(self, batch: BatchHandle) -> None:
        """Add a batch written elsewhere (e.g. by a Spark executor) with a fixed ts."""
        if not batch.retimestampable:
            raise UsageError("a txn batch must be built with a fixed (placeholder) ts")
        self._batches.setdefault(batch.shard_id, []).append(batch)

    def merge(self, other: "Txn") -> None:
        """Take over ``other``'s writes (it must not be used afterwards)."""
        if self._sealed or other._sealed:
            raise UsageError("cannot merge sealed transactions")
        mine = self.shards
        for shard in other.shards:
            theirs = other._written.get(shard, WHOLE)
            both = union(self._written.get(shard, WHOLE), theirs) if shard in mine else theirs
            if both is WHOLE:
                self._written.pop(shard, None)
            else:
                self._written[shard] = both
        for shard, tables in other._buffers.items():
            self._buffers.setdefault(shard, []).extend(tables)
            self._buffer_bytes[shard] = self._buffer_bytes.get(shard, 0) + other._buffer_bytes.get(shard, 0)
        for shard, builder in list(other._builders.items()) + other._more_builders:
            if shard in self._builders:
                self._more_builders.append((shard, builder))
            else:
                self._builders[shard] = builder
        for shard, batches in other._batches.items():
            self._batches.setdefault(shard, []).extend(batches)
        other._buffers, other._builders, other._more_builders, other._batches, other._written = {}, {}, [], {}, {}

    async def _builder(self, shard: str) -> BatchBuilder:
        b = self._builders.get(shard)
        if b is None:
            w = await self.handle._data_writer(shard)
            b = w.builder(ts=0)
            self._builders[shard] = b
        return b

    async def _spill(self, shard: str) -> None:
        buffered = self._buffers.pop(shard, [])
        self._buffer_bytes.pop(shard, None)
        if not buffered:
            return
        b = await self._builder(shard)
        tables = []
        mixed = any(d != 1 for _, d in buffered)
        for table, diff in buffered:
            if DIFF not in table.column_names and mixed:
                table = table.append_column(DIFF, pa.repeat(pa.scalar(diff, pa.int64()), table.num_rows))
            tables.append(table)
        try:
            # Usually every write to a shard has the same schema: one
            # concatenation, one conversion, one encode.
            await b.add(pa.concat_tables(tables))
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            for table in tables:
                await b.add(table)

    async def seal(self) -> list[Row]:
        """Write out every buffer; the txns rows this txn will commit."""
        if not self._sealed:
            self.resident = self._resident_updates()
            for shard in list(self._buffers):
                await self._spill(shard)
            for shard, builder in list(self._builders.items()) + self._more_builders:
                batch = await builder.finish()
                if batch.parts:
                    self._batches.setdefault(shard, []).append(batch)
            self._builders, self._more_builders = {}, []
            self._sealed = True
        return [(shard, 0, attach(b.to_bytes(), self._written.get(shard, WHOLE))) for shard, batches in self._batches.items() for b in batches]

    def _resident_updates(self) -> dict[str, pa.Table]:
        """The updates of every shard none of whose writes went to a batch
        yet (so the buffers hold them all): what a committer may hand to a
        cache of contents, exact, without reading the batches back."""
        out = {}
        spilled = set(self._builders) | {s for s, _b in self._more_builders} | set(self._batches)
        for shard, buffered in self._buffers.items():
            if shard in spilled:
                continue
            tables = [t if DIFF in t.column_names else t.append_column(DIFF, pa.repeat(pa.scalar(d, pa.int64()), t.num_rows))
                      for t, d in buffered]
            try:
                out[shard] = pa.concat_tables(tables)
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                continue
        return out

    async def commit_at(self, ts: int) -> CommitResult:
        """Commit at ``ts``: one compare-and-append on the txns shard. On
        failure (``ts`` closed) the same batches can be committed later."""
        rows = await self.seal()
        return await self.handle.commit_rows(ts, rows)

    async def apply(self, ts: int) -> None:
        """Apply this (committed) txn's writes, making ``ts`` readable."""
        for shard in sorted(self._batches):
            await self.handle.apply_shard(shard, le=ts)

    async def abort(self) -> None:
        """Drop the txn: delete every part it wrote. A caller being
        cancelled (a statement timeout, a CancelRequest) does not wait for
        the deletes: they go on in the background, so a stalled store
        cannot hold the cancel up (a part left behind is referenced by
        nothing)."""
        builders = list(self._builders.values()) + [b for _, b in self._more_builders]
        batches = [b for bs in self._batches.values() for b in bs]
        self._buffers, self._builders, self._more_builders, self._batches = {}, {}, [], {}
        if not builders and not batches:
            return
        cleanup = self._delete(builders, batches)
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            _in_background(cleanup)
        else:
            await cleanup

    async def _delete(self, builders: list[BatchBuilder], batches: list[BatchHandle]) -> None:
        for builder in builders:
            await builder.abort()
        for batch in batches:
            await batch.delete(self.handle.client.blob)
