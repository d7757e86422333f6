"""The shard state machine: what a shard is, as of one Consensus seqno.

A shard is a durable collection of updates ``(row, time, diff)`` with two
frontiers (times are non-negative integers; ``FOREVER`` is the empty
frontier):

* ``upper``: every update at a time < upper is known; no more will arrive;
* ``since``: times < since may have been advanced to since (compaction), so
  reads must be at ``as_of >= since``.

``ShardState`` holds, besides the frontiers, the batches (each covering
``[lower, upper)`` of time, with the ``since`` it was compacted to, and its
parts: blob keys or inline bytes), the registered writers and readers with
their leases, and the *critical* sinces of named holders (the txns shard)
that never expire.

Every change is a pure function here, ``transition(state, ...) -> new
state``; ``machine.py`` applies it with compare-and-set at ``seqno + 1``.

A state is recorded at its seqno in one of two forms (seed 003,
"Incremental State"): *whole* (``encode``: every field, ``{"v":1,...}``)
or as its *change* from the state at the seqno before (``encode_change``:
``{"d":base,...}`` with the frontiers, leases and holds, which are small,
and of the batches only the new ones, the others named by id; ``base`` is
the seqno of the whole record the chain of changes starts from). A commit
of a tiny batch then writes a record of its size, not of the state's: a
state's inline parts were written again by every later seqno. ``decode``
reads either, a change given the state before it. The machine decides
which form to write and keeps chains short.

Invariants (``validate()`` checks all of them; the machine calls it on
every transition):

1. batches are contiguous and cover exactly ``[0, upper)``: the first lower
   is 0, each upper is the next lower, the last upper is ``upper``; no
   batches iff ``upper == 0``;
2. every batch has ``lower < upper`` and the times of its parts lie in
   ``[lower, upper)``; parts are non-empty, each either a blob key or inline;
3. batch ids are unique;
4. ``since`` is the minimum of the readers' and critical holders' sinces
   (when there are any) and never goes backwards; every reader's and holder's
   since is >= it;
5. every reader's ``seqno_since`` is <= the state's seqno; retired keys are
   named by no batch;
6. only the last batch may be empty (an empty append widens it; a data
   append absorbs it), except that a compaction may produce an empty batch;
7. the total inline bytes stay below the configured cap.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field, replace
from functools import cached_property

from storage.errors import UsageError

FOREVER = 2**63  # the empty frontier: no time remains
STATE_VERSION = 1


class InvariantViolation(AssertionError):
    """A shard state broke one of its invariants: a bug, never user error."""


@dataclass(frozen=True)
class PartMeta:
    """One Parquet part of a batch: in Blob under ``key``, or ``inline``."""

    rows: int
    nbytes: int
    min_ts: int
    max_ts: int
    min_diff: int
    max_diff: int
    key: str | None = None
    inline: bytes | None = None
    #: When set, every row of the part is at this time and the Parquet data
    #: has no ``_ts`` column: the time lives here, so re-timestamping the
    #: part rewrites no data.
    ts: int | None = None

    def to_json(self) -> dict:
        d = {"rows": self.rows, "nbytes": self.nbytes, "min_ts": self.min_ts, "max_ts": self.max_ts, "min_diff": self.min_diff, "max_diff": self.max_diff}
        if self.key is not None:
            d["key"] = self.key
        if self.inline is not None:
            d["inline"] = base64.b64encode(self.inline).decode()
        if self.ts is not None:
            d["ts"] = self.ts
        return d

    @classmethod
    def from_json(cls, d: dict) -> "PartMeta":
        inline = d.get("inline")
        return cls(
            rows=d["rows"], nbytes=d["nbytes"], min_ts=d["min_ts"], max_ts=d["max_ts"], min_diff=d["min_diff"], max_diff=d["max_diff"],
            key=d.get("key"), inline=base64.b64decode(inline) if inline is not None else None, ts=d.get("ts"),
        )

    def with_ts(self, ts: int) -> "PartMeta":
        if self.ts is None:
            raise UsageError("only a part whose time lives in metadata can be re-timestamped")
        return replace(self, ts=ts, min_ts=ts, max_ts=ts)


class PartsStats:
    """Totals over ``self.parts`` (for batches in state and batch handles)."""

    parts: tuple[PartMeta, ...]

    @property
    def rows(self) -> int:
        return sum(p.rows for p in self.parts)

    @property
    def nbytes(self) -> int:
        return sum(p.nbytes for p in self.parts)

    @property
    def inline_bytes(self) -> int:
        return sum(len(p.inline) for p in self.parts if p.inline is not None)

    @property
    def keys(self) -> list[str]:
        return [p.key for p in self.parts if p.key is not None]


@dataclass(frozen=True)
class BatchMeta(PartsStats):
    id: str
    lower: int
    upper: int
    since: int
    parts: tuple[PartMeta, ...] = ()

    def to_json(self) -> dict:
        return {"id": self.id, "lower": self.lower, "upper": self.upper, "since": self.since, "parts": [p.to_json() for p in self.parts]}

    @cached_property
    def json_text(self) -> str:
        """``to_json`` as JSON text, made once: a whole record holds every
        batch, and most of them are the previous record's."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, d: dict) -> "BatchMeta":
        return cls(d["id"], d["lower"], d["upper"], d["since"], tuple(PartMeta.from_json(p) for p in d["parts"]))


