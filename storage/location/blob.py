"""The Blob interface: a durable map from string keys to immutable bytes.

Owns the contract every Blob implementation keeps (seed 003, "Blob+Consensus"):

* ``set(key, value)`` is atomic: a concurrent ``get`` sees either nothing or
  all of ``value``, never a prefix.
* Keys are write-once by convention: a key is set at most once with one value
  (or re-set with the identical value by a retry). Because of this Blob need
  not be linearizable: a reader that misses a key just retries.
* ``delete(key)`` is idempotent: deleting a missing key is not an error.
* ``list(prefix)`` returns every key currently set that starts with
  ``prefix``, in ascending order.
* ``adopt(staged, key)`` moves an object written from outside (at
  ``external_path(staged)``) to ``key`` as ``set`` would have written it.

Keys are non-empty strings of ``/``-separated segments; no segment is empty,
``.`` or ``..``, or starts with ``.tmp-`` (reserved for in-flight writes), and
no key contains NUL or a backslash. ``validate_key`` enforces this for every
implementation so a key that works on one works on all.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

from storage.errors import UsageError

TMP_PREFIX = ".tmp-"


@dataclass(frozen=True, order=True)
class BlobMeta:
    """A listed key and the size in bytes of its value."""

    key: str
    size: int


def validate_key(key: str) -> str:
    """Return ``key`` if it is a valid blob key, else raise ``UsageError``."""
    if not isinstance(key, str) or not key:
        raise UsageError(f"blob key must be a non-empty string, got {key!r}")
    if "\x00" in key or "\\" in key:
        raise UsageError(f"blob key {key!r} contains NUL or a backslash")
    for segment in key.split("/"):
        if segment in ("", ".", "..") or segment.startswith(TMP_PREFIX):
            raise UsageError(f"blob key {key!r} has an invalid segment {segment!r}")
    return key


class Blob(abc.ABC):
    """A durable key -> bytes store. All methods are coroutines.

    Implementations raise only ``storage.errors`` types: ``UsageError`` for a
    bad key, ``DeterminateError``/``IndeterminateError`` for store failures.
    """

    #: Short name of the implementation, for logs and benchmarks.
    kind: str = "?"

    @abc.abstractmethod
    async def get(self, key: str) -> bytes | None:
        """The value set at ``key``, or ``None`` if there is none."""

    @abc.abstractmethod
    async def set(self, key: str, value: bytes) -> None:
        """Atomically map ``key`` to ``value`` (durable when this returns)."""

    @abc.abstractmethod
    async def delete(self, key: str) -> int | None:
        """Remove ``key``; return the size removed, or ``None`` if absent."""

    @abc.abstractmethod
    async def list(self, prefix: str = "") -> list[BlobMeta]:
        """Every key starting with ``prefix`` (sorted), with its size."""

    def external_path(self, key: str) -> str | None:
        """Where a writer outside txngate (Spark's Parquet writer) may put
        the object ``key`` itself, or None when it cannot (it then hands
        its bytes to ``set``). Such an object becomes a value through
        ``adopt``."""
        return None

    async def adopt(self, staged: str, key: str) -> None:
        """Make the object an outside writer put at ``staged`` the value of
        ``key``, durably, and remove ``staged``. Idempotent once ``key``
        holds it (a retry after ``staged`` is gone does nothing)."""
        data = await self.get(staged)
        if data is None:
            if await self.get(key) is not None:
                return
            raise UsageError(f"blob adopt: nothing at {staged!r}")
        await self.set(key, data)
        await self.delete(staged)

    async def close(self) -> None:
        """Release connections and threads. Idempotent."""
