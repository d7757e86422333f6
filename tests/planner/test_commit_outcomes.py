"""What a client is told about a commit is its true outcome (the contract in
``storage.txns.commit``), with failures injected deterministically at each
step of the lifecycle, on the embedded default and on PostgreSQL + S3:

* after the commit point (the oracle's ``apply_write``, the apply into the
  data shards): the statement succeeds and its writes are there, for the
  session itself at once and for everyone once the oracle has heard;
* at the commit point with an unknown outcome: FATAL 08006, never an error
  that reads as a rollback, and the batches of a commit that did happen
  are kept;
* before the commit point: nothing is written and the error is 57P03 (an
  outage), 40001 (a conflict) or 57014 (a cancel), never XX000;
* a cancel that arrives while the commit is in flight does not hide a
  commit that happened.
"""

from __future__ import annotations

import asyncio

import pytest

from planner.errors import SqlError
from storage.errors import CommitUnknown, DeterminateError, IndeterminateError
from tests.planner.helpers import rows


class Failing:
    """Make ``obj.name`` raise ``error`` on its next ``times`` calls, after
    running the real call when ``after`` (the write happened, then the
    caller heard an error)."""

    def __init__(self, monkeypatch, obj, name: str, error: Exception, *, times: int = 1, after: bool = False):
        self.real = getattr(obj, name)
        self.error, self.left, self.after, self.calls = error, times, after, 0
        monkeypatch.setattr(obj, name, self)

    async def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.left <= 0:
            return await self.real(*args, **kwargs)
        self.left -= 1
        if self.after:
            await self.real(*args, **kwargs)
        raise self.error


async def setup_table(db, name: str = "acct"):
    s = db.session()
    await s.execute(f"CREATE TABLE {name} (id integer PRIMARY KEY, v integer)")
    await s.execute(f"INSERT INTO {name} VALUES (1, 100), (2, 100)")
    return s


STATEMENTS = {
    "explicit": ["BEGIN", "UPDATE acct SET v = v - 10 WHERE id = 1", "INSERT INTO acct VALUES (3, 10)", "COMMIT"],
    "autocommit read-write": ["INSERT INTO acct SELECT 3, 10"],
    "autocommit write-only": ["INSERT INTO log VALUES (3)"],
}


async def run_all(s, statements):
    for sql in statements:
        await s.execute(sql)


async def outcome(db, kind: str):
    other = db.session()
    table = "log" if kind == "autocommit write-only" else "acct"
    return await rows(other, f"SELECT count(*) FROM {table} WHERE {'x' if table == 'log' else 'id'} = 3")


@pytest.mark.parametrize("kind", sorted(STATEMENTS))
async def test_apply_write_failing_after_the_commit_point_is_still_a_commit(db, monkeypatch, kind):
    s = await setup_table(db)
    await s.execute("CREATE TABLE log (x integer)")
    fault = Failing(monkeypatch, db.oracle, "apply_write", IndeterminateError("oracle apply_write: connection was closed"), after=False)
    await run_all(s, STATEMENTS[kind])  # no error: the commit is durable
    assert fault.calls >= 1 and db.committer.deferred >= 1
    # The session reads its own write at once, though the oracle has not heard.
    table = "log" if kind == "autocommit write-only" else "acct"
    column = "x" if table == "log" else "id"
    assert await rows(s, f"SELECT count(*) FROM {table} WHERE {column} = 3") == [(1,)]
    await db.committer.settled()  # the background announcer got through
    db.committer.validate()
    assert await outcome(db, kind) == [(1,)]


@pytest.mark.parametrize("kind", sorted(STATEMENTS))
async def test_apply_failing_after_the_commit_point_is_still_a_commit(db, monkeypatch, kind):
    s = await setup_table(db)
    await s.execute("CREATE TABLE log (x integer)")
    txn_type = type(db.txns.begin())
    Failing(monkeypatch, txn_type, "apply", DeterminateError("blob unreachable"), times=1)
    await run_all(s, STATEMENTS[kind])
    await db.committer.settled()
    assert await outcome(db, kind) == [(1,)], "a reader finishes the apply"


