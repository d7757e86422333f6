"""What read and write handles share: the shard's machine, Blob and config."""

from __future__ import annotations

import pyarrow as pa

from storage.location import Blob
from storage.persist import codec
from storage.persist.batch import schema_fingerprint
from storage.persist.config import PersistConfig
from storage.persist.machine import Machine


class ShardHandle:
    def __init__(self, machine: Machine, blob: Blob, config: PersistConfig):
        self.machine = machine
        self.blob = blob
        self.config = config
        self._decoded: tuple[bytes, pa.Schema, str] | None = None  # the state's schema bytes, decoded, fingerprinted

    @property
    def shard_id(self) -> str:
        return self.machine.shard_id

    @property
    def schema(self) -> pa.Schema:
        return self._schema()[1]

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the schema batches built here carry."""
        return self._schema()[2]

    def _schema(self) -> tuple[bytes, pa.Schema, str]:
        """The shard's schema, decoded once per state schema."""
        raw = self.machine.state.schema
        if self._decoded is None or self._decoded[0] is not raw:
            schema = codec.schema_from_bytes(raw)
            self._decoded = (raw, schema, schema_fingerprint(codec.schema_to_bytes(schema)))
        return self._decoded

    @property
    def known_upper(self) -> int:
        """The shard's upper as this handle last saw it: the real upper is
        at or past it (uppers only advance)."""
        return self.machine.state.upper
