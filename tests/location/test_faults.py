"""The fault-injection wrappers: seeded, each failure kind really happens,
reads never half-apply, and "applied then timed out" really applied."""

from __future__ import annotations

import pytest

from storage.errors import DeterminateError, IndeterminateError
from storage.location import FaultConfig, FaultyBlob, FaultyConsensus, MemBlob, MemConsensus


async def drive_consensus(seed: int) -> tuple[list[str], list]:
    inner = MemConsensus()
    c = FaultyConsensus(inner, seed=seed, config=FaultConfig(determinate=0.2, indeterminate=0.3))
    outcomes = []
    expected = None
    for i in range(300):
        try:
            ok = await c.compare_and_set("k", expected, f"{i}".encode())
            outcomes.append("ok" if ok else "lost")
        except DeterminateError:
            outcomes.append("det")
        except IndeterminateError:
            outcomes.append("indet")
        head = await inner.head("k")
        expected = head.seqno if head else None
    return outcomes, await inner.scan("k")


async def test_same_seed_same_faults():
    a, log_a = await drive_consensus(7)
    b, log_b = await drive_consensus(7)
    c, _ = await drive_consensus(8)
    assert a == b and log_a == log_b
    assert a != c


async def test_each_failure_kind_happens_and_means_what_it_says():
    inner = MemConsensus()
    c = FaultyConsensus(inner, seed=1, config=FaultConfig(determinate=0.2, indeterminate=0.4))
    det_unchanged = indet_applied = indet_lost = 0
    for i in range(400):
        before = await inner.head("k")
        expected = before.seqno if before else None
        try:
            assert await c.compare_and_set("k", expected, f"{i}".encode())
        except DeterminateError:
            assert await inner.head("k") == before, "a determinate failure changed the log"
            det_unchanged += 1
        except IndeterminateError as e:
            after = await inner.head("k")
            if "applied" in str(e) and "not applied" not in str(e):
                assert after.data == f"{i}".encode()
                indet_applied += 1
            else:
                assert after == before
                indet_lost += 1
    assert det_unchanged > 20 and indet_applied > 20 and indet_lost > 20
    assert c.counts["compare_and_set:indeterminate-applied"] == indet_applied


async def test_reads_fail_only_determinately_and_turning_off_restores():
    inner = MemBlob()
    await inner.set("a", b"1")
    b = FaultyBlob(inner, seed=3, config=FaultConfig(determinate=0.0, indeterminate=1.0))
    # Reads are never indeterminate.
    for _ in range(20):
        assert await b.get("a") == b"1"
    with pytest.raises(IndeterminateError):
        await b.set("b", b"2")
    b.config.off()
    await b.set("c", b"3")
    assert await inner.get("c") == b"3"


async def test_latency_injection_counts():
    b = FaultyBlob(MemBlob(), seed=5, config=FaultConfig(latency=1.0, max_latency_s=0.001))
    for i in range(10):
        await b.set(f"k{i}", b"v")
    assert b.counts["latency"] == 10
