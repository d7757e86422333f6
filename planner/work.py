"""Work: what one transaction reads and writes, at its timestamps.

A ``Work`` is the context every statement runs in: an explicit transaction
(BEGIN ... COMMIT), the implicit transaction of a multi-statement query
string, or one autocommit statement (recreated for each recompute of a
read-then-write). It owns:

* ``read_ts``: taken from the oracle at the first read, then fixed — every
  read of the transaction, of any table or of the catalog, is at it;
* ``reads``: the shards read whole (the catalog included) and ``points``:
  the shards read only by key, with the key hashes; the commit checks that
  nothing of them was written after ``read_ts`` (serializability, seed
  000; key-granular, so inserts of different keys do not conflict);
* ``pending``: the rows written so far (with ``_diff``) per shard, so later
  statements read their own writes — the catalog's too, so DDL inside a
  transaction is seen by the statements after it;
* ``txn``: the same writes, buffered (and spilled to batches) for commit;
* shards created by DDL (forgotten if the work aborts) and shards dropped
  (forgotten once the work commits);
* ``deferred``: the checks of DEFERRABLE INITIALLY DEFERRED foreign keys,
  which the session runs before COMMIT (``planner.references``).

Invariants: ``read_ts`` never changes once set; ``pending`` and ``txn`` hold
the same writes; a Work is committed or aborted at most once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from planner.catalog import CATALOG_SCHEMA, CATALOG_SHARD, Catalog, Relation, row_keys
from planner.errors import READ_ONLY_TRANSACTION, SqlError, serialization_failure
from planner.sqltypes import TYPE_SCOPE
from planner.waits import waiting
from storage.errors import CommitUnknown, Conflict
from storage.persist import DIFF, LeasedParts, collapse, comparable, expand
from storage.txns import Txn, key_hash, refresh
from local_exec import key_tuples, matching


logger = logging.getLogger(__name__)

#: Writes to one table a work keeps as separate parts before joining them.
PENDING_PARTS = 32

#: Keys of one table a transaction reads or writes before it counts as
#: reading or writing the whole table (commit records and validation stay small).
MAX_KEYS = 1024


#: per-row Python work on more rows than this (key hashes, uniqueness
#: checks, a VALUES list) runs on a worker thread (``off_loop``), so other
#: sessions are served meanwhile
THREAD_ROWS = 2_000


async def off_loop(rows: int, fn, *args):
    """``fn(*args)``, on a worker thread when it handles over THREAD_ROWS rows."""
    if rows > THREAD_ROWS:
        return await asyncio.to_thread(fn, *args)
    return fn(*args)


def key_hashes(rel: Relation, rows: pa.Table) -> set[int]:
    """The hashes of every key ``rows`` have in each uniqueness constraint
    of ``rel`` (keys with a NULL identify nothing: they never conflict)."""
    out: set[int] = set()
    for _name, cols in rel.keys:
        out |= constraint_hashes(cols, rows)
    return out


def constraint_hashes(cols, rows: pa.Table | list[tuple]) -> set[int]:
    """The hashes of the keys ``rows`` (a table, or key tuples) have in the
    uniqueness constraint on ``cols``."""
    keys = rows if isinstance(rows, list) else zip(*(comparable(rows.column(c)).to_pylist() for c in cols))
    constraint = ",".join(cols)
    return {key_hash(constraint, key) for key in keys if None not in key}


def with_diff(rows: pa.Table, diff: int) -> pa.Table:
    return rows.append_column(pa.field(DIFF, pa.int64(), False), pa.repeat(pa.scalar(diff, pa.int64()), rows.num_rows))


def _diff_schema(schema: pa.Schema) -> pa.Schema:
    return pa.schema(list(schema) + [pa.field(DIFF, pa.int64(), False)])


@dataclass
class Work:
    db: object  # planner.database.Database
    txn: Txn
    read_ts: int | None = None
    read_only: bool = False
    reads: list[str] = field(default_factory=list)
    points: dict[str, set[int]] = field(default_factory=dict)
    pending: dict[str, list[pa.Table]] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    failed: bool = False
    done: bool = False
    unseen_writes: bool = False  # writes made with keep=False
    explicit: bool = False  # a transaction of several statements
    outcome_unknown: bool = False  # its commit was sent and not heard back from
    deferred: list = field(default_factory=list)  # foreign-key checks left for COMMIT (planner.references.Deferred)
    constraint_modes: dict = field(default_factory=dict)  # SET CONSTRAINTS: name (None: ALL) -> "immediate" / "deferred"
    discarded: bool = False  # a statement's reading, aborted after: its read set validates nothing, so none is kept
    _base: tuple[int, Catalog] | None = None  # the catalog at read_ts, once looked up
    _held: int | None = None  # read_ts, while the txns cache keeps history for it

    @classmethod
    def begin(cls, db, *, read_ts: int | None = None, read_only: bool = False, reads: list[str] | None = None,
              points: dict[str, set[int]] | None = None, discarded: bool = False) -> "Work":
        return cls(db, db.txns.begin(), read_ts, read_only, reads if reads is not None else [], points if points is not None else {},
                   discarded=discarded)

    @property
    def wrote(self) -> bool:
        return bool(self.pending) or self.unseen_writes

    @property
    def data_reads(self) -> list[str]:
        """The data shards read, whole or by key."""
        return [s for s in self.reads if s != CATALOG_SHARD] + [s for s in self.points if s not in self.reads and s != CATALOG_SHARD]

    async def ts(self) -> int:
        """The read timestamp, held in the txns cache until ``release``:
        commit asks what changed since it, and no data shard's since passes it."""
        if self.read_ts is None:
            self.read_ts = await self.db.txns.read_ts(self.db.oracle)  # held already
            if self._held is None and not self.done:
                self._held = self.read_ts
            else:
                self.db.txns.cache.release_history(self.read_ts)
        elif self._held is None and not self.done:
            self._held = self.read_ts
            self.db.txns.cache.hold_history(self._held)
        return self.read_ts

    def refresh(self) -> None:
        """Before a statement of an explicit transaction: move ``read_ts``
        forward when nothing this work read was written since
        (``storage.txns.refresh``), so the reads still to come, and the
        commit's validation, start later. A conflict is then reported only
        for a write after the statement that read it, not after BEGIN."""
        if self.read_ts is None or self._held is None or self.done:
            return
        ts = refresh(self.db.txns, self.read_ts, self.reads, self.points)
        if ts != self.read_ts:
            self.db.txns.cache.release_history(self._held)
            self.read_ts = self._held = ts

    def release(self) -> None:
        """Let the txns cache forget write times this work may ask about
        (idempotent; commit and abort call it)."""
        held, self._held = self._held, None
        if held is not None:
            self.db.txns.cache.release_history(held)

    def _read(self, shard: str) -> None:
        if shard not in self.reads and not self.discarded:
            self.reads.append(shard)

    def _read_keys(self, shard: str, keys: set[int]) -> None:
        if self.discarded:
            return
        points = self.points.setdefault(shard, set())
        points.update(keys)
        if len(points) > MAX_KEYS:
            self._read(shard)  # past the cap, validated as a scan

    # -- reads ---------------------------------------------------------------

    async def catalog(self) -> Catalog:
        """The catalog at ``read_ts`` plus this work's own DDL; what is
        looked up in it joins the read set, by key (``Catalog.seen_by``).
        It becomes the running statement's ``sqltypes.TYPE_SCOPE``, where
        the names of the types CREATE TYPE made are found."""
        ts = await self.ts()
        if self._base is None or self._base[0] != ts:
            self._base = (ts, await self.db.catalog_at(ts))
        base = self._base[1]
        pending = self.pending.get(CATALOG_SHARD)
        if pending:
            current = await self.db.txns.read(CATALOG_SHARD, ts)
            base = Catalog.from_table(self._merge(current, pending, CATALOG_SCHEMA))
        seen = base.seen_by(self._saw_catalog)
        TYPE_SCOPE.set(seen)  # the statement's type names (enums) are found here
        return seen

    def _saw_catalog(self, keys: frozenset | None) -> None:
        if keys is None:
            self._read(CATALOG_SHARD)
        else:
            self._read_keys(CATALOG_SHARD, keys)

    async def contents(self, rel: Relation) -> pa.Table:
        """``rel``'s rows at ``read_ts`` plus this work's own writes to it
        (the whole table joins the read set; ``lookup`` reads by key)."""
        ts = await self.ts()
        schema = rel.schema_arrow
        if rel.shard in self.created:
            current = schema.empty_table()
        else:
            self._read(rel.shard)
            with waiting("IO", "DataRead"):
                current = await self.db.snapshots.read(rel.shard, ts)
        pending = self.pending.get(rel.shard)
        return self._merge(current, pending, schema) if pending else current

    async def lookup(self, rel: Relation, cols, keys: pa.Table | list[tuple]) -> pa.Table:
        """``rel``'s rows (at ``read_ts`` plus this work's own writes) whose
        ``cols`` equal a row of ``keys`` (a table of those columns, of
        ``rel``'s types, or the keys as tuples of Python values, as a key
        probe has them; a key with a NULL matches nothing), found by the
        snapshot cache's key search, so the cost does not grow with the
        table.

        When ``cols`` are a uniqueness constraint's, only these keys join the
        read set (commits of other keys do not conflict with this work);
        otherwise the whole table does."""
        cols = list(cols)
        ts = await self.ts()
        schema = rel.schema_arrow
        if isinstance(keys, list):
            keys = [k for k in dict.fromkeys(keys) if None not in k]  # as key_tuples makes them
            count = len(keys)
        else:
            keys = pa.Table.from_arrays([keys.column(c).cast(schema.field(c).type) for c in cols], names=cols)
            count = keys.num_rows
        if rel.shard in self.created:
            current = schema.empty_table()
        else:
            if not self.discarded:  # (nothing validates a discarded work's reads: no key hashes for them)
                if any(list(k) == cols for _n, k in rel.keys) and count <= MAX_KEYS:
                    self._read_keys(rel.shard, await off_loop(count, constraint_hashes, cols, keys))
                else:
                    self._read(rel.shard)
            current = await self.db.snapshots.lookup(rel.shard, ts, cols, keys)
        pending = self.pending.get(rel.shard)
        if not pending:
            return current
        wanted = keys if isinstance(keys, list) else key_tuples(keys, cols)
        mine = [part.filter(matching(part, cols, wanted)) for part in pending]
        return self._merge(current, mine, schema)

    def local_only(self, rel: Relation) -> bool:
        """Whether reading ``rel`` must see this work's own writes (which
        only the local engine can merge in)."""
        return rel.shard in self.created or bool(self.pending.get(rel.shard)) or self.unseen_writes

    async def estimate_bytes(self, rel: Relation) -> int:
        """The encoded bytes of ``rel``'s snapshot at ``read_ts``."""
        return await self.db.txns.estimate_bytes(rel.shard, await self.ts())

    async def lease_parts(self, rel: Relation) -> LeasedParts:
        """The parts of ``rel``'s snapshot at ``read_ts``, pinned against GC
        until released (for Spark, which reads them itself)."""
        assert not self.local_only(rel), "a leased snapshot cannot hold this work's own writes"
        ts = await self.ts()
        self._read(rel.shard)
        return await self.db.txns.lease_parts(rel.shard, ts)

    @staticmethod
    def _merge(current: pa.Table, pending: list[pa.Table], schema: pa.Schema) -> pa.Table:
        names = schema.names
        parts = [with_diff(current.select(names), 1)] + [p.select(names + [DIFF]) for p in pending]
        parts = [pa.Table.from_arrays(list(p.columns), schema=_diff_schema(schema)) for p in parts]
        return expand(collapse(pa.concat_tables(parts)))

    # -- writes --------------------------------------------------------------

    async def write(self, shard: str, rows: pa.Table, diff: int, *, keep: bool = True) -> None:
        """Add (``diff`` +1) or retract (-1) ``rows`` (user columns only).

        ``keep=False`` (bulk loads outside an explicit transaction): the rows
        go to the txn only, so memory stays bounded; later statements of
        this work do not see them."""
        if self.read_only:
            raise SqlError(READ_ONLY_TRANSACTION, "cannot execute a write in a read-only transaction")
        if rows.num_rows == 0:
            return
        self.unseen_writes = self.unseen_writes or not keep
        if keep:
            parts = self.pending.setdefault(shard, [])
            parts.append(with_diff(rows, diff))
            if len(parts) > PENDING_PARTS:  # many small writes: one table, so a read costs one pass, not one per write
                parts[:] = [pa.concat_tables(parts).combine_chunks()]
        await self.txn.write(shard, rows, diff)

    def write_batches(self, shard: str, batches) -> None:
        """Add batches written elsewhere (Spark executors) to the commit.
        Later statements of this work do not see them (like ``keep=False``)."""
        if self.read_only:
            raise SqlError(READ_ONLY_TRANSACTION, "cannot execute a write in a read-only transaction")
        for batch in batches:
            assert batch.shard_id == shard, "a batch written for another shard"
            self.txn.write_batch(batch)
            self.unseen_writes = True

    # -- savepoints ------------------------------------------------------------

    def mark(self) -> tuple:
        """A savepoint: how far each of the work's records reached (rows
        written per shard, in order: joining parts keeps their order)."""
        rows = {shard: sum(p.num_rows for p in parts) for shard, parts in self.pending.items()}
        return rows, len(self.created), len(self.dropped), len(self.deferred)

    async def rollback_to(self, mark: tuple) -> None:
        """Undo every write since ``mark``: the txn gets the opposite rows
        (so its buffered writes consolidate to what they were), shards
        dropped since are kept, shards created since are forgotten after
        commit. The work is usable again."""
        rows, created, dropped, deferred = mark
        self.deferred[deferred:] = []
        for shard in list(self.pending):
            written = pa.concat_tables(self.pending[shard])
            keep = rows.get(shard, 0)
            undo = written.slice(keep)
            for diff in pc.unique(undo.column(DIFF)).to_pylist() if undo.num_rows else ():
                await self.txn.write(shard, undo.filter(pc.equal(undo.column(DIFF), diff)).drop_columns([DIFF]), -diff)
            if keep:
                self.pending[shard] = [written.slice(0, keep)]
            else:
                del self.pending[shard]
        self.dropped[dropped:] = []
        self.dropped.extend(self.created[created:])
        self.failed = False

    # -- end -----------------------------------------------------------------

    async def commit(self, *, write_only: bool = False) -> None:
        """Commit through the one lifecycle (``storage.txns.commit``, which
        states what each outcome means): write-only work at a fresh
        ``write_ts`` (grouped); work that read at ``read_ts + 1``, or later
        if nothing it read was written in between, else 40001 and nothing
        is written. ``write_only``: commit grouped even though it read (the
        catalog only, its caller knows)."""
        assert not self.done, "work committed twice"
        assert not self.discarded, "a discarded work kept no read set to commit by"
        self.done = True
        try:
            await self._commit(write_only)
        finally:
            self.release()

    async def _commit(self, write_only: bool) -> None:
        if not self.wrote:
            await self.txn.abort()
            await self._forget(self.created)
            return
        self.note_written()
        try:
            with waiting("IPC", "TxnsCommit"):
                await self.db.committer.commit(self.txn, read_ts=None if write_only else self.read_ts, reads=self.reads, points=self.points)
        except Conflict as e:
            await self.txn.abort()
            await self._forget(self.created)
            raise serialization_failure(e) from None
        except CommitUnknown:
            self.outcome_unknown = True  # perhaps committed: its batches and shards stay
            raise
        except BaseException:
            await self.txn.abort()  # nothing committed
            raise
        await self.committed()

    def note_written(self) -> None:
        """Tell the txn which keys its writes to each keyed table touch
        (``storage.txns.keys``), so readers of other keys of the same table
        do not conflict with it. Tables without keys, writes this work does
        not keep (``unseen_writes``) and more than ``MAX_KEYS`` keys count
        as the whole table, as do the tables of a work that changed the
        catalog (their keys may not be the base catalog's). Catalog rows
        name their objects (``catalog.row_keys``)."""
        ddl = self.pending.get(CATALOG_SHARD)
        if ddl:
            rows = pa.concat_tables([p.select(["kind", "name", "def"]) for p in ddl]).to_pylist()
            self.txn.note_written(CATALOG_SHARD, set().union(*(row_keys(r["kind"], r["name"], r["def"]) for r in rows)))
        if self.unseen_writes or self._base is None or ddl:
            return
        by_shard = {r.shard: r for r in self._base[1].relations.values() if r.shard is not None}
        for shard, parts in self.pending.items():
            rel = by_shard.get(shard)
            if rel is None or not rel.keys or sum(p.num_rows for p in parts) > MAX_KEYS:
                continue
            self.txn.note_written(shard, set().union(*(key_hashes(rel, p) for p in parts)))

    async def committed(self) -> None:
        """After the commit point: forget the shards the work dropped. A
        failure here is logged, never reported (the commit stands)."""
        self.created.clear()
        try:
            await self._forget(self.dropped)
        except Exception:  # noqa: BLE001 - a dropped shard left registered is only a leak
            logger.warning("forgetting dropped shards %s failed", self.dropped, exc_info=True)

    async def abort(self) -> None:
        self.release()
        if self.done or self.outcome_unknown:
            return
        self.done = True
        await self.txn.abort()
        await self._forget(self.created)

    async def _forget(self, shards: list[str]) -> None:
        for shard in shards:
            await self.db.txns.forget(shard, 0)
            self.db.snapshots.forget(shard)
