"""PostgreSQL's interval functions DuckDB lacks: ``justify_days``,
``justify_hours`` and ``justify_interval``, as timestamp.c computes them
(30-day months, 24-hour days, C's division toward zero, the signs of
months, days and time made to agree); ``txngate_interval_mul`` and
``txngate_interval_div``, an interval times or divided by a double as
interval_mul and interval_div scale it (each field by the factor, a
month's fraction carried into days and a day's into time, each rounded
to the microsecond), which the engine's product (and a quotient taken as
a product by the inverse) missed by a microsecond.

Registered on the engine's connection under their PostgreSQL names, over
Arrow's month_day_nano intervals (DuckDB's INTERVAL), a vector at a time.

Invariant: months, days and microseconds come back as PostgreSQL's
interval_justify_* leave them (tested beside PostgreSQL); a month or day
count past 32 bits is PostgreSQL's 22008, never the engine's error.
"""

from __future__ import annotations

import pyarrow as pa

from local_exec.udf import FunctionError
from values import CARRIED_INTERVAL_MICROS, LONG_INTERVAL

DAY = 86_400_000_000  # microseconds
MONTH_DAYS = 30


def _tdiv(a: int, b: int) -> int:
    """a / b as C divides integers: toward zero."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _fits(units: int) -> int:
    """Months or days as PostgreSQL's 32-bit fields hold them (22008 beyond, as its overflow checks)."""
    if not -(1 << 31) <= units < (1 << 31):
        raise FunctionError("22008", "interval out of range")
    return units


def _move(big: int, small: int, per: int) -> tuple[int, int]:
    """Whole units of ``small`` (``per`` of them make one ``big``) moved up."""
    whole = _tdiv(small, per)
    return _fits(big + whole), small - whole * per


def _agree(big: int, small: int, per: int) -> tuple[int, int]:
    """``small`` given the sign of ``big`` (one unit borrowed or lent)."""
    if big > 0 and small < 0:
        return big - 1, small + per
    if big < 0 and small > 0:
        return big + 1, small - per
    return big, small


def _hours(months: int, days: int, micros: int) -> tuple[int, int, int]:
    return (months, *_agree(*_move(days, micros, DAY), DAY))


def _days(months: int, days: int, micros: int) -> tuple[int, int, int]:
    return (*_agree(*_move(months, days, MONTH_DAYS), MONTH_DAYS), micros)


def _interval(months: int, days: int, micros: int) -> tuple[int, int, int]:
    if (days > 0 and micros > 0) or (days < 0 and micros < 0):  # days first, as PostgreSQL does against overflow
        months, days = _move(months, days, MONTH_DAYS)
    days, micros = _move(days, micros, DAY)
    months, days = _move(months, days, MONTH_DAYS)
    if months > 0 and days == 0 and micros < 0:  # the month's sign reaches the time through a zero day
        months, days = months - 1, MONTH_DAYS
    elif months < 0 and days == 0 and micros > 0:
        months, days = months + 1, -MONTH_DAYS
    else:
        months, days = _agree(months, days, MONTH_DAYS)
    days, micros = _agree(days, micros, DAY)
    return months, days, micros


def _vectorized(fn):
    def call(column: pa.Array) -> pa.Array:
        out = []
        for v in column.to_pylist():
            if v is None:
                out.append(None)
                continue
            months, days, micros = fn(v.months, v.days, v.nanoseconds // 1000)
            out.append((months, days, micros * 1000))
        return pa.array(out, pa.month_day_nano_interval())
    return call


def _scaled(months: int, days: int, micros: int, factor: float, divide: bool) -> tuple[int, int, int]:
    """interval_mul (or interval_div) of PostgreSQL 15: 22012 for a zero divisor, 22008 for a field past its range."""
    if divide and factor == 0.0:
        raise FunctionError("22012", "division by zero")
    scale = (lambda x: x / factor) if divide else (lambda x: x * factor)  # noqa: E731
    whole_months, whole_days = _fits_float(scale(months)), _fits_float(scale(days))
    month_days = _microsecond_round((scale(months) - whole_months) * MONTH_DAYS)
    seconds = _microsecond_round((scale(days) - whole_days + month_days - int(month_days)) * 86_400)
    if abs(seconds) >= 86_400:
        whole_days += int(seconds / 86_400)
        seconds -= int(seconds / 86_400) * 86_400
    whole_days = _fits(whole_days + int(month_days))
    time = scale(micros) + seconds * 1_000_000
    if not -(1 << 63) <= time < (1 << 63):  # (NaN too)
        raise FunctionError("22008", "interval out of range")
    if abs(time) >= CARRIED_INTERVAL_MICROS:
        raise FunctionError("0A000", LONG_INTERVAL)
    return whole_months, whole_days, round(time)


def _fits_float(units: float) -> int:
    """A field scaled, cut toward zero as C's (int32) cast; 22008 past 32 bits (or NaN, infinite)."""
    if not -(1 << 31) <= units < (1 << 31):
        raise FunctionError("22008", "interval out of range")
    return int(units)


def _microsecond_round(x: float) -> float:
    """TSROUND: to the nearest microsecond, half to even as rint()."""
    return round(x * 1_000_000) / 1_000_000


def _scaling(divide: bool):
    def call(column: pa.Array, factors: pa.Array) -> pa.Array:
        out = []
        for v, factor in zip(column.to_pylist(), factors.to_pylist()):
            if v is None or factor is None:
                out.append(None)
                continue
            months, days, micros = _scaled(v.months, v.days, v.nanoseconds // 1000, factor, divide)
            out.append((months, days, micros * 1000))
        return pa.array(out, pa.month_day_nano_interval())
    return call


FUNCTIONS = {"justify_days": _days, "justify_hours": _hours, "justify_interval": _interval}


def register(con) -> None:
    """Create the functions above on a DuckDB connection."""
    for name, fn in FUNCTIONS.items():
        con.create_function(name, _vectorized(fn), ["INTERVAL"], "INTERVAL", type="arrow")
    for name, divide in (("txngate_interval_mul", False), ("txngate_interval_div", True)):
        con.create_function(name, _scaling(divide), ["INTERVAL", "DOUBLE"], "INTERVAL", type="arrow")
