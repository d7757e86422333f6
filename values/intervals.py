"""PostgreSQL's interval input, for the texts DuckDB reads otherwise:
``interval_input`` without a field qualifier, ``qualified_interval`` with
one (``interval '90' day``); both with the one table of unit words.

DuckDB refuses much of what PostgreSQL reads (``+02:00``, ``-1 days
+02:03``, ``1-2``, ``@ 1 hour ago``, ``12:34.5678`` as minutes and seconds,
ISO 8601's ``P1Y2M3DT4H5M6S`` and ``P0002-10-15T10:30:20``), and wraps
around silently on the large ones (``9223372036854775807 microseconds``
came out as ``-00:00:00.000001``). ``interval_input(text)`` reads it as
PostgreSQL's DecodeInterval does, in exact decimal arithmetic:

* each number takes the unit after it (``5 hours``, ``5h``, ``5 hour``);
  a bare number is seconds, or days right before a time (``3 4:05:06``);
  ``h:m[:s]`` is a time (``m:s.f`` when the second field has a fraction),
  ``y-m`` years and months; ``@`` is ignored, ``ago`` negates everything;
* a fraction carries down: years to whole months (rounded), months to
  days (30 a month) and seconds, weeks and days to seconds;
* a unit may be given once (a time counts as hours, minutes and seconds;
  a fractional second as all of seconds, milliseconds and microseconds);
* months and days are 32-bit, microseconds 64-bit: a field beyond is
  22015 ("interval field value out of range"), a sum beyond 22008
  ("interval out of range"), as PostgreSQL.

Under IntervalStyle sql_standard (``INTERVAL_STYLE``, set by the session)
a leading minus sign applies to every field when no other field carries a
sign (``-1 2:03:04`` is minus a day, two hours, ...), as PostgreSQL reads it.

Returns (months, days, microseconds); ``IntervalSyntax`` for text
PostgreSQL refuses (22007).
"""

from __future__ import annotations

import math
import re
from contextvars import ContextVar
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

_DAY_US = 86_400_000_000
_MONTH_DAYS = 30
_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)

#: unit words -> (what they count, how many of it, the field bits they claim)
_UNITS = {
    **{w: ("months", 12000, {"millennium"}) for w in ("millennium", "millennia", "millenniums", "mil", "mils")},
    **{w: ("months", 1200, {"century"}) for w in ("century", "centuries", "c", "cent")},
    **{w: ("months", 120, {"decade"}) for w in ("decade", "decades", "dec", "decs")},
    **{w: ("months", 12, {"year"}) for w in ("year", "years", "y", "yr", "yrs")},
    **{w: ("months", 1, {"month"}) for w in ("month", "months", "mon", "mons")},
    **{w: ("days", 7, {"week"}) for w in ("week", "weeks", "w")},
    **{w: ("days", 1, {"day"}) for w in ("day", "days", "d")},
    **{w: ("us", 3_600_000_000, {"hour"}) for w in ("hour", "hours", "h", "hr", "hrs")},
    **{w: ("us", 60_000_000, {"minute"}) for w in ("minute", "minutes", "m", "min", "mins")},
    **{w: ("us", 1_000_000, {"second"}) for w in ("second", "seconds", "s", "sec", "secs")},
    **{w: ("us", 1000, {"millisecond"}) for w in ("millisecond", "milliseconds", "ms", "msec", "msecs", "millisecon")},
    **{w: ("us", 1, {"microsecond"}) for w in ("microsecond", "microseconds", "us", "usec", "usecs")},
}
_SECONDS = {"second", "millisecond", "microsecond"}


def unit_field(word: str) -> str | None:
    """The field a unit word names (``msec``, ``secs``, ``mon``: millisecond,
    second, month), as extract() and intervals read it; None when it is
    none."""
    unit = _UNITS.get(word.lower())
    return next(iter(unit[2])) if unit else None
_TIME_FIELDS = {"hour", "minute"} | _SECONDS

