"""The txns cache: an in-memory view of the txns shard, kept current by
reading its updates in time order.

The txns shard's rows are ``(shard, ts, batch)``: a registration of data
shard ``shard`` at ``ts`` (``batch`` empty), or a committed write of the
transmittable batch ``batch`` to ``shard`` at ``ts``. A row is added (+1) at
its time by register/commit and retracted (-1) by forget/tidy. Because the
time is part of the row, compacting the txns shard (which advances *update*
times) never loses it, and a retraction always cancels exactly its row.

The cache has absorbed every update at times ``< progress``. It answers:

* is data shard ``d`` registered at ``t``?
* which writes to ``d`` are still in the shard (committed, maybe not yet
  applied), and the earliest of all of them;
* did anyone write to ``d`` in ``(lo, hi]``? (for skipping recomputation of
  a read-then-write whose inputs did not change); and did anyone write one
  of the keys ``K`` of ``d`` then (``keys_changed_between``, from the keys
  each commit says it wrote, ``storage.txns.keys``); both answer "maybe"
  only when a write the cache does not remember could fall in the range:
  one before it loaded (``known_from``), or one it forgot since
  (``trim_history`` keeps each shard's latest forgotten time, so a shard
  written long ago is still known unchanged since then).

Invariants (``validate()``): every row's count is 1 (nothing applied or
retracted twice); ``unapplied`` is exactly the write rows of ``contents``;
``batches`` holds exactly their batches; registration intervals do not
overlap; ``known_from <= history_from <=
progress``; ``write_keys`` has an entry for every time in ``write_times``;
every forgotten time is below ``history_from``.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import Counter, defaultdict

import pyarrow as pa

from storage.persist import DIFF, TS, InvariantViolation, ReadHandle, field_for
from storage.txns.keys import WHOLE, union, written

TXNS_SCHEMA = pa.schema([field_for("shard", "text", nullable=False), field_for("ts", "bigint", nullable=False), field_for("batch", "bytea", nullable=False)])

Row = tuple[str, int, bytes]  # (data shard, ts, batch bytes; b"" = registration)


class TxnsCache:
    def __init__(self, reader: ReadHandle):
        self.reader = reader
        self._lock = asyncio.Lock()  # one update at a time: rows are absorbed once
        self.progress = 0
        self.history_from = 0
        self.known_from = 0  # writes before it were never seen
        #: data shard -> the latest of its write times trim_history forgot
        self.trimmed: dict[str, int] = {}
        self.contents: dict[Row, int] = {}
        #: data shard -> [[register_ts, forget_ts or None], ...] in time order
        self.registrations: dict[str, list[list]] = defaultdict(list)
        #: data shard -> sorted commit ts of writes still in the shard
        self.unapplied: dict[str, list[int]] = defaultdict(list)
        #: data shard -> commit ts -> the batches of those writes (a lookup
        #: of one shard's writes scanned every shard's in ``contents``)
        self.batches: dict[str, dict[int, list[bytes]]] = defaultdict(dict)
        #: data shard -> sorted commit ts of every write seen since history_from
        self.write_times: dict[str, list[int]] = defaultdict(list)
        #: data shard -> {commit ts: the keys it wrote, or WHOLE} (storage.txns.keys),
        #: for every ts in write_times
        self.write_keys: dict[str, dict[int, frozenset | None]] = defaultdict(dict)
        #: read timestamps of work in flight: it reads data shards at them and
        #: asks ``changed_between`` from them, so history is kept back to the
        #: oldest and no data shard's since passes it
        self._holds: Counter[int] = Counter()
        #: the largest read timestamp handed out (``TxnsHandle.read_ts``): the
        #: oracle never returns less from a call that starts later
        self.read_floor = 0

    async def load(self) -> None:
        """Start from the shard's contents at its since (one snapshot), then
        follow updates from there."""
        state = await self.reader.machine.fetch()
        since = self.reader.since
        if state.upper > since:
            table = await self.reader.snapshot_updates(since)
            self._absorb_rows([(r["shard"], r["ts"], r["batch"], r[DIFF], since) for r in table.to_pylist()])
            self.progress = since + 1
        else:
            self.progress = since
        self.history_from = self.known_from = self.progress

    async def update_to(self, upper: int) -> None:
        """Absorb every update at times < ``upper`` (waiting for the shard to get there)."""
        if upper <= self.progress:
            return
        async with self._lock:
            if upper <= self.progress:
                return
            table = await self.reader.fetch_updates(self.progress, upper)
            rows = [(r["shard"], r["ts"], r["batch"], r[DIFF], r[TS]) for r in table.sort_by([(TS, "ascending")]).to_pylist()]
            self._absorb_rows(rows)
            self.progress = upper

    def absorb_own(self, lower: int, upper: int, rows: list[tuple[str, int, bytes, int]], at: int) -> None:
        """Absorb a write this process just made at ``[lower, upper)`` with a
        successful compare-and-append: nothing else can be in that range, so
        no need to read it back. Only valid when ``progress == lower``."""
        if self.progress != lower:
            return  # someone else's updates are in between: read normally
        self._absorb_rows([(s, t, b, d, at) for s, t, b, d in rows])
        self.progress = upper

    def _absorb_rows(self, rows: list[tuple[str, int, bytes, int, int]]) -> None:
        # All or nothing: every count is checked before anything changes, so
        # a violation leaves the cache as it was (a half-absorbed range would
        # be absorbed again, and count its first rows twice).
        counts: dict[Row, int] = {}
        for shard, ts, batch, diff, _at in rows:
            key = (shard, ts, batch)
            count = counts[key] = counts.get(key, self.contents.get(key, 0)) + diff
            if count not in (0, 1):
                raise InvariantViolation(f"txns row {shard}@{ts} would have count {count}: applied or retracted twice")
        for shard, ts, batch, diff, at in rows:
            key = (shard, ts, batch)
            count = self.contents.get(key, 0) + diff
            if count:
                self.contents[key] = count
            else:
                self.contents.pop(key, None)
            if batch == b"":
                regs = self.registrations[shard]
                if diff > 0:
                    regs.append([ts, None])
                else:
                    for reg in regs:
                        if reg[0] == ts and reg[1] is None:
                            reg[1] = at
                            break
            else:
                times = self.unapplied[shard]
                at_ts = self.batches[shard]
                if diff > 0:
                    bisect.insort(times, ts)
                    at_ts.setdefault(ts, []).append(batch)
                    history = self.write_times[shard]
                    keys = written(batch)
                    per_ts = self.write_keys[shard]
                    if ts in per_ts:
                        per_ts[ts] = union(per_ts[ts], keys)
                    else:
                        per_ts[ts] = keys
                        bisect.insort(history, ts)
                else:
                    i = bisect.bisect_left(times, ts)
                    if i < len(times) and times[i] == ts:
                        times.pop(i)
                    if batch in at_ts.get(ts, ()):
                        at_ts[ts].remove(batch)
                        if not at_ts[ts]:
                            del at_ts[ts]

    # -- questions ------------------------------------------------------------

    def is_registered(self, shard: str, t: int) -> bool:
        return any(r <= t and (f is None or t < f) for r, f in self.registrations.get(shard, ()))

    def registered_shards(self, t: int) -> list[str]:
        return sorted(s for s in self.registrations if self.is_registered(s, t))

    def registration_ts(self, shard: str) -> int | None:
        """The register time of the current (not forgotten) registration."""
        for r, f in reversed(self.registrations.get(shard, [])):
            if f is None:
                return r
        return None

    def unapplied_writes(self, shard: str, le: int | None = None) -> list[tuple[int, bytes]]:
        """Write rows for ``shard`` still in the txns shard, in ts order."""
        times = self.unapplied.get(shard, [])
        end = len(times) if le is None else bisect.bisect_right(times, le)
        at_ts = self.batches.get(shard, {})
        return [(ts, b) for ts in dict.fromkeys(times[:end]) for b in at_ts[ts]]

    def writes_at(self, shard: str, times) -> dict[int, list[bytes]]:
        """The batches of ``shard``'s writes at each of ``times`` still in
        the txns shard (a time none is left at is missing)."""
        at_ts = self.batches.get(shard, {})
        return {t: list(at_ts[t]) for t in times if t in at_ts}

    def earliest_unapplied(self) -> int | None:
        firsts = [times[0] for times in self.unapplied.values() if times]
        return min(firsts) if firsts else None

    def unapplied_below(self, ts: int) -> int:
        """``ts``, or the earliest write still unapplied if that is earlier:
        how far the txns shard's history may be let go."""
        earliest = self.earliest_unapplied()
        return ts if earliest is None else min(ts, earliest)

    def all_unapplied(self, le: int) -> list[Row]:
        return sorted((r for r in self.contents if r[2] and r[1] <= le), key=lambda r: (r[1], r[0]))

    def _forgotten(self, shard: str, lo: int) -> bool:
        """Whether a write to ``shard`` after ``lo`` may be one the cache
        does not remember."""
        return lo + 1 < self.known_from or lo < self.trimmed.get(shard, -1)

    def changed_between(self, shard: str, lo: int, hi: int) -> bool:
        """Whether some write to ``shard`` happened at a time in ``(lo, hi]``.
        True when the answer is unknown (a forgotten write may be in it)."""
        if self._forgotten(shard, lo):
            return True
        times = self.write_times.get(shard, [])
        i = bisect.bisect_right(times, lo)
        return i < len(times) and times[i] <= hi

    def writes_between(self, shard: str, lo: int, hi: int) -> list[int] | None:
        """The times of the writes to ``shard`` in ``(lo, hi]``, in order;
        None when the cache may have forgotten one of them."""
        if self._forgotten(shard, lo):
            return None
        times = self.write_times.get(shard, [])
        return times[bisect.bisect_right(times, lo):bisect.bisect_right(times, hi)]

    def keys_changed_between(self, shard: str, lo: int, hi: int, keys: frozenset) -> bool:
        """Whether a write to ``shard`` at a time in ``(lo, hi]`` wrote one of
        ``keys`` (hashes) or did not say which keys it wrote. True when the
        answer is unknown (a forgotten write may be in it)."""
        if self._forgotten(shard, lo):
            return True
        times = self.write_times.get(shard, [])
        per_ts = self.write_keys.get(shard, {})
        i = bisect.bisect_right(times, lo)
        while i < len(times) and times[i] <= hi:
            wrote = per_ts.get(times[i], WHOLE)
            if wrote is WHOLE or not wrote.isdisjoint(keys):
                return True
            i += 1
        return False

    def latest_write_le(self, shard: str, t: int) -> int | None:
        """The time of the latest write to ``shard`` at or below ``t``, if
        the cache knows it (its history, or the latest forgotten one)."""
        times = self.write_times.get(shard, [])
        i = bisect.bisect_right(times, t)
        if i:
            return times[i - 1]
        last = self.trimmed.get(shard)
        return last if last is not None and last <= t else None

    def hold_history(self, ts: int) -> None:
        """Keep the write times after ``ts`` until ``release_history(ts)``:
        a long read-then-write (a Spark job) asks whether its inputs changed
        since ``ts``, and "unknown" would force a needless recompute."""
        self._holds[ts] += 1

    def release_history(self, ts: int) -> None:
        self._holds[ts] -= 1
        if self._holds[ts] <= 0:
            del self._holds[ts]

    def read_bound(self) -> int:
        """No read of a data shard by work of this process is, or will be,
        at a time below this: the oldest held read timestamp, and the read
        floor (reads to come get a timestamp at least the floor; a hold may
        be above it, e.g. a read-then-write's ``upper - 1``)."""
        return min(self.read_floor, *self._holds) if self._holds else self.read_floor

    def written_after(self, shard: str, ts: int) -> bool:
        """Whether ``shard`` may have writes after ``ts`` (True when the
        cache's history does not reach back to ``ts``)."""
        times = self.write_times.get(shard)
        return self._forgotten(shard, ts) or bool(times) and times[-1] > ts

    def trim_history(self, before: int) -> None:
        """Forget write times below ``before`` (nobody asks about them),
        never those a hold still needs."""
        if self._holds:
            before = min(before, min(self._holds) + 1)
        if before <= self.history_from:
            return
        for shard, times in self.write_times.items():
            cut = bisect.bisect_left(times, before)
            if cut:
                self.trimmed[shard] = times[cut - 1]
            per_ts = self.write_keys[shard]
            for ts in times[:cut]:
                per_ts.pop(ts, None)
            del times[:cut]
        self.history_from = min(before, self.progress)

    def validate(self) -> "TxnsCache":
        if not self.known_from <= self.history_from <= self.progress:
            raise InvariantViolation(f"history_from {self.history_from} is not in [{self.known_from}, {self.progress}]")
        for shard, last in self.trimmed.items():
            if last >= self.history_from:
                raise InvariantViolation(f"{shard}'s forgotten write at {last} is not below history_from")
        for row, count in self.contents.items():
            if count != 1:
                raise InvariantViolation(f"txns row {row[0]}@{row[1]} has count {count}")
        expected: dict[str, list[int]] = defaultdict(list)
        for s, ts, b in self.contents:
            if b:
                expected[s].append(ts)
        for shard in set(expected) | set(self.unapplied):
            if sorted(expected.get(shard, [])) != self.unapplied.get(shard, []):
                raise InvariantViolation(f"unapplied writes of {shard} disagree with the txns contents")
        held = sorted((s, ts, b) for s, at_ts in self.batches.items() for ts, bs in at_ts.items() for b in bs)
        if held != sorted(r for r in self.contents if r[2]):
            raise InvariantViolation("the batches of unapplied writes disagree with the txns contents")
        for shard, times in self.write_times.items():
            if set(times) != set(self.write_keys.get(shard, {})):
                raise InvariantViolation(f"written keys of {shard} disagree with its write times")
        for shard, regs in self.registrations.items():
            for (r1, f1), (r2, _f2) in zip(regs, regs[1:]):
                if f1 is None or f1 > r2:
                    raise InvariantViolation(f"overlapping registrations of {shard}")
        return self
