"""In-memory Blob and Consensus, for unit tests only.

They keep exactly the contracts of ``blob.py`` and ``consensus.py`` (they run
the same contract suite as the durable ones) but nothing survives the
process. Several handles may share one store by opening the same
``mem://name`` URL in one process.

Invariant: every operation completes atomically with respect to the event
loop (no ``await`` inside a critical section), and values are copied on the
way in and out so callers can never mutate stored bytes.
"""

from __future__ import annotations

import bisect
import threading

from storage.location.blob import Blob, BlobMeta, validate_key
from storage.location.consensus import (
    SCAN_ALL,
    Consensus,
    VersionedData,
    check_cas_args,
    check_key,
    check_scan_args,
    truncate_past_head,
)


class MemBlob(Blob):
    kind = "mem"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: dict[str, bytes] = {}

    async def get(self, key: str) -> bytes | None:
        validate_key(key)
        with self._lock:
            return self._data.get(key)

    async def set(self, key: str, value: bytes) -> None:
        validate_key(key)
        value = bytes(value)
        with self._lock:
            self._data[key] = value

    async def delete(self, key: str) -> int | None:
        validate_key(key)
        with self._lock:
            value = self._data.pop(key, None)
        return None if value is None else len(value)

    async def list(self, prefix: str = "") -> list[BlobMeta]:
        with self._lock:
            return sorted(BlobMeta(k, len(v)) for k, v in self._data.items() if k.startswith(prefix))


class MemConsensus(Consensus):
    kind = "mem"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._logs: dict[str, list[VersionedData]] = {}

    async def head(self, key: str) -> VersionedData | None:
        check_key(key)
        with self._lock:
            log = self._logs.get(key)
            return log[-1] if log else None

    async def compare_and_set(self, key: str, expected: int | None, data: bytes) -> bool:
        seqno = check_cas_args(key, expected, data)
        with self._lock:
            log = self._logs.setdefault(key, [])
            current = log[-1].seqno if log else None
            if current != expected:
                return False
            log.append(VersionedData(seqno, bytes(data)))
            return True

    async def scan(self, key: str, from_seqno: int = 0, limit: int = SCAN_ALL) -> list[VersionedData]:
        check_scan_args(key, from_seqno, limit)
        with self._lock:
            log = self._logs.get(key, [])
            start = bisect.bisect_left([e.seqno for e in log], from_seqno)
            return log[start : start + limit]

    async def truncate(self, key: str, before: int) -> int:
        check_key(key)
        with self._lock:
            log = self._logs.get(key, [])
            head = log[-1].seqno if log else None
            if head is None or before > head:
                raise truncate_past_head(key, before, head)
            keep = [e for e in log if e.seqno >= before]
            self._logs[key] = keep
            return len(log) - len(keep)

    async def list_keys(self) -> list[str]:
        with self._lock:
            return sorted(k for k, log in self._logs.items() if log)


# Named in-memory stores, so two handles opened from the same ``mem://name``
# URL in one process share data (as two processes would share S3).
_NAMED_BLOBS: dict[str, MemBlob] = {}
_NAMED_CONSENSUS: dict[str, MemConsensus] = {}
_NAMED_LOCK = threading.Lock()


def named_mem_blob(name: str) -> MemBlob:
    if not name:
        return MemBlob()
    with _NAMED_LOCK:
        return _NAMED_BLOBS.setdefault(name, MemBlob())


def named_mem_consensus(name: str) -> MemConsensus:
    if not name:
        return MemConsensus()
    with _NAMED_LOCK:
        return _NAMED_CONSENSUS.setdefault(name, MemConsensus())
