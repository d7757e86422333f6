"""Txns fixtures: an environment (Blob + Consensus + oracle) on memory and on
PostgreSQL + S3, from which tests open as many independent clients (as if
separate processes) as they like."""

from __future__ import annotations

import pyarrow as pa
import pytest

from storage.location import MemBlob, MemConsensus, open_blob, open_consensus
from storage.oracle import MemOracle, open_oracle
from storage.persist import PersistClient, PersistConfig, field_for
from storage.txns import TxnsHandle

ROWS = pa.schema([field_for("id", "bigint"), field_for("v", "text")])


def rows(*ids: int, v: str = "x") -> pa.Table:
    return pa.table({"id": pa.array(list(ids), pa.int64()), "v": [v] * len(ids)})


class Env:
    def __init__(self, blob, consensus, oracle, kind: str):
        self.blob, self.consensus, self.oracle, self.kind = blob, consensus, oracle, kind
        self.clients: list[PersistClient] = []

    def client(self, **config) -> PersistClient:
        c = PersistClient(self.blob, self.consensus, PersistConfig(**config))
        self.clients.append(c)
        return c

    async def txns(self, **config) -> TxnsHandle:
        return await TxnsHandle.open(self.client(**config))

    async def shards(self, txns: TxnsHandle, *names: str, schema: pa.Schema = ROWS) -> list[str]:
        for n in names:
            await txns.client.create_shard(n, schema)
            await txns.register(n, 0)
        return list(names)

    async def close(self) -> None:
        for c in self.clients:
            await c.close()


@pytest.fixture
async def mem_env():
    env = Env(MemBlob(), MemConsensus(), MemOracle(), "mem")
    yield env
    await env.close()


@pytest.fixture
async def durable_env(pg_server, s3_server, uniq):
    consensus = await open_consensus(pg_server.url(pool_size=16, table=f"c_{uniq}"))
    blob = await open_blob(s3_server.url(prefix=f"txns-{uniq}"))
    oracle = await open_oracle(pg_server.url(timeline=f"t{uniq}"))
    env = Env(blob, consensus, oracle, "durable")
    yield env
    await env.close()
    await oracle.close()
    await blob.close()
    await consensus.close()


@pytest.fixture(params=["mem", "durable"])
def env(request) -> Env:
    return request.getfixturevalue(f"{request.param}_env")
