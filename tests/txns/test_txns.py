"""The txns shard's properties (issue: transactions), each on memory and on
PostgreSQL + S3."""

from __future__ import annotations

import asyncio

import pyarrow as pa
import pytest

from storage.errors import ShardNotRegistered, UsageError
from storage.location import CountingBlob
from storage.persist import PersistClient, PersistConfig
from storage.txns import TxnsHandle
from tests.txns.conftest import rows


def ids(table: pa.Table) -> list[int]:
    return sorted(table.column("id").to_pylist())


async def test_crash_between_commit_and_apply(env):
    """A committed, unapplied txn is complete for a fresh handle: every
    shard's writes at commit_ts, none at commit_ts - 1."""
    a = await env.txns()
    d0, d1, d2 = await env.shards(a, "d0", "d1", "d2")
    t = a.begin()
    await t.write(d0, rows(1, 2))
    await t.write(d1, rows(3))
    ts = (await a.upper()) + 5
    assert (await t.commit_at(ts)).committed
    # "Crash": drop handle a without applying or tidying.
    assert (await env.client().state(d0)).upper <= ts
    b = await env.txns()
    assert ids(await b.read(d0, ts)) == [1, 2]
    assert ids(await b.read(d1, ts)) == [3]
    assert ids(await b.read(d2, ts)) == []
    assert ids(await b.read(d0, ts - 1)) == []
    assert ids(await b.read(d1, ts - 1)) == []
    b.validate()


async def test_contended_retry_rewrites_no_data(env):
    blob = CountingBlob(env.blob)
    client = PersistClient(blob, env.consensus, PersistConfig(inline_threshold=0, compaction=False))
    env.clients.append(client)
    txns = await TxnsHandle.open(client)
    (d0,) = await env.shards(txns, "d0")
    loser = txns.begin()
    await loser.write(d0, rows(*range(100)))
    await loser.seal()
    winner = txns.begin()
    await winner.write(d0, rows(1000))
    base = await txns.upper()
    assert (await winner.commit_at(base + 10)).committed
    puts = blob.puts
    lost = await loser.commit_at(base + 5)
    assert not lost.committed and lost.upper == base + 11, "the loser must learn the winner's upper"
    ok = await loser.commit_at(lost.upper)
    assert ok.committed and ok.ts == base + 11
    data_puts = [p for p in range(blob.puts - puts)]
    # The retry wrote only txns-shard metadata, never data parts.
    keys = await env.blob.list(f"{d0}/")
    assert len(keys) == 2, "one part per txn, none re-uploaded"
    assert len(data_puts) <= 2
    await txns.apply_le(ok.ts)
    assert ids(await txns.read(d0, ok.ts)) == sorted(list(range(100)) + [1000])
    assert ids(await txns.read(d0, ok.ts - 1)) == [1000]


async def test_concurrent_apply_and_duplicate_tidy(env):
    a, b = await env.txns(), await env.txns()
    d0, d1 = await env.shards(a, "d0", "d1")
    committed = []
    for i in range(6):
        t = a.begin()
        await t.write(d0, rows(i))
        await t.write(d1, rows(100 + i))
        r = await t.commit_at(await a.upper())
        committed.append(r.ts)
    last = committed[-1]
    await asyncio.gather(a.apply_le(last), b.apply_le(last), a.apply_le(last), b.apply_le(last))
    await asyncio.gather(a.tidy(), b.tidy())
    for h in (a, b):
        await h.cache.update_to(await h.upper())
        h.validate()  # no row with count != 1
        assert not h.cache.unapplied_writes(d0) and not h.cache.unapplied_writes(d1)
    assert ids(await a.read(d0, last)) == list(range(6))
    assert ids(await b.read(d1, last)) == [100 + i for i in range(6)]