@dataclass(frozen=True)
class WriterState:
    lease_expires_at: int
    last_token: str | None = None
    last_upper: int | None = None


@dataclass(frozen=True)
class ReaderState:
    since: int
    seqno_since: int
    lease_expires_at: int


@dataclass(frozen=True)
class ShardState:
    shard_id: str
    schema: bytes  # Arrow IPC schema
    seqno: int = 0
    upper: int = 0
    since: int = 0
    batches: tuple[BatchMeta, ...] = ()
    writers: dict[str, WriterState] = field(default_factory=dict)
    readers: dict[str, ReaderState] = field(default_factory=dict)
    critical: dict[str, int] = field(default_factory=dict)
    #: seqno of the last completed GC; used to decide when to run the next.
    gc_seqno: int = 0
    #: Blob keys that left the batch list, with the seqno from which no state
    #: names them. GC deletes a key once no reader can use a state before it.
    retired: tuple[tuple[int, str], ...] = ()

    # -- encoding ---------------------------------------------------------

    def encode(self) -> bytes:
        return self._record({"v": STATE_VERSION, "shard_id": self.shard_id, "schema": base64.b64encode(self.schema).decode()},
                            {"retired": [list(r) for r in self.retired]}, [b.json_text for b in self.batches])

    def encode_change(self, prev: "ShardState", base: int) -> bytes | None:
        """This state as its change from ``prev`` (the state at the seqno
        before), in a chain of changes from the whole record at ``base``;
        None when only a whole record can say it (the schema changed)."""
        assert self.seqno == prev.seqno + 1 and base <= prev.seqno, "a change is recorded from the state just before"
        if self.schema != prev.schema or self.shard_id != prev.shard_id:
            return None
        retired = {"retired": _retired_change(prev.retired, self.retired)} if self.retired != prev.retired else {}
        before = {b.id: b for b in prev.batches}
        batches = [json.dumps(b.id) if before.get(b.id) is b or before.get(b.id) == b else b.json_text for b in self.batches]
        return self._record({"d": base}, retired, batches)

    def _record(self, first: dict, last: dict, batches: list[str]) -> bytes:
        """A record: ``first``'s fields, the frontiers, leases and holds,
        ``last``'s fields, then the batches (JSON texts, made once each)."""
        d = {
            **first,
            "upper": self.upper,
            "since": self.since,
            "writers": {k: [w.lease_expires_at, w.last_token, w.last_upper] for k, w in self.writers.items()},
            "readers": {k: [r.since, r.seqno_since, r.lease_expires_at] for k, r in self.readers.items()},
            "critical": self.critical,
            "gc_seqno": self.gc_seqno,
            **last,
        }
        head = json.dumps(d, separators=(",", ":"))
        return f'{head[:-1]},"batches":[{",".join(batches)}]}}'.encode()

    @classmethod
    def decode(cls, data: bytes, seqno: int, prev: "ShardState | None" = None) -> "ShardState":
        """The state recorded at ``seqno``: a whole record, or a change
        from ``prev`` (the state at ``seqno - 1``, required for one)."""
        d = json.loads(data)
        if "d" in d:
            if prev is None or prev.seqno != seqno - 1:
                raise InvariantViolation(f"the change recorded at seqno {seqno} is read without the state before it")
            return prev._changed(d, seqno)
        if d.get("v") != STATE_VERSION:
            raise InvariantViolation(f"unknown shard state version {d.get('v')!r}")
        return cls(
            shard_id=d["shard_id"],
            schema=base64.b64decode(d["schema"]),
            seqno=seqno,
            upper=d["upper"],
            since=d["since"],
            batches=tuple(BatchMeta.from_json(b) for b in d["batches"]),
            writers={k: WriterState(*v) for k, v in d["writers"].items()},
            readers={k: ReaderState(*v) for k, v in d["readers"].items()},
            critical=dict(d["critical"]),
            gc_seqno=d.get("gc_seqno", 0),
            retired=tuple((r[0], r[1]) for r in d.get("retired", ())),
        )

    def _changed(self, d: dict, seqno: int) -> "ShardState":
        before = {b.id: b for b in self.batches}
        retired = self.retired
        if "retired" in d:
            change = d["retired"]
            retired = tuple((r[0], r[1]) for r in change["all"]) if "all" in change else (
                tuple(r for r in retired if r[1] not in set(change["gone"])) + tuple((r[0], r[1]) for r in change["new"]))
        return replace(
            self,
            seqno=seqno,
            upper=d["upper"],
            since=d["since"],
            batches=tuple(before[b] if isinstance(b, str) else BatchMeta.from_json(b) for b in d["batches"]),
            writers={k: WriterState(*v) for k, v in d["writers"].items()},
            readers={k: ReaderState(*v) for k, v in d["readers"].items()},
            critical=dict(d["critical"]),
            gc_seqno=d["gc_seqno"],
            retired=retired,
        )

    # -- derived ------------------------------------------------------------

    @property
    def inline_bytes(self) -> int:
        return sum(b.inline_bytes for b in self.batches)

    @property
    def blob_keys(self) -> set[str]:
        return {k for b in self.batches for k in b.keys}

    def batches_for(self, as_of: int) -> list[BatchMeta]:
        """The batches that may hold updates at times <= as_of."""
        return [b for b in self.batches if b.lower <= as_of]

    # -- invariants ---------------------------------------------------------

    def validate(self, *, max_inline_bytes: int | None = None) -> "ShardState":
        """Check every invariant; raise InvariantViolation naming the first broken one."""

        def fail(msg: str) -> None:
            raise InvariantViolation(f"shard {self.shard_id} seqno {self.seqno}: {msg}")

        if not 0 <= self.upper <= FOREVER:
            fail(f"upper {self.upper} out of range")
        if self.since < 0:
            fail(f"since {self.since} < 0")
        batches = self.batches
        if not batches:
            if self.upper != 0:
                fail(f"no batches but upper is {self.upper}")
        else:
            if batches[0].lower != 0:
                fail(f"first batch starts at {batches[0].lower}, not 0")
            if batches[-1].upper != self.upper:
                fail(f"last batch ends at {batches[-1].upper}, upper is {self.upper}")
        ids = set()
        inline = 0
        prev_upper = 0
        for b in batches:
            if b.lower != prev_upper:
                fail(f"gap or overlap before batch {b.id}")
            if b.lower >= b.upper:
                fail(f"batch {b.id} has empty time range [{b.lower}, {b.upper})")
            prev_upper = b.upper
            if b.id in ids:
                fail(f"duplicate batch id {b.id}")
            ids.add(b.id)
            for p in b.parts:
                if p.rows <= 0:
                    fail(f"batch {b.id} has an empty part")
                if (p.key is None) == (p.inline is None):
                    fail(f"batch {b.id} part must be exactly one of blob or inline")
                if not b.lower <= p.min_ts <= p.max_ts < b.upper:
                    fail(f"batch {b.id} part times [{p.min_ts}, {p.max_ts}] outside [{b.lower}, {b.upper})")
                if p.ts is not None and not p.min_ts == p.max_ts == p.ts:
                    fail(f"batch {b.id} part ts {p.ts} disagrees with its stats")
                if p.inline is not None:
                    inline += len(p.inline)
        holds = [r.since for r in self.readers.values()]
        holds.extend(self.critical.values())
        if holds and min(holds) != self.since:
            fail(f"since {self.since} is not the minimum of the holds {sorted(holds)}")
        for rid, r in self.readers.items():
            if r.seqno_since > self.seqno:
                fail(f"reader {rid} seqno_since {r.seqno_since} is past seqno {self.seqno}")
        live = {k for b in batches for k in b.keys}
        for retired_at, key in self.retired:
            if retired_at > self.seqno:
                fail(f"key {key} retired at future seqno {retired_at}")
            if key in live:
                fail(f"retired key {key} is still in a batch")
        if max_inline_bytes is not None and inline > max_inline_bytes:
            fail(f"{inline} inline bytes exceed the cap {max_inline_bytes}")
        return self


