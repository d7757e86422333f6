"""The Consensus contract, run on every implementation (PostgreSQL, SQLite, mem)."""

from __future__ import annotations

import asyncio

import pytest

from storage.errors import UsageError
from storage.location import VersionedData


async def test_empty_log(consensus, uniq):
    assert await consensus.head(uniq) is None
    assert await consensus.scan(uniq) == []


async def test_first_cas_writes_seqno_zero(consensus, uniq):
    assert await consensus.compare_and_set(uniq, None, b"v0") is True
    assert await consensus.head(uniq) == VersionedData(0, b"v0")
    # A second "first" write loses.
    assert await consensus.compare_and_set(uniq, None, b"other") is False
    assert await consensus.head(uniq) == VersionedData(0, b"v0")


async def test_cas_sequence_and_mismatches(consensus, uniq):
    assert await consensus.compare_and_set(uniq, None, b"v0")
    assert await consensus.compare_and_set(uniq, 0, b"v1")
    assert await consensus.compare_and_set(uniq, 1, b"v2")
    # Stale and future expectations both lose and change nothing.
    assert await consensus.compare_and_set(uniq, 0, b"stale") is False
    assert await consensus.compare_and_set(uniq, 1, b"stale") is False
    assert await consensus.compare_and_set(uniq, 7, b"future") is False
    assert await consensus.head(uniq) == VersionedData(2, b"v2")
    assert await consensus.scan(uniq) == [VersionedData(0, b"v0"), VersionedData(1, b"v1"), VersionedData(2, b"v2")]


async def test_keys_are_independent(consensus, uniq):
    a, b = f"{uniq}/a", f"{uniq}/b"
    assert await consensus.compare_and_set(a, None, b"a0")
    assert await consensus.head(b) is None
    assert await consensus.compare_and_set(b, None, b"b0")
    assert await consensus.compare_and_set(a, 0, b"a1")
    assert (await consensus.head(a)).seqno == 1
    assert (await consensus.head(b)).seqno == 0


async def test_scan_from_and_limit(consensus, uniq):
    expected = None
    for i in range(10):
        assert await consensus.compare_and_set(uniq, expected, f"v{i}".encode())
        expected = i
    assert [e.seqno for e in await consensus.scan(uniq, 4)] == [4, 5, 6, 7, 8, 9]
    assert [e.seqno for e in await consensus.scan(uniq, 4, limit=2)] == [4, 5]
    assert await consensus.scan(uniq, 10) == []
    assert (await consensus.scan(uniq, 9))[0].data == b"v9"


async def test_binary_data_roundtrip(consensus, uniq):
    data = bytes(range(256)) + b"\x00\x00" + b"\xff" * 1000
    assert await consensus.compare_and_set(uniq, None, data)
    assert (await consensus.head(uniq)).data == data
    assert await consensus.compare_and_set(uniq, 0, b"")
    assert (await consensus.head(uniq)).data == b""


async def test_truncate_keeps_head_and_contiguity(consensus, uniq):
    for i in range(6):
        assert await consensus.compare_and_set(uniq, i - 1 if i else None, f"v{i}".encode())
    assert await consensus.truncate(uniq, 3) == 3
    assert [e.seqno for e in await consensus.scan(uniq)] == [3, 4, 5]
    assert await consensus.truncate(uniq, 3) == 0  # idempotent
    assert await consensus.truncate(uniq, 5) == 2  # up to (not including) the head
    assert await consensus.scan(uniq) == [VersionedData(5, b"v5")]
    # CaS keeps working after truncation.
    assert await consensus.compare_and_set(uniq, 5, b"v6")
    assert await consensus.compare_and_set(uniq, 4, b"stale") is False
    assert [e.seqno for e in await consensus.scan(uniq)] == [5, 6]


async def test_truncate_past_head_is_usage_error(consensus, uniq):
    with pytest.raises(UsageError):
        await consensus.truncate(uniq, 0)  # empty log
    assert await consensus.compare_and_set(uniq, None, b"v0")
    assert await consensus.compare_and_set(uniq, 0, b"v1")
    with pytest.raises(UsageError):
        await consensus.truncate(uniq, 2)
    assert [e.seqno for e in await consensus.scan(uniq)] == [0, 1]


async def test_first_cas_after_truncation_cannot_restart_log(consensus, uniq):
    for i in range(3):
        assert await consensus.compare_and_set(uniq, i - 1 if i else None, b"x")
    await consensus.truncate(uniq, 2)
    assert await consensus.compare_and_set(uniq, None, b"restart") is False
    assert (await consensus.head(uniq)).seqno == 2


@pytest.mark.parametrize("bad", [-1, -5])
async def test_bad_arguments_are_usage_errors(consensus, uniq, bad):
    with pytest.raises(UsageError):
        await consensus.compare_and_set(uniq, bad, b"x")
    with pytest.raises(UsageError):
        await consensus.scan(uniq, bad)
    with pytest.raises(UsageError):
        await consensus.compare_and_set("", None, b"x")
    with pytest.raises(UsageError):
        await consensus.compare_and_set(uniq, None, "not bytes")  # type: ignore[arg-type]


async def test_list_keys(consensus, uniq):
    for k in (f"{uniq}/b", f"{uniq}/a"):
        assert await consensus.compare_and_set(k, None, b"x")
    keys = [k for k in await consensus.list_keys() if k.startswith(uniq)]
    assert keys == [f"{uniq}/a", f"{uniq}/b"]


async def test_racing_first_writes_one_winner(consensus, uniq):
    results = await asyncio.gather(*(consensus.compare_and_set(uniq, None, str(i).encode()) for i in range(16)))
    assert results.count(True) == 1
    winner = results.index(True)
    assert await consensus.head(uniq) == VersionedData(0, str(winner).encode())