async def test_tidies_another_handle_made_are_forgotten(env):
    """Applied writes another process retracted first leave this one's list
    of rows to retract at its next write (two gateways each apply every
    write to a shard they read: the list grew without bound, and every
    write to the txns shard went through all of it)."""
    a, b = await env.txns(), await env.txns()
    (d0,) = await env.shards(a, "d0")
    for i in range(12):
        for h in (a, b):
            t = h.begin()
            await t.write(d0, rows(2 * i + (h is b)))
            r = await t.commit_at(await h.upper())
            await asyncio.gather(a.apply_le(r.ts), b.apply_le(r.ts))
    for h in (a, b):  # one more write each: retracts what it applied, forgets what the other retracted
        t = h.begin()
        await t.write(d0, rows(1000 + (h is b)))
        await t.commit_at(await h.upper())
    for h in (a, b):
        await h.cache.update_to(await h.upper())
        assert h.tidy_backlog <= 4, h.tidy_backlog
        h.validate()
    assert ids(await a.read(d0, await a.upper() - 1)) == list(range(24)) + [1000, 1001]


async def test_register_racing_a_commit(env):
    a, b = await env.txns(), await env.txns()
    (d0,) = await env.shards(a, "d0")
    await a.client.create_shard("late", pa.schema(rows(1).schema))

    async def commits():
        done = []
        for i in range(10):
            t = a.begin()
            await t.write(d0, rows(i))
            while True:
                r = await t.commit_at(await a.upper())
                if r.committed:
                    done.append(r.ts)
                    break
        return done

    async def registers():
        reg = await b.register("late", 0)
        again = await b.register("late", 0)
        assert again == reg
        return reg

    done, reg = await asyncio.gather(commits(), registers())
    assert ids(await b.read(d0, done[-1])) == list(range(10))
    assert ids(await a.read("late", max(done[-1], reg))) == []
    b.validate()


async def test_lazy_upper_and_fill_never_covers_unapplied(env):
    txns = await env.txns()
    quiet, busy = await env.shards(txns, "quiet", "busy")
    t = txns.begin()
    await t.write(busy, rows(1))
    r = await t.commit_at((await txns.upper()) + 100)
    assert r.committed
    # The quiet shard was never written: it reads at any closed time, and its
    # physical upper was filled only on demand.
    assert (await txns.client.state(quiet)).upper < r.ts
    assert ids(await txns.read(quiet, r.ts)) == []
    assert (await txns.client.state(quiet)).upper == r.ts + 1
    # Reading the busy shard below its unapplied write fills only up to
    # there; the write itself is applied, never skipped.
    assert ids(await txns.read(busy, r.ts - 50)) == []
    state = await txns.client.state(busy)
    assert state.upper == r.ts - 49
    assert ids(await txns.read(busy, r.ts)) == [1]
    with pytest.raises(UsageError, match="not registered"):
        await txns.read("nope", r.ts)


async def test_compact_to_clamps_at_earliest_unapplied(env):
    a = await env.txns()
    d0, d1 = await env.shards(a, "d0", "d1")
    t = a.begin()
    await t.write(d0, rows(1))
    first = await t.commit_at(await a.upper())
    t = a.begin()
    await t.write(d1, rows(2))
    second = await t.commit_at(await a.upper() + 10)
    since = await a.compact_to(second.ts + 5)
    assert since == first.ts, "since must stop at the earliest unapplied write"
    state = await a.client.state("txns")
    assert state.critical["txns"] == first.ts
    # A fresh handle (fresh cache) still applies the pending writes.
    b = await env.txns()
    assert ids(await b.read(d0, second.ts)) == [1]
    assert ids(await b.read(d1, second.ts)) == [2]
    await b.tidy()
    since = await b.compact_to(second.ts + 1)
    assert since == second.ts + 1
    await b.client.compact("txns")
    # Applied and tidied commits consolidate away: only registrations remain.
    c = await env.txns()
    assert sorted(c.cache.contents) == [("d0", 0, b""), ("d1", 0, b"")] or all(r[2] == b"" for r in c.cache.contents)
    assert ids(await c.read(d0, second.ts + 1)) == [1]


