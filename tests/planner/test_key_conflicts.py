"""Key-granular serializable commits, across two gateways of one store
(two ``Database`` processes' worth of state on the same Consensus and
Blob): transactions that insert different keys of one keyed table never
conflict; the same key serializes (one commit, then 40001 in explicit
transactions or 23505 for a statement that retries itself); UPDATEs and
DELETEs whose WHERE pins a key read only that key, so those of different
rows all commit and those of one row serialize; a transaction that scanned
the table still conflicts with any insert into it."""

from __future__ import annotations

import asyncio

import pytest

from planner.errors import SqlError
from tests.planner.helpers import rows


async def open_transactions(dbs, keys, emails=None):
    """One session per key, alternating gateways, each with BEGIN and its
    INSERT done before any of them commits."""
    sessions = []
    for i, key in enumerate(keys):
        s = dbs[i % 2].session()
        await s.execute("BEGIN")
        email = emails[i] if emails else f"u{key}@x"
        await s.execute(f"INSERT INTO k VALUES ({key}, '{email}', {i})")
        sessions.append(s)
    return sessions


async def commit_all(sessions):
    outcomes = []
    for s in sessions:
        try:
            await s.execute("COMMIT")
            outcomes.append("COMMIT")
        except SqlError as e:
            outcomes.append(e.sqlstate)
    return outcomes


async def commit_conflicts(session):
    with pytest.raises(SqlError) as info:
        await session.execute("COMMIT")
    assert info.value.sqlstate == "40001"


async def test_inserts_of_distinct_keys_never_conflict(two):
    outcomes = await commit_all(await open_transactions(two, range(16)))
    assert outcomes == ["COMMIT"] * 16
    assert await rows(two[1].session(), "SELECT count(*), sum(id) FROM k") == [(16, sum(range(16)))]


async def test_inserts_of_one_key_serialize(two):
    outcomes = await commit_all(await open_transactions(two, [7] * 6, emails=[f"e{i}" for i in range(6)]))
    assert outcomes == ["COMMIT"] + ["40001"] * 5
    assert await rows(two[0].session(), "SELECT id, email FROM k") == [(7, "e0")]


async def test_a_second_unique_key_conflicts_too(two):
    outcomes = await commit_all(await open_transactions(two, [1, 2], emails=["same@x", "same@x"]))
    assert outcomes == ["COMMIT", "40001"]


async def test_autocommit_inserts_of_one_key_give_one_success_and_23505(two):
    async def insert(i):
        try:
            await two[i % 2].session().execute(f"INSERT INTO k VALUES (42, 'e{i}', {i})")
            return "INSERT"
        except SqlError as e:
            return e.sqlstate

    outcomes = await asyncio.gather(*(insert(i) for i in range(8)))
    assert sorted(outcomes) == ["23505"] * 7 + ["INSERT"]
    assert await rows(two[0].session(), "SELECT count(*) FROM k") == [(1,)]


async def test_a_scan_still_conflicts_with_an_insert_of_any_key(two):
    a, b = two[0].session(), two[1].session()
    await a.execute("CREATE TABLE audit (n bigint)")
    await a.execute("BEGIN")
    assert await rows(a, "SELECT count(*) FROM k") == [(0,)]
    await a.execute("INSERT INTO audit SELECT count(*) FROM k")
    await b.execute("INSERT INTO k VALUES (1, 'x', 1)")  # commits after a's read
    await commit_conflicts(a)
    assert await rows(b, "SELECT count(*) FROM audit") == [(0,)]


async def test_ddl_rewriting_a_keyed_table_commits_and_conflicts_whole(two):
    """A work that changed the catalog names no keys: a renamed key column
    cannot be hashed by the old definition, and the table counts as written
    whole."""
    a, b = two[0].session(), two[1].session()
    await a.execute("INSERT INTO k VALUES (1, 'a', 1)")
    await b.execute("BEGIN")
    await b.execute("INSERT INTO k VALUES (2, 'b', 2)")
    await a.execute("BEGIN; ALTER TABLE k RENAME COLUMN email TO mail; ALTER TABLE k ADD COLUMN z integer DEFAULT 5; COMMIT")
    await commit_conflicts(b)
    assert await rows(a, "SELECT id, mail, z FROM k") == [(1, "a", 5)]


async def _seed(two, n):
    await two[0].session().execute(f"INSERT INTO k SELECT g, 'u' || g, 0 FROM generate_series(0, {n - 1}) g")


