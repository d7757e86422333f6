"""Run as a script: COPY ROWS generated CSV rows (streamed in 1 MiB chunks)
into a table of the embedded default, and print the peak RSS growth in MiB
over a warmed-up baseline as JSON."""

from __future__ import annotations

import asyncio
import io
import json
import os
import resource
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
import pyarrow.csv as pacsv  # noqa: E402

from planner import Database  # noqa: E402

try:
    pa.jemalloc_set_decay_ms(0)  # return freed memory at once, so peak RSS measures live data
except NotImplementedError:
    pass

CHUNK_ROWS = 50_000


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Generated:
    """A CopySource producing ``rows`` CSV rows lazily."""

    def __init__(self, rows: int):
        self.rows = rows

    async def start(self, columns: int, fmt: str) -> None:
        pass

    async def __aiter__(self):
        for start in range(0, self.rows, CHUNK_ROWS):
            ids = pa.array(range(start, min(start + CHUNK_ROWS, self.rows)), pa.int64())
            t = pa.table({"id": ids, "k": pc.bit_wise_and(ids, 255), "v": pc.divide(pc.cast(ids, pa.float64()), 3.0), "s": pc.cast(ids, pa.string())})
            out = io.BytesIO()
            pacsv.write_csv(t, out, pacsv.WriteOptions(include_header=False))
            yield out.getvalue()


async def main(folder: str, rows: int) -> dict:
    db = await Database.open(f"sqlite://{folder}/c.db", f"file://{folder}/blob?fsync=false")
    s = db.session()
    await s.execute("CREATE TABLE big (id bigint, k integer, v double precision, s text)")
    await s.execute("COPY big FROM STDIN (FORMAT csv)", copy_source=Generated(300_000))  # warm up
    base = peak_mib()
    r = (await s.execute("COPY big FROM STDIN (FORMAT csv)", copy_source=Generated(rows)))[-1]
    growth = peak_mib() - base
    count = (await s.execute("SELECT count(*) FROM big"))[-1].rows[0][0]
    await db.close()
    arrow_mib = rows * (8 + 4 + 8 + 4 + 7) / (1 << 20)
    return {"tag": r.tag, "count": count, "growth_mib": growth, "arrow_mib": arrow_mib}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2])))))
