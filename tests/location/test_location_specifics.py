"""Behaviour particular to one implementation: S3 multipart uploads, fs crash
leftovers, SQLite durability settings, PostgreSQL error mapping."""

from __future__ import annotations

import asyncio
import os
import threading

import asyncpg
import pytest

from storage.errors import DeterminateError, IndeterminateError
from storage.location import FsBlob, open_blob, open_consensus, sqlite_connect
from storage.location.postgres import PostgresConsensus

MIB = 1024 * 1024


async def test_s3_multipart_upload_above_threshold(s3_server, uniq):
    blob = await open_blob(s3_server.url(prefix=uniq) + "&multipart_threshold_mib=5&part_size_mib=5")
    try:
        value = os.urandom(11 * MIB + 3)
        await blob.set("big/part", value)
        assert await blob.get("big/part") == value
        head = s3_server.client().head_object(Bucket=s3_server.bucket, Key=f"{uniq}/big/part")
        # Multipart objects have an ETag of the form "<md5>-<number of parts>".
        assert head["ETag"].strip('"').endswith("-3")
        small = os.urandom(1000)
        await blob.set("small", small)
        head = s3_server.client().head_object(Bucket=s3_server.bucket, Key=f"{uniq}/small")
        assert "-" not in head["ETag"]
    finally:
        await blob.close()


async def test_s3_failed_multipart_leaves_no_object(s3_server, uniq, monkeypatch):
    blob = await open_blob(s3_server.url(prefix=uniq) + "&multipart_threshold_mib=5&part_size_mib=5")
    try:
        real_upload = blob._client.upload_part
        calls = 0

        def flaky_upload(**kw):
            nonlocal calls
            calls += 1
            if kw["PartNumber"] == 2:
                raise OSError("connection reset by peer")
            return real_upload(**kw)

        monkeypatch.setattr(blob._client, "upload_part", flaky_upload)
        with pytest.raises(DeterminateError):
            await blob.set("doomed", os.urandom(11 * MIB))
        assert calls >= 2
        assert await blob.get("doomed") is None
        uploads = s3_server.client().list_multipart_uploads(Bucket=s3_server.bucket, Prefix=uniq)
        assert uploads.get("Uploads", []) == [], "the failed upload was not aborted"
    finally:
        await blob.close()


async def test_fs_blob_ignores_and_sweeps_crash_leftovers(tmp_path):
    blob = await open_blob(f"file://{tmp_path}")
    await blob.set("s/a", b"1")
    leftover = tmp_path / "s" / ".tmp-deadbeef"
    leftover.write_bytes(b"partial")
    assert [m.key for m in await blob.list("")] == ["s/a"]
    assert isinstance(blob, FsBlob)
    assert await blob.sweep_tmp(older_than_s=3600) == 0  # too young
    assert await blob.sweep_tmp(older_than_s=-1) == 1
    assert not leftover.exists()
    assert await blob.get("s/a") == b"1"


async def test_fs_blob_is_durable_across_handles(tmp_path):
    a = await open_blob(f"file://{tmp_path}")
    await a.set("x/y/z", b"persisted")
    b = await open_blob(f"file://{tmp_path}")
    assert await b.get("x/y/z") == b"persisted"
    assert b.external_path("x/y/z") == str(tmp_path / "x" / "y" / "z")


async def test_sqlite_is_durable_across_handles(tmp_path, uniq):
    a = await open_consensus(f"sqlite://{tmp_path}/c.db")
    assert await a.compare_and_set(uniq, None, b"v0")
    await a.close()
    b = await open_consensus(f"sqlite://{tmp_path}/c.db")
    try:
        assert (await b.head(uniq)).data == b"v0"
        assert await b.compare_and_set(uniq, 0, b"v1")
    finally:
        await b.close()


async def test_sqlite_write_waits_on_its_thread_while_another_holds_the_lock(tmp_path, uniq):
    """A write that does not sync (synchronous=normal) is tried at once on
    the event loop; one that finds the write lock held (here by another
    connection, as another process would) waits on the writer thread: the
    loop runs on meanwhile, and the CaS lands when the lock is released."""
    c = await open_consensus(f"sqlite://{tmp_path}/c.db?synchronous=normal")
    try:
        assert await c.compare_and_set(uniq, None, b"v0")
        assert c._writes.stats["now"] == 1 and c._writes.stats["queued"] == 0
        blocker = sqlite_connect(f"{tmp_path}/c.db")
        blocker.execute("BEGIN IMMEDIATE")
        cas = asyncio.ensure_future(c.compare_and_set(uniq, 0, b"v1"))
        for _ in range(50):
            await asyncio.sleep(0)  # the loop is not blocked by the waiting write
        assert not cas.done() and c._writes.stats["queued"] == 1
        blocker.execute("COMMIT")
        blocker.close()
        assert await cas is True
        assert (await c.head(uniq)).data == b"v1"
        assert not await c.compare_and_set(uniq, 0, b"stale")  # a lost CaS: at once, no change
        assert c._writes.stats["now"] == 2
    finally:
        await c.close()