def change_base(data: bytes) -> int | None:
    """The ``base`` of a change record (``encode_change``), None for a
    whole one, read from its first bytes without decoding it."""
    if not data.startswith(b'{"d":'):
        return None
    return int(data[5 : data.index(b",", 5)])


def _retired_change(before: tuple, after: tuple) -> dict:
    """``after`` as the keys gone from ``before`` and the entries added
    (GC forgets some, compaction appends), or whole when it is not that."""
    gone = {r[1] for r in before} - {r[1] for r in after}
    kept = tuple(r for r in before if r[1] not in gone)
    if after[: len(kept)] != kept:
        return {"all": [list(r) for r in after]}
    return {"gone": sorted(gone), "new": [list(r) for r in after[len(kept):]]}


# -- transitions ---------------------------------------------------------------
#
# Each returns the new state (seqno unchanged: the machine sets it) or None
# when nothing needs to change. They never mutate their input.


def _recompute_since(state: ShardState, readers: dict[str, ReaderState], critical: dict[str, int]) -> int:
    holds = [r.since for r in readers.values()] + list(critical.values())
    return max(state.since, min(holds)) if holds else state.since


def register_writer(state: ShardState, writer_id: str, lease_expires_at: int) -> ShardState:
    writers = dict(state.writers)
    prev = writers.get(writer_id)
    writers[writer_id] = replace(prev, lease_expires_at=lease_expires_at) if prev else WriterState(lease_expires_at)
    return replace(state, writers=writers)


