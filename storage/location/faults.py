"""Fault injection for any Blob and any Consensus.

``FaultyBlob`` and ``FaultyConsensus`` wrap a real implementation and, driven
by a seeded ``random.Random``, inject:

* determinate failures: the call raises ``DeterminateError`` and the inner
  store is not touched;
* indeterminate failures, in two flavours chosen at random: the call is *not*
  forwarded and raises ``IndeterminateError``, or the call *is* forwarded and
  takes effect, then raises ``IndeterminateError`` ("the write happened, then
  the caller got a timeout");
* latency: a random sleep before the call;
* late answers: a write takes effect, and its answer reaches the caller
  after a random sleep (meanwhile others see it: a store's round trip).

Reads (``get``, ``list``, ``head``, ``scan``) only ever fail determinately:
nothing changes when a read fails. The same seed gives the same sequence of
decisions for the same sequence of calls, so a failing stress run can be
replayed. ``CountingBlob`` only counts (no faults). ``inject_once(op, kind)`` forces the next call of ``op`` to fail
in a given way, for tests of one precise failure. ``FaultConfig`` can be changed at any time (e.g. turned off to
let a test finish cleanly); ``counts`` records what was injected.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass

from storage.errors import DeterminateError, IndeterminateError
from storage.location.blob import Blob, BlobMeta
from storage.location.consensus import SCAN_ALL, Consensus, VersionedData


@dataclass
class FaultConfig:
    """Probabilities per call. All zero means the wrapper is transparent."""

    determinate: float = 0.0
    indeterminate: float = 0.0
    latency: float = 0.0  # probability of sleeping before the call
    late: float = 0.0  # probability that a write's answer comes late (it took effect at once)
    max_latency_s: float = 0.01

    def off(self) -> None:
        self.determinate = self.indeterminate = self.latency = self.late = 0.0


KINDS = ("determinate", "indeterminate-lost", "indeterminate-applied")


class _Injector:
    def __init__(self, seed: int, config: FaultConfig | None):
        self.rng = random.Random(seed)
        self.config = config or FaultConfig()
        self.counts: Counter[str] = Counter()
        self.forced: dict[str, list[str]] = {}

    def inject_once(self, op: str, kind: str) -> None:
        """Make the next call of ``op`` fail with ``kind`` (one of KINDS)."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        self.forced.setdefault(op, []).append(kind)

    async def run(self, op: str, mutating: bool, call):
        forced = self.forced.get(op)
        if forced:
            kind = forced.pop(0)
            self.counts[f"{op}:{kind}"] += 1
            if kind == "determinate":
                raise DeterminateError(f"injected determinate failure of {op}")
            if kind == "indeterminate-applied":
                await call()
                raise IndeterminateError(f"injected indeterminate failure of {op} (applied, then timed out)")
            raise IndeterminateError(f"injected indeterminate failure of {op} (not applied)")
        cfg = self.config
        if cfg.latency and self.rng.random() < cfg.latency:
            self.counts["latency"] += 1
            await asyncio.sleep(self.rng.random() * cfg.max_latency_s)
        roll = self.rng.random()
        if roll < cfg.determinate:
            self.counts[f"{op}:determinate"] += 1
            raise DeterminateError(f"injected determinate failure of {op}")
        if mutating and roll < cfg.determinate + cfg.indeterminate:
            if self.rng.random() < 0.5:
                self.counts[f"{op}:indeterminate-lost"] += 1
                raise IndeterminateError(f"injected indeterminate failure of {op} (not applied)")
            await call()
            self.counts[f"{op}:indeterminate-applied"] += 1
            raise IndeterminateError(f"injected indeterminate failure of {op} (applied, then timed out)")
        out = await call()
        if mutating and cfg.late and self.rng.random() < cfg.late:
            self.counts["late"] += 1
            await asyncio.sleep(self.rng.random() * cfg.max_latency_s)
        return out


class FaultyBlob(Blob):
    def __init__(self, inner: Blob, seed: int = 0, config: FaultConfig | None = None):
        self.inner = inner
        self.kind = f"faulty-{inner.kind}"
        self._inj = _Injector(seed, config)

    @property
    def config(self) -> FaultConfig:
        return self._inj.config

    @property
    def counts(self) -> Counter[str]:
        return self._inj.counts

    def inject_once(self, op: str, kind: str) -> None:
        self._inj.inject_once(op, kind)

    async def get(self, key: str) -> bytes | None:
        return await self._inj.run("get", False, lambda: self.inner.get(key))

    async def set(self, key: str, value: bytes) -> None:
        return await self._inj.run("set", True, lambda: self.inner.set(key, value))

    async def delete(self, key: str) -> int | None:
        return await self._inj.run("delete", True, lambda: self.inner.delete(key))

    async def list(self, prefix: str = "") -> list[BlobMeta]:
        return await self._inj.run("list", False, lambda: self.inner.list(prefix))

    async def close(self) -> None:
        await self.inner.close()


class FaultyConsensus(Consensus):
    def __init__(self, inner: Consensus, seed: int = 0, config: FaultConfig | None = None):
        self.inner = inner
        self.kind = f"faulty-{inner.kind}"
        self._inj = _Injector(seed, config)

    @property
    def config(self) -> FaultConfig:
        return self._inj.config

    @property
    def counts(self) -> Counter[str]:
        return self._inj.counts

    def inject_once(self, op: str, kind: str) -> None:
        self._inj.inject_once(op, kind)

    async def head(self, key: str) -> VersionedData | None:
        return await self._inj.run("head", False, lambda: self.inner.head(key))

    async def compare_and_set(self, key: str, expected: int | None, data: bytes) -> bool:
        return await self._inj.run("compare_and_set", True, lambda: self.inner.compare_and_set(key, expected, data))

    async def scan(self, key: str, from_seqno: int = 0, limit: int = SCAN_ALL) -> list[VersionedData]:
        return await self._inj.run("scan", False, lambda: self.inner.scan(key, from_seqno, limit))

    async def truncate(self, key: str, before: int) -> int:
        return await self._inj.run("truncate", True, lambda: self.inner.truncate(key, before))

    async def list_keys(self) -> list[str]:
        return await self._inj.run("list_keys", False, lambda: self.inner.list_keys())

    async def close(self) -> None:
        await self.inner.close()


class CountingBlob(Blob):
    """Counts what goes through to ``inner`` (``puts``, ``put_bytes``,
    ``gets``, ``deletes``); for tests and benchmarks that check how much a
    piece of work wrote."""

    def __init__(self, inner: Blob):
        self.inner = inner
        self.kind = inner.kind
        self.puts = self.put_bytes = self.gets = self.deletes = 0

    async def get(self, key: str) -> bytes | None:
        self.gets += 1
        return await self.inner.get(key)

    async def set(self, key: str, value: bytes) -> None:
        self.puts += 1
        self.put_bytes += len(value)
        await self.inner.set(key, value)

    async def delete(self, key: str) -> int | None:
        self.deletes += 1
        return await self.inner.delete(key)

    async def list(self, prefix: str = "") -> list[BlobMeta]:
        return await self.inner.list(prefix)

    async def close(self) -> None:
        await self.inner.close()
