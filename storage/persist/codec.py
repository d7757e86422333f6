"""Schemas and the encoding of shard data.

A shard's schema is an Arrow schema of *logical* types. Every field carries
its SQL type name in field metadata (``txngate.type``), so types Arrow
cannot tell apart (``text`` vs ``varchar(20)`` vs ``jsonb``) round-trip.
``field_for(name, sql_type)`` builds such fields:

=====================  ===========================================
SQL type               logical Arrow type
=====================  ===========================================
smallint               int16
integer                int32
bigint                 int64
real                   float32
double precision       float64
numeric(p,s)           decimal128(min(p, 38), s)  (s <= 38; numeric alone: 38,10)
boolean                bool
text, varchar, varchar(n) string
char(n)                string (blank-padded by the SQL layer)
date                   date32
timestamp              timestamp[us]
timestamptz            timestamp[us, UTC]
time                   time64[us]
interval               month_day_nano_interval
bytea                  binary
uuid                   fixed_size_binary(16)
json, jsonb            string
t[] (t any of these)   list<element: t's type>  (one dimension)
=====================  ===========================================

Parts are Parquet files. Parquet cannot store ``month_day_nano_interval``,
so ``to_physical`` stores it as ``struct<months int32, days int32, nanos
int64>`` (also as the element of an ``interval[]``) and ``to_logical`` turns
it back; every other type is stored as is.
The physical table of a part also has the columns ``_diff`` (int64) and,
unless the part's time lives in its metadata, ``_ts`` (int64).

Invariant: ``to_logical(to_physical(t), schema) == t`` for every table ``t``
of ``schema`` (tested for every type above, with NULLs and extremes).
"""

from __future__ import annotations

import functools
import re

import pyarrow as pa
import pyarrow.compute as pc

TYPE_KEY = b"txngate.type"
TS = "_ts"
DIFF = "_diff"
RESERVED = (TS, DIFF)

INTERVAL_STRUCT = pa.struct([("months", pa.int32()), ("days", pa.int32()), ("nanos", pa.int64())])

_SIMPLE = {
    "smallint": pa.int16(),
    "integer": pa.int32(),
    "bigint": pa.int64(),
    "real": pa.float32(),
    "double precision": pa.float64(),
    "boolean": pa.bool_(),
    "text": pa.string(),
    "date": pa.date32(),
    "timestamp": pa.timestamp("us"),
    "timestamptz": pa.timestamp("us", tz="UTC"),
    "time": pa.time64("us"),
    "interval": pa.month_day_nano_interval(),
    "bytea": pa.binary(),
    "uuid": pa.binary(16),
    "oid": pa.uint32(),
    "json": pa.string(),
    "jsonb": pa.string(),
    "varchar": pa.string(),
}
_NUMERIC = re.compile(r"^numeric(?:\((\d+)(?:,\s*(\d+))?\))?$")
_VARCHAR = re.compile(r"^(varchar|char)\((\d+)\)$")
_ENUM = re.compile(r"enum\(\d+\)")


class SchemaError(ValueError):
    """A schema or a table does not fit what a shard can store."""


def arrow_type_for(sql_type: str) -> pa.DataType:
    t = sql_type.strip().lower()
    if t.endswith("[]"):
        element = t[:-2].strip()
        if element.endswith("[]"):
            raise SchemaError(f"{sql_type!r}: arrays have one dimension")
        return pa.list_(pa.field("element", arrow_type_for(element)))
    if t in _SIMPLE:
        return _SIMPLE[t]
    m = _NUMERIC.match(t)
    if m:
        precision = int(m.group(1) or 38)
        scale = int(m.group(2) or (0 if m.group(1) else 10))
        if not 1 <= precision <= 1000 or not 0 <= scale <= min(precision, 38):
            raise SchemaError(f"numeric({precision},{scale}) is out of range (precision 1..1000, 0 <= scale <= precision, scale <= 38)")
        return pa.decimal128(min(precision, 38), scale)  # a wider numeric keeps its name; its values must fit 38 digits
    if _VARCHAR.match(t) or _ENUM.fullmatch(t):
        return pa.string()  # (an enum's values are its labels)
    raise SchemaError(f"no storage type for SQL type {sql_type!r}")


