"""A shard's cached contents as sorted runs, searchable by key in O(log n).

``Runs`` holds one shard's updates up to a time ``ts`` in two parts:

* *runs*: Arrow tables of updates (user columns and ``_diff``), exact as of
  ``run_ts``. Each run sorts itself by a set of key columns the first time
  it is searched by them (Arrow's sort; the caller runs it off the event
  loop for large runs) and then answers a key by binary search, one column
  at a time: numpy's ``searchsorted`` on integer columns, ``bisect`` over
  Arrow values otherwise. Runs merge geometrically (a run is at least
  ``FANOUT`` times the one after it), so a shard has O(log n) runs and each
  update is merged O(log n) times.
* the *tail*: the newest updates, with their ``_ts``, all at times in
  ``(run_ts, ts]``. A key is found in it by a hash index of its keys per
  set of key columns searched, extended as versions arrive (a filter
  over the whole tail at each lookup took a tenth of a 64-client INSERT
  storm); past ``TAIL_MAX`` rows its older half becomes a run.

A key found at a time (``points``, a bounded cache of recent single-key
lookups) is found at a later time from that answer and the tail's updates
of the key since: a row updated in every transaction (a pgbench branch)
has as many versions in the tail as updates since its last upkeep, which
would otherwise be consolidated again by every lookup.

So a lookup costs O(log² n + TAIL_MAX) whatever the table's size, adding
a version costs O(its rows) plus amortized merging, nothing is rebuilt per
version, and no Python object is held per row (but the tail's, at most
``TAIL_MAX``, in its key index). A read at any time in
``[run_ts, ts]`` is exact (the tail keeps the times an explicit
transaction's older ``read_ts`` needs).

Invariants (``validate``): the runs plus the tail's updates at times ``<=
t`` sum to the shard's contents at ``t`` for every ``t`` in ``[run_ts,
ts]`` (equal rows may sit in several runs with opposite diffs until they
merge); every tail time is in ``(run_ts, ts]``; a tail index maps each
key to exactly the tail positions holding it; each run is at least
``FANOUT`` times the next; a run's order is a permutation of
its rows whose keys have no NULL, sorted.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from storage.persist import DIFF, TS, cast_table, collapse, comparable, expand

#: Rows the tail holds before its older half becomes a run.
TAIL_MAX = 1024
#: Chunks the tail may have (one per version added) before they are joined.
TAIL_CHUNKS = 16
#: Size ratio between consecutive runs: larger merges less often, searches more runs.
FANOUT = 4
#: Single-key lookups whose answers are kept for later lookups of the key.
POINTS_MAX = 4096


def _searchable(t: pa.DataType) -> bool:
    """Types whose Arrow sort order is Python's order of their values
    (floats are not: NaN; lists are not sortable)."""
    return (pa.types.is_integer(t) or pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_date(t) or pa.types.is_timestamp(t) or pa.types.is_decimal(t) or pa.types.is_boolean(t)
            or pa.types.is_time(t))


class _Values:
    """A sorted Arrow array as a sequence of Python values, for ``bisect``."""

    __slots__ = ("array",)

    def __init__(self, array: pa.Array):
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i: int):
        return self.array[i].as_py()


@dataclass
class _Order:
    """A run's rows with non-NULL keys, sorted by the key columns."""

    positions: np.ndarray  # row positions in the run, in key order
    columns: list  # per key column: its sorted values (numpy for integers, else _Values)
    bounds: list = field(default_factory=list)  # per key column: (min, max) of its integer type, or None
    span: tuple | None = None  # (least, greatest) of the first integer key column: runs of other keys are passed over

    def __post_init__(self):
        self.bounds = [(int(np.iinfo(v.dtype).min), int(np.iinfo(v.dtype).max)) if isinstance(v, np.ndarray) else None
                       for v in self.columns]
        first = self.columns[0] if self.columns else None
        if isinstance(first, np.ndarray) and len(first):
            self.span = (int(first[0]), int(first[-1]))

    def find(self, key: tuple) -> tuple[int, int]:
        """The range of ``positions`` whose key equals ``key``."""
        span = self.span
        if span is not None and not span[0] <= key[0] <= span[1]:  # (an integer: the key is of the column's type)
            return 0, 0
        lo, hi = 0, len(self.positions)
        for values, bounds, v in zip(self.columns, self.bounds, key):
            if lo >= hi:
                break
            if bounds is not None:
                if not bounds[0] <= v <= bounds[1]:
                    return 0, 0
                part, v = values[lo:hi], values.dtype.type(v)  # of the array's type: no cast of the array
                lo, hi = lo + int(part.searchsorted(v, "left")), lo + int(part.searchsorted(v, "right"))
            else:
                lo, hi = bisect.bisect_left(values, v, lo, hi), bisect.bisect_right(values, v, lo, hi)
        return lo, hi