_TOKEN = re.compile(r"@|[+-]?\d+:\d+(?::\d+)?(?:\.\d*)?|[+-]?\d+-\d+|[+-]?(?:\d+\.?\d*|\.\d+)|[a-z]+")
_TIME = re.compile(r"([+-]?)(\d+):(\d+)(?::(\d+))?(\.\d*)?")
_YEAR_MONTH = re.compile(r"([+-]?)(\d+)-(\d+)")


class IntervalSyntax(ValueError):
    """Text PostgreSQL does not read as an interval (22007)."""


class _Sum:
    """Years, months, days and microseconds as exact decimals (PostgreSQL
    keeps years apart until the end), with the fields claimed."""

    def __init__(self, text: str):
        self.text = text
        self.years = self.months = self.days = self.us = Decimal(0)
        self.claimed: set[str] = set()

    def claim(self, fields: set[str]) -> None:
        if self.claimed & fields:
            raise IntervalSyntax(self.text)  # "1 day 1 day"
        self.claimed |= fields

    def add(self, kind: str, value: Decimal, times: int) -> None:
        """``value`` of a unit worth ``times`` of ``kind``, its fraction
        carried down; a field passing its range is 22015."""
        whole = value * times
        if kind == "months" and times >= 12:  # years and up: the whole units as years, their fraction as whole months
            units = int(value)
            self.years += units * (times // 12)
            self.months += ((value - units) * times).to_integral_value(ROUND_HALF_EVEN)
        elif kind == "months":
            months = int(whole)
            self.months += months
            self._days(Decimal(whole - months) * _MONTH_DAYS)
        elif kind == "days":
            self._days(whole)
        else:
            self.us += whole
        for field, (low, high) in ((self.years, _INT32), (self.months, _INT32), (self.days, _INT32), (self.us, _INT64)):
            if not low <= field <= high:
                raise IntervalOverflow(self.text, field=True)

    def _days(self, days: Decimal) -> None:
        whole = int(days)
        self.days += whole
        self.us += (days - whole) * _DAY_US

    def result(self, negate: bool) -> tuple[int, int, int]:
        sign = -1 if negate else 1
        if negate and (self.years == _INT32[0] or self.months == _INT32[0] or self.days == _INT32[0] or self.us <= _INT64[0]):
            raise IntervalOverflow(self.text, field=True)  # "ago" negates each field
        months, days = int(self.years * 12 + self.months) * sign, int(self.days) * sign
        us = int(self.us.to_integral_value(ROUND_HALF_EVEN)) * sign
        if not (_INT32[0] <= months <= _INT32[1] and _INT32[0] <= days <= _INT32[1] and _INT64[0] <= us <= _INT64[1]):
            raise IntervalOverflow(self.text, field=False)
        return months, days, us


class IntervalOverflow(ValueError):
    """An interval beyond PostgreSQL's range: one field's value (``field``:
    22015), or their sum (22008)."""

    def __init__(self, text: str, *, field: bool):
        super().__init__(text)
        self.field = field


#: the session's IntervalStyle (it decides how far a leading minus sign reaches)
INTERVAL_STYLE: ContextVar[str] = ContextVar("interval_style", default="postgres")


def interval_input(text: str) -> tuple[int, int, int]:
    """``text`` read as PostgreSQL reads an interval (see the module)."""
    t = text.strip().lower()
    if t.startswith("p"):
        return _iso8601(text, t[1:])
    tokens = _TOKEN.findall(t)
    if not tokens or "".join(tokens) != re.sub(r"\s+", "", t):
        raise IntervalSyntax(text)
    if INTERVAL_STYLE.get() == "sql_standard" and tokens[0].startswith("-") and not any(x[0] in "+-" for x in tokens[1:]):
        # the SQL standard's one sign for the whole value: every field negative
        tokens = [tokens[0]] + ["-" + x if _is_number(x) or _TIME.fullmatch(x) or _YEAR_MONTH.fullmatch(x) else x for x in tokens[1:]]
    total, negate = _Sum(text), False
    i = len(tokens) - 1
    bare_unit = ("us", 1_000_000, {"second"})  # what a number without a unit counts
    while i >= 0:
        token = tokens[i]
        if token == "ago":
            negate, i = True, i - 1
            continue
        if token == "@":
            i -= 1
            continue
        if token in _UNITS and i > 0 and _is_number(tokens[i - 1]):
            kind, times, fields = _UNITS[token]
            total.claim(fields | ({"millisecond", "microsecond"} if fields == {"second"} and "." in tokens[i - 1] else set()))
            total.add(kind, _number(text, tokens[i - 1]), times)
            i -= 2
            continue
        if token in _UNITS:  # a unit with no number ("hour 5 months"): nothing
            i -= 1
            continue
        if m := _TIME.fullmatch(token):
            total.claim(set(_TIME_FIELDS))
            total.add("us", _time_us(m), 1)
            bare_unit = ("days", 1, {"day"})  # "3 4:05:06": the number before a time is days
            i -= 1
            continue
        if m := _YEAR_MONTH.fullmatch(token):
            total.claim({"year", "month"})
            sign = -1 if m[1] == "-" else 1
            total.add("months", Decimal(sign * int(m[2])), 12)
            total.add("months", Decimal(sign * int(m[3])), 1)
            i -= 1
            continue
        if _is_number(token):
            kind, times, fields = bare_unit
            total.claim(fields)
            total.add(kind, _number(text, token), times)
            i -= 1
            continue
        raise IntervalSyntax(text)
    return total.result(negate)


def _is_number(token: str) -> bool:
    return bool(re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)", token))


def _number(text: str, token: str) -> Decimal:
    try:
        return Decimal(token)
    except InvalidOperation:
        raise IntervalSyntax(text) from None


def _time_us(m: re.Match) -> Decimal:
    """``h:m[:s][.f]`` in microseconds (``m:s.f`` when only two fields and a
    fraction: ``12:34.5678`` is twelve minutes)."""
    sign = -1 if m[1] == "-" else 1
    first, second, third, fraction = int(m[2]), int(m[3]), m[4], m[5]
    frac = Decimal("0" + fraction) if fraction and fraction != "." else Decimal(0)
    if third is None and fraction:
        us = (first * 60 + second + frac) * 1_000_000
    else:
        us = (first * 3600 + second * 60 + int(third or 0) + frac) * 1_000_000
    return sign * Decimal(us)


_ISO_UNITS = {"y": ("months", 12), "m": ("months", 1), "w": ("days", 7), "d": ("days", 1)}
_ISO_TIME_UNITS = {"h": 3_600_000_000, "m": 60_000_000, "s": 1_000_000}
#: a number as PostgreSQL's ParseISO8601Number reads it (strtod's: no plus sign)
_ISO_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?")
_INT64_LIMIT = Decimal(2) ** 63


def _iso_number(text: str, body: str, at: int) -> tuple[Decimal, int]:
    """The number at ``at`` and where it ends; 22007 for none, 22015 for
    one beyond 64 bits (PostgreSQL checks a field before its unit)."""
    m = _ISO_NUMBER.match(body, at)
    if m is None:
        raise IntervalSyntax(text)
    value = Decimal(m.group())
    if abs(value) > _INT64_LIMIT:
        raise IntervalOverflow(text, field=True)
    return value, m.end()


def _digits(body: str, at: int) -> int:
    """How many digits (after a minus sign) stand at ``at``."""
    m = re.compile(r"-?(\d*)").match(body, at)
    return len(m.group(1))


def _iso8601(text: str, body: str) -> tuple[int, int, int]:
    """ISO 8601 as PostgreSQL's DecodeISO8601Interval reads it:
    ``P[nY][nM][nW][nD][T[nH][nM][nS]]``, or the alternative format
    ``PY-M-D[Th:m:s]`` (any widths, fractions carried down) and its basic
    form ``PYYYYMMDD[Thhmmss]``; a field beyond its range is 22015, a sum
    beyond an interval's 22008."""
    total, at, date_part, had_field = _Sum(text), 0, True, False
    if not body:
        raise IntervalSyntax(text)
    while at < len(body):
        if body[at] == "t":
            date_part, had_field, at = False, False, at + 1
            continue
        start = at
        value, at = _iso_number(text, body, at)
        unit, at = (body[at], at + 1) if at < len(body) else ("", at)
        if date_part and unit in _ISO_UNITS:
            kind, times = _ISO_UNITS[unit]
            total.add(kind, value, times)
        elif not date_part and unit in _ISO_TIME_UNITS:
            total.add("us", value, _ISO_TIME_UNITS[unit])
        elif not had_field and unit in (("", "t", "-") if date_part else ("", ":")):
            return _iso_alternative(text, body, start, total, date_part)
        else:
            raise IntervalSyntax(text)
        had_field = True
    return total.result(False)


def _iso_alternative(text: str, body: str, at: int, total: _Sum, date_part: bool) -> tuple[int, int, int]:
    """The alternative format from ``at``: ``Y-M-D`` (basic: ``YYYYMMDD``)
    in the date part, then ``h:m:s`` (basic: ``hhmmss``) after ``T``."""
    while True:
        width, scales = _digits(body, at), ((("months", 12), ("months", 1), ("days", 1)) if date_part else
                                             (("us", 3_600_000_000), ("us", 60_000_000), ("us", 1_000_000)))
        value, end = _iso_number(text, body, at)
        if width == (8 if date_part else 6) and (end == len(body) or body[end] == "t" or not date_part) and "." not in body[at:end]:
            whole = int(value)  # the basic form: YYYYMMDD, hhmmss
            parts = [Decimal(whole // 10000), Decimal(whole // 100 % 100), Decimal(whole % 100)]
            for (kind, times), part in zip(scales, parts):
                total.add(kind, part, times)
            at = end
        else:
            separator = "-" if date_part else ":"
            for n, (kind, times) in enumerate(scales):
                if n:
                    if at >= len(body) or body[at] != separator:
                        break
                    at += 1
                value, at = _iso_number(text, body, at)
                total.add(kind, value, times)
        if at == len(body):
            return total.result(False)
        if date_part and body[at] == "t":
            date_part, at = False, at + 1
            if at < len(body) and re.search(r"[hms]", body[at:]):  # P0002-10-15T1S: designators after the alternative date
                for value, unit in _iso_parts(text, body[at:], "hms"):
                    total.add("us", value, _ISO_TIME_UNITS[unit])
                return total.result(False)
            if at == len(body):
                raise IntervalSyntax(text)
            continue
        raise IntervalSyntax(text)


def _iso_parts(text: str, part: str, units: str) -> list[tuple[Decimal, str]]:
    found = re.findall(f"({_ISO_NUMBER.pattern})([{units}])", part)
    if "".join(n + u for n, u in found) != part:
        raise IntervalSyntax(text)
    return [(_number(text, n), u) for n, u in found]


# -- with a field qualifier ----------------------------------------------------


#: PostgreSQL's interval typmod bits (INTERVAL_MASK of datetime.h)
INTERVAL_FIELDS = {"month": 1 << 1, "year": 1 << 2, "day": 1 << 3, "hour": 1 << 10, "minute": 1 << 11, "second": 1 << 12}
_FIELD_ORDER = ("second", "minute", "hour", "day", "month", "year")  # smallest first
_MICROS = {"second": 1_000_000, "minute": 60_000_000, "hour": 3_600_000_000}
#: a unit word -> (field, multiplier), from the one table of unit words
_QUALIFIED_UNITS = {
    word: {"millennium": ("year", 1000), "century": ("year", 100), "decade": ("year", 10), "week": ("day", 7)}.get(field, (field, 1))
    for word, (_kind, _times, (field,)) in _UNITS.items()
}
_QUALIFIED_TIME = re.compile(r"([+-]?)(\d+):(\d+(?:\.\d*)?)(?::(\d+(?:\.\d*)?))?")


def qualified_interval(text: str, mask: int, precision: int | None = None) -> tuple[int, int, int]:
    """``interval 'text' <fields>`` (``interval '90' day``, ``'1-2' year to
    month``, ``'3 4:05' day to minute``) as (months, days, microseconds), by
    PostgreSQL's DecodeInterval and AdjustIntervalForTypmod: a number
    without a unit counts in the qualifier's last field (one before hours
    in days, one before another field in that field: refused, as every
    field given twice), ``y-m`` is years and months, ``h:m[:s]`` a time
    (``m:s`` under MINUTE TO SECOND), fractions carry down (a month is 30
    days), and fields below the qualifier's last are cut off.
    IntervalSyntax for anything else."""
    fields = [f for f in _FIELD_ORDER if mask & INTERVAL_FIELDS[f]]
    if not fields:
        raise IntervalSyntax(text)
    months, days, micros = 0.0, 0.0, 0.0
    tokens = text.lower().split()
    negate = bool(tokens) and tokens[-1] == "ago"
    tokens = tokens[:-1] if negate else tokens
    if tokens and tokens[0] == "@":
        tokens = tokens[1:]
    default = fields[0]  # the field a bare number counts in, right to left
    seen: set[str] = set()  # each field once (1 day 2 days, '1 2' DAY are refused)
    i = len(tokens) - 1
    if i < 0:
        raise IntervalSyntax(text)
    while i >= 0:
        token = tokens[i]
        if token in _QUALIFIED_UNITS and i > 0 and _is_number(tokens[i - 1]):
            field, times = _QUALIFIED_UNITS[token]
            value, i = float(tokens[i - 1]) * times, i - 2
        elif m := _YEAR_MONTH.fullmatch(token):
            sign = -1 if m[1] == "-" else 1
            months += sign * (int(m[2]) * 12 + int(m[3]))
            default, i = "day", i - 1
            continue
        elif m := _QUALIFIED_TIME.fullmatch(token):
            sign = -1 if m[1] == "-" else 1
            if m[4] is None and ("." in m[3] or (fields[0] == "second" and "hour" not in fields)):
                micros += sign * (int(m[2]) * 60_000_000 + round(float(m[3]) * 1_000_000))  # m:s.f, or m:s under MINUTE TO SECOND
            elif "." in m[3]:
                raise IntervalSyntax(text)  # h:m.f:s
            else:
                micros += sign * (int(m[2]) * 3_600_000_000 + int(m[3]) * 60_000_000 + round(float(m[4] or 0) * 1_000_000))
            default, i = "day", i - 1
            continue
        elif _is_number(token):
            field, value, i = default, float(token), i - 1
        else:
            raise IntervalSyntax(text)
        if field in seen:
            raise IntervalSyntax(text)
        seen.add(field)
        if field in ("year", "month"):
            whole = value * 12 if field == "year" else value
            months += int(whole)
            rest = whole - int(whole)
            days += int(rest * 30)
            micros += round((rest * 30 - int(rest * 30)) * 86_400_000_000)
        elif field == "day":
            days += int(value)
            micros += round((value - int(value)) * 86_400_000_000)
        else:
            micros += round(value * {"millisecond": 1000, "microsecond": 1}.get(field, _MICROS.get(field, 1)))
        default = "day" if field == "hour" else field  # a bare number before hours is days; before others, the same field
    sign = -1 if negate else 1
    return _cut(sign * int(months), sign * int(days), sign * int(micros), fields[0], precision)


def _cut(months: int, days: int, micros: int, last: str, precision: int | None) -> tuple[int, int, int]:
    """The fields below ``last`` dropped (toward zero), as
    AdjustIntervalForTypmod does; seconds rounded to ``precision``."""
    if last == "year":
        return int(months / 12) * 12, 0, 0
    if last == "month":
        return months, 0, 0
    if last == "day":
        return months, days, 0
    if last in ("hour", "minute"):
        unit = _MICROS[last]
        return months, days, int(micros / unit) * unit
    if precision is not None and precision < 6:
        unit = 10 ** (6 - precision)
        micros = int(math.copysign(math.floor(abs(micros) / unit + 0.5), micros)) * unit
    return months, days, micros
