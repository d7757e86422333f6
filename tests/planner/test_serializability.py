"""A seeded stress test of serializability across two gateways of one
store, checked against what any serial order must give (a bank checker).

Accounts come in pairs; a withdrawal reads both accounts of a pair and
takes an amount from one only if the pair's sum stays non-negative, and
records it by a blind INSERT into ``history`` (a table without keys). Under
snapshot isolation two withdrawals from the two accounts of one pair both
pass the check and drive the pair negative (write skew, seed 001); under
serializability no pair ever goes negative. Read-only transactions check
that every snapshot is consistent (balances plus withdrawals are constant),
and the end state must equal the initial one minus exactly the committed
withdrawals (no lost or doubled update). Clients retry on 40001 as
PostgreSQL's clients do; every transaction must eventually commit.
"""

from __future__ import annotations

import asyncio
import random

from planner.errors import SqlError

PAIRS = 4
START = 10
CLIENTS = 6
ROUNDS = 12
SEED = 20261124


async def _retrying(session, body) -> tuple[int, object]:
    """Run ``body(session)`` in BEGIN ... COMMIT until it commits; returns
    (attempts, its result)."""
    for attempt in range(1, 200):
        await session.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try:
            result = await body(session)
            await session.execute("COMMIT")
            return attempt, result
        except SqlError as e:
            assert e.sqlstate == "40001", e
            if session.work is not None:
                await session.execute("ROLLBACK")
    raise AssertionError("a transaction never committed")


async def _value(session, sql):
    return (await session.execute(sql))[-1].rows[0][0]


async def test_bank_of_pairs_is_serializable_on_two_gateways(two):
    a, b = two
    setup = a.session()
    await setup.execute("CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL)")
    await setup.execute("CREATE TABLE history (amount integer NOT NULL)")
    values = ", ".join(f"({i}, {START})" for i in range(2 * PAIRS))
    await setup.execute(f"INSERT INTO acct VALUES {values}")
    total = 2 * PAIRS * START
    rng = random.Random(SEED)
    committed: list[int] = []
    snapshots: list[tuple[int, int]] = []

    async def withdraw(session, pair: int, which: int, amount: int):
        ids = (2 * pair, 2 * pair + 1)
        got = dict((await session.execute(f"SELECT id, bal FROM acct WHERE id IN ({ids[0]}, {ids[1]})"))[-1].rows)
        await asyncio.sleep(0)  # let the other clients read too
        if sum(got.values()) - amount < 0:
            return 0
        await session.execute(f"UPDATE acct SET bal = bal - {amount} WHERE id = {ids[which]}")
        await session.execute(f"INSERT INTO history VALUES ({amount})")
        return amount

    async def audit(session):
        balances = await _value(session, "SELECT sum(bal) FROM acct")
        taken = await _value(session, "SELECT coalesce(sum(amount), 0) FROM history")
        return balances, taken

    async def client(n: int):
        session = (a if n % 2 else b).session()
        plan = [(rng.randrange(PAIRS), rng.randrange(2), rng.randint(3, 8), rng.random() < 0.25) for _ in range(ROUNDS)]
        for pair, which, amount, reads in plan:
            if reads:
                snapshots.append((await _retrying(session, audit))[1])
            else:
                _attempts, took = await _retrying(session, lambda s: withdraw(s, pair, which, amount))
                if took:
                    committed.append(took)

    await asyncio.gather(*(client(n) for n in range(CLIENTS)))

    check = b.session()
    pairs = (await check.execute("SELECT id / 2, sum(bal) FROM acct GROUP BY id / 2 ORDER BY 1"))[-1].rows
    assert all(s >= 0 for _p, s in pairs), f"write skew: a pair went negative {pairs}"
    assert await _value(check, "SELECT count(*) FROM history") == len(committed)
    assert await _value(check, "SELECT sum(bal) FROM acct") == total - sum(committed), "a lost or doubled update"
    assert snapshots and all(bal + taken == total for bal, taken in snapshots), "an inconsistent snapshot"
    assert committed, "no withdrawal committed: the test checked nothing"
    for db in (a, b):
        db.committer.validate()