@dataclass
class Run:
    """One run: updates (user columns and ``_diff``) and their orders by key."""

    updates: pa.Table
    orders: dict = field(default_factory=dict)  # key columns -> _Order, or None (not searchable)

    @property
    def num_rows(self) -> int:
        return self.updates.num_rows

    def sorted_by(self, cols: tuple[str, ...]) -> bool:
        return cols in self.orders

    def sort(self, cols: tuple[str, ...]) -> None:
        """Build the order by ``cols`` (O(n log n), in Arrow; releases the GIL)."""
        if cols in self.orders:
            return
        types = [self.updates.schema.field(c).type for c in cols]
        if not all(_searchable(t) for t in types):
            self.orders[cols] = None
            return
        if self.updates.column(0).num_chunks > 1:  # a take from many chunks costs O(n): one chunk, once
            self.updates = self.updates.combine_chunks()
        keys = self.updates.select(list(cols))
        order = pc.sort_indices(keys, sort_keys=[(c, "ascending", "at_end") for c in cols])
        valid = None
        for c in cols:
            if keys.column(c).null_count:
                ok = pc.is_valid(keys.column(c))
                valid = ok if valid is None else pc.and_(valid, ok)
        if valid is not None:
            order = order.filter(pc.take(valid, order))
        columns = []
        for c in cols:
            values = comparable(keys.column(c).take(order).combine_chunks())
            columns.append(values.to_numpy(zero_copy_only=False) if pa.types.is_integer(values.type) else _Values(values))
        self.orders[cols] = _Order(order.to_numpy(zero_copy_only=False), columns)

    def search(self, cols: tuple[str, ...], keys: list[tuple]) -> pa.Table:
        """The updates whose ``cols`` equal one of ``keys``."""
        order = self.orders.get(cols)
        if order is None:  # not searchable: a filter over the run
            return self.updates.filter(matching(self.updates, cols, keys))
        positions = []
        for key in keys:
            lo, hi = order.find(key)
            if lo < hi:
                positions.extend(order.positions[lo:hi].tolist())
        if not positions:
            return self.updates.slice(0, 0)
        if len(positions) == 1:
            return self.updates.slice(positions[0], 1)  # a point: no gather over the run
        return self.updates.take(pa.array(positions, pa.int64()))


def key_tuples(table: pa.Table, cols) -> list[tuple]:
    """The keys (values of ``cols``) of ``table``'s rows, each once, as
    tuples (dates and times as their integer storage, ``comparable``);
    keys with a NULL are left out (they equal nothing)."""
    keys = zip(*(comparable(table.column(c)).to_pylist() for c in cols))
    return list({_hashable(k): k for k in keys if None not in k}.values())


def _index_keys(index: dict[tuple, list[int]], table: pa.Table, cols, first: int) -> dict[tuple, list[int]]:
    """``index`` with the keys of ``table``'s rows (positions from
    ``first``) added, as ``matching`` compares them; keys with a NULL
    are left out (they equal nothing)."""
    rows = zip(*(comparable(table.column(c)).to_pylist() for c in cols))
    for pos, row in enumerate(rows, first):
        if None not in row:
            index.setdefault(tuple(_hashable(v) for v in row), []).append(pos)
    return index


