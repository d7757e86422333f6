"""Consolidation of updates: summing the diffs of equal ``(row, time)``.

Operates on logical tables of user columns plus ``_ts`` and ``_diff``.

* ``advance(t, since, upper)``: compaction may forget time distinctions
  below ``since``; a time ``t`` becomes ``max(t, min(since, upper - 1))``, so
  it stays inside the batch's ``[lower, upper)`` and every read at ``as_of >=
  since`` sees the same contents.
* ``consolidate``: group by every user column and ``_ts``, sum ``_diff``,
  drop zero sums. The result is the canonical form of a multiset of updates.
* ``collapse``: consolidate ignoring time (the contents at one ``as_of``).
  Tables of at most ``FEW`` rows whose columns Python compares exactly (no
  floats) are summed in Python, the rest by Arrow's grouping.
* ``expand``: turn consolidated contents into plain rows, each repeated by
  its multiplicity.

Arrow cannot group by list columns (``t[]``), so a list column is grouped by
a binary key that encodes it injectively (each element as a null marker or
its fixed-width bytes or its length-prefixed bytes, concatenated), and each
group keeps the values of its first row.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from storage.persist.codec import DIFF, TS, comparable


def user_columns(table: pa.Table) -> list[str]:
    return [n for n in table.column_names if n not in (TS, DIFF)]


def advance(table: pa.Table, since: int, upper: int) -> pa.Table:
    floor = min(since, upper - 1)
    if table.num_rows == 0:
        return table
    ts = table.column(TS)
    if pc.min(ts).as_py() >= floor:
        return table
    advanced = pc.max_element_wise(ts, pa.scalar(floor, pa.int64()))
    return table.set_column(table.column_names.index(TS), pa.field(TS, pa.int64(), False), advanced)


#: Tables of at most this many rows are consolidated in Python: Arrow's
#: grouping has a fixed cost of about 0.3 ms (a key lookup's few versions).
FEW = 256


def _exact_in_python(t: pa.DataType) -> bool:
    """Types whose Python values are equal exactly when Arrow groups them
    together (not floats: NaN is unequal to itself in Python)."""
    return (pa.types.is_integer(t) or pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or pa.types.is_date(t) or pa.types.is_timestamp(t) or pa.types.is_decimal(t)
            or pa.types.is_boolean(t) or pa.types.is_time(t))


def _sum_diffs_few(table: pa.Table, keys: list[str]) -> pa.Table:
    columns = [comparable(table.column(k)).to_pylist() for k in keys]
    diffs = table.column(DIFF).to_pylist()
    first: dict = {}
    total: dict = {}
    for i, row in enumerate(zip(*columns)):
        if row not in first:
            first[row] = i
        total[row] = total.get(row, 0) + diffs[i]
    kept = [(first[k], d) for k, d in total.items() if d != 0]
    out = table.select(keys).take(pa.array([i for i, _d in kept], pa.int64()))
    return out.append_column(pa.field(DIFF, pa.int64(), False), pa.array([d for _i, d in kept], pa.int64()))


def _sum_diffs(table: pa.Table, keys: list[str]) -> pa.Table:
    if table.num_rows == 0:
        return table.select(keys + [DIFF])
    if table.num_rows <= FEW and all(_exact_in_python(table.schema.field(k).type) for k in keys):
        return _sum_diffs_few(table, keys)
    if any(pa.types.is_list(table.schema.field(k).type) for k in keys):
        return _sum_diffs_by_surrogates(table, keys)
    grouped = table.group_by(keys, use_threads=False).aggregate([(DIFF, "sum")])
    out = grouped.rename_columns([DIFF if n == f"{DIFF}_sum" else n for n in grouped.column_names]).select(keys + [DIFF])
    out = out.filter(pc.not_equal(out.column(DIFF), 0))
    # group_by loses field metadata and nullability; restore the input's fields.
    fields = [table.schema.field(k) for k in keys] + [pa.field(DIFF, pa.int64(), False)]
    return pa.Table.from_arrays([out.column(i) for i in range(len(fields))], schema=pa.schema(fields, metadata=table.schema.metadata))


_ROW = "__row"


def _sum_diffs_by_surrogates(table: pa.Table, keys: list[str]) -> pa.Table:
    """``_sum_diffs`` for keys that include list columns: grouped by their
    binary encodings, each group represented by its first row."""
    group_keys, cols = [], []
    for k in keys:
        col = table.column(k)
        if pa.types.is_list(col.type):
            col = list_key(col)
        group_keys.append(f"__k{len(cols)}")
        cols.append(col)
    keyed = pa.Table.from_arrays(cols + [table.column(DIFF), pa.array(range(table.num_rows), pa.int64())], names=group_keys + [DIFF, _ROW])
    grouped = keyed.group_by(group_keys, use_threads=False).aggregate([(DIFF, "sum"), (_ROW, "min")])
    grouped = grouped.filter(pc.not_equal(grouped.column(f"{DIFF}_sum"), 0))
    rows = table.select(keys).take(grouped.column(f"{_ROW}_min"))
    out = rows.append_column(pa.field(DIFF, pa.int64(), False), grouped.column(f"{DIFF}_sum"))
    return out.replace_schema_metadata(table.schema.metadata)


def list_key(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """An injective binary encoding of a list column's values (NULL stays
    NULL), which Arrow can group and compare."""
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    offsets = pc.subtract(arr.offsets, arr.offsets[0]) if len(arr) else pa.array([0], pa.int32())
    encoded = pa.ListArray.from_arrays(offsets, _element_bytes(arr.flatten()), mask=arr.is_null() if arr.null_count else None)
    return pc.binary_join(encoded, b"")


def _element_bytes(flat: pa.Array) -> pa.Array:
    t = flat.type
    if pa.types.is_boolean(t):
        flat, t = flat.cast(pa.int8()), pa.int8()
    if pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        length = _fixed_view(pc.binary_length(flat).cast(pa.int64()), 8)
        body = pc.binary_join_element_wise(length, flat.cast(pa.binary()), b"")
    else:
        body = _fixed_view(flat, t.bit_width // 8)
    present = pc.binary_join_element_wise(pa.scalar(b"V"), body, b"")
    return pc.if_else(flat.is_null(), pa.scalar(b"N"), present)


def _fixed_view(arr: pa.Array, width: int) -> pa.Array:
    """A fixed-width array's value bytes, each as a binary (NULL slots too)."""
    view = pa.Array.from_buffers(pa.binary(width), len(arr), [None, arr.buffers()[1]], offset=arr.offset)
    return view.cast(pa.binary())