def register_reader(state: ShardState, reader_id: str, lease_expires_at: int, seqno: int) -> ShardState:
    if reader_id in state.readers:
        return state
    readers = dict(state.readers)
    readers[reader_id] = ReaderState(since=state.since, seqno_since=seqno, lease_expires_at=lease_expires_at)
    return replace(state, readers=readers)


def heartbeat_reader(state: ShardState, reader_id: str, *, since: int | None, seqno_since: int, lease_expires_at: int) -> ShardState:
    r = state.readers.get(reader_id)
    if r is None:
        raise UsageError(f"reader {reader_id} of shard {state.shard_id} is not registered (its lease expired?)")
    new_since = r.since if since is None else max(r.since, since)
    readers = dict(state.readers)
    readers[reader_id] = ReaderState(new_since, max(r.seqno_since, min(seqno_since, state.seqno + 1)), lease_expires_at)
    return replace(state, readers=readers, since=_recompute_since(state, readers, state.critical))


def expire_reader(state: ShardState, reader_id: str) -> ShardState | None:
    if reader_id not in state.readers:
        return None
    readers = {k: v for k, v in state.readers.items() if k != reader_id}
    return replace(state, readers=readers, since=_recompute_since(state, readers, state.critical))


def expire_writer(state: ShardState, writer_id: str) -> ShardState | None:
    if writer_id not in state.writers:
        return None
    return replace(state, writers={k: v for k, v in state.writers.items() if k != writer_id})


def expire_leases(state: ShardState, now: int) -> ShardState | None:
    readers = {k: v for k, v in state.readers.items() if v.lease_expires_at > now}
    writers = {k: v for k, v in state.writers.items() if v.lease_expires_at > now}
    if len(readers) == len(state.readers) and len(writers) == len(state.writers):
        return None
    return replace(state, readers=readers, writers=writers, since=_recompute_since(state, readers, state.critical))


@dataclass(frozen=True)
class Downgrade:
    """Since holds to advance in the compare-and-set of an append (so a
    shard written often keeps its since close behind its upper at no CaS
    of its own): ``readers`` maps reader ids to the since each promises,
    ``critical`` critical holders to theirs. A hold only moves forward, and
    one that is gone (a reader whose lease expired) is left alone: the
    append never fails for it."""

    readers: tuple[tuple[str, int], ...] = ()
    critical: tuple[tuple[str, int], ...] = ()