async def test_forget_applies_first_and_is_idempotent(env):
    txns = await env.txns()
    (d0,) = await env.shards(txns, "d0")
    t = txns.begin()
    await t.write(d0, rows(7))
    r = await t.commit_at(await txns.upper())
    f1 = await txns.forget(d0, 0)
    f2 = await txns.forget(d0, 0)
    assert f1 == f2 > r.ts
    assert (await txns.client.state(d0)).upper > r.ts, "forget must apply pending writes first"
    t = txns.begin()
    await t.write(d0, rows(8))
    with pytest.raises(ShardNotRegistered, match="not registered"):
        await t.commit_at(await txns.upper())


async def test_a_shard_written_before_forgotten_history_is_still_known_unchanged(env):
    """Compaction makes the cache forget old write times, but it keeps
    each shard's latest forgotten one: a shard last written long ago is
    still known unchanged since then (its cached catalog or snapshot need
    not be read again), while a question reaching before that stays
    "maybe"; a fresh cache knows nothing before it loaded."""
    a = await env.txns()
    old, busy = await env.shards(a, "old", "busy")
    t = a.begin()
    await t.write(old, rows(1))
    written = (await t.commit_at(await a.upper())).ts
    await t.apply(written)
    for i in range(3):
        t = a.begin()
        await t.write(busy, rows(10 + i))
        done = (await t.commit_at(await a.upper())).ts
        await t.apply(done)
    await a.tidy()
    now = await a.upper() - 1
    await a.compact_to(now)
    assert a.cache.history_from > written, "the write to old is forgotten"
    a.cache.validate()
    assert await a.latest_write(old, now) == written
    assert not await a.written_between(old, written, now)
    assert await a.written_between(old, written - 1, now)
    assert not await a.written_between(busy, done, now) and await a.written_between(busy, done - 1, now)
    fresh = await env.txns()
    assert await fresh.latest_write(old, now) is None
    assert await fresh.written_between(old, written, now)


async def test_one_apply_joins_the_inline_parts_of_its_commits(env):
    """Commits applied together append one part, not one per commit (each a
    row of the shard's state, and, past its inline budget, a blob); each
    row keeps its commit's time: a read at each time sees exactly the
    commits up to it, also after a fresh handle reads the shard."""
    a = await env.txns(compaction=False)
    (d,) = await env.shards(a, "d")
    times = []
    for i in range(5):
        t = a.begin()
        await t.write(d, rows(i, v=f"v{i}"))
        if i == 2:
            await t.write(d, rows(1, v="v1"), diff=-1)  # a retraction joins too
        ts = (await a.upper()) + 1
        assert (await t.commit_at(ts)).committed
        times.append(ts)
    assert await a.apply_shard(d, le=times[-1]) == 5
    state = await env.client().state(d)
    joined = [p for b in state.batches for p in b.parts]
    assert len(joined) == 1 and joined[0].rows == 6 and joined[0].inline is not None and joined[0].ts is None
    assert (joined[0].min_ts, joined[0].max_ts, joined[0].min_diff) == (times[0], times[-1], -1)
    b = await env.txns()
    for i, ts in enumerate(times):
        assert ids(await b.read(d, ts)) == [k for k in range(i + 1) if not (k == 1 and i >= 2)]
    assert ids(await b.read(d, times[0] - 1)) == []


