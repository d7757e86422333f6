"""Run as a script: write then stream-read a batch of ROWS rows (about 32
bytes each) through a shard on a local-folder Blob with small parts, and
print the peak RSS growth in MiB over the baseline as JSON."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import pyarrow as pa  # noqa: E402

from storage.location import open_blob, open_consensus  # noqa: E402
from storage.persist import PersistClient, PersistConfig, field_for  # noqa: E402


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def main(folder: str, rows: int, chunk: int) -> dict:
    consensus = await open_consensus(f"sqlite://{folder}/c.db")
    blob = await open_blob(f"file://{folder}/blob?fsync=false")
    client = PersistClient(blob, consensus, PersistConfig(part_bytes=4 << 20, compaction=False))
    schema = pa.schema([field_for("a", "bigint"), field_for("b", "bigint"), field_for("c", "double precision"), field_for("d", "bigint")])
    w = await client.open_writer("big", schema)
    r = await client.open_reader("big")
    # Warm up imports and allocator before taking the baseline.
    await w.batch(pa.table({"a": pa.array([0], pa.int64()), "b": pa.array([0], pa.int64()), "c": [0.0], "d": pa.array([0], pa.int64())}), ts=0)
    baseline = peak_mib()
    builder = w.builder(ts=0)
    for start in range(0, rows, chunk):
        ids = pa.array(range(start, min(rows, start + chunk)), pa.int64())
        await builder.add(pa.table({"a": ids, "b": ids, "c": ids.cast(pa.float64()), "d": ids}))
        del ids
    handle = await builder.finish()
    assert (await w.compare_and_append(handle, 0, 1)).applied
    after_write = peak_mib()
    seen = 0
    total = 0
    async for batch in r.snapshot(0):
        seen += batch.num_rows
        total += batch.column(0)[0].as_py() if batch.num_rows else 0
    after_read = peak_mib()
    await client.close()
    return {
        "rows_read": seen,
        "parts": len(handle.parts),
        "arrow_mib": rows * 32 / 2**20,
        "write_growth_mib": after_write - baseline,
        "read_growth_mib": after_read - baseline,
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))))
