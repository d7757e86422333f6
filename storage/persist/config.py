"""Tuning knobs of persist, with defaults for this machine."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class PersistConfig:
    #: Arrow bytes buffered before a part is written to Blob.
    part_bytes: int = 8 << 20
    #: A batch whose encoded parts total less than this is stored inline.
    inline_threshold: int = 4096
    #: Cap on inline bytes in one shard state (beyond it, batches go to Blob).
    #: A group commit's txns rows carry its members' small batches, and
    #: the txns state holds them (twice, until a tidy's retraction is
    #: compacted away): at 32 KiB, groups of 64 clients spilled to Blob, and
    #: every other gateway process had to get them back (64 clients, 2
    #: workers, S3: 747 commits/s at 32 KiB, 1,437 at 128 KiB).
    max_inline_bytes: int = 128 << 10
    reader_lease_ms: int = 5 * 60_000
    writer_lease_ms: int = 15 * 60_000
    #: Orphaned parts (never referenced by state) younger than this are kept.
    gc_grace_ms: int = 60 * 60_000
    #: Run GC after this many state changes since the last one.
    gc_every_seqnos: int = 256
    #: Let writers start compactions in the background after appending.
    compaction: bool = True
    #: How long a location error is retried before giving up.
    retry_timeout_s: float = 30.0
    #: Millisecond wall clock, for leases (tests inject a fake one).
    clock: Callable[[], int] = field(default=wall_clock_ms)
