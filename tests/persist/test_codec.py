"""Every storable SQL type round-trips exactly through a shard: written as a
batch (inline and as Parquet parts in Blob) and read back by a snapshot."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid

import pyarrow as pa
import pytest

from storage.persist import SchemaError, field_for
from storage.persist.codec import arrow_type_for, sql_type_of

UTC = dt.timezone.utc
MDN = pa.MonthDayNano

COLUMNS = {
    "smallint": [-32768, 32767, 0],
    "integer": [-2147483648, 2147483647, 0],
    "bigint": [-(2**63), 2**63 - 1, 0],
    "real": [-3.4028235e38, 1.5, float("inf")],
    "double precision": [-1.7976931348623157e308, 5e-324, float("-inf")],
    "numeric(38,0)": [decimal.Decimal("9" * 38), decimal.Decimal("-" + "9" * 38), decimal.Decimal(0)],
    "numeric(20,6)": [decimal.Decimal("12345678901234.567890"), decimal.Decimal("-0.000001"), decimal.Decimal("0.000000")],
    "boolean": [True, False, True],
    "text": ["", "héllo wörld ✓", "x" * 10_000],
    "varchar(10)": ["abc", "", "0123456789"],
    "date": [dt.date(1, 1, 1), dt.date(1969, 12, 31), dt.date(9999, 12, 31)],
    "timestamp": [dt.datetime(1900, 1, 1, 0, 0, 0, 1), dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(2262, 4, 11)],
    "timestamptz": [dt.datetime(1901, 12, 13, 20, 45, 52, tzinfo=UTC), dt.datetime(1970, 1, 1, tzinfo=UTC), dt.datetime(2038, 1, 19, 3, 14, 8, 123456, tzinfo=UTC)],
    "time": [dt.time(0, 0), dt.time(23, 59, 59, 999999), dt.time(12, 30, 0, 5)],
    "interval": [MDN([1, 2, 3_000]), MDN([-14, -3, -86_399_999_999_000]), MDN([0, 0, 0])],
    "bytea": [b"", b"\x00\x01\x00\xff", bytes(range(256))],
    "uuid": [uuid.UUID(int=0).bytes, uuid.UUID("12345678-1234-5678-1234-567812345678").bytes, uuid.UUID(int=2**128 - 1).bytes],
    "jsonb": ['{"a": [1, 2, {"b": null}]}', "[]", '"\\u0000 escaped"'],
    # one-dimensional arrays: empty, with NULL elements, and of the types
    # stored differently from their logical type (interval, uuid)
    "integer[]": [[], [1, None, -2147483648], [2147483647]],
    "text[]": [["a", "", None, "{,}"], [], ["x" * 1000]],
    "numeric(10,2)[]": [[decimal.Decimal("1.50"), None], [], [decimal.Decimal("-99999999.99")]],
    "interval[]": [[MDN([1, 2, 3_000]), None, MDN([-1, 0, 0])], [], [MDN([0, 0, 0])]],
    "uuid[]": [[uuid.UUID(int=1).bytes], [None], []],
    "timestamptz[]": [[dt.datetime(2000, 1, 1, tzinfo=UTC), None], [], [dt.datetime(1970, 1, 1, tzinfo=UTC)]],
}


def table_of_every_type(with_nulls: bool) -> tuple[pa.Schema, pa.Table]:
    fields = [field_for(f"c{i}", t) for i, t in enumerate(COLUMNS)]
    schema = pa.schema(fields)
    arrays = []
    for f, values in zip(fields, COLUMNS.values()):
        vals = list(values) + ([None] if with_nulls else [])
        arrays.append(pa.array(vals, type=f.type))
    return schema, pa.Table.from_arrays(arrays, schema=schema)


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "blob"])
async def test_every_type_roundtrips_with_nulls_and_extremes(client, uniq, inline):
    schema, table = table_of_every_type(with_nulls=True)
    client.config.inline_threshold = 1 << 20 if inline else 0
    w = await client.open_writer(f"codec-{uniq}", schema)
    r = await client.open_reader(f"codec-{uniq}")
    batch = await w.batch(table, ts=0)
    assert all((p.inline is not None) == inline for p in batch.parts)
    assert (await w.compare_and_append(batch, 0, 1)).applied
    back = await r.snapshot_table(0)
    assert back.schema.equals(schema, check_metadata=True)
    assert sorted(back.to_pylist(), key=repr) == sorted(table.to_pylist(), key=repr)
    # Field metadata keeps SQL types Arrow cannot tell apart.
    assert [sql_type_of(f) for f in back.schema] == list(COLUMNS)


async def test_type_mapping_errors():
    assert arrow_type_for("numeric(10,2)") == pa.decimal128(10, 2)
    assert arrow_type_for("NUMERIC") == pa.decimal128(38, 10)
    assert arrow_type_for("numeric(210,10)") == pa.decimal128(38, 10), "a wider numeric: stored in 38 digits"
    with pytest.raises(SchemaError):
        arrow_type_for("numeric(40,39)")
    with pytest.raises(SchemaError):
        arrow_type_for("geometry")
    with pytest.raises(SchemaError):
        field_for("_ts", "bigint")
    assert arrow_type_for("varchar(3)[]") == pa.list_(pa.field("element", pa.string()))
    with pytest.raises(SchemaError):
        arrow_type_for("integer[][]")


async def test_not_null_and_type_mismatch_are_refused(mem_client):
    schema = pa.schema([field_for("a", "integer", nullable=False)])
    w = await mem_client.open_writer("nn", schema)
    with pytest.raises(SchemaError, match="NOT NULL"):
        await w.batch(pa.table({"a": pa.array([1, None], pa.int32())}), ts=0)
    with pytest.raises(SchemaError, match="cannot store"):
        await w.batch(pa.table({"a": pa.array(["x"])}), ts=0)
    with pytest.raises(SchemaError, match="lacks columns"):
        await w.batch(pa.table({"b": [1]}), ts=0)


@pytest.mark.parametrize("rows", [3, 600])  # summed in Python, and by Arrow's grouping
def test_collapse_small_and_large_agree_nan_rows_cancel(rows):
    """collapse cancels a row against its retraction whatever the table's
    size; a NaN row cancels too (Python's NaN is unequal to itself, so float
    columns never take the Python path)."""
    from storage.persist.consolidate import collapse

    n = rows // 3
    floats = [float("nan")] * (2 * n) + [1.5] * n
    keys = list(range(n)) * 2 + list(range(n, 2 * n))
    diffs = [1] * n + [-1] * n + [1] * n
    t = pa.table({"f": pa.array(floats), "k": pa.array(keys, pa.int64()), "_diff": pa.array(diffs, pa.int64())})
    assert sorted(r["k"] for r in collapse(t).to_pylist()) == list(range(n, 2 * n))
    ints = t.drop_columns(["f"])
    out = collapse(ints)
    assert sorted(r["k"] for r in out.to_pylist()) == list(range(n, 2 * n))
    assert out.schema.field("_diff").nullable is False


@pytest.mark.parametrize("rows", [3, 600])  # diffs read in Python, and by Arrow's kernels
def test_expand_small_and_large_agree(rows):
    """expand repeats each row by its diff and drops zeros, whatever the
    table's size; a negative multiplicity is refused."""
    from storage.persist.consolidate import expand

    keys = list(range(rows))
    for diffs in ([1] * rows, [i % 2 for i in keys], [i % 3 for i in keys]):
        t = pa.table({"k": pa.array(keys, pa.int64()), "_diff": pa.array(diffs, pa.int64())})
        out = expand(t)
        assert out.column_names == ["k"]
        assert out.column("k").to_pylist() == [k for k, d in zip(keys, diffs) for _ in range(d)]
    bad = pa.table({"k": pa.array(keys, pa.int64()), "_diff": pa.array([1] * (rows - 1) + [-1], pa.int64())})
    with pytest.raises(ValueError, match="negative multiplicity"):
        expand(bad)