def consolidate(table: pa.Table) -> pa.Table:
    """Sum diffs per (row, time); drop zeros. Columns: user..., _ts, _diff."""
    return _sum_diffs(table, user_columns(table) + [TS])


def collapse(table: pa.Table) -> pa.Table:
    """Sum diffs per row regardless of time; drop zeros. Columns: user..., _diff."""
    return _sum_diffs(table.drop_columns([TS]) if TS in table.column_names else table, user_columns(table))


def expand(table: pa.Table) -> pa.Table:
    """Rows repeated by their (positive) ``_diff``; drops ``_ts``/``_diff``.

    Raises ValueError on a negative multiplicity: more retractions than
    insertions of a row means the updates are not a valid collection.
    """
    users = user_columns(table)
    if table.num_rows == 0:
        return table.select(users)
    diff = table.column(DIFF)
    counts = diff.to_pylist() if table.num_rows <= FEW else None  # a point lookup's: cheaper than a kernel call
    if counts is not None:
        lo, hi = min(counts), max(counts)
    else:
        lo, hi = (v.as_py() for v in pc.min_max(diff).values())
    if lo < 0:
        raise ValueError("negative multiplicity: a row was retracted more often than inserted")
    if lo == 1 and hi == 1:
        return table.select(users)
    if hi <= 1:
        return table.filter(pc.equal(diff, 1)).select(users)
    # Repeat rows by multiplicity: rare, so build the indices in Python.
    counts = counts if counts is not None else diff.to_pylist()
    indices = [i for i, c in enumerate(counts) for _ in range(c)]
    return table.select(users).take(pa.array(indices, pa.int64()))
