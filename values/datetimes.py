"""PostgreSQL's free-form date and timestamp input, for the texts DuckDB
reads otherwise or not at all.

PostgreSQL reads dates and timestamps written with month names
(``Feb 10 17:32:01 1997``, ``Mon Feb 10 17:32:01.5 1997 PST``,
``Feb-10-1997``, ``10 February 1997``, ``97FEB10``), ``AM``/``PM``,
``BC`` and ``AD``, compact ``19970210 173201`` and ``990210``, a year's day (``1997.041``), a
Julian day (``J2451187``), and time zones given by abbreviation (values.zones: ``PST`` is
always -08, ``PDT`` -07, ``MSK`` what Moscow used then), by offset (``-0800``, ``-08:00``) or by name
(``America/New_York``). DuckDB refuses most of these; worse, its ICU reads
``PST`` as the zone of Los Angeles, an hour off PostgreSQL in summer.

``datetime_input(text, sql_type)`` reads such a text into ISO text DuckDB
reads exactly (a BC year as its astronomical year, a zone as an offset;
the zone dropped for ``timestamp`` and ``date``, as PostgreSQL drops it),
or returns None when the text is none of these forms (DuckDB reads ISO
text itself). Errors are PostgreSQL's: 22008 when the fields make no date
or time, 22023 for an unknown zone name.

Invariant: a text is rewritten only when every one of its tokens was
understood; anything else is left to DuckDB, which then reads or refuses
it as before.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_EVEN, Decimal

from values.text import DATE_ORDER, DateSyntax, date_input
from values.zones import abbreviation, abbreviation_offset, local_offset, zone

MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_MONTH_NAMES = {**MONTHS, "january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7, "august": 8,
                "september": 9, "sept": 9, "october": 10, "november": 11, "december": 12}
_WEEKDAYS = {"mon", "tue", "tues", "wed", "wednes", "thu", "thur", "thurs", "fri", "sat", "sun",
             "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(am|pm)?(?:([+-])(\d{1,2})(?::?(\d{2}))?|(z))?")
_OFFSET = re.compile(r"([+-])(\d{1,2})(?::?(\d{2}))?")
_DASHED = re.compile(r"([a-z]+|\d+)[-/.]([a-z]+|\d+)[-/.]([a-z]+|\d+)")
_POSIX = re.compile(r"([a-z]{3,5})([+-])(\d{1,2})(?::?(\d{2}))?")
_COMPACT_TIME = re.compile(r"(\d{2})(\d{2})(\d{2})(?:\.(\d+))?")
_COMPACT_DATE = re.compile(r"(\d{2}|\d{4})([a-z]{3,9})(\d{1,2})")  # 97FEB10
_YEAR_DAY = re.compile(r"(\d{4})\.(\d{3})")  # 1997.041: the 41st day of 1997


class _Fields:
    """What the tokens of one text said, field by field (None: not said)."""

    def __init__(self):
        self.year = self.month = self.day = None
        self.time: tuple[int, int, int, int] | None = None
        self.ampm: str | None = None
        self.bc = False
        self.offset: int | None = None  # seconds east of UTC
        self.zone_name: str | None = None
        self.abbreviation: str | None = None  # a dynamic one (MSK): its offset depends on the time
        self.numbers: list[str] = []  # day and year, in the order written
        self.free_form = False  # a month name, AM/PM, a zone abbreviation or a compact date: ours to read


def datetime_input(text: str, sql_type: str, order: str | None = None) -> str | None:
    """``text`` as ISO text DuckDB reads as PostgreSQL reads ``text``, for a
    ``sql_type`` of date, timestamp or timestamptz; None when the text is
    not in one of the free forms (see the module)."""
    fields = _tokens(text)
    if fields is None or not fields.free_form:
        return None
    try:
        return _iso(fields, text, sql_type, order or DATE_ORDER.get())
    except DateSyntax:
        raise
    except ValueError:
        raise DateSyntax("22008", f'date/time field value out of range: "{text}"') from None


def _tokens(text: str) -> _Fields | None:
    f = _Fields()
    for token in re.split(r"[\s,]+", text.strip().lower()):
        if not token:
            continue
        if not _token(f, token):
            return None
    return f


def _token(f: _Fields, token: str) -> bool:
    """Note what ``token`` says; False when it is not understood."""
    if token in _MONTH_NAMES and f.month is None:
        f.month, f.free_form = _MONTH_NAMES[token], True
        return True
    if token in _WEEKDAYS:
        f.free_form = True
        return True
    if token in ("am", "pm") and f.ampm is None:
        f.ampm, f.free_form = token, True
        return True
    if token in ("bc", "ad"):
        f.bc = token == "bc"
        f.free_form = f.free_form or token == "ad"  # (DuckDB reads no AD; BC texts are values.bc_input's)
        return True
    if token[0] == "j" and token[1:].isdigit() and f.year is None and f.month is None:  # a Julian day number (J2451187)
        day = dt.date(1970, 1, 1) + dt.timedelta(days=int(token[1:]) - 2440588)
        f.year, f.month, f.day, f.free_form = day.year, day.month, day.day, True
        return True
    if (meaning := abbreviation(token)) is not None and f.offset is None and f.zone_name is None and f.abbreviation is None:
        if isinstance(meaning, dt.timedelta):
            f.offset = int(meaning.total_seconds())
        else:
            f.abbreviation = token
        f.free_form = True
        return True
    if "/" in token and token[0].isalpha() and f.offset is None and f.zone_name is None and f.abbreviation is None:
        f.zone_name = token  # America/New_York (lower case here: found again from the text)
        return True
    if (m := _TIME.fullmatch(token)) and f.time is None:
        h, mi, s, frac, ampm, sign, oh, om, z = m.groups()
        f.time = (int(h), int(mi), int(s or 0), fraction_micros(frac))
        if ampm:
            f.ampm, f.free_form = ampm, True
        if sign:
            f.offset = (1 if sign == "+" else -1) * (int(oh) * 3600 + int(om or 0) * 60)
        if z:
            f.offset = 0
        return True
    if (m := _OFFSET.fullmatch(token)) and f.time is not None and f.offset is None and f.zone_name is None:
        sign, oh, om = m.groups()  # "17:32:01 -08:00": DuckDB reads the offset as a zone name
        f.offset, f.free_form = (1 if sign == "+" else -1) * (int(oh) * 3600 + int(om or 0) * 60), True
        return True
    if (m := _POSIX.fullmatch(token)) and abbreviation(m.group(1)) is not None and f.offset is None and f.zone_name is None:
        _name, sign, oh, om = m.groups()  # POSIX: GMT+8 is 8 hours west (the name is decoration)
        f.offset, f.free_form = (-1 if sign == "+" else 1) * (int(oh) * 3600 + int(om or 0) * 60), True
        return True
    if (m := _DASHED.fullmatch(token)) and f.year is None:
        return _dashed(f, m.groups())
    if (m := _COMPACT_DATE.fullmatch(token)) and m.group(2) in _MONTH_NAMES and f.year is None and f.month is None \
            and (len(m.group(1)) == 4 or DATE_ORDER.get() == "YMD"):  # 97FEB10: a two-digit year leads only in YMD
        year, f.month, f.day, f.free_form = int(m.group(1)), _MONTH_NAMES[m.group(2)], int(m.group(3)), True
        f.year = year + (2000 if year < 70 else 1900) if len(m.group(1)) == 2 else year  # two-digit years are 1970..2069
        return True
    if (m := _YEAR_DAY.fullmatch(token)) and f.year is None and f.month is None and 1 <= int(m.group(2)) <= 366:
        day = dt.date(int(m.group(1)), 1, 1) + dt.timedelta(days=int(m.group(2)) - 1)  # 1999.366 is 2000-01-01, as PostgreSQL counts
        f.year, f.month, f.day, f.free_form = day.year, day.month, day.day, True
        return True
    if token.isdigit() and len(token) == 8 and f.year is None and f.time is None:
        f.year, f.month, f.day, f.free_form = int(token[:4]), int(token[4:6]), int(token[6:]), True
        return True
    if token.isdigit() and len(token) == 6 and f.year is None and f.month is None and f.time is None and not f.numbers:
        year = int(token[:2])  # YYMMDD, its two-digit year in 1970..2069
        f.year, f.month, f.day, f.free_form = year + (2000 if year < 70 else 1900), int(token[2:4]), int(token[4:]), True
        return True
    if (m := _COMPACT_TIME.fullmatch(token)) and f.year is not None and f.numbers == [] and f.time is None:
        h, mi, s, frac = m.groups()
        f.time = (int(h), int(mi), int(s), fraction_micros(frac))
        return True
    if token.isdigit() and len(f.numbers) < 2:
        f.numbers.append(token)
        return True
    return False


def fraction_micros(fraction: str | None) -> int:
    """A fraction of a second (its digits) in microseconds, rounded half to
    even as PostgreSQL's rint rounds it (1_000_000 carries into the next
    second)."""
    if not fraction:
        return 0
    return int(Decimal("0." + fraction).quantize(Decimal("0.000001"), ROUND_HALF_EVEN) * 1_000_000)


def twelve_hour(hour: int, ampm: str) -> int:
    """An hour written with AM or PM (1..12) on the 24-hour clock."""
    if not 1 <= hour <= 12:
        raise ValueError("hour")
    return hour % 12 + (12 if ampm.lower() == "pm" else 0)


def _dashed(f: _Fields, parts: tuple[str, str, str]) -> bool:
    """A date written as one token: ``Feb-10-1997``, ``10-Feb-1997``,
    ``1997-Feb-10`` (a month name in it), else numbers (DateStyle's order)."""
    names = [i for i, p in enumerate(parts) if p.isalpha()]
    if not names:
        f.numbers.append("-".join(parts))  # numeric: date_input reads it
        return True
    if len(names) != 1 or parts[names[0]] not in _MONTH_NAMES or names[0] == 2:
        return False  # 1999-08-Jan: PostgreSQL refuses it
    f.month, f.free_form = _MONTH_NAMES[parts[names[0]]], True
    rest = [p for p in parts if not p.isalpha()]
    if names[0] == 1 and len(rest[0]) >= 3:
        f.year, f.day = int(rest[0]), int(rest[1])  # 1997-Feb-10
    else:
        f.numbers.extend(rest)  # Feb-10-1997, 10-Feb-1997: day, then year
    return True


def _iso(f: _Fields, text: str, sql_type: str, order: str) -> str | None:
    if f.year is None:
        if f.month is None:
            if len(f.numbers) != 1 or "-" not in f.numbers[0]:
                return None
            parts = f.numbers[0].split("-")
            if len(parts[0]) >= 3:  # ISO order, written with a zone DuckDB does not read
                f.year, f.month, f.day = (int(x) for x in parts)
            else:
                iso = date_input("/".join(parts), order)  # 02-10-1997 with a zone or AM/PM
                if iso is None:
                    return None
                f.year, f.month, f.day = (int(x) for x in iso.split("-"))
        else:
            if len(f.numbers) != 2:
                return None
            first, second = f.numbers
            # a field of three or more digits is the year; else DateStyle
            # says: the year first (YMD) or last (MDY, DMY)
            if (len(first) >= 3 and len(second) <= 2) or (order == "YMD" and len(first) <= 2 and len(second) <= 2):
                first, second = second, first
            f.day, f.year = int(first), int(second)
            if len(second) <= 2 and not f.bc:  # two-digit years are 1970..2069, except BC ones
                f.year += 2000 if f.year < 70 else 1900
    elif f.numbers:
        return None
    hour, minute, second, micro = f.time or (0, 0, 0, 0)
    if f.ampm is not None:
        hour = twelve_hour(hour, f.ampm)
    if f.bc and f.year == 0:
        raise ValueError("year 0 BC")
    if f.bc and (f.year, -f.month, -f.day) > (4714, -11, -24):
        raise DateSyntax("22008", f'{"date" if sql_type == "date" else "timestamp"} out of range: "{text}"')
    year = 1 - f.year if f.bc else f.year
    dt.date(2000 if year < 1 else year, f.month, f.day)  # checks month and day (a leap year stands in for BC years)
    if year < 1 and f.month == 2 and f.day == 29 and not _leap(year):
        raise ValueError("day")
    tz = None
    if f.zone_name is not None:  # checked whatever the type, as PostgreSQL does
        name = re.search(re.escape(f.zone_name), text, re.IGNORECASE).group(0)
        tz = zone(name)
        if tz is None:
            raise DateSyntax("22023", f'time zone "{f.zone_name}" not recognized')  # lower case, as PostgreSQL shows it
    if sql_type == "date":
        return _iso_date(year, f.month, f.day)  # a time is read and dropped
    next_day = (hour, minute, second, micro) == (24, 0, 0, 0)  # 24:00:00 is the next day's midnight
    if not next_day:
        dt.time(hour, minute, second, min(micro, 999_999))
    if next_day or micro == 1_000_000:
        base = dt.datetime(2000 if year < 1 else year, f.month, f.day, 0 if next_day else hour, minute, second)
        moved = base + (dt.timedelta(days=1) if next_day else dt.timedelta(seconds=1))
        if year < 1 and moved.year != base.year:
            return None  # a BC new year's eve rolled over: left to DuckDB
        year = year + (moved.year - base.year)
        f.month, f.day, hour, minute, second, micro = moved.month, moved.day, moved.hour, moved.minute, moved.second, 0
    date = _iso_date(year, f.month, f.day)
    out = f"{date} {hour:02d}:{minute:02d}:{second:02d}" + (f".{micro:06d}" if micro else "")
    if sql_type != "timestamptz":
        return out
    offset = f.offset
    local = dt.datetime(max(year, 1), f.month, f.day, hour, minute, second, micro)
    if tz is not None:
        offset = int(local_offset(tz, local).total_seconds())
    elif f.abbreviation is not None:
        offset = int(abbreviation_offset(f.abbreviation, local=local).total_seconds())
    if offset is None:
        return out  # the session's TimeZone, as DuckDB applies it
    sign = "+" if offset >= 0 else "-"
    return f"{out}{sign}{abs(offset) // 3600:02d}:{abs(offset) % 3600 // 60:02d}"


def _iso_date(year: int, month: int, day: int) -> str:
    """ISO text of a date, its year astronomical (1 BC is 0000, 2 BC -0001)."""
    shown = f"{year:04d}" if year >= 0 else f"-{-year:04d}"
    return f"{shown}-{month:02d}-{day:02d}"


def _leap(astronomical_year: int) -> bool:
    return astronomical_year % 4 == 0 and (astronomical_year % 100 != 0 or astronomical_year % 400 == 0)
