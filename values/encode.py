"""An Arrow column's values in PostgreSQL's wire formats, text or binary,
for DataRow messages and binary COPY.

``encode_column(col, sql_type, fmt, style)`` is a binary array of each
value's bytes in format ``fmt`` (0 text, by ``values.text``; 1 binary),
computed a column at a time with Arrow kernels where the type allows
(integers, floats, booleans, dates, timestamps and times: their
big-endian bytes, shifted to PostgreSQL's 2000-01-01 epoch) and value by
value elsewhere (``values.binary``). ``encode_values`` is the same as a
list, cheaper for a handful of rows. Records are encoded field by field
by their fields' types.

Invariant: an encoded column has ``len(col)`` items, NULL exactly where
``col`` is null (and ``void`` is empty, never NULL).
"""

from __future__ import annotations

import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from values.binary import encode_binary
from values.columns import python_values
from values.text import INFINITIES, TextStyle, format_column, format_value, significant
from values.types import is_record, of_arrow, type_oid

__all__ = ["encode_column", "encode_values", "fixed_width_binary"]


# Binary formats computed column at a time: SQL type -> (big-endian numpy
# type, Arrow type to cast to first, value added after the cast).
_FIXED_BINARY = {
    "smallint": (">i2", pa.int16(), 0),
    "integer": (">i4", pa.int32(), 0),
    "bigint": (">i8", pa.int64(), 0),
    "oid": (">u4", pa.uint32(), 0),
    "real": (">f4", pa.float32(), 0),
    "double precision": (">f8", pa.float64(), 0),
    "boolean": ("u1", pa.uint8(), 0),
    "date": (">i4", pa.int32(), -10957),  # days since 2000-01-01
    "timestamp": (">i8", pa.int64(), -946684800_000_000),  # microseconds since 2000-01-01
    "timestamptz": (">i8", pa.int64(), -946684800_000_000),
    "time": (">i8", pa.int64(), 0),  # microseconds since midnight (24:00:00 included)
}


def encode_values(col, sql_type: str, fmt: int, style: TextStyle) -> list:
    """``encode_column`` as a list of bytes (None for NULL), value by value:
    cheaper than Arrow's kernels for a few rows."""
    if pa.types.is_struct(col.type) or sql_type == "void":  # a record's fields are formatted by their types; void is empty
        return encode_column(col, sql_type, fmt, style).to_pylist()
    values = python_values(col)
    if (pa.types.is_date32(col.type) or pa.types.is_timestamp(col.type) or pa.types.is_time(col.type)) \
            and any(isinstance(v, str) for v in values):
        # 'infinity', '24:00:00' (Python has neither): the column's own formatting knows them
        return encode_column(col, sql_type, fmt, style).to_pylist()
    if fmt == 0:
        return [None if v is None else format_value(v, sql_type, style).encode() for v in values]
    return _binary_values(col, values, sql_type)


def _binary_values(col, values: list, sql_type: str) -> list:
    """``values`` (of ``col``) in binary format; an unconstrained numeric
    the engine computed with its STORED_PLACES places goes with the places
    its text shows (``significant``), not with the engine's 10."""
    if sql_type == "numeric" and pa.types.is_decimal(col.type):
        values = [None if v is None else significant(v) for v in values]
    return [None if v is None else encode_binary(v, sql_type) for v in values]


def fixed_width_binary(values: np.ndarray, width: int) -> pa.Array:
    """A binary array of ``width``-byte values from a numpy array's bytes."""
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), len(values), [None, pa.py_buffer(values)]).cast(pa.binary())


def encode_column(col, sql_type: str, fmt: int, style: TextStyle) -> pa.Array:
    """A column's values in wire format (text or binary) as a binary array
    (NULLs kept)."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if sql_type == "void":  # pg_sleep's: empty, not NULL, in either format
        return pa.array([b""] * len(col), pa.binary())
    if fmt == 0:
        return format_column(col, sql_type, style).cast(pa.binary())
    if is_record(sql_type) and pa.types.is_struct(col.type):
        return _record_binary(col, style)
    fixed = _FIXED_BINARY.get(sql_type)
    if fixed is not None and not pa.types.is_decimal(col.type):
        np_type, arrow_type, shift = fixed
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.timestamp("us", col.type.tz))
        elif pa.types.is_time(col.type):
            col = col.cast(pa.time64("us"))
        ints = col.cast(arrow_type).fill_null(0).to_numpy(zero_copy_only=False)
        if shift:
            # infinity and -infinity are the type's extremes in PostgreSQL's binary format too
            high, low = INFINITIES.get(arrow_type, (None, None))
            positive, negative = (ints == high, ints == low) if high is not None else (None, None)
            ints = ints + shift
            if positive is not None and (positive.any() or negative.any()):
                ints[positive], ints[negative] = high, low - 1
        out = fixed_width_binary(np.ascontiguousarray(ints.astype(np_type)), np.dtype(np_type).itemsize)
        return pc.if_else(col.is_valid(), out, pa.scalar(None, pa.binary())) if col.null_count else out
    return pa.array(_binary_values(col, python_values(col), sql_type), pa.binary())


def _record_binary(col: pa.StructArray, style: TextStyle) -> pa.Array:
    """Records in PostgreSQL's binary format: the field count, then per
    field its type OID and its value (length-prefixed, -1 for NULL)."""
    types = [of_arrow(col.type.field(i)) for i in range(col.type.num_fields)]
    fields = [encode_column(child, t, 1, style).to_pylist() for child, t in zip(col.flatten(), types)]
    oids = [type_oid(t)[0] for t in types]
    out = []
    for r, ok in enumerate(col.is_valid().to_pylist()):
        if not ok:
            out.append(None)
            continue
        parts = [struct.pack("!i", len(types))]
        for oid, values in zip(oids, fields):
            v = values[r]
            parts.append(struct.pack("!Ii", oid, -1 if v is None else len(v)) + (v or b""))
        out.append(b"".join(parts))
    return pa.array(out, pa.binary())
