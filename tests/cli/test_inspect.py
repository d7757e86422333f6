"""``txngate inspect``: shard state as text and JSON, from the embedded
default and from explicit location URLs."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pyarrow as pa

from storage.location import open_blob, open_consensus
from storage.persist import PersistClient, PersistConfig, field_for

TXNGATE = os.path.join(os.path.dirname(sys.executable), "txngate")


async def make_shard(consensus_url: str, blob_url: str) -> None:
    consensus, blob = await open_consensus(consensus_url), await open_blob(blob_url)
    client = PersistClient(blob, consensus, PersistConfig(inline_threshold=0, compaction=False))
    w = await client.open_writer("orders", pa.schema([field_for("id", "bigint"), field_for("note", "text")]))
    await client.open_reader("orders", heartbeats=False)
    for i in range(3):
        b = await w.batch(pa.table({"id": pa.array([i], pa.int64()), "note": ["x"]}), ts=i)
        await w.compare_and_append(b, i, i + 1)
    await client.close()
    await blob.close()
    await consensus.close()


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([TXNGATE, "inspect", *argv], capture_output=True, text=True)


def test_inspect_embedded_shard_text_and_json(tmp_path):
    data = tmp_path / "data"
    asyncio.run(make_shard(f"sqlite://{data}/consensus.db", f"file://{data}/blob"))
    res = run("shards", "--data-dir", str(data), "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == ["orders"]
    res = run("shard", "orders", "--data-dir", str(data))
    assert res.returncode == 0, res.stderr
    assert "upper   3" in res.stdout and "batches 3 (3 rows" in res.stdout and "3 in blob" in res.stdout
    assert "readers 1" in res.stdout and "writers 1" in res.stdout
    info = json.loads(run("shard", "orders", "--data-dir", str(data), "--json").stdout)
    assert info["upper"] == 3 and info["batches"]["rows"] == 3
    assert info["columns"] == ["id bigint", "note text"]
    assert len(info["readers"]) == 1 and len(info["writers"]) == 1


def test_inspect_postgres_and_s3(pg_server, s3_server, uniq):
    blob_url = s3_server.url(prefix=f"inspect-{uniq}")
    consensus_url = pg_server.url(table=f"inspect_{uniq}")
    asyncio.run(make_shard(consensus_url, blob_url))
    info = json.loads(run("shard", "orders", "--consensus", consensus_url, "--blob", blob_url, "--json").stdout)
    assert info["batches"]["parts_blob"] == 3


def test_inspect_missing_shard(tmp_path):
    res = run("shard", "nope", "--data-dir", str(tmp_path))
    assert res.returncode == 1
    assert "does not exist" in res.stderr and "Traceback" not in res.stderr
