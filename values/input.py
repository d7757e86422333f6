"""PostgreSQL's input functions, for the values the engines read otherwise.

Three kinds of reader, the one place for every path a value's text takes
into the engines (a constant in SQL, a parameter, a COPY field):

* text to text: ``datetime_text`` (date, timestamp, timestamptz),
  ``time_text`` and ``interval_text`` turn PostgreSQL's forms into text
  DuckDB reads exactly as PostgreSQL reads the original (BC years, the
  free forms of ``values.datetimes``, DateStyle's field order, a date
  with a zone and no time, a leap second's ``:60``, a time's zone
  dropped, ``values.intervals``' forms); text DuckDB already reads alike
  comes back as it is;
* text to value: ``boolean_input``, ``integer_input``, ``float_input`` and
  ``numeric_input`` read text as PostgreSQL's input functions for them
  do (its words, ASCII digits, its white space, its range checks: DuckDB's
  casts take more, and round or overflow silently);
* protocol parameters: ``decode_param(data, oid, binary)`` is a
  parameter's value for the engine from its text or binary wire form,
  checked by the same readers (ISO dates read directly).

Errors are ``InvalidInput`` with PostgreSQL's SQLSTATE (22P02, 22003,
22007, 22008, 22015; 0A000 for an interval txngate cannot carry).

Invariant: a reader never changes a value PostgreSQL would read; text it
does not understand is refused or left to the engine, never guessed at.
"""

from __future__ import annotations

import datetime as dt
import decimal
import re

from values.binary import decode_binary
from values.datetimes import datetime_input, fraction_micros, twelve_hour
from values.errors import InvalidInput
from values.intervals import IntervalOverflow, IntervalSyntax, interval_input
from values.text import bc_input, date_input, parse_array, timestamp_input
from values.types import CARRIED_INTERVAL_MICROS, LONG_INTERVAL, PG_ARRAY_ELEMENT
from values.zones import abbreviation

__all__ = ["BOOLEAN_WORDS", "INTEGER_RANGES", "boolean_input", "datetime_text", "decode_param", "float_input", "integer_input", "interval_text",
           "numeric_input", "time_text"]

_BAD_TEXT, _BAD_DATETIME, _OUT_OF_RANGE = "22P02", "22007", "22003"




def datetime_text(text: str, sql_type: str) -> str:
    """Text of a date, timestamp or timestamptz as text DuckDB reads as
    PostgreSQL reads ``text`` (BC years, ``values.bc_input``; the free
    forms, ``values.datetimes``; DateStyle's field order and two-digit
    years, ``values.date_input``); ``text`` itself when DuckDB reads it
    alike. The one reader of such text, for constants and parameters
    (``DateSyntax``, an ``InvalidInput``, for text PostgreSQL refuses)."""
    if (m := _DATED_SIXTY.fullmatch(text)) and int(m.group(2)) < 24 and int(m.group(3)) < 60:  # a leap second: the next minute
        try:
            day = dt.date.fromisoformat(m.group(1))
        except ValueError:
            pass
        else:
            at = dt.datetime.combine(day, dt.time(int(m.group(2)), int(m.group(3)))) + dt.timedelta(minutes=1)
            text = f"{at.isoformat(sep=' ')}{m.group(4)}"
    if sql_type != "date" and (m := _LONG_TIMESTAMP_FRACTION.fullmatch(text)):
        text = _fraction_rounded(text, m)
    if m := _ZONED_DATE.fullmatch(text):  # a date and a zone, no time (DuckDB refuses it): midnight there; the zone dropped but for timestamptz
        text = f"{m.group(1)} 00:00:00{m.group(2)}" if sql_type == "timestamptz" else m.group(1)
    out = bc_input(text, sql_type) or datetime_input(text, sql_type) \
        or (date_input if sql_type == "date" else timestamp_input)(text) or text
    if (m := _FAR_YEAR.match(out)) and int(m.group(1)) > _LAST_YEAR[sql_type]:
        raise InvalidInput("22008", f'{"date" if sql_type == "date" else "timestamp"} out of range: "{text}"')
    return out


