"""UPDATE/DELETE and explicit transactions at the Session API: read-your-
writes, atomic multi-table commits, read-only and aborted states, and
serializable commits (40001, the write-skew case)."""

from __future__ import annotations

from tests.planner.helpers import rows, sqlstate


async def test_update_and_delete(db):
    s = db.session()
    await s.execute("CREATE TABLE t (id integer PRIMARY KEY, v text); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    assert (await s.execute("UPDATE t SET v = upper(v) WHERE id >= 2"))[0].tag == "UPDATE 2"
    assert (await s.execute("DELETE FROM t WHERE id = 1"))[0].tag == "DELETE 1"
    assert await rows(s, "SELECT id, v FROM t ORDER BY id") == [(2, "B"), (3, "C")]
    assert await sqlstate(s, "UPDATE t SET id = 3 WHERE id = 2") == "23505"
    assert await sqlstate(s, "UPDATE t SET nope = 1") == "42703"
    assert (await s.execute("UPDATE t SET v = 'z' WHERE id > 100"))[0].tag == "UPDATE 0"
    assert (await s.execute("DELETE FROM t"))[0].tag == "DELETE 2"
    assert await rows(s, "SELECT count(*) FROM t") == [(0,)]


async def test_multi_table_write_transaction_is_atomic_and_reads_its_writes(db):
    s, other = db.session(), db.session()
    await s.execute("CREATE TABLE a (x integer); CREATE TABLE b (y integer)")
    await s.execute("BEGIN")
    assert s.status == "T"
    await s.execute("INSERT INTO a VALUES (1), (2)")
    await s.execute("INSERT INTO b VALUES (10)")
    assert await rows(s, "SELECT count(*) FROM a") == [(2,)]  # own writes
    assert await rows(other, "SELECT count(*) FROM a") == [(0,)]  # not yet visible
    assert (await s.execute("COMMIT"))[0].tag == "COMMIT"
    assert s.status == "I"
    assert await rows(other, "SELECT (SELECT count(*) FROM a) AS a, (SELECT count(*) FROM b) AS b") == [(2, 1)]


async def test_rollback_discards_everything(db):
    s = db.session()
    await s.execute("CREATE TABLE r (x integer)")
    await s.execute("BEGIN; INSERT INTO r VALUES (1); UPDATE r SET x = 2")
    assert await rows(s, "SELECT x FROM r") == [(2,)]
    assert (await s.execute("ROLLBACK"))[0].tag == "ROLLBACK"
    assert await rows(s, "SELECT count(*) FROM r") == [(0,)]


async def test_read_only_and_aborted_states(db):
    s = db.session()
    await s.execute("CREATE TABLE ro (x integer)")
    await s.execute("BEGIN READ ONLY")
    assert await sqlstate(s, "INSERT INTO ro VALUES (1)") == "25006"
    assert s.status == "E"
    assert await sqlstate(s, "SELECT 1") == "25P02"
    assert (await s.execute("COMMIT"))[0].tag == "ROLLBACK"
    assert s.status == "I"
    await s.execute("BEGIN")
    assert await sqlstate(s, "SELECT * FROM missing") == "42P01"
    assert await sqlstate(s, "INSERT INTO ro VALUES (1)") == "25P02"
    await s.execute("ROLLBACK")
    assert await rows(s, "SELECT count(*) FROM ro") == [(0,)]
    notices = (await s.execute("COMMIT"))[0].notices
    assert notices and "25P01" in notices[0]


async def test_write_skew_is_refused(db):
    """Seed 001's on-call example: two doctors each check that someone else
    is on call, then go off call. Serializable execution lets only one."""
    setup, alice, bob = db.session(), db.session(), db.session()
    await setup.execute("CREATE TABLE oncall (doctor text, on_call boolean); INSERT INTO oncall VALUES ('alice', true), ('bob', true)")
    for s in (alice, bob):
        await s.execute("BEGIN")
        assert await rows(s, "SELECT count(*) FROM oncall WHERE on_call") == [(2,)]
    await alice.execute("UPDATE oncall SET on_call = false WHERE doctor = 'alice'")
    await bob.execute("UPDATE oncall SET on_call = false WHERE doctor = 'bob'")
    await alice.execute("COMMIT")
    assert await sqlstate(bob, "COMMIT") == "40001"
    assert bob.status == "I"
    assert await rows(setup, "SELECT doctor FROM oncall WHERE on_call") == [("bob",)]


async def test_mixed_txn_commits_when_reads_are_unchanged(db):
    s, other = db.session(), db.session()
    await s.execute("CREATE TABLE src (x integer); CREATE TABLE dst (x integer); CREATE TABLE noise (x integer); INSERT INTO src VALUES (5)")
    await s.execute("BEGIN")
    total = (await rows(s, "SELECT sum(x) FROM src"))[0][0]
    await other.execute("INSERT INTO noise VALUES (1)")  # commits above our read_ts, to a table we did not read
    await s.execute(f"INSERT INTO dst VALUES ({total})")
    assert (await s.execute("COMMIT"))[0].tag == "COMMIT"
    assert await rows(other, "SELECT x FROM dst") == [(5,)]


async def test_many_small_writes_and_savepoints_in_one_transaction(db):
    """A transaction's writes to one table are joined into one part as
    they pile up (reads of its own writes stay one pass); ROLLBACK TO
    undoes exactly the rows written after the savepoint, whether they sit
    in joined parts or not."""
    s = db.session()
    await s.execute("CREATE TABLE sp (id integer PRIMARY KEY, v integer)")
    await s.execute("BEGIN")
    for i in range(40):
        await s.execute(f"INSERT INTO sp VALUES ({i}, {i})")
    await s.execute("SAVEPOINT a")
    for i in range(40, 80):
        await s.execute(f"INSERT INTO sp VALUES ({i}, {i})")
    await s.execute("UPDATE sp SET v = -1 WHERE id = 3")
    await s.execute("DELETE FROM sp WHERE id = 5")
    assert (await s.execute("SELECT count(*), sum(v) FROM sp"))[-1].rows == [(79, sum(range(80)) - 5 - 3 - 1)]
    await s.execute("ROLLBACK TO SAVEPOINT a")
    assert (await s.execute("SELECT count(*), sum(v) FROM sp"))[-1].rows == [(40, sum(range(40)))]
    await s.execute("INSERT INTO sp VALUES (40, 0)")
    assert await sqlstate(s, "INSERT INTO sp VALUES (7, 0)") == "23505"
    await s.execute("ROLLBACK")
    await s.execute("BEGIN")
    for i in range(70):
        await s.execute(f"INSERT INTO sp VALUES ({i}, 1)")
    await s.execute("COMMIT")
    assert (await db.session().execute("SELECT count(*), sum(v) FROM sp"))[-1].rows == [(70, 70)]
