"""storage.persist: durable shards of ``(row, time, diff)`` updates.

A shard has an Arrow schema, an ``upper`` (all times below it are complete)
and a ``since`` (reads must be at or after it). Its data lives in Blob as
Parquet parts (or inline in its state when tiny); its state lives in
Consensus, one full version per seqno, changed only by compare-and-set.

Public API:

* ``PersistClient(blob, consensus, PersistConfig())``: ``create_shard``,
  ``open_writer``, ``open_reader``, ``register_critical`` /
  ``downgrade_critical``, ``compact``, ``gc``, ``inspect``, ``list_shards``;
* ``WriteHandle``: ``builder``/``batch`` to write, ``compare_and_append``
  (with a ``Downgrade`` of since holds riding along), ``append``,
  ``heartbeat``;
* ``ReadHandle``: ``snapshot`` (streamed), ``lease_parts`` (``LeasedParts``), ``snapshot_table``,
  ``snapshot_updates``, ``listen``, ``downgrade_since``, ``wait_for_upper``;
* ``BatchHandle``: a written batch that can be sent to another process
  (``to_bytes``/``from_bytes``) and re-timestamped without rewriting
  (``rewrite_ts``);
* ``field_for(name, sql_type)``: schema fields for SQL types, and
  ``sql_type_of(field)`` the type back (under ``TYPE_KEY`` of the field's
  metadata); ``map_elements`` (a function over a list column's elements);
  ``schema_to_bytes`` / ``schema_from_bytes`` (a schema, with its SQL
  types, for another process) and ``physical_schema`` (as Parquet holds it);
  ``comparable(column)``: dates and times as the integers they are stored
  as (Python values for every value Arrow holds: BC, infinities);
* ``ShardState.validate()``, ``PartMeta`` (one part of a batch) and ``FOREVER``;
* ``collapse(updates)`` (diffs summed per row, whatever their times) and
  ``expand(updates)`` (rows repeated by their diffs): updates to rows;
* ``read_encoded(data, part_schema(schema, part))``: the table of a part's
  bytes (Parquet in Blob; small inline parts carry no schema of their own);
* ``adopt_parquet(blob, shard, schema, writer, prefix)``: a batch of the
  Parquet files an outside writer (Spark) put in Blob, checked and moved to
  part keys.
"""

from storage.persist.batch import BatchBuilder, BatchHandle, adopt_parquet, part_schema, read_encoded
from storage.persist.client import PersistClient
from storage.persist.codec import (DIFF, TS, TYPE_KEY, SchemaError, cast_table, cast_to, comparable, field_for, map_elements, physical_schema, schema_from_bytes,
                                   schema_to_bytes, sql_type_of)
from storage.persist.consolidate import collapse, expand
from storage.persist.config import PersistConfig
from storage.persist.gc import GcReport
from storage.persist.read import LeasedParts, ReadHandle
from storage.persist.state import FOREVER, AppendOutcome, Downgrade, InvariantViolation, PartMeta, ShardState
from storage.persist.write import WriteHandle

__all__ = [
    "AppendOutcome",
    "BatchBuilder",
    "BatchHandle",
    "DIFF",
    "cast_table",
    "cast_to",
    "Downgrade",
    "FOREVER",
    "GcReport",
    "InvariantViolation",
    "LeasedParts",
    "PersistClient",
    "PersistConfig",
    "ReadHandle",
    "SchemaError",
    "comparable",
    "part_schema",
    "read_encoded",
    "ShardState",
    "TS",
    "WriteHandle",
    "adopt_parquet",
    "field_for",
    "PartMeta",
    "TYPE_KEY",
    "collapse",
    "expand",
    "map_elements",
    "sql_type_of",
    "physical_schema",
    "schema_from_bytes",
    "schema_to_bytes",
]
