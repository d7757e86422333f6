"""spark_exec: large SELECTs and writes (INSERT ... SELECT, CREATE TABLE
AS, REFRESH, UPDATE, DELETE) on PySpark, over the same snapshots the local
engine reads.

Public API:

* ``SparkRuntime(master, conf)``: the process's one driver, started lazily;
  ``run`` (a blocking Spark call under a job group: cancellation, timeout,
  progress), ``stop``;
* ``SparkEngine(runtime, BlobAccess(...))``: ``stream`` (rows of a query
  as Arrow batches, bounded memory) and ``write`` (Spark writes Parquet
  parts; the driver gets batch handles to commit through the txns shard);
* ``supported(schema)``: why a shard cannot be read on Spark, or None;
* ``SparkError`` (with a PostgreSQL SQLSTATE) and ``SparkUnavailable``.

This layer knows storage (parts, batches, Blob) and Spark; the planner
decides what runs here and commits what it writes.
"""

from spark_exec.engine import BlobAccess, SparkEngine, SparkStream, supported
from spark_exec.runtime import SparkError, SparkRuntime, SparkUnavailable

__all__ = ["BlobAccess", "SparkEngine", "SparkError", "SparkRuntime", "SparkStream", "SparkUnavailable", "supported"]