async def test_small_parts_carry_no_schema_and_old_encodings_still_read(mem_client, uniq):
    """A small part is record batch messages without the schema (the
    shard's gives ``part_schema``): a 1-row part is a fraction of a
    self-describing IPC stream. A handle travels with its schema's
    fingerprint. What was written before either (IPC streams, handles
    carrying the schema) still reads and appends."""
    import base64
    import json

    from storage.persist import part_schema, read_encoded
    from storage.persist.batch import BatchHandle, encode_small

    schema = pa.schema([field_for("id", "bigint"), field_for("v", "text"), field_for("d", "date"), field_for("i", "interval")])
    await mem_client.create_shard(uniq, schema)
    w = await mem_client.open_writer(uniq)
    row = pa.table({"id": [7], "v": ["x"], "d": [dt.date(2000, 1, 2)], "i": [pa.scalar((1, 2, 3), pa.month_day_nano_interval())]},
                   schema=schema)
    handle = await w.batch(row, ts=0)
    (part,) = handle.parts
    assert part.inline[:4] == b"TGR1"
    stream = pa.BufferOutputStream()
    physical = read_encoded(part.inline, part_schema(schema, part))
    with pa.ipc.new_stream(stream, physical.schema) as writer:
        writer.write_table(physical)
    old_inline = stream.getvalue().to_pybytes()
    assert len(part.inline) * 2 < len(old_inline)
    with pytest.raises(Exception):
        read_encoded(part.inline)  # a small part cannot be read without its schema
    assert read_encoded(old_inline).equals(physical)  # parts written before: self-describing

    sent = json.loads(handle.to_bytes())
    assert "schema" not in sent and sent["schema_fp"] == handle.fingerprint == w.fingerprint
    # a handle written before fingerprints: the schema itself, and an IPC stream part
    old = dict(sent, schema=base64.b64encode(handle.schema).decode())
    del old["schema_fp"]
    old["parts"][0]["inline"] = base64.b64encode(old_inline).decode()
    again = BatchHandle.from_bytes(json.dumps(old).encode())
    assert again.fingerprint == handle.fingerprint
    out = await w.compare_and_append(again.rewrite_ts(0), 0, 1)
    assert out.applied
    reader = await mem_client.open_reader(uniq)
    got = await reader.snapshot_table(0)
    assert got.to_pylist() == row.to_pylist()
    # a handle for another schema is refused
    other = BatchHandle(uniq, b"", handle.parts, "x", "0000000000000000")
    with pytest.raises(Exception, match="schema"):
        await w.compare_and_append(other.rewrite_ts(1), 1, 2)