def matching(table: pa.Table, cols, keys: list[tuple]) -> pa.Array:
    """A mask of ``table``'s rows whose ``cols`` equal one of ``keys``
    (tuples without NULL; a NULL key column equals nothing)."""
    if table.num_rows == 0 or not keys:
        return pa.repeat(pa.scalar(False), table.num_rows)
    if table.num_rows <= 32 and len(keys) <= 32:  # a few rows: cheaper in Python than through kernels
        wanted = {tuple(_hashable(v) for v in k) for k in keys}
        rows = zip(*(comparable(table.column(c)).to_pylist() for c in cols))
        return pa.array([tuple(_hashable(v) for v in r) in wanted for r in rows], pa.bool_())
    mask = None
    try:
        for i, c in enumerate(cols):
            column = comparable(table.column(c))
            ok = pc.is_in(column, value_set=pa.array([k[i] for k in keys], column.type))
            mask = ok if mask is None else pc.and_(mask, ok)
        if len(cols) == 1:
            return pc.fill_null(mask, False)
        candidates = np.flatnonzero(pc.fill_null(mask, False).to_numpy(zero_copy_only=False))
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError):
        candidates = np.arange(table.num_rows)
    wanted = {tuple(_hashable(v) for v in k) for k in keys}
    chosen = table.select(list(cols)).take(pa.array(candidates, pa.int64()))
    rows = zip(*(comparable(chosen.column(c)).to_pylist() for c in cols))
    hits = np.zeros(table.num_rows, dtype=bool)
    for pos, row in zip(candidates, rows):
        if tuple(_hashable(v) for v in row) in wanted:
            hits[pos] = True
    return pa.array(hits)


_NAN = ("NaN",)


def _hashable(v):
    """``v`` with its lists (array values, at any depth) as tuples, and NaN
    as one value equal to itself (as in PostgreSQL's float comparison)."""
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return _NAN if isinstance(v, float) and v != v else v


