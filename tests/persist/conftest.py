"""Persist fixtures: a client over in-memory locations (unit tests), over the
durable ones (PostgreSQL + S3), and a controllable clock for leases."""

from __future__ import annotations

import pytest

from storage.location import MemBlob, MemConsensus, open_blob, open_consensus
from storage.persist import PersistClient, PersistConfig


class FakeClock:
    def __init__(self, now: int = 1_700_000_000_000):
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def mem_client(clock):
    client = PersistClient(MemBlob(), MemConsensus(), PersistConfig(clock=clock))
    yield client
    await client.close()


@pytest.fixture
async def durable_client(pg_server, s3_server, uniq, clock):
    consensus = await open_consensus(pg_server.url(pool_size=16))
    blob = await open_blob(s3_server.url(prefix=f"persist-{uniq}"))
    client = PersistClient(blob, consensus, PersistConfig(clock=clock))
    yield client
    await client.close()
    await blob.close()
    await consensus.close()


@pytest.fixture(params=["mem", "durable"])
def client(request):
    return request.getfixturevalue("mem_client" if request.param == "mem" else "durable_client")