def downgrade_holds(state: ShardState, downgrade: Downgrade) -> ShardState:
    readers, critical = state.readers, state.critical
    for reader_id, since in downgrade.readers:
        r = readers.get(reader_id)
        if r is not None and since > r.since:
            readers = dict(readers) if readers is state.readers else readers
            readers[reader_id] = replace(r, since=since)
    for holder, since in downgrade.critical:
        if holder in critical and since > critical[holder]:
            critical = dict(critical) if critical is state.critical else critical
            critical[holder] = since
    if readers is state.readers and critical is state.critical:
        return state
    return replace(state, readers=readers, critical=critical, since=_recompute_since(state, readers, critical))


def register_critical(state: ShardState, holder: str) -> ShardState | None:
    if holder in state.critical:
        return None
    critical = dict(state.critical)
    critical[holder] = state.since
    return replace(state, critical=critical)


def downgrade_critical(state: ShardState, holder: str, since: int) -> ShardState | None:
    if holder not in state.critical:
        raise UsageError(f"{holder} holds no critical since on shard {state.shard_id}")
    new = downgrade_holds(state, Downgrade(critical=((holder, since),)))
    return None if new is state else new


@dataclass(frozen=True)
class AppendOutcome:
    """What a compare_and_append found: ``applied`` (now or by an earlier
    attempt with the same token), else the shard's actual upper."""

    applied: bool
    upper: int
    already: bool = False


def compare_and_append(
    state: ShardState,
    *,
    writer_id: str,
    batch_id: str,
    parts: tuple[PartMeta, ...],
    expected_upper: int,
    new_upper: int,
    token: str,
    lease_expires_at: int,
    max_inline_bytes: int,
) -> tuple[ShardState | None, AppendOutcome]:
    w = state.writers.get(writer_id)
    if w is None:
        raise UsageError(f"writer {writer_id} of shard {state.shard_id} is not registered (its lease expired?)")
    if w.last_token == token:
        return None, AppendOutcome(True, state.upper, already=True)
    if state.upper != expected_upper:
        return None, AppendOutcome(False, state.upper)
    inline = sum(len(p.inline) for p in parts if p.inline is not None)
    if inline and state.inline_bytes + inline > max_inline_bytes:
        raise UsageError("inline batch does not fit in the state; write it to blob")  # the caller re-writes it
    batches = list(state.batches)
    lower = expected_upper
    if batches and not batches[-1].parts:
        # The trailing empty batch is widened (empty append) or absorbed
        # (data append): either way its range joins the new batch.
        lower = batches.pop().lower
    batches.append(BatchMeta(batch_id, lower, new_upper, 0, parts))
    writers = dict(state.writers)
    writers[writer_id] = WriterState(lease_expires_at, token, new_upper)
    return replace(state, upper=new_upper, batches=tuple(batches), writers=writers), AppendOutcome(True, new_upper)


def run_start(state: ShardState, batch_ids: list[str]) -> int | None:
    """Where the batches ``batch_ids`` are, as a contiguous run, in
    ``state``'s list; None when they are not all there, in that order."""
    ids = [b.id for b in state.batches]
    try:
        start = ids.index(batch_ids[0])
    except ValueError:
        return None
    return start if ids[start : start + len(batch_ids)] == batch_ids else None


def replace_batches(state: ShardState, input_ids: list[str], output: BatchMeta) -> ShardState | None:
    """Install a compaction result: the contiguous run ``input_ids`` becomes
    ``output`` (widened to the run's current range). None if the inputs are
    no longer all present and contiguous."""
    start = run_start(state, input_ids)
    if start is None:
        return None
    run = state.batches[start : start + len(input_ids)]
    merged = replace(output, lower=run[0].lower, upper=run[-1].upper)
    batches = state.batches[:start] + (merged,) + state.batches[start + len(input_ids) :]
    kept = set(merged.keys)
    gone = [(state.seqno + 1, k) for b in run for k in b.keys if k not in kept]
    return replace(state, batches=batches, retired=state.retired + tuple(gone))


def finish_gc(state: ShardState, deleted: set[str]) -> ShardState:
    """Forget retired keys GC deleted, and note that GC ran."""
    retired = tuple(r for r in state.retired if r[1] not in deleted)
    return replace(state, gc_seqno=state.seqno + 1, retired=retired)