async def test_updates_and_deletes_of_distinct_rows_never_conflict(two):
    await _seed(two, 20)
    sessions = []
    for i in range(16):
        s = two[i % 2].session()
        await s.execute("BEGIN")
        if i % 4 == 3:
            await s.execute(f"DELETE FROM k WHERE id = {i}")
        else:
            await s.execute(f"UPDATE k SET v = v + {i} WHERE id = {i} AND v = 0")
        sessions.append(s)
    assert await commit_all(sessions) == ["COMMIT"] * 16
    got = await rows(two[1].session(), "SELECT id, v FROM k ORDER BY id")
    assert got == [(i, i if i < 16 else 0) for i in range(20) if i >= 16 or i % 4 != 3]


async def test_updates_of_one_row_serialize(two):
    """Explicit transactions: one commits, the others get 40001 (lost
    updates are refused); autocommit: each retries itself, so every
    increment lands."""
    await _seed(two, 3)
    sessions = []
    for i in range(6):
        s = two[i % 2].session()
        await s.execute("BEGIN")
        await s.execute("UPDATE k SET v = v + 1 WHERE id = 1")
        sessions.append(s)
    assert await commit_all(sessions) == ["COMMIT"] + ["40001"] * 5
    await asyncio.gather(*(two[i % 2].session().execute("UPDATE k SET v = v + 1 WHERE id = 2") for i in range(8)))
    assert await rows(two[0].session(), "SELECT id, v FROM k ORDER BY id") == [(0, 0), (1, 1), (2, 8)]


async def test_an_update_moving_a_key_conflicts_with_an_insert_of_it(two):
    """UPDATE ... SET id = 100 reads key 100 (its uniqueness check): a
    concurrent insert of 100 conflicts with it."""
    await _seed(two, 2)
    a, b = two[0].session(), two[1].session()
    await a.execute("BEGIN")
    await a.execute("UPDATE k SET id = 100 WHERE id = 1")
    await b.execute("INSERT INTO k VALUES (100, 'n', 0)")
    await commit_conflicts(a)
    assert await rows(b, "SELECT id FROM k ORDER BY id") == [(0,), (1,), (100,)]


async def test_describe_in_a_transaction_reads_no_rows(two):
    """A Describe (postgres.js describes every new statement) finds the
    statement's shape without joining the rows it would read to the
    transaction's read set: inserts of different keys still both commit."""
    from planner import parse as p

    sessions = []
    for i, db in enumerate(two):
        s = db.session()
        await s.execute("BEGIN")
        for sql, types in (("INSERT INTO k VALUES ($1, $2, 0) RETURNING id", ["integer", "text"]), ("SELECT v FROM k WHERE email = $1", ["text"])):
            assert (await s.describe(p.parse(sql)[0], types)).columns
        await s.execute(f"INSERT INTO k VALUES ({i + 50}, 'd{i}@x', 0)")
        sessions.append(s)
    assert await commit_all(sessions) == ["COMMIT", "COMMIT"]


async def test_a_read_refresh_reads_on_past_commits_of_what_was_not_read(two):
    """Before each statement, a transaction whose reads so far were not
    written since moves its read time to the newest commit its process
    knows (read refresh): it sees a row committed after its first read (as
    a statement of PostgreSQL's default READ COMMITTED does), and its
    increment of that row commits, where it used to be refused with 40001
    for a commit before the increment read the row. No update is lost."""
    await _seed(two, 3)
    a, b = two[0].session(), two[0].session()
    await a.execute("BEGIN")
    await a.execute("UPDATE k SET v = v + 1 WHERE id = 0")
    await b.execute("UPDATE k SET v = v + 10 WHERE id = 1")  # commits after a's read, of a row a has not read
    assert await rows(a, "SELECT v FROM k WHERE id = 1") == [(10,)]
    await a.execute("UPDATE k SET v = v + 1 WHERE id = 1")
    await a.execute("COMMIT")
    assert await rows(b, "SELECT id, v FROM k ORDER BY id") == [(0, 1), (1, 11), (2, 0)]


async def test_no_read_refresh_past_a_write_of_what_was_read(two):
    """Once a commit wrote a row the transaction read, its read time stays:
    what it read reads the same again (repeatable), rows it had not read
    are seen as of that time too, and a write computed from them is
    refused at COMMIT (40001)."""
    await _seed(two, 3)
    a, b = two[0].session(), two[0].session()
    await a.execute("BEGIN")
    assert await rows(a, "SELECT v FROM k WHERE id = 0") == [(0,)]
    await b.execute("UPDATE k SET v = v + 10 WHERE id = 0")
    await b.execute("UPDATE k SET v = v + 10 WHERE id = 1")
    assert await rows(a, "SELECT v FROM k WHERE id = 1") == [(0,)]
    assert await rows(a, "SELECT v FROM k WHERE id = 0") == [(0,)]
    await a.execute("UPDATE k SET v = v + 1 WHERE id = 1")
    await commit_conflicts(a)
    assert await rows(b, "SELECT id, v FROM k ORDER BY id") == [(0, 10), (1, 10), (2, 0)]
