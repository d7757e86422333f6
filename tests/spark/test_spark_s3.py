"""Spark over PostgreSQL + S3 (moto): Spark cannot read S3 natively here (no
S3A connector), so every part goes through the ``txngate_parts`` Python
data source (boto3 in the executors), and executors write parts to S3."""

from __future__ import annotations

import pytest

from planner.database import Database
from spark_exec import BlobAccess, SparkEngine
from tests.planner.helpers import rows

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_reads_and_writes_through_the_data_source(sdb, pg_server, s3_server, uniq):
    blob_url = s3_server.url(prefix=f"spark-{uniq}")
    db = await Database.open(pg_server.url(table=f"c_{uniq}", timeline=f"t{uniq}", pool_size=8), blob_url, spark_master=None)
    db.spark = SparkEngine(sdb.spark.runtime, BlobAccess(blob_url, db.blob, None))  # the one driver of this process
    try:
        s = db.session()
        await s.execute("CREATE TABLE t (id bigint, k int, s text, u uuid)")
        await s.execute("INSERT INTO t SELECT g, g % 4, 'x' || g, NULL FROM generate_series(1, 5000) g")
        await s.execute("DELETE FROM t WHERE id % 10 = 0")
        await s.execute("INSERT INTO t VALUES (1, 1, 'x1', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')")
        await s.execute("CREATE TABLE dst (id bigint, k int, s text, u uuid)")
        queries = ["SELECT k, count(*), sum(id), max(s), count(u) FROM t GROUP BY k ORDER BY k", "SELECT id, u FROM t WHERE u IS NOT NULL"]
        local = [await rows(s, q) for q in queries]
        assert len(local[1]) == 1
        await s.execute("SET txngate.engine = spark")
        jobs = db.spark.runtime.jobs_started
        assert [await rows(s, q) for q in queries] == local
        assert (await s.execute("INSERT INTO dst SELECT * FROM t WHERE k = 1"))[-1].command_tag() == "INSERT 0 1251"
        assert db.spark.runtime.jobs_started - jobs == 3
        await s.execute("SET txngate.engine = local")
        assert await rows(s, "SELECT count(*), count(u), sum(id) FROM dst") == [(1251, 1, sum(i for i in range(1, 5001, 4) if i % 10) + 1)]
        keys = [m.key for m in await db.blob.list("") if "/p/spark-" in m.key]
        assert keys, "executors wrote parts to S3"
    finally:
        db.spark = None  # the driver belongs to the package's fixture
        await db.close()