def field_for(name: str, sql_type: str, nullable: bool = True) -> pa.Field:
    """An Arrow field for a column of SQL type ``sql_type``."""
    if name in RESERVED:
        raise SchemaError(f"column name {name!r} is reserved")
    return pa.field(name, arrow_type_for(sql_type), nullable=nullable, metadata={TYPE_KEY: sql_type.strip().lower().encode()})


def sql_type_of(field: pa.Field) -> str | None:
    meta = field.metadata or {}
    value = meta.get(TYPE_KEY)
    return value.decode() if value else None


def check_schema(schema: pa.Schema) -> pa.Schema:
    names = schema.names
    if len(set(names)) != len(names):
        raise SchemaError(f"duplicate column names in {names}")
    for f in schema:
        if f.name in RESERVED:
            raise SchemaError(f"column name {f.name!r} is reserved")
    return schema


def physical_type(t: pa.DataType) -> pa.DataType:
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", physical_type(t.value_type)))
    return INTERVAL_STRUCT if pa.types.is_interval(t) else t


def _has_interval(t: pa.DataType) -> bool:
    return pa.types.is_interval(t) or (pa.types.is_list(t) and _has_interval(t.value_type))


def map_elements(arr: pa.ChunkedArray | pa.Array, fn, value_type: pa.DataType) -> pa.Array:
    """A list array with ``fn`` applied to its elements (a flat array of
    every element, in order) and the same lists and NULLs."""
    arr = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
    offsets = pc.subtract(arr.offsets, arr.offsets[0]) if len(arr) else pa.array([0], pa.int32())
    values = fn(arr.flatten())
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    assert len(values) == offsets[-1].as_py(), "an element mapping keeps every element"
    return pa.ListArray.from_arrays(offsets, values, type=pa.list_(pa.field("element", value_type)), mask=arr.is_null() if arr.null_count else None)


def _encode_intervals(arr, t: pa.DataType) -> pa.Array:
    if pa.types.is_list(t):
        return map_elements(arr, lambda v: _encode_intervals(v, t.value_type), physical_type(t.value_type))
    return _interval_to_struct(arr) if pa.types.is_interval(t) else arr


def _decode_intervals(arr, t: pa.DataType) -> pa.Array:
    if pa.types.is_list(t):
        return map_elements(arr, lambda v: _decode_intervals(v, t.value_type), t.value_type)
    return _struct_to_interval(arr) if pa.types.is_interval(t) else arr


def _interval_to_struct(arr: pa.ChunkedArray | pa.Array) -> pa.Array:
    arr = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
    values = arr.to_pylist()
    months = [None if v is None else v.months for v in values]
    days = [None if v is None else v.days for v in values]
    nanos = [None if v is None else v.nanoseconds for v in values]
    return pa.StructArray.from_arrays(
        [pa.array(months, pa.int32()), pa.array(days, pa.int32()), pa.array(nanos, pa.int64())],
        fields=list(INTERVAL_STRUCT),
        mask=arr.is_null(),
    )


def _struct_to_interval(arr: pa.ChunkedArray | pa.Array) -> pa.Array:
    arr = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
    months = arr.field("months").to_pylist()
    days = arr.field("days").to_pylist()
    nanos = arr.field("nanos").to_pylist()
    valid = pc.invert(arr.is_null()).to_pylist()
    values = [pa.scalar((m, d, n), pa.month_day_nano_interval()).as_py() if ok else None for m, d, n, ok in zip(months, days, nanos, valid)]
    return pa.array(values, pa.month_day_nano_interval())