def _fraction_rounded(text: str, m: re.Match) -> str:
    """A timestamp's fraction of more than six digits rounded to
    microseconds, as PostgreSQL rounds it (DuckDB cut digits past the
    seventh: .123456789 was .123456, not .123457); one that rounds up to a
    whole second carries into it when the time before it is ISO's."""
    micros = fraction_micros(m.group(2))
    if micros < 1_000_000:
        return f"{m.group(1)}.{micros:06d}{m.group(3)}"
    if iso := _ISO_SECOND.fullmatch(m.group(1)):
        try:
            at = dt.datetime.fromisoformat(f"{iso.group(1)} {iso.group(2)}") + dt.timedelta(seconds=1)
        except ValueError:
            return text  # (the reader's own error)
        return f"{at.isoformat(sep=' ')}{m.group(3)}"
    return text


#: a time of day with a fraction of more than six digits, and what is around it
_LONG_TIMESTAMP_FRACTION = re.compile(r"(.*\d:\d{2}:\d{2})\.(\d{7,})(.*)", re.S)
#: an ISO date and time to the second
_ISO_SECOND = re.compile(r"\s*(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})")
#: an ISO date and a time at second 60 (a leap second), and what follows it (a zone)
_DATED_SIXTY = re.compile(r"\s*(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2}):60(?:\.0*)?(\s*(?:[+-]\d{1,2}(?::?\d{2}){0,2}|[A-Za-z][A-Za-z/_+-]*)?)\s*")
#: an ISO date with a zone offset after it (``2001-01-01+00``, ``2001-01-01 -08``; PostgreSQL refuses ``2001-01-01-08``)
_ZONED_DATE = re.compile(r"\s*(\d{4,}-\d{1,2}-\d{1,2})((?:\s*\+|\s+-)\d{1,2}(?::?\d{2}){0,2})\s*")
#: the last years PostgreSQL's dates and timestamps reach (the engine's reach further)
_LAST_YEAR = {"date": 5874897, "timestamp": 294276, "timestamptz": 294276}
_FAR_YEAR = re.compile(r"\s*(\d{6,})-")


_ZONED_TIME = re.compile(r"(.*?\d)\s*([a-z]+|[+-]\d{1,2}(?::?\d{2})?)", re.IGNORECASE)
_LONG_FRACTION = re.compile(r"(\d{1,2}):(\d{2}):(\d{2})\.(\d{7,})")
_TWELVE_HOUR = re.compile(r"(\d{1,2})(:\d{2}(?::\d{2}(?:\.\d*)?)?)\s*([ap]m)", re.IGNORECASE)


_SECOND_SIXTY = re.compile(r"(\d{1,2}):(\d{2}):60(?:\.0*)?")
_DATED_TIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d.*)")
_NAMED_ZONE = re.compile(r"(.*?\d)\s*[A-Za-z_]+/[A-Za-z_/+-]+")


_COMPACT_TIME = re.compile(r"T?(\d{2})(\d{2})(\d{2})?(\.\d+)?")