async def test_sqlite_writes_on_the_loop_checkpoint_on_the_thread(tmp_path, uniq):
    """The loop's write connection never checkpoints the WAL itself; every
    CHECKPOINT_EVERY of its writes the writer thread does (else the WAL grew
    without bound)."""
    from storage.location.sqlite import CHECKPOINT_EVERY

    c = await open_consensus(f"sqlite://{tmp_path}/c.db?synchronous=normal")
    assert await c.compare_and_set(uniq, None, b"v")
    for seqno in range(3 * CHECKPOINT_EVERY):
        assert await c.compare_and_set(uniq, seqno, b"x" * 100)
    writes = c._writes
    await c.close()  # waits for the writer thread's queue
    assert writes.stats["now"] == 3 * CHECKPOINT_EVERY + 1
    assert writes.stats["checkpoints"] == 3


async def test_sqlite_synced_writes_never_block_the_loop(tmp_path, uniq):
    """A CaS that syncs the disk (synchronous=full, the default) goes to the
    writer thread: an fsync takes as long as the disk does, which the event
    loop's other sessions must not wait for."""
    c = await open_consensus(f"sqlite://{tmp_path}/c.db")
    try:
        assert await c.compare_and_set(uniq, None, b"v0") and await c.compare_and_set(uniq, 0, b"v1")
        assert c._writes.stats["now"] == 0 and c._writes.stats["queued"] == 2
    finally:
        await c.close()


def test_sqlite_file_opened_by_many_at_once(tmp_path):
    """Connections opening one new SQLite file at once (the workers of a
    gateway: consensus and oracle each) all get it set up: switching it to
    WAL may find it locked without SQLite's busy handler waiting, which
    failed a worker's start about one time in fifty (8 of 400 here)."""
    setup = ("CREATE TABLE IF NOT EXISTS o (k TEXT PRIMARY KEY, v INTEGER)", "INSERT OR IGNORE INTO o VALUES ('t', 0)")
    for i in range(50):
        path, errors = str(tmp_path / f"c{i}.db"), []

        def open_one():
            try:
                sqlite_connect(path, setup=setup).close()
            except Exception as e:  # noqa: BLE001 - collected and asserted below
                errors.append(e)

        threads = [threading.Thread(target=open_one) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [], errors


async def test_postgres_cas_timeout_is_indeterminate(pg_server, uniq):
    """A CaS that times out after being sent may have happened."""
    c = await open_consensus(pg_server.url(timeout=0.5))
    assert isinstance(c, PostgresConsensus)
    blocker = await asyncpg.connect(pg_server.url())
    try:
        assert await c.compare_and_set(uniq, None, b"v0")
        # Hold a conflicting lock on the head row, so the CaS's FOR KEY SHARE waits.
        tx = blocker.transaction()
        await tx.start()
        await blocker.execute("SELECT 1 FROM consensus WHERE shard = $1 AND seqno = 0 FOR UPDATE", uniq)
        with pytest.raises(IndeterminateError):
            await c.compare_and_set(uniq, 0, b"v1")
        # Reads that time out are determinate: nothing could have changed.
        await blocker.execute("LOCK TABLE consensus IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(DeterminateError):
            await c.head(uniq)
        await tx.rollback()
        # Finding out: the timed-out CaS was cancelled, so the head is still 0
        # and the retry wins.
        assert (await c.head(uniq)).seqno == 0
        assert await c.compare_and_set(uniq, 0, b"v1")
    finally:
        await blocker.close()
        await c.close()


async def test_postgres_killed_connection_mid_cas_is_indeterminate(pg_server, uniq):
    c = await open_consensus(pg_server.url(pool_size=1))
    admin = await asyncpg.connect(pg_server.url())
    try:
        assert await c.compare_and_set(uniq, None, b"v0")
        # Make the next CaS wait on a lock, then kill its backend.
        tx = admin.transaction()
        await tx.start()
        await admin.execute("SELECT 1 FROM consensus WHERE shard = $1 AND seqno = 0 FOR UPDATE", uniq)
        cas = asyncio.create_task(c.compare_and_set(uniq, 0, b"v1"))
        other = await asyncpg.connect(pg_server.url())
        try:
            # Wait until the CaS is really waiting on our lock.
            for _ in range(200):
                pids = await other.fetch(
                    "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO%consensus%'"
                )
                if pids:
                    break
                await asyncio.sleep(0.02)
            assert pids, "the CaS never blocked on the lock"
            await other.execute("SELECT pg_terminate_backend($1)", pids[0]["pid"])
        finally:
            await other.close()
        with pytest.raises(IndeterminateError):
            await cas
        await tx.rollback()
        # The pool recovers and the retry wins.
        assert (await c.head(uniq)).seqno == 0
        assert await c.compare_and_set(uniq, 0, b"v1")
    finally:
        await admin.close()
        await c.close()


async def test_postgres_two_processes_create_table_at_once(pg_server):
    url = pg_server.url(table="race_create")
    opened = await asyncio.gather(*(open_consensus(url) for _ in range(6)))
    for c in opened:
        await c.close()
