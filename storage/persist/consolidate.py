"""Consolidation of updates: summing the diffs of equal ``(row, time)``.

Operates on logical tables of user columns plus ``_ts`` and ``_diff``.

* ``advance(t, since, upper)``: compaction may forget time distinctions
  below ``since``; a time ``t`` becomes ``max(t, min(since, upper - 1))``, so
  it stays inside the batch's ``[lower, upper)`` and every read at ``as_of >=
  since`` sees the same contents.
* ``consolidate``: group by every user column and ``_ts``, sum ``_diff``,
  drop zero sums. The result is the canonical form of a multiset of updates.
* ``collapse``: consolidate ignoring time (the contents at one ``as_of``).
* ``expand``: turn consolidated contents into plain rows, each repeated by
  its multiplicity.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from storage.persist.codec import DIFF, TS


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


def _sum_diffs(table: pa.Table, keys: list[str]) -> pa.Table:
    if table.num_rows == 0:
        return table.select(keys + [DIFF])
    grouped = table.group_by(keys, use_threads=False).aggregate([(DIFF, "sum")])
    out = grouped.rename_columns([DIFF if n == f"{DIFF}_sum" else n for n in grouped.column_names]).select(keys + [DIFF])
    out = out.filter(pc.not_equal(out.column(DIFF), 0))
    # group_by loses field metadata and nullability; restore the input's fields.
    fields = [table.schema.field(k) for k in keys] + [pa.field(DIFF, pa.int64(), False)]
    return pa.Table.from_arrays([out.column(i) for i in range(len(fields))], schema=pa.schema(fields, metadata=table.schema.metadata))


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
    lo, hi = pc.min_max(diff).values()
    if lo.as_py() < 0:
        raise ValueError("negative multiplicity: a row was retracted more often than inserted")
    if lo.as_py() == 1 and hi.as_py() == 1:
        return table.select(users)
    if hi.as_py() <= 1:
        return table.filter(pc.equal(diff, 1)).select(users)
    # Repeat rows by multiplicity: rare, so build the indices in Python.
    counts = diff.to_pylist()
    indices = [i for i, c in enumerate(counts) for _ in range(c)]
    return table.select(users).take(pa.array(indices, pa.int64()))
