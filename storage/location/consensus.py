"""The Consensus interface: a linearizable, durable log per key.

Owns the contract every Consensus implementation keeps (seed 003,
"Blob+Consensus"; DESIGN.md "Storage engine"):

* Each key names an independent log of ``VersionedData(seqno, data)``.
* ``compare_and_set(key, expected, data)`` appends ``data`` at seqno
  ``expected + 1`` (seqno ``0`` when ``expected`` is ``None``) if and only if
  the log's head is at ``expected`` (the log is empty when ``None``). Exactly
  one writer wins each seqno; the seqnos of a log are contiguous.
* ``head(key)`` returns the entry with the greatest seqno, or ``None``.
  It is linearizable: it reflects every CaS that returned before it started.
* ``scan(key, from_seqno, limit)`` returns entries with seqno >= from_seqno
  in ascending order, at most ``limit`` of them.
* ``truncate(key, before)`` deletes entries with seqno < ``before`` and
  returns how many it deleted. It never removes the head: ``before`` greater
  than the head's seqno is a ``UsageError``. After truncation the remaining
  entries are still a contiguous run ending at the head.

Errors: a lost race is not an error (CaS returns ``False``). Failures raise
``DeterminateError`` when the operation certainly did not happen and
``IndeterminateError`` when it may have (a CaS that timed out after being
sent may have won; re-read the head to find out).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

from storage.errors import UsageError

#: Largest payload one log entry may hold. Shard states stay far below this;
#: larger states roll up into Blob.
MAX_DATA_BYTES = 64 * 1024 * 1024

SCAN_ALL = 2**62


@dataclass(frozen=True)
class VersionedData:
    """One log entry: ``data`` written at ``seqno``."""

    seqno: int
    data: bytes


def check_cas_args(key: str, expected: int | None, data: bytes) -> int:
    """Validate CaS arguments; return the seqno the new entry would take."""
    check_key(key)
    if expected is not None and (not isinstance(expected, int) or expected < 0):
        raise UsageError(f"expected seqno must be None or >= 0, got {expected!r}")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UsageError(f"consensus data must be bytes, got {type(data).__name__}")
    if len(data) > MAX_DATA_BYTES:
        raise UsageError(f"consensus entry of {len(data)} bytes exceeds {MAX_DATA_BYTES}")
    return 0 if expected is None else expected + 1


def check_key(key: str) -> str:
    if not isinstance(key, str) or not key or "\x00" in key:
        raise UsageError(f"consensus key must be a non-empty string without NUL, got {key!r}")
    return key


def check_scan_args(key: str, from_seqno: int, limit: int) -> None:
    check_key(key)
    if from_seqno < 0:
        raise UsageError(f"scan from_seqno must be >= 0, got {from_seqno}")
    if limit < 1:
        raise UsageError(f"scan limit must be >= 1, got {limit}")


def truncate_past_head(key: str, before: int, head: int | None) -> UsageError:
    return UsageError(
        f"cannot truncate {key!r} before seqno {before}: head is {head}; truncate never removes the head"
    )


class Consensus(abc.ABC):
    """A linearizable log per key. All methods are coroutines."""

    kind: str = "?"

    @abc.abstractmethod
    async def head(self, key: str) -> VersionedData | None:
        """The entry with the greatest seqno, or ``None`` for an empty log."""

    @abc.abstractmethod
    async def compare_and_set(self, key: str, expected: int | None, data: bytes) -> bool:
        """Append ``data`` at ``expected + 1`` iff the head is at ``expected``."""

    @abc.abstractmethod
    async def scan(self, key: str, from_seqno: int = 0, limit: int = SCAN_ALL) -> list[VersionedData]:
        """Entries with seqno >= ``from_seqno``, ascending, at most ``limit``."""

    @abc.abstractmethod
    async def truncate(self, key: str, before: int) -> int:
        """Delete entries with seqno < ``before`` (never the head); return the count."""

    async def list_keys(self) -> list[str]:
        """Every key with at least one entry (for inspection tools)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Release connections and threads. Idempotent."""
