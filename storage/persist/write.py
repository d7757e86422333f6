"""Write handles: building batches and appending them.

A ``WriteHandle`` is a registered writer of one shard with a lease (renewed
by every append and by ``heartbeat``). ``compare_and_append(batch,
expected_upper, new_upper)`` adds a batch covering ``[expected_upper,
new_upper)`` if and only if the shard's upper is ``expected_upper``; on a
mismatch it returns the actual upper and changes nothing (the batch's parts
stay in Blob for the caller to retry with, e.g. after ``rewrite_ts``, or to
``delete``).

Idempotency: every call carries a token (a fresh one unless the caller
passes its own). The token is recorded with the writer in the same CaS that
appends, so when an attempt ends indeterminately the machine re-reads the
state and recognises its own append instead of applying it twice. A caller
that got an error may retry with the same token for the same effect. (Only
the writer's latest token is kept: a writer resolves one append before
starting the next.)

After a successful append the handle may start a compaction in the
background (``compact.py``); the append never waits for it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
import uuid

import pyarrow as pa

from storage.errors import UsageError
from storage.location import Blob
from storage.persist import codec
from storage.persist import state as st
from storage.persist.batch import BatchBuilder, BatchHandle, blob_bytes, part_key, part_schema
from storage.persist.config import PersistConfig
from storage.persist.handle_base import ShardHandle
from storage.persist.machine import Machine
from storage.persist.retry import retry_idempotent

logger = logging.getLogger(__name__)


class WriteHandle(ShardHandle):
    def __init__(self, machine: Machine, blob: Blob, writer_id: str, config: PersistConfig, maintenance):
        super().__init__(machine, blob, config)
        self.writer_id = writer_id
        self._maintenance = maintenance

    @property
    def upper(self) -> int:
        """The upper as last seen by this process (may be stale)."""
        return self.machine.state.upper

    async def fetch_upper(self) -> int:
        return (await self.machine.fetch()).upper

    def builder(self, *, ts: int | None = None, inline_threshold: int | None = None) -> BatchBuilder:
        """A builder of this shard's batches; ``inline_threshold`` (default
        the config's): the encoded size below which a batch stays inline."""
        return BatchBuilder(
            self.blob, self.shard_id, self.schema, self.writer_id, ts=ts, part_bytes=self.config.part_bytes,
            inline_threshold=self.config.inline_threshold if inline_threshold is None else inline_threshold, clock=self.config.clock,
        )

    async def batch(self, table: pa.Table, *, ts: int | None = None, diff: int | None = None,
                    inline_threshold: int | None = None) -> BatchHandle:
        """Write ``table`` as one batch (times from ``_ts`` or ``ts``)."""
        b = self.builder(ts=ts, inline_threshold=inline_threshold)
        try:
            await b.add(table, diff=diff)
            return await b.finish()
        except BaseException:
            await b.abort()
            raise

    async def compare_and_append(
        self, batch: BatchHandle | None, expected_upper: int, new_upper: int, *, token: str | None = None,
        downgrade: st.Downgrade | None = None,
    ) -> st.AppendOutcome:
        """Append ``batch`` (None: no data, only advance the upper), and if
        it is appended, advance the since holds ``downgrade`` names in the
        same compare-and-set."""
        parts = batch.parts if batch is not None else ()
        if batch is not None:
            if batch.shard_id != self.shard_id:
                raise UsageError(f"batch was written for shard {batch.shard_id}, not {self.shard_id}")
            if batch.fingerprint != self.fingerprint and not (batch.schema and codec.schema_from_bytes(batch.schema) == self.schema):
                raise UsageError("batch schema differs from the shard's")
        if not expected_upper < new_upper <= st.FOREVER:
            raise UsageError(f"cannot append [{expected_upper}, {new_upper}): the range must be non-empty")
        if parts and (batch.min_ts < expected_upper or batch.max_ts >= new_upper):
            raise UsageError(f"batch times [{batch.min_ts}, {batch.max_ts}] fall outside [{expected_upper}, {new_upper})")
        token = token or uuid.uuid4().hex
        batch_id = uuid.uuid4().hex[:16]
        lease = self.config.clock() + self.config.writer_lease_ms

        def t(s: st.ShardState):
            new, outcome = st.compare_and_append(
                s, writer_id=self.writer_id, batch_id=batch_id, parts=parts, expected_upper=expected_upper,
                new_upper=new_upper, token=token, lease_expires_at=lease, max_inline_bytes=self.config.max_inline_bytes,
            )
            if new is not None and downgrade is not None:
                new = st.downgrade_holds(new, downgrade)
            return new, outcome

        try:
            state, outcome = await self.machine.apply(t)
        except UsageError as e:
            if "does not fit" not in str(e):
                raise
            # Too many inline bytes in the state right now: move the inline
            # parts to Blob and append that instead.
            batch = await self._uninline(batch)
            return await self.compare_and_append(batch, expected_upper, new_upper, token=token, downgrade=downgrade)
        if outcome.applied and not outcome.already:
            self._maintenance(self, state)
        return outcome

    async def _uninline(self, batch: BatchHandle) -> BatchHandle:
        parts = []
        for p in batch.parts:
            if p.inline is not None:
                key = part_key(self.shard_id, self.writer_id, self.config.clock())
                data = blob_bytes(p.inline, part_schema(self.schema, p))
                await retry_idempotent(lambda: self.blob.set(key, data))
                p = replace(p, key=key, inline=None, nbytes=len(data))
            parts.append(p)
        return replace(batch, parts=tuple(parts))

    async def append(self, batch: BatchHandle | None, new_upper: int) -> int:
        """Single-writer append at the current upper; returns the lower used."""
        while True:
            expected = await self.fetch_upper()
            outcome = await self.compare_and_append(batch, expected, new_upper)
            if outcome.applied:
                return expected
            if outcome.upper >= new_upper:
                raise UsageError(f"shard {self.shard_id} upper {outcome.upper} is already past {new_upper}")

    async def heartbeat(self) -> None:
        lease = self.config.clock() + self.config.writer_lease_ms
        await self.machine.apply(lambda s: (st.register_writer(s, self.writer_id, lease), None))

    async def expire(self) -> None:
        await self.machine.apply(lambda s: (st.expire_writer(s, self.writer_id), None))

    async def wait_idle(self) -> None:
        """Wait for background compaction this process started (tests, benches)."""
        await self._maintenance.idle()