def test_a_row_absorbed_twice_leaves_the_cache_as_it_was():
    """The cache absorbs a range of the txns shard all or nothing: a row
    that would count twice is refused before any other row of the range
    changes the cache (a half-absorbed range was absorbed again, and its
    first rows counted twice)."""
    from storage.persist import InvariantViolation
    from storage.txns import TxnsCache

    cache = TxnsCache(reader=None)
    cache._absorb_rows([("d0", 5, b"", 1, 5)])
    before = (dict(cache.contents), {s: list(r) for s, r in cache.registrations.items()})
    with pytest.raises(InvariantViolation, match="count 2"):
        cache._absorb_rows([("d1", 6, b"", 1, 6), ("d0", 5, b"", 1, 6)])
    assert (dict(cache.contents), {s: list(r) for s, r in cache.registrations.items() if r}) == before
    cache.validate()


async def test_a_shard_registered_by_another_handle_is_not_refused_at_commit(env):
    """A commit at the txns upper brings the cache to the upper this
    process last saw; a shard another process registered since is read
    before the commit calls it unregistered (it was refused, a false
    ShardNotRegistered, where the append would only have lost its race)."""
    a, b = await env.txns(), await env.txns()
    await b.cache.update_to(await b.upper())  # b's last known upper: before d0 exists
    (d0,) = await env.shards(a, "d0")
    t = b.begin()
    await t.write(d0, rows(1))
    result = await b.commit_rows(None, await t.seal())
    assert result.committed
    await b.apply_le(result.ts)
    assert ids(await b.read(d0, result.ts)) == [1]
    b.validate()


async def test_the_txns_since_follows_commits_and_an_idle_process(env):
    """The txns shard forgets applied, tidied writes as commits go on: each
    append advances its writer's holds (the critical since to the earliest
    write still unapplied, its own reader to what its cache read), and an
    idle process's reader moves up when it ``follow``s. Before, a process
    that never committed held the shard's since where it opened, and the
    shard kept every row ever committed, rewritten by each compaction."""
    a, idle = await env.txns(compaction=False), await env.txns()  # (compaction when the test asks: its shape is the test's)
    (d0,) = await env.shards(a, "d0")
    for i in range(40):
        t = a.begin()
        await t.write(d0, rows(i))
        r = await t.commit_at(await a.upper())
        await a.apply_le(r.ts)
    await a.tidy()
    upper = await a.upper()
    assert await idle.follow()
    assert not await idle.follow(), "a since that does not lag is left alone (no compare-and-set)"
    t = a.begin()  # one more commit: its append moves the critical since and a's reader
    await t.write(d0, rows(1000))
    r = await t.commit_at(await a.upper())
    state = await a.client.state(a.txns_id)
    assert state.since >= upper - 2, (state.since, upper)
    await a.client.compact(a.txns_id)
    live = len(a.cache.contents)
    assert sum(b.rows for b in (await a.client.state(a.txns_id)).batches) <= 2 * live + 4
    assert ids(await a.read(d0, r.ts)) == list(range(40)) + [1000]
    a.validate()
    idle.validate()


async def test_a_commit_past_the_inline_threshold_stays_inline_while_the_state_has_room(env):
    """A commit's txns rows carry its small batches inline: four shards of
    1-2 KB each pass the default 4 KB threshold, and went to Blob (a put,
    a get by every other process, a delete if the append lost); they stay
    in the txns state while it has room."""
    blob = CountingBlob(env.blob)
    client = PersistClient(blob, env.consensus, PersistConfig(compaction=False))
    env.clients.append(client)
    txns = await TxnsHandle.open(client)
    shards = await env.shards(txns, "d0", "d1", "d2", "d3")
    t = txns.begin()
    for n, shard in enumerate(shards):
        await t.write(shard, rows(*range(n * 100, n * 100 + 20), v="y" * 60))
    rows_bytes = sum(len(b) for _s, _t, b in await t.seal())
    assert rows_bytes > client.config.inline_threshold, rows_bytes
    puts = blob.puts
    result = await t.commit_at(await txns.upper())
    assert result.committed and blob.puts == puts, "nothing written to Blob"
    await txns.apply_le(result.ts)
    assert ids(await txns.read(shards[3], result.ts)) == list(range(300, 320))
    txns.validate()
