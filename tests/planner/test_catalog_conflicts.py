"""The catalog keyed per object, across two gateways of one store: DDL on
different objects never conflicts (explicit transactions creating,
renaming and dropping different tables all commit, as dbt's threads do);
DDL on one object serializes (40001 for the later explicit transaction,
42P07 for a statement that retries itself); a statement that used a table
conflicts with a concurrent DROP or ALTER of it, and a view created on a
table conflicts with a concurrent DROP of the table in either order."""

from __future__ import annotations

import asyncio

from planner.errors import SqlError
from tests.planner.helpers import rows
from tests.planner.test_key_conflicts import commit_all, commit_conflicts


async def _in_transactions(two, statements: list[str]):
    """One session per statement list, alternating gateways, each with
    BEGIN and its statements done before any of them commits."""
    sessions = []
    for i, sql in enumerate(statements):
        s = two[i % 2].session()
        await s.execute("BEGIN")
        await s.execute(sql)
        sessions.append(s)
    return sessions


async def test_creates_of_different_tables_all_commit(two):
    sessions = await _in_transactions(two, [f"CREATE TABLE t{i} (id integer PRIMARY KEY); INSERT INTO t{i} VALUES ({i})" for i in range(8)])
    assert await commit_all(sessions) == ["COMMIT"] * 8
    union = " UNION ALL ".join(f"SELECT id FROM t{i}" for i in range(8))
    assert await rows(two[1].session(), f"SELECT sum(id) FROM ({union}) u") == [(sum(range(8)),)]


async def test_creates_of_one_name_serialize(two):
    sessions = await _in_transactions(two, ["CREATE TABLE same (a integer)", "CREATE TABLE same (b text)"])
    assert await commit_all(sessions) == ["COMMIT", "40001"]
    assert await rows(two[1].session(), "SELECT column_name FROM information_schema.columns WHERE table_name = 'same'") == [("a",)]


async def test_autocommit_creates_race_one_name_and_pass_different_ones(two):
    async def create(i, name):
        try:
            await two[i % 2].session().execute(f"CREATE TABLE {name} (id integer)")
            return "CREATE"
        except SqlError as e:
            return e.sqlstate

    outcomes = await asyncio.gather(*(create(i, f"r{i}") for i in range(6)), *(create(i, "one") for i in range(4)))
    assert outcomes[:6] == ["CREATE"] * 6
    assert sorted(outcomes[6:]) == ["42P07"] * 3 + ["CREATE"]


async def test_swapping_different_tables_in_transactions_commits(two):
    """dbt's table materialization, two models on two threads."""
    setup = two[0].session()
    for m in ("m1", "m2"):
        await setup.execute(f"CREATE TABLE {m} AS SELECT 1 AS x")
    sessions = await _in_transactions(two, [
        f"CREATE TABLE {m}__tmp AS SELECT {i} AS x; ALTER TABLE {m} RENAME TO {m}__backup; "
        f"ALTER TABLE {m}__tmp RENAME TO {m}; DROP TABLE IF EXISTS {m}__backup CASCADE"
        for i, m in enumerate(("m1", "m2"), start=2)
    ])
    assert await commit_all(sessions) == ["COMMIT", "COMMIT"]
    assert await rows(two[1].session(), "SELECT (SELECT x FROM m1), (SELECT x FROM m2)") == [(2, 3)]


async def test_a_write_conflicts_with_a_drop_or_alter_of_its_table(two):
    for ddl in ("ALTER TABLE k ADD COLUMN w integer", "DROP TABLE k"):
        b = two[1].session()
        await b.execute("BEGIN")
        await b.execute("INSERT INTO k VALUES (1, 'x', 1)")
        await two[0].session().execute(ddl)
        await commit_conflicts(b)


async def test_a_view_and_a_drop_of_its_table_conflict_in_either_order(two):
    for first in ("view", "drop"):
        await two[0].session().execute("CREATE TABLE IF NOT EXISTS base (a integer)")
        view, drop = two[0].session(), two[1].session()
        await view.execute("BEGIN")
        await view.execute("CREATE VIEW v AS SELECT a FROM base")
        await drop.execute("BEGIN")
        await drop.execute("DROP TABLE base")
        winner, loser = (view, drop) if first == "view" else (drop, view)
        await winner.execute("COMMIT")
        await commit_conflicts(loser)
        check = two[0].session()
        assert await rows(check, "SELECT count(*) FROM pg_class WHERE relname IN ('v', 'base')") == [(2 if first == "view" else 0,)]
        await check.execute("DROP VIEW IF EXISTS v")
