"""What read and write handles share: the shard's machine, Blob and config."""

from __future__ import annotations

import pyarrow as pa

from storage.location import Blob
from storage.persist import codec
from storage.persist.config import PersistConfig
from storage.persist.machine import Machine


class ShardHandle:
    def __init__(self, machine: Machine, blob: Blob, config: PersistConfig):
        self.machine = machine
        self.blob = blob
        self.config = config

    @property
    def shard_id(self) -> str:
        return self.machine.shard_id

    @property
    def schema(self) -> pa.Schema:
        raw = self.machine.state.schema
        cached = getattr(self, "_schema", None)
        if cached is None or cached[0] is not raw:
            cached = self._schema = (raw, codec.schema_from_bytes(raw))
        return cached[1]

    @property
    def known_upper(self) -> int:
        """The shard's upper as this handle last saw it: the real upper is
        at or past it (uppers only advance)."""
        return self.machine.state.upper