def time_text(text: str) -> str:
    """Text of a time as text DuckDB reads as PostgreSQL reads ``text``: a
    zone after it (``02:03 PST``, ``11:59-04``, a zone name after a date:
    ``2003-03-07 15:36:39 America/New_York``) dropped, as a time without
    time zone drops it (and the date), and a fraction beyond microseconds rounded (up to
    ``24:00:00``; DuckDB cuts it), AM/PM read (DuckDB refuses them), and
    a leap second's ``:60`` read as the next minute (``23:59:60`` is
    ``24:00:00``), as PostgreSQL reads it."""
    t = text.strip()
    if dated := _DATED_TIME.fullmatch(t):  # a date before it (which gives a zone name its offset): read, then dropped
        try:
            dt.date(int(dated.group(1)), int(dated.group(2)), int(dated.group(3)))
        except ValueError:
            raise InvalidInput("22008", f'date/time field value out of range: "{text}"') from None
        t = dated.group(4).strip()
        if named := _NAMED_ZONE.fullmatch(t):
            t = named.group(1)
    if re.search(r"[A-Za-z_]+/[A-Za-z_]", t) or re.match(r"\d+-\d+-\d+T", t):  # a zone name: its offset depends on a date; ISO's T
        raise InvalidInput(_BAD_DATETIME, f'invalid input syntax for type time: "{text}"')
    if (m := _ZONED_TIME.fullmatch(t)) and (abbreviation(m.group(2)) is not None or m.group(2)[0] in "+-"):
        t = m.group(1)
    if m := _COMPACT_TIME.fullmatch(t):  # 040506, 0405, T040506.789: ISO 8601's basic form
        t = f"{m.group(1)}:{m.group(2)}:{m.group(3) or '00'}{m.group(4) or ''}"
    if (m := _TWELVE_HOUR.fullmatch(t)) and 1 <= int(m.group(1)) <= 12:
        t = f"{twelve_hour(int(m.group(1)), m.group(3)):02d}{m.group(2)}"
    if m := _LONG_FRACTION.fullmatch(t):
        micros = fraction_micros(m.group(4))
        total = ((int(m.group(1)) * 60 + int(m.group(2))) * 60 + int(m.group(3))) * 1_000_000 + micros
        seconds, micros = divmod(total, 1_000_000)
        t = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{micros:06d}"
    if (m := _SECOND_SIXTY.fullmatch(t)) and int(m.group(1)) < 24 and int(m.group(2)) < 60:  # a leap second: the next minute
        minutes = int(m.group(1)) * 60 + int(m.group(2)) + 1
        t = f"{minutes // 60:02d}:{minutes % 60:02d}:00"
    return t


def interval_text(text: str) -> str:
    """An interval constant as text DuckDB reads exactly as PostgreSQL reads
    ``text`` (``values.intervals``); 22007 for text PostgreSQL refuses,
    22015 beyond its range."""
    try:
        months, days, micros = interval_input(text)
    except IntervalSyntax:
        raise InvalidInput(_BAD_DATETIME, f'invalid input syntax for type interval: "{text}"') from None
    except IntervalOverflow as e:
        if e.field:
            raise InvalidInput("22015", f'interval field value out of range: "{text}"') from None
        raise InvalidInput("22008", "interval out of range") from None
    if abs(micros) >= CARRIED_INTERVAL_MICROS:
        raise InvalidInput("0A000", f'interval "{text}": {LONG_INTERVAL}')
    return f"{months} months {days} days {micros} microseconds"


def _array_from_text(text: str, element_oid: int) -> list:
    """``{a,b,"c d",NULL}`` -> values (one dimension; ValueError if malformed)."""
    return [None if v is None else decode_param(v.encode(), element_oid, False) for v in parse_array(text)]


def decode_param(data: bytes | None, oid: int, binary: bool):
    """A parameter value for the engine from its wire form: ``data`` in
    text or binary format (``binary``) for the type of ``oid``."""
    if data is None:
        return None
    if oid in PG_ARRAY_ELEMENT:
        element = PG_ARRAY_ELEMENT[oid].oid
        return decode_binary(data, oid) if binary else _array_from_text(data.decode(), element)
    if not binary:
        text = data.decode()
        if oid in _TEXT_PARSERS:
            return _TEXT_PARSERS[oid](text)
        if oid == 17:
            return bytes.fromhex(text[2:]) if text.startswith("\\x") else text.encode()
        if oid in (1082, 1114, 1184):
            return _datetime_from_text(text, oid)
        if oid == 1186:
            return interval_text(text)  # PostgreSQL's forms, as text the engine reads alike
        return text
    return decode_binary(data, oid)


