"""PersistClient: the entry point to shards over one Blob and one Consensus.

One client per process and location pair. It keeps one ``Machine`` (the
cached state) per shard, so all handles of a shard in this process share
it, and one ``Maintenance`` for background compaction and GC.
"""

from __future__ import annotations

import uuid

import pyarrow as pa

from storage.errors import UsageError
from storage.location import Blob, Consensus
from storage.persist import codec
from storage.persist import state as st
from storage.persist.compact import Maintenance, choose, compact_run
from storage.persist.config import PersistConfig
from storage.persist.gc import GcReport, collect_garbage
from storage.persist.machine import Machine
from storage.persist.read import ReadHandle
from storage.persist.write import WriteHandle

SHARD_PREFIX = "shard/"


class PersistClient:
    def __init__(self, blob: Blob, consensus: Consensus, config: PersistConfig | None = None):
        self.blob = blob
        self.consensus = consensus
        self.config = config or PersistConfig()
        self._machines: dict[str, Machine] = {}
        self._readers: list[ReadHandle] = []
        #: ``async (shard_id) -> keys``: parts GC must keep although no
        #: state of the shard names them (set by the txns layer).
        self.orphan_guard = None
        self.maintenance = Maintenance(self.config, self.gc)

    def machine(self, shard_id: str) -> Machine:
        m = self._machines.get(shard_id)
        if m is None:
            if not shard_id or "/" in shard_id:
                raise UsageError(f"invalid shard id {shard_id!r}")
            m = Machine(shard_id, self.consensus, max_inline_bytes=self.config.max_inline_bytes, retry_timeout_s=self.config.retry_timeout_s)
            self._machines[shard_id] = m
        return m

    async def create_shard(self, shard_id: str, schema: pa.Schema) -> st.ShardState:
        """Create the shard if it does not exist; its schema must match if it does."""
        schema = codec.check_schema(schema)
        m = self.machine(shard_id)
        state = await m.create(st.ShardState(shard_id=shard_id, schema=codec.schema_to_bytes(schema)))
        if codec.schema_from_bytes(state.schema) != schema:
            raise UsageError(f"shard {shard_id} exists with a different schema")
        return state

    async def open_writer(self, shard_id: str, schema: pa.Schema | None = None, *, writer_id: str | None = None) -> WriteHandle:
        m = self.machine(shard_id)
        if schema is not None:
            await self.create_shard(shard_id, schema)
        else:
            await m.current()
        writer_id = writer_id or f"w{uuid.uuid4().hex[:12]}"
        lease = self.config.clock() + self.config.writer_lease_ms
        await m.apply(lambda s: (st.register_writer(s, writer_id, lease), None))
        return WriteHandle(m, self.blob, writer_id, self.config, self.maintenance)

    async def open_reader(self, shard_id: str, *, reader_id: str | None = None, heartbeats: bool = True) -> ReadHandle:
        m = self.machine(shard_id)
        await m.current()
        reader_id = reader_id or f"r{uuid.uuid4().hex[:12]}"
        lease = self.config.clock() + self.config.reader_lease_ms
        await m.apply(lambda s: (st.register_reader(s, reader_id, lease, s.seqno + 1), None))
        handle = ReadHandle(m, self.blob, reader_id, self.config)
        if heartbeats:
            handle.start_heartbeats()
        self._readers.append(handle)
        return handle

    async def register_critical(self, shard_id: str, holder: str) -> int:
        """Register a since hold that never expires; returns its since."""
        state, _ = await self.machine(shard_id).apply(lambda s: (st.register_critical(s, holder), None))
        return state.critical[holder]

    async def downgrade_critical(self, shard_id: str, holder: str, since: int) -> None:
        await self.machine(shard_id).apply(lambda s: (st.downgrade_critical(s, holder, since), None))

    async def compact(self, shard_id: str) -> int:
        """Run compactions until the shard's shape needs none; return how many."""
        m = self.machine(shard_id)
        runs = 0
        while (inputs := choose(await m.fetch())) is not None:
            await compact_run(m, self.blob, self.config, inputs)
            runs += 1
        return runs

    async def gc(self, shard_id: str) -> GcReport:
        return await collect_garbage(self.machine(shard_id), self.blob, self.consensus, self.config, self.orphan_guard)

    async def state(self, shard_id: str) -> st.ShardState:
        state = await self.machine(shard_id).fetch()
        if state is None:
            raise UsageError(f"shard {shard_id} does not exist")
        return state

    async def list_shards(self) -> list[str]:
        return [k[len(SHARD_PREFIX):] for k in await self.consensus.list_keys() if k.startswith(SHARD_PREFIX)]

    async def inspect(self, shard_id: str) -> dict:
        s = await self.state(shard_id)
        now = self.config.clock()
        schema = codec.schema_from_bytes(s.schema)
        return {
            "shard": shard_id,
            "seqno": s.seqno,
            "upper": s.upper,
            "since": s.since,
            "columns": [f"{f.name} {codec.sql_type_of(f) or f.type}" for f in schema],
            "batches": {
                "count": len(s.batches),
                "rows": sum(b.rows for b in s.batches),
                "bytes": sum(b.nbytes for b in s.batches),
                "parts_inline": sum(1 for b in s.batches for p in b.parts if p.inline is not None),
                "parts_blob": sum(1 for b in s.batches for p in b.parts if p.key is not None),
                "inline_bytes": s.inline_bytes,
                "list": [{"lower": b.lower, "upper": b.upper, "since": b.since, "rows": b.rows, "bytes": b.nbytes, "parts": len(b.parts)} for b in s.batches],
            },
            "readers": {k: {"since": r.since, "seqno_since": r.seqno_since, "lease_ms_left": r.lease_expires_at - now} for k, r in s.readers.items()},
            "writers": {k: {"last_upper": w.last_upper, "lease_ms_left": w.lease_expires_at - now} for k, w in s.writers.items()},
            "critical": dict(s.critical),
        }

    async def close(self) -> None:
        for r in self._readers:
            if r._heartbeat_task is not None:
                r._heartbeat_task.cancel()
        await self.maintenance.close()
