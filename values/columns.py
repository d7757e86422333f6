"""Python values of Arrow columns, for the encoders that work value by
value (text and binary formats, COPY): what Python's types cannot hold
(infinite and far dates, 24:00:00) comes as PostgreSQL's text, uuids as
UUID, intervals a timedelta holds exactly as timedelta.

Invariant: ``python_values(c)`` has ``len(c)`` items, None where ``c`` is
null.
"""

from __future__ import annotations

import datetime as dt
import uuid

import pyarrow as pa
import pyarrow.compute as pc

from values.text import split_far_dates, split_infinities

_MIDNIGHT_AFTER = dt.time(0)
_TIMEDELTA_DAYS = dt.timedelta.max.days  # how Arrow gives 24:00:00 (and 00:00:00) to Python


def _as_timedelta(v) -> bool:
    """An interval a timedelta holds as it is: no months, and a time part
    under a day of the days' sign (a timedelta would make '25 hours' a
    day and an hour, and '1 day -1 hours' 23 hours), and days within a
    timedelta's reach (PostgreSQL's run to 2,147,483,647)."""
    return not v.months and abs(v.nanoseconds) < 86_400 * 10**9 and (v.days == 0 or v.nanoseconds == 0 or (v.days > 0) == (v.nanoseconds > 0)) \
        and abs(v.days) < _TIMEDELTA_DAYS


def python_values(column) -> list:
    """A column's Python values: uuids as UUID (Arrow's uuid type gives them
    already; stored ones are 16-byte binaries), intervals a timedelta holds
    as they are as timedelta."""
    try:
        values = column.to_pylist()
    except OverflowError:  # Python's dates end at years 1 and 9999: infinite and far ones are given as their text
        arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        finite, infinite = split_infinities(arr)
        kind = "date" if pa.types.is_date32(arr.type) else "timestamptz" if getattr(arr.type, "tz", None) else "timestamp"
        finite, far = split_far_dates(finite, kind)
        texts = far if infinite is None else infinite if far is None else pc.coalesce(infinite, far)
        if texts is None:
            raise
        return [text if text is not None else v for v, text in zip(finite.to_pylist(), texts.to_pylist())]
    if pa.types.is_fixed_size_binary(column.type) and column.type.byte_width == 16:
        return [None if v is None else uuid.UUID(bytes=v) for v in values]
    if pa.types.is_time(column.type) and _MIDNIGHT_AFTER in values:
        # 24:00:00, which a Python time cannot hold (Arrow gives it as 00:00:00): given as its text
        ends = pc.equal(column.cast(pa.time64("us")).cast(pa.int64()), 86_400_000_000).to_pylist()
        return ["24:00:00" if end else v for v, end in zip(values, ends)]
    if pa.types.is_interval(column.type):
        return [dt.timedelta(days=v.days, microseconds=v.nanoseconds // 1000) if v is not None and _as_timedelta(v) else v for v in values]
    return values
