"""The fault suite (issue "Fault tolerance and operability"): two
``txngate serve`` processes on one PostgreSQL + S3 store run a bank
workload from real clients (psycopg 3) while a gateway is killed with
SIGKILL and restarted, PostgreSQL is crash-restarted (immediate shutdown)
twice, and S3 is paused (SIGSTOP). Faults are driven by the workload's
progress (after so many acknowledged transfers), not by the clock.

Each transfer moves an amount between two accounts and records itself in
``transfers`` with a unique id, in one explicit transaction. A client
keeps, per id, what it was told: COMMIT (acknowledged), an ErrorResponse
with a SQLSTATE outside class 08 (rolled back, as PostgreSQL means it), or
nothing conclusive (the connection dropped, 08006: unknown). The checker,
after the faults: every acknowledged transfer is present exactly once,
every rolled-back one is absent, nothing is present that was not sent, the
total is conserved, and each balance is its start plus the transfers
present (the two tables agree).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal

import psycopg
import pytest

from tests.servers import Gateway, PostgresServer, S3Server

ACCOUNTS = 8
START = 1000
CLIENTS = 4
SEED = 20261124
#: acknowledged transfers between two faults
STEP = 12
#: seconds S3 stays stopped
S3_PAUSE = 2.0


class Bank:
    """The gateways, the clients' knowledge and the fault driver."""

    def __init__(self, tmp_path, pg: PostgresServer, s3: S3Server):
        self.tmp_path, self.pg, self.s3 = tmp_path, pg, s3
        self.starts = 0
        self.gateways = [self.start_gateway(), self.start_gateway()]
        self.acked: set[str] = set()
        self.rolled_back: set[str] = set()
        self.unknown: set[str] = set()
        self.progress = asyncio.Condition()
        self.stop = False
        self.done: list[str] = []
        self.errors: list[str] = []  # the last few, for a failure's message
        self.seen: dict[str, int] = {}  # errors by SQLSTATE ("" for a dropped connection)

    def start_gateway(self) -> Gateway:
        self.starts += 1
        folder = self.tmp_path / f"g{self.starts}"
        folder.mkdir()
        return Gateway(str(folder), "--consensus", self.pg.url(database="bank"), "--blob", self.s3.url(prefix="bank"),
                       "--workers", "1", "--spark-master", "none")

    async def connect(self, rng: random.Random) -> psycopg.AsyncConnection:
        for _ in range(400):
            g = rng.choice(self.gateways)
            try:
                return await psycopg.AsyncConnection.connect(g.dsn(connect_timeout=5))
            except psycopg.OperationalError:
                await asyncio.sleep(0.05)  # a gateway restarting, or PostgreSQL down: back off
        raise AssertionError("no gateway took a connection")

    async def client(self, c: int) -> None:
        rng = random.Random(SEED + c)
        conn = await self.connect(rng)
        n = 0
        while not self.stop:
            n += 1
            tid = f"{c}-{n}"
            a, b = rng.sample(range(ACCOUNTS), 2)
            amount = rng.randint(1, 50)
            committing = False
            try:
                await conn.execute("UPDATE acct SET bal = bal - %s WHERE id = %s", (amount, a))
                await conn.execute("UPDATE acct SET bal = bal + %s WHERE id = %s", (amount, b))
                await conn.execute("INSERT INTO transfers VALUES (%s, %s, %s, %s)", (tid, a, b, amount))
                committing = True
                await conn.commit()
            except psycopg.Error as e:
                self.errors = (self.errors + [f"{e.sqlstate}: {str(e)[:200]}"])[-8:]
                broken = conn.closed or conn.broken or (e.sqlstate or "").startswith("08") or e.sqlstate is None
                self.seen[e.sqlstate or ""] = self.seen.get(e.sqlstate or "", 0) + 1
                if committing and broken:
                    self.unknown.add(tid)
                else:
                    assert e.sqlstate not in ("XX000",) and "internal error" not in str(e), e
                    self.rolled_back.add(tid)
                if broken:
                    await conn.close()
                    conn = await self.connect(rng)
                else:
                    await conn.rollback()
                continue
            self.acked.add(tid)
            async with self.progress:
                self.progress.notify_all()
        await conn.close()

    async def after_more(self, count: int) -> None:
        target = len(self.acked) + count
        try:
            async with self.progress:
                await asyncio.wait_for(self.progress.wait_for(lambda: len(self.acked) >= target), 120)
        except asyncio.TimeoutError:
            raise AssertionError(f"no progress after {self.done}: {len(self.acked)} acknowledged, "
                                 f"{len(self.rolled_back)} rolled back, {len(self.unknown)} unknown; last errors: {self.errors}") from None

    async def faults(self) -> list[str]:
        done = self.done
        await self.after_more(STEP)
        victim = self.gateways[0]
        victim.proc.kill()  # SIGKILL, mid-workload
        victim.proc.wait()
        victim.log.close()
        self.gateways = [self.gateways[1]]
        done.append("gateway killed")
        await self.after_more(STEP)
        self.gateways.append(await asyncio.to_thread(self.start_gateway))
        done.append("gateway restarted")
        for _ in range(2):
            await self.after_more(STEP)
            await asyncio.to_thread(self.pg.crash_restart)
            done.append("PostgreSQL crash-restarted")
        await self.after_more(STEP)
        os.kill(self.s3.pid, signal.SIGSTOP)
        try:
            # the fault's length (not a synchronisation): commits whose txns
            # batch goes to Blob wait for it, as a database waits on a stalled disk
            await asyncio.sleep(S3_PAUSE)
        finally:
            os.kill(self.s3.pid, signal.SIGCONT)
        done.append("S3 paused")
        await self.after_more(STEP)
        return done