#: PostgreSQL's boolean input words: any prefix of true/false/yes/no, on,
#: off (two letters at least), 1 and 0
BOOLEAN_WORDS = {
    **{w[:i]: True for w in ("true", "yes") for i in range(1, len(w) + 1)},
    **{w[:i]: False for w in ("false", "no") for i in range(1, len(w) + 1)},
    "on": True, "of": False, "off": False, "1": True, "0": False,
}
#: the white space PostgreSQL's input functions skip around a value (C's isspace)
_SPACE = " \t\n\r\v\f"
_INTEGER_TEXT = re.compile(r"[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*")
#: the ranges of the integer types, narrowest first
INTEGER_RANGES = {"smallint": (-(1 << 15), (1 << 15) - 1), "integer": (-(1 << 31), (1 << 31) - 1), "bigint": (-(1 << 63), (1 << 63) - 1)}
_INPUT_RANGES = {**INTEGER_RANGES, "oid": (0, (1 << 32) - 1)}
_FLOAT_TEXT = re.compile(r"[ \t\n\r\v\f]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*")
_FLOAT_WORDS = re.compile(r"[ \t\n\r\v\f]*[+-]?(?:nan|inf|infinity)[ \t\n\r\v\f]*", re.IGNORECASE)
_FLOAT_LIMITS = {"real": (3.4028234663852886e38, 1.1754943508222875e-38), "double precision": (1.7976931348623157e308, 2.2250738585072014e-308)}


def _bad_text(type_name: str, text: str) -> InvalidInput:
    return InvalidInput(_BAD_TEXT, f'invalid input syntax for type {type_name}: "{text}"')


def boolean_input(text: str) -> bool:
    """``text`` read as PostgreSQL's boolean input function reads it (any
    case, surrounding white space); 22P02 for other text."""
    value = BOOLEAN_WORDS.get(text.strip(_SPACE).lower())
    if value is None:
        raise _bad_text("boolean", text)
    return value


def integer_input(text: str, sql_type: str) -> int:
    """``text`` read as PostgreSQL's smallint, integer, bigint or oid input
    function reads it (version 15: ASCII decimal digits, a sign,
    surrounding white space; DuckDB's cast would also take ``34.5``,
    rounding, and ``1e2``, ``0x10``, ``1_000``): 22P02 for other text,
    22003 out of range."""
    if not _INTEGER_TEXT.fullmatch(text):
        raise _bad_text(sql_type, text)
    value = int(text)
    lo, hi = _INPUT_RANGES[sql_type]
    if not lo <= value <= hi:
        raise InvalidInput(_OUT_OF_RANGE, f'value "{text}" is out of range for type {sql_type}')
    return value


def float_input(text: str, sql_type: str) -> float:
    """``text`` read as PostgreSQL's real or double precision input function
    reads it: a decimal or exponent number, NaN, Infinity (any case, a
    sign); 22P02 for other text, 22003 when the number is beyond the type's
    range or underflows to zero (DuckDB's cast gave infinity or 0)."""
    if _FLOAT_WORDS.fullmatch(text):
        return float(text.strip(_SPACE))
    if not _FLOAT_TEXT.fullmatch(text):
        raise _bad_text(sql_type, text)
    value = float(text)
    limit, tiny = _FLOAT_LIMITS[sql_type]
    nonzero = any(c in "123456789" for c in text.lower().partition("e")[0])
    if abs(value) > limit or (nonzero and abs(value) < tiny):
        raise InvalidInput(_OUT_OF_RANGE, f'"{text.strip(_SPACE)}" is out of range for type {sql_type}')
    return value


