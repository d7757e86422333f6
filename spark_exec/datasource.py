"""A PySpark data source over txngate's own Blob: ``txngate_parts``.

Spark reads a snapshot's Parquet parts natively when it can reach them (a
local folder, or ``s3a://`` on a cluster with the S3A connector). Where it
cannot, and for parts stored inline in the shard state, this data source
reads them: each part is one input partition, fetched in the executor
through ``storage.location.open_blob`` (boto3 for S3) and decoded with
pyarrow into the part's *physical* columns plus ``_ts`` and ``_diff`` — the
same columns the native reader yields, so one consolidation step serves
both.

Options (strings; Spark hands a Python data source nothing else):
``blob`` (the Blob URL), ``parts`` (JSON list of ``PartMeta.to_json()``),
``schema`` (base64 of the shard's schema bytes).

Invariant: every row a part holds is yielded exactly once, with the time
the part's metadata gives when its data has no ``_ts`` column.
"""

from __future__ import annotations

import asyncio
import base64
import json

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from storage.persist import DIFF, TS, PartMeta, part_schema, physical_schema, read_encoded, schema_from_bytes

NAME = "txngate_parts"


def physical_fields(schema: pa.Schema) -> list[pa.Field]:
    """The columns a reader yields for a shard of ``schema``: user columns
    as Parquet holds them (uuids as plain binary), ``_diff``, ``_ts``."""
    out = []
    for f in physical_schema(schema):
        t = f.type
        if pa.types.is_fixed_size_binary(t):
            t = pa.binary()
        out.append(pa.field(f.name, t, True))
    return out + [pa.field(DIFF, pa.int64(), True), pa.field(TS, pa.int64(), True)]


def spark_ddl(fields: list[pa.Field]) -> str:
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in fields)


def spark_type(t: pa.DataType) -> str:
    """Spark's name for an Arrow type (ValueError if Spark has none)."""
    simple = {
        pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INT", pa.int64(): "BIGINT",
        pa.float32(): "FLOAT", pa.float64(): "DOUBLE", pa.bool_(): "BOOLEAN", pa.string(): "STRING",
        pa.large_string(): "STRING", pa.binary(): "BINARY", pa.large_binary(): "BINARY", pa.date32(): "DATE",
    }
    if t in simple:
        return simple[t]
    if pa.types.is_decimal(t):
        return f"DECIMAL({t.precision}, {t.scale})"
    if pa.types.is_timestamp(t):
        return "TIMESTAMP" if t.tz else "TIMESTAMP_NTZ"
    if pa.types.is_fixed_size_binary(t):
        return "BINARY"
    raise ValueError(f"no Spark type for {t}")


class _Part(InputPartition):
    def __init__(self, meta: dict):
        super().__init__(meta)
        self.meta = meta


class PartsDataSource(DataSource):
    @classmethod
    def name(cls) -> str:
        return NAME

    def schema(self) -> str:
        return spark_ddl(physical_fields(schema_from_bytes(base64.b64decode(self.options["schema"]))))

    def reader(self, schema) -> DataSourceReader:
        return PartsReader(self.options)


class PartsReader(DataSourceReader):
    def __init__(self, options):
        self.blob_url = options.get("blob", "")
        self.parts = json.loads(options["parts"])
        self.schema = schema_from_bytes(base64.b64decode(options["schema"]))
        self.fields = physical_fields(self.schema)

    def partitions(self):
        return [_Part(p) for p in self.parts] or [_Part(None)]

    def read(self, partition):
        if partition.meta is None:
            return
        part = PartMeta.from_json(partition.meta)
        data = part.inline if part.inline is not None else asyncio.run(_fetch(self.blob_url, part.key))
        table = read_encoded(data, part_schema(self.schema, part))
        if TS not in table.column_names:
            table = table.append_column(TS, pa.repeat(pa.scalar(part.ts, pa.int64()), table.num_rows))
        columns = [table.column(f.name).cast(f.type) for f in self.fields]
        out = pa.Table.from_arrays(columns, schema=pa.schema(self.fields))
        yield from out.to_batches(max_chunksize=8192)


async def _fetch(url: str, key: str) -> bytes:
    from storage.location import open_blob

    blob = await open_blob(url)
    try:
        data = await blob.get(key)
    finally:
        await blob.close()
    if data is None:
        raise FileNotFoundError(f"part {key} is missing from blob")
    return data