@pytest.fixture
def store():
    with PostgresServer(crash_safe=True) as pg, S3Server() as s3:
        pg.psql("CREATE DATABASE bank")
        yield pg, s3


@pytest.mark.timeout(600)
async def test_bank_under_gateway_kills_postgres_restarts_and_s3_pauses(store, tmp_path):
    pg, s3 = store
    bank = Bank(tmp_path, pg, s3)
    try:
        with psycopg.connect(bank.gateways[0].dsn(), autocommit=True) as conn:
            conn.execute("CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL)")
            conn.execute("CREATE TABLE transfers (tid text NOT NULL, src integer NOT NULL, dst integer NOT NULL, amount integer NOT NULL)")
            conn.execute("INSERT INTO acct SELECT g, %s FROM generate_series(0, %s) g", (START, ACCOUNTS - 1))
        clients = [asyncio.ensure_future(bank.client(c)) for c in range(CLIENTS)]
        try:
            done = await bank.faults()
        finally:
            bank.stop = True
            await asyncio.gather(*clients)
        assert done == ["gateway killed", "gateway restarted", "PostgreSQL crash-restarted", "PostgreSQL crash-restarted", "S3 paused"]

        with psycopg.connect(bank.gateways[-1].dsn(), autocommit=True) as conn:
            rows = conn.execute("SELECT tid, src, dst, amount FROM transfers").fetchall()
            balances = dict(conn.execute("SELECT id, bal FROM acct").fetchall())
        present = [r[0] for r in rows]
        assert len(present) == len(set(present)), "a transfer is recorded twice"
        present_set = set(present)
        assert bank.acked <= present_set, f"acknowledged transfers lost: {sorted(bank.acked - present_set)[:10]}"
        assert not (bank.rolled_back & present_set), f"transfers told 'rolled back' committed: {sorted(bank.rolled_back & present_set)[:10]}"
        assert present_set <= bank.acked | bank.unknown, "a transfer present that no client sent to COMMIT"
        assert sum(balances.values()) == ACCOUNTS * START, "the total is not conserved"
        expected = {i: START for i in range(ACCOUNTS)}
        for _tid, src, dst, amount in rows:
            expected[src] -= amount
            expected[dst] += amount
        assert balances == expected, "balances disagree with the transfers recorded"
        assert len(bank.acked) >= 5 * STEP
        # the faults reached the clients: connections dropped (the kill), the
        # store unavailable (57P03 while PostgreSQL restarted), conflicts
        assert bank.seen.get("") and bank.seen.get("57P03") and bank.seen.get("40001"), bank.seen
    finally:
        for g in bank.gateways:
            if g.proc.poll() is None:
                g.stop()
