"""The Blob contract, run on every implementation (fs, S3 via moto, mem)."""

from __future__ import annotations

import asyncio
import os

import pytest

from storage.errors import UsageError
from storage.location import BlobMeta


async def test_get_missing_is_none(blob, uniq):
    assert await blob.get(f"{uniq}/missing") is None


async def test_set_get_roundtrip(blob, uniq):
    value = bytes(range(256)) * 4 + b"\x00tail"
    await blob.set(f"{uniq}/a", value)
    assert await blob.get(f"{uniq}/a") == value


async def test_empty_value(blob, uniq):
    await blob.set(f"{uniq}/empty", b"")
    assert await blob.get(f"{uniq}/empty") == b""
    assert await blob.list(f"{uniq}/empty") == [BlobMeta(f"{uniq}/empty", 0)]


async def test_set_same_value_again_is_idempotent(blob, uniq):
    await blob.set(f"{uniq}/k", b"v1")
    await blob.set(f"{uniq}/k", b"v1")
    assert await blob.get(f"{uniq}/k") == b"v1"


async def test_delete_is_idempotent_and_reports_size(blob, uniq):
    await blob.set(f"{uniq}/d", b"12345")
    assert await blob.delete(f"{uniq}/d") == 5
    assert await blob.get(f"{uniq}/d") is None
    assert await blob.delete(f"{uniq}/d") is None
    assert await blob.delete(f"{uniq}/never") is None


async def test_list_by_prefix_sorted_with_sizes(blob, uniq):
    keys = {f"{uniq}/x/1": b"a", f"{uniq}/x/2": b"bb", f"{uniq}/x2/3": b"ccc", f"{uniq}/y/4": b"dddd"}
    for k, v in keys.items():
        await blob.set(k, v)
    assert await blob.list(f"{uniq}/x/") == [BlobMeta(f"{uniq}/x/1", 1), BlobMeta(f"{uniq}/x/2", 2)]
    # A prefix that is not a whole folder name still matches.
    assert [m.key for m in await blob.list(f"{uniq}/x")] == [f"{uniq}/x/1", f"{uniq}/x/2", f"{uniq}/x2/3"]
    assert [m.key for m in await blob.list(f"{uniq}/")] == sorted(keys)
    assert await blob.list(f"{uniq}/zzz") == []
    await blob.delete(f"{uniq}/x/1")
    assert [m.key for m in await blob.list(f"{uniq}/x/")] == [f"{uniq}/x/2"]


async def test_large_value_roundtrip(blob, uniq):
    # Above the S3 multipart threshold when the test sets it low (see below).
    value = os.urandom(3 * 1024 * 1024 + 17)
    await blob.set(f"{uniq}/big", value)
    assert await blob.get(f"{uniq}/big") == value
    assert await blob.list(f"{uniq}/big") == [BlobMeta(f"{uniq}/big", len(value))]


@pytest.mark.parametrize("bad", ["", "/abs", "a//b", "a/../b", "./a", "a/", "a\x00b", "a\\b", "x/.tmp-123"])
async def test_invalid_keys_are_usage_errors(blob, bad):
    with pytest.raises(UsageError):
        await blob.set(bad, b"v")
    with pytest.raises(UsageError):
        await blob.get(bad)
    with pytest.raises(UsageError):
        await blob.delete(bad)


async def test_concurrent_readers_never_see_partial_values(blob, uniq):
    """A get racing a set sees nothing or the whole value."""
    value = os.urandom(512 * 1024)
    key = f"{uniq}/atomic"
    seen: list[bytes | None] = []

    async def reader():
        for _ in range(20):
            seen.append(await blob.get(key))

    await asyncio.gather(reader(), blob.set(key, value), reader())
    assert all(v is None or v == value for v in seen)
    assert await blob.get(key) == value


async def test_many_concurrent_sets_all_land(blob, uniq):
    await asyncio.gather(*(blob.set(f"{uniq}/many/{i:03d}", str(i).encode()) for i in range(50)))
    listed = await blob.list(f"{uniq}/many/")
    assert [m.key for m in listed] == [f"{uniq}/many/{i:03d}" for i in range(50)]
    assert [await blob.get(m.key) for m in listed[:5]] == [b"0", b"1", b"2", b"3", b"4"]


async def test_adopt_makes_an_outside_write_a_value(blob, uniq):
    staged, key, data = f"{uniq}/staged/part-0.parquet", f"{uniq}/p/w/0001-part", b"PAR1" + bytes(range(256)) * 64
    path = blob.external_path(staged)
    if path is not None:  # a writer outside txngate writes the file itself (Spark on a local folder)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    else:  # elsewhere it writes the object through the store's own API (S3A): as set does
        await blob.set(staged, data)
    assert [m.key for m in await blob.list(f"{uniq}/staged/")] == [staged]
    await blob.adopt(staged, key)
    assert await blob.get(key) == data
    assert await blob.get(staged) is None and await blob.list(f"{uniq}/staged/") == []
    await blob.adopt(staged, key)  # a retry after it landed: nothing to do
    assert await blob.get(key) == data
    with pytest.raises(UsageError):
        await blob.adopt(f"{uniq}/staged/none", f"{uniq}/p/w/0002-part")