@pytest.mark.parametrize("applied", [True, False], ids=["commit happened", "commit lost"])
async def test_unknown_commit_outcome_is_fatal_08006_and_keeps_the_batches(db, monkeypatch, applied):
    s = await setup_table(db)
    Failing(monkeypatch, db.txns, "commit_rows", CommitUnknown("consensus compare_and_set: timeout"), after=applied)
    await run_all(s, STATEMENTS["explicit"][:3])
    with pytest.raises(SqlError) as info:
        await s.execute("COMMIT")
    assert (info.value.sqlstate, info.value.severity) == ("08006", "FATAL")
    assert "may or may not have committed" in info.value.detail
    await db.committer.settled()  # once the store answers, the oracle hears of what committed
    # Whatever happened is whole: both writes or neither; and a commit that
    # happened reads back (its parts were not deleted as an aborted txn's).
    got = await rows(db.session(), "SELECT v FROM acct ORDER BY id")
    assert got == ([(90,), (100,), (10,)] if applied else [(100,), (100,)])


async def test_storage_outage_before_the_commit_point_is_57p03_and_writes_nothing(db, monkeypatch):
    s = await setup_table(db)
    Failing(monkeypatch, db.oracle, "read_ts", DeterminateError("oracle read_ts: no connection"), times=1)
    with pytest.raises(SqlError) as info:
        await s.execute("UPDATE acct SET v = 0 WHERE id = 1")
    assert info.value.sqlstate == "57P03" and "DeterminateError" in info.value.detail
    await s.execute("BEGIN")
    await s.execute("UPDATE acct SET v = 0 WHERE id = 1")
    Failing(monkeypatch, db.oracle, "write_ts", DeterminateError("oracle write_ts: no connection"), times=50)
    Failing(monkeypatch, db.txns, "commit_rows", DeterminateError("consensus: no connection"), times=1)
    with pytest.raises(SqlError) as info:
        await s.execute("COMMIT")
    assert info.value.sqlstate == "57P03"
    assert s.status == "I"
    assert await rows(db.session(), "SELECT v FROM acct ORDER BY id") == [(100,), (100,)]


async def test_a_cancel_during_the_commit_does_not_hide_the_commit(db, monkeypatch):
    s = await setup_table(db)
    started, release = asyncio.Event(), asyncio.Event()
    real = db.txns.commit_rows

    async def slow_commit(ts, rows_):
        started.set()
        await release.wait()
        return await real(ts, rows_)

    monkeypatch.setattr(db.txns, "commit_rows", slow_commit)
    await run_all(s, STATEMENTS["explicit"][:3])
    commit = asyncio.create_task(s.execute("COMMIT"))
    await started.wait()
    commit.cancel()  # the client's CancelRequest arrives mid-commit
    await asyncio.sleep(0)
    release.set()
    assert (await commit)[0].tag == "COMMIT", "the commit happened: the cancel came too late"
    assert await rows(db.session(), "SELECT v FROM acct ORDER BY id") == [(90,), (100,), (10,)]


async def test_a_cancel_during_a_commit_that_fails_rolls_back(db, monkeypatch):
    s = await setup_table(db)
    started, release = asyncio.Event(), asyncio.Event()

    async def failing_commit(ts, rows_):
        started.set()
        await release.wait()
        raise DeterminateError("consensus: no connection")  # certainly not committed

    monkeypatch.setattr(db.txns, "commit_rows", failing_commit)
    await run_all(s, STATEMENTS["explicit"][:3])
    commit = asyncio.create_task(s.execute("COMMIT"))
    await started.wait()
    commit.cancel()
    await asyncio.sleep(0)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await commit
    monkeypatch.undo()
    assert await rows(db.session(), "SELECT v FROM acct ORDER BY id") == [(100,), (100,)]


async def test_open_makes_every_commit_readable_whatever_the_oracle_lost(tmp_path):
    """The embedded oracle's updates are not synced on their own (a power
    loss may drop the last of them): opening the database applies the txns
    upper, so a commit a client was told of is read after a restart."""
    import sqlite3

    from planner.database import Database

    urls = (f"sqlite://{tmp_path}/c.db", f"file://{tmp_path}/b")
    db = await Database.open(*urls, spark_master=None)
    s = db.session()
    await s.execute("CREATE TABLE t (a int)")
    await s.execute("INSERT INTO t VALUES (1)")
    await db.close()
    with sqlite3.connect(f"{tmp_path}/c.db") as conn:  # the row as a lost update leaves it
        conn.execute("UPDATE timestamp_oracle SET read_ts = 0, write_ts = 0")
    db = await Database.open(*urls, spark_master=None)
    try:
        assert await rows(db.session(), "SELECT a FROM t") == [(1,)]
    finally:
        await db.close()