class Runs:
    """One shard's contents at ``ts`` as sorted runs and a tail (see module)."""

    def __init__(self, ts: int, updates: pa.Table):
        assert TS not in updates.column_names, "runs hold updates without times"
        self.ts = self.run_ts = ts
        self.synced = ts  # the latest time the owner read the shard itself at (<= ts)
        self.runs: list[Run] = [Run(updates)] if updates.num_rows else []
        self.schema = updates.schema
        self.tail = self.schema.insert(len(self.schema) - 1, pa.field(TS, pa.int64(), False)).empty_table()
        self.retractions = updates.num_rows > 0 and pc.min(updates.column(DIFF)).as_py() < 0
        self._rows: pa.Table | None = None  # the contents at ts, once asked for
        #: (key columns, key) -> (time, its updates then, consolidated, the tail's (generation, length) then
        #: when the time was ``ts``, else None): see ``search``
        self.points: OrderedDict[tuple, tuple[int, pa.Table, tuple[int, int] | None]] = OrderedDict()
        #: counts the tail's rebuilds (``upkeep``): a tail position is one row of one generation
        self.tail_generation = 0
        #: key columns -> key -> the tail positions holding it (``_tail_hits``)
        self._tail_keys: dict[tuple[str, ...], dict[tuple, list[int]]] = {}
        self._nbytes: int | None = None

    @property
    def nbytes(self) -> int:
        """The Arrow bytes held (kept between changes: an Arrow table's
        nbytes visits every buffer of every chunk, 0.3 ms for a 100k-row
        shard's runs, and the cache's budget asks after every new version)."""
        if self._nbytes is None:
            self._nbytes = sum(r.updates.nbytes for r in self.runs) + self.tail.nbytes
        return self._nbytes

    @property
    def num_rows(self) -> int:
        return sum(r.num_rows for r in self.runs) + self.tail.num_rows

    def covers(self, ts: int) -> bool:
        return self.run_ts <= ts <= self.ts

    def advance(self, updates: pa.Table, ts: int) -> None:
        """Add the updates (user columns, ``_ts``, ``_diff``) at times in
        ``(self.ts, ts]``; the contents are then at ``ts``. Cheap: the
        work of folding the tail is ``upkeep``'s."""
        assert ts >= self.ts, "runs only move forward"
        if updates.num_rows:
            updates = cast_table(updates.select(self.tail.column_names), self.tail.schema)
            for cols, index in self._tail_keys.items():
                _index_keys(index, updates, cols, self.tail.num_rows)
            self.tail = pa.concat_tables([self.tail, updates])
            if self._nbytes is not None:
                self._nbytes += updates.nbytes
            if self.tail.column(0).num_chunks > TAIL_CHUNKS:  # every search scans each chunk: keep them few
                self.tail = self.tail.combine_chunks()
            self.retractions = self.retractions or pc.min(updates.column(DIFF)).as_py() < 0
            self._rows = None
        self.ts = ts

    def upkeep_rows(self) -> int:
        """The rows ``upkeep`` would move now (0: nothing to do)."""
        if self.tail.num_rows <= TAIL_MAX:
            return 0
        return self.tail.num_rows + (self.runs[-1].num_rows if self.runs else 0)

    def upkeep(self) -> None:
        """Fold the older half of an overfull tail into a run and merge runs
        until their sizes decrease geometrically again (O(rows moved); may
        run on another thread while the shard's lock is held)."""
        if self.tail.num_rows <= TAIL_MAX:
            return
        times = self.tail.column(TS).to_numpy()
        cut = int(np.partition(times, len(times) // 2)[len(times) // 2])
        older = pc.less_equal(self.tail.column(TS), cut)
        moved = self.tail.filter(older).drop_columns([TS])
        tail = self.tail.filter(pc.invert(older))
        runs = list(self.runs)
        if moved.num_rows:
            runs.append(Run(collapse(moved) if self.retractions else moved))
        while len(runs) > 1 and runs[-1].num_rows * FANOUT > runs[-2].num_rows:
            a, b = runs.pop(-2), runs.pop()
            merged = pa.concat_tables([a.updates, b.updates])
            runs.append(Run(collapse(merged) if self.retractions else merged))
        self.runs, self.tail, self.run_ts = runs, tail, max(self.run_ts, cut)
        self._tail_keys = {}  # positions changed: rebuilt by the next search
        self.tail_generation += 1
        self._nbytes = None

    def unsorted(self, cols: tuple[str, ...]) -> list[Run]:
        """The runs a search by ``cols`` would sort first."""
        return [r for r in self.runs if not r.sorted_by(cols)]

    def _tail_at(self, ts: int) -> pa.Table:
        tail = self.tail if ts >= self.ts else self.tail.filter(pc.less_equal(self.tail.column(TS), ts))
        return tail.drop_columns([TS])

    def rows(self, ts: int) -> pa.Table:
        """The contents at ``ts`` (``covers(ts)``): rows with multiplicity."""
        assert self.covers(ts), (ts, self.run_ts, self.ts)
        if ts == self.ts and self._rows is not None:
            return self._rows
        parts = [r.updates for r in self.runs] + [self._tail_at(ts)]
        updates = pa.concat_tables(parts)
        rows = expand(collapse(updates) if self.retractions else updates)
        if ts == self.ts:
            self._rows = rows
        return rows

    def search(self, cols: tuple[str, ...], keys: list[tuple], ts: int) -> pa.Table:
        """The rows at ``ts`` whose ``cols`` equal one of ``keys`` (distinct,
        without NULL: ``key_tuples``; runs searched by their orders, which
        ``Run.sort`` built; one key found before, from its answer then)."""
        assert self.covers(ts), (ts, self.run_ts, self.ts)
        point = (cols, _hashable(keys[0])) if len(keys) == 1 else None
        known = self.points.get(point) if point is not None else None
        first = 0  # the first tail position that may hold an update not in ``parts``
        if known is not None and self.run_ts <= known[0] <= ts:  # every update of it since is in the tail
            since, parts = known[0], [known[1]] if known[1].num_rows else []
            cut = known[2]
            if cut is not None and cut[0] == self.tail_generation:
                since, first = None, cut[1]  # a hot key's versions before the answer are passed over, not filtered
        else:
            since, parts = None, [p for p in (r.search(cols, keys) for r in self.runs) if p.num_rows]
        hits = self._tail_hits(cols, keys, first)
        if hits.num_rows and (ts < self.ts or since is not None):
            newer = pc.less_equal(hits.column(TS), ts)
            hits = hits.filter(newer if since is None else pc.and_(newer, pc.greater(hits.column(TS), since)))
        if hits.num_rows:
            parts.append(hits.drop_columns([TS]))
        found = self._consolidated(parts)
        if point is not None and ts >= self.run_ts:
            cut = (self.tail_generation, self.tail.num_rows) if ts == self.ts else None
            self.points[point] = (ts, found, cut)
            self.points.move_to_end(point)
            if len(self.points) > POINTS_MAX:
                self.points.popitem(last=False)
        return expand(found) if found.num_rows else found.drop_columns([DIFF])

    def _tail_hits(self, cols: tuple[str, ...], keys: list[tuple], first: int = 0) -> pa.Table:
        """The tail's updates (with ``_ts``) of ``keys`` at positions from
        ``first``, in tail order, found by a hash index of the tail's keys
        (``_tail_keys``: made once per tail and key columns, extended as
        versions arrive), not by a filter over the whole tail at each
        lookup; a key's positions are ascending, so those before ``first``
        (a hot key's older versions) are passed over by bisection."""
        if not self.tail.num_rows:
            return self.tail
        index = self._tail_keys.get(cols)
        if index is None:
            index = self._tail_keys[cols] = _index_keys({}, self.tail, cols, 0)
        if len(keys) == 1:
            held = index.get(tuple(_hashable(v) for v in keys[0]), ())
            positions = held[bisect.bisect_left(held, first):] if first else held
        else:
            positions = sorted(p for key in keys for p in index.get(tuple(_hashable(v) for v in key), ()) if p >= first)
        if not positions:
            return self.tail.slice(0, 0)
        if len(positions) == 1:
            return self.tail.slice(positions[0], 1)
        return self.tail.take(pa.array(positions, pa.int64()))

    def _consolidated(self, parts: list[pa.Table]) -> pa.Table:
        """Updates (user columns, ``_diff``) found for some keys, summed."""
        if not parts:
            return self.tail.drop_columns([TS]).slice(0, 0)
        found = parts[0] if len(parts) == 1 else pa.concat_tables(parts)
        diffs = found.column(DIFF).to_pylist() if found.num_rows <= 64 else None
        if diffs is not None and all(d == 1 for d in diffs):
            return found  # insertions only: the common point lookup
        if (min(diffs) if diffs is not None else pc.min(found.column(DIFF)).as_py()) < 0:
            found = collapse(found)  # retractions to cancel (insertions alone need no consolidating)
        return found

    def validate(self) -> None:
        assert self.run_ts <= self.ts
        if self.tail.num_rows:
            assert pc.min(self.tail.column(TS)).as_py() > self.run_ts, "a tail update at or below run_ts"
            assert pc.max(self.tail.column(TS)).as_py() <= self.ts, "a tail update past ts"
        for a, b in zip(self.runs, self.runs[1:]):
            assert a.num_rows >= b.num_rows * FANOUT, "runs out of geometric order"
        for cols, index in self._tail_keys.items():
            assert index == _index_keys({}, self.tail, cols, 0), "a tail index out of step with the tail"
        for known_ts, _found, cut in self.points.values():
            assert cut is None or cut[0] < self.tail_generation or cut[1] <= self.tail.num_rows, "a point past its tail"
            assert cut is None or cut[0] < self.tail_generation or known_ts >= self.run_ts, "a point older than its tail"
        for run in self.runs:
            for cols, order in run.orders.items():
                if order is None:
                    continue
                assert len(order.positions) <= run.num_rows
                keys = run.updates.select(list(cols)).take(pa.array(order.positions, pa.int64()))
                values = list(zip(*(comparable(keys.column(c)).to_pylist() for c in cols)))
                assert values == sorted(values) and all(None not in v for v in values), "an order out of order"
