"""Statement results: command tag, columns (name, SQL type), rows, notices.

``Result.table`` keeps the Arrow result so the wire front end can encode
columns without going through Python rows; ``rows`` are Python values.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

import pyarrow as pa

from planner.sqltypes import of_arrow


@dataclass
class Result:
    tag: str
    columns: list[tuple[str, str]] = field(default_factory=list)  # (name, SQL type)
    table: pa.Table | None = None
    notices: list[str] = field(default_factory=list)
    _rows: list[tuple] | None = None

    @property
    def rows(self) -> list[tuple]:
        """Rows as tuples (by position: result column names may repeat)."""
        if self._rows is None:
            t = self.table
            if t is None:
                self._rows = []
            elif t.num_columns == 0:
                self._rows = [()] * t.num_rows
            else:
                self._rows = list(zip(*(python_values(c) for c in t.columns)))
        return self._rows

    @property
    def returns_rows(self) -> bool:
        return self.table is not None


def to_result(tag: str, out: pa.Table, names: list[str] | None = None) -> Result:
    """A row-returning Result from an Arrow table, with PostgreSQL's column
    names when known (``names``)."""
    if names is not None and len(names) == out.num_columns:
        out = out.rename_columns(names)
    return Result(tag, [(f.name, of_arrow(f)) for f in out.schema], out)


def python_values(column) -> list:
    """A column's Python values: uuids as UUID (Arrow's uuid type gives them
    already; stored ones are 16-byte binaries), intervals without months as
    timedelta."""
    values = column.to_pylist()
    if pa.types.is_fixed_size_binary(column.type) and column.type.byte_width == 16:
        return [None if v is None else uuid.UUID(bytes=v) for v in values]
    if pa.types.is_interval(column.type):
        return [
            v if v is None or v.months else dt.timedelta(days=v.days, microseconds=v.nanoseconds // 1000) for v in values
        ]
    return values