@functools.lru_cache(maxsize=1024)
def physical_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` as stored (intervals as structs). Kept per schema: every
    part decoded or encoded asks, and building one copies each field's
    metadata (a few percent of a point write's time)."""
    return pa.schema([pa.field(f.name, physical_type(f.type), f.nullable, f.metadata) for f in schema], metadata=schema.metadata)


def to_physical(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """The user columns of ``table`` encoded for Parquet (plus any _ts/_diff as is)."""
    names = table.column_names
    extras = tuple(x for x in RESERVED if x in names)
    out, intervals = _physical_layout(schema, extras)
    cols = [table.column(name) for name in schema.names] + [table.column(x) for x in extras]
    for i in intervals:
        cols[i] = _encode_intervals(cols[i], schema.field(i).type)
    return pa.Table.from_arrays(cols, schema=out)


@functools.lru_cache(maxsize=1024)
def _physical_layout(schema: pa.Schema, extras: tuple[str, ...]) -> tuple[pa.Schema, tuple[int, ...]]:
    """``to_physical``'s result schema for ``schema`` and the reserved
    columns ``extras``, and which of its columns hold intervals (kept per
    schema: building the schema copies each field's metadata)."""
    fields = list(physical_schema(schema)) + [pa.field(x, pa.int64(), False) for x in extras]
    return pa.schema(fields), tuple(i for i, f in enumerate(schema) if _has_interval(f.type))


def to_logical(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """Inverse of ``to_physical`` (keeps _ts/_diff if present)."""
    if not any(_has_interval(f.type) for f in schema):
        return table
    cols, fields = [], []
    for name in table.column_names:
        col = table.column(name)
        if name in schema.names:
            f = schema.field(name)
            if _has_interval(f.type):
                col = _decode_intervals(col, f.type)
            fields.append(f)
        else:
            fields.append(table.schema.field(name))
        cols.append(col)
    return pa.Table.from_arrays(cols, schema=pa.schema(fields))


def conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table``'s user columns in ``schema``'s order and types, or SchemaError."""
    if table.schema.equals(schema):  # already so (a point write's rows, mostly): the NOT NULL checks only
        for i in _not_null(schema):
            if table.column(i).null_count:
                raise SchemaError(f"column {schema.names[i]!r} is NOT NULL but has {table.column(i).null_count} NULLs")
        return table
    names = set(table.column_names)
    missing = [n for n in schema.names if n not in names]
    if missing:
        raise SchemaError(f"table lacks columns {missing}")
    cols = []
    for f in schema:
        col = table.column(f.name)
        if not col.type.equals(f.type):
            try:
                col = col.cast(f.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                raise SchemaError(f"column {f.name!r}: cannot store {col.type} as {f.type}: {e}") from e
        if not f.nullable and col.null_count:
            raise SchemaError(f"column {f.name!r} is NOT NULL but has {col.null_count} NULLs")
        cols.append(col)
    return pa.Table.from_arrays(cols, schema=schema)


@functools.lru_cache(maxsize=1024)
def _not_null(schema: pa.Schema) -> tuple[int, ...]:
    return tuple(i for i, f in enumerate(schema) if not f.nullable)


def schema_to_bytes(schema: pa.Schema) -> bytes:
    return schema.serialize().to_pybytes()


def schema_from_bytes(data: bytes) -> pa.Schema:
    return pa.ipc.read_schema(pa.py_buffer(data))


@functools.lru_cache(maxsize=1024)
def updates_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` plus the ``_ts`` and ``_diff`` columns of updates (kept
    per schema, as ``physical_schema``)."""
    return pa.schema(list(schema) + [pa.field(TS, pa.int64(), False), pa.field(DIFF, pa.int64(), False)])


def cast_to(values, type_: pa.DataType):
    """``values`` (an array) as ``type_``: itself when it is of it already
    (a cast of an array to its own type costs a compute call)."""
    return values if values.type == type_ else values.cast(type_)


def cast_table(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table.cast(schema)``, casting only the columns whose types differ
    (a point write's tables mostly match column for column)."""
    if table.schema.equals(schema):
        return table
    if table.column_names != schema.names:
        return table.cast(schema)  # (its error names what does not fit)
    return pa.Table.from_arrays([cast_to(c, f.type) for c, f in zip(table.columns, schema)], schema=schema)


def comparable(col: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """``col`` with dates, times, timestamps and durations as their
    integer storage: Python values that compare and hash as Arrow does,
    for every value Arrow holds (a Python datetime cannot hold BC dates or
    PostgreSQL's infinities)."""
    t = col.type
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return col.cast(pa.int32())
    if pa.types.is_date64(t) or pa.types.is_time64(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return col.cast(pa.int64())
    return col

