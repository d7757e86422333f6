"""SQL type names of Arrow types: what a result column is called.

``of_arrow(field)`` names the SQL type of a column DuckDB or a shard hands
over: the type a shard's field carries in its metadata when it has one
(``storage.persist.codec``), else the PostgreSQL type Arrow's type stands
for (int32 is integer, decimal128(38, 10) an unconstrained numeric, a list
of lists an array: PostgreSQL's arrays of any dimensions have one type).

Invariant: a shard's field is named by the SQL type it was made for
(``field_for(name, t)`` gives ``t`` back), whatever Arrow type stores it.
"""

from __future__ import annotations

import pyarrow as pa

from storage.persist.codec import sql_type_of


def of_arrow(field: pa.Field) -> str:
    """The SQL type name for a result column."""
    known = sql_type_of(field)
    if known:
        return known
    t = field.type
    if pa.types.is_int16(t) or pa.types.is_int8(t):
        return "smallint"
    if pa.types.is_uint32(t):
        return "oid"  # the emulated catalogs' OID columns
    if pa.types.is_int32(t) or pa.types.is_uint16(t):
        return "integer"
    if pa.types.is_integer(t):
        return "bigint" if not pa.types.is_uint64(t) else "numeric(20,0)"
    if pa.types.is_float32(t):
        return "real"
    if pa.types.is_floating(t):
        return "double precision"
    if pa.types.is_decimal(t):
        if (t.precision, t.scale) == (38, 10):
            return "numeric"  # how unconstrained numerics are computed and stored
        return f"numeric({t.precision},{t.scale})"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "text"
    if pa.types.is_date(t):
        return "date"
    if pa.types.is_timestamp(t):
        return "timestamptz" if t.tz else "timestamp"
    if pa.types.is_time(t):
        return "time"
    if pa.types.is_interval(t) or pa.types.is_duration(t):
        return "interval"
    if isinstance(t, pa.UuidType) or (pa.types.is_fixed_size_binary(t) and t.byte_width == 16):
        return "uuid"  # how uuid columns are stored and how DuckDB returns them
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "bytea"
    if pa.types.is_list(t) and pa.types.is_int8(t.value_type):
        return "int2vector"  # how the emulated catalogs keep int2vector columns (txngate has no tinyint)
    if pa.types.is_list(t) and pa.types.is_uint16(t.value_type):
        return "oidvector"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        element = of_arrow(pa.field("element", t.value_type))
        return element if element.endswith("[]") else element + "[]"  # PostgreSQL's arrays of any dimensions: one type
    if pa.types.is_struct(t):
        return "record"  # ROW(...) and whole-row references
    return "text"