def numeric_input(text: str) -> decimal.Decimal:
    """``text`` read as PostgreSQL's numeric input function reads it: a
    decimal or exponent number; 22P02 for other text (DuckDB's cast takes
    ``1_000``), 0A000 for NaN and infinity, which PostgreSQL's numeric
    holds and txngate's cannot."""
    if not _FLOAT_TEXT.fullmatch(text):
        if _FLOAT_WORDS.fullmatch(text):
            raise InvalidInput("0A000", f'numeric value "{text.strip(_SPACE)}" (NaN and infinity) is not supported')
        raise _bad_text("numeric", text)
    return decimal.Decimal(text.strip(_SPACE))


#: text-format parameters, by OID, read as PostgreSQL's input functions read them
_TEXT_PARSERS = {21: lambda t: integer_input(t, "smallint"), 23: lambda t: integer_input(t, "integer"),
                 20: lambda t: integer_input(t, "bigint"), 26: lambda t: integer_input(t, "oid"),
                 700: lambda t: float_input(t, "real"), 701: lambda t: float_input(t, "double precision"),
                 1700: numeric_input, 16: boolean_input}


_DATETIME = re.compile(
    r"\s*(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,6}))?)?)?\s*(?:([+-])(\d\d)(?::?(\d\d))?(?::(\d\d))?|Z)?\s*$"
)


def _datetime_from_text(text: str, oid: int):
    """PostgreSQL's ISO input for date, timestamp and timestamptz (a zone on
    a date or timestamp is ignored, as PostgreSQL does); other spellings are
    read by ``datetime_text`` (BC, the free forms: as text the engine
    reads as PostgreSQL does; 'epoch', 'infinity', ... as they are)."""
    m = _DATETIME.match(text)
    if m is None:
        return datetime_text(text, {1082: "date", 1114: "timestamp", 1184: "timestamptz"}[oid])
    y, mo, d, h, mi, sec, frac, sign, zh, zm, zs = m.groups()
    if oid == 1082:
        return dt.date(int(y), int(mo), int(d))
    value = dt.datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(sec or 0), int((frac or "0").ljust(6, "0")))
    if oid == 1114:
        return value
    if sign is None:
        return text if not text.rstrip().endswith("Z") else value.replace(tzinfo=dt.timezone.utc)
    offset = dt.timedelta(hours=int(zh), minutes=int(zm or 0), seconds=int(zs or 0))
    return value.replace(tzinfo=dt.timezone(offset if sign == "+" else -offset))


def record_input(text: str) -> list[str | None]:
    """The fields of a record's text (``(abc,42,"a b")``) as PostgreSQL's
    record_in reads them: each field's text, None for an empty unquoted
    one (NULL); inside double quotes "" is a quote, and a backslash takes
    the next character anywhere. 22P02 with record_in's detail for a
    malformed one. The caller checks the count against its type."""
    def malformed(detail: str) -> InvalidInput:
        return InvalidInput("22P02", f'malformed record literal: "{text}"', detail=detail)
    i, n = 0, len(text)
    while i < n and text[i].isspace():
        i += 1
    if i >= n or text[i] != "(":
        raise malformed("Missing left parenthesis.")
    i += 1
    fields: list[str | None] = []
    while True:  # (``()`` is one empty field: NULL)
        chars, quoted, in_quotes = [], False, False
        while i < n and (in_quotes or text[i] not in ",)"):
            ch = text[i]
            if ch == "\\":
                i += 1
                if i >= n:
                    raise malformed("Unexpected end of input.")
                chars.append(text[i])
            elif ch == '"' and in_quotes and i + 1 < n and text[i + 1] == '"':
                chars.append('"')
                i += 1
            elif ch == '"':
                in_quotes, quoted = not in_quotes, True
            else:
                chars.append(ch)
            i += 1
        if i >= n:
            raise malformed("Unexpected end of input.")
        fields.append("".join(chars) if chars or quoted else None)
        i += 1
        if text[i - 1] == ")":
            break
    if text[i:].strip():
        raise malformed("Junk after right parenthesis.")
    return fields
