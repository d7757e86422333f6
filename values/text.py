"""PostgreSQL's text output format for values of every supported type.

``format_column(array, sql_type, style)`` turns an Arrow column into the
strings PostgreSQL would send (NULL stays null): ``t``/``f`` booleans,
shortest-exact floats with PostgreSQL's exponent rules (``1e+20``,
``1.5e-05``, ``Infinity``), numerics with their scale, timestamps without
trailing zero microseconds, timestamptz with the session time zone's offset
(``+00``, ``+05:30``), intervals in the ``postgres`` style, bytea as
``\\x`` hex, one-dimensional arrays as ``{1,NULL,"a b"}``. COPY and the
wire protocol share it. Simple types are converted with Arrow kernels; the
rest value by value.

``parse_array`` is the inverse for array text: ``{...}`` to the elements'
texts (None for NULL), by PostgreSQL's rules (quotes, backslash escapes,
whitespace around unquoted elements dropped). ``date_input`` reads the
numeric dates DuckDB reads otherwise (``01/02/03``, ``99-01-08``) in the
session's DateStyle field order (``DATE_ORDER``, set by the session).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
import string
import struct
import uuid
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

import pyarrow as pa
import pyarrow.compute as pc

from values.errors import InvalidInput
from values.types import is_record, of_arrow
from values.zones import format_offset, zone


def format_float8(x: float) -> str:
    return _format_float(x, repr(x), 15)


def format_float4(x: float) -> str:
    if math.isnan(x) or math.isinf(x):
        return _format_float(x, "", 6)
    f32 = struct.unpack("f", struct.pack("f", x))[0]
    for p in range(1, 10):
        s = f"{f32:.{p}g}"
        if struct.unpack("f", struct.pack("f", float(s)))[0] == f32:
            return _format_float(f32, s, 6)
    return _format_float(f32, repr(f32), 6)


def _format_float(x: float, shortest: str, dig: int) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    sign, digit_tuple, exp = decimal.Decimal(shortest).as_tuple()
    all_digits = "".join(map(str, digit_tuple)).lstrip("0")
    e = len(all_digits) + exp - 1  # decimal exponent of the first digit
    digits = all_digits.rstrip("0") or "0"
    s = "-" if sign else ""
    if e < -4 or e >= dig:
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{s}{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"
    if e < 0:
        return f"{s}0.{'0' * (-e - 1)}{digits}"
    if len(digits) <= e + 1:
        return s + digits + "0" * (e + 1 - len(digits))
    return f"{s}{digits[: e + 1]}.{digits[e + 1:]}"


def significant(d: decimal.Decimal) -> decimal.Decimal:
    """An unconstrained numeric (computed with STORED_PLACES digits after
    the point) with only its significant ones, as text and binary results
    show it (in a context wide enough for every digit: the default's 28
    rounded wider values)."""
    if not d.is_finite():
        return d
    return d.normalize(_EXACT) if d != d.to_integral_value(context=_EXACT) else d.quantize(1, context=_EXACT)


def format_numeric(d: decimal.Decimal) -> str:
    if d.is_nan():
        return "NaN"
    if d.is_infinite():
        return "Infinity" if d > 0 else "-Infinity"
    return format(d, "f")


def format_timestamp(v: dt.datetime) -> str:
    s = v.strftime("%Y-%m-%d %H:%M:%S")
    if v.year < 1000:
        s = f"{v.year:04d}" + s[s.index("-"):]
    if v.microsecond:
        s += f".{v.microsecond:06d}".rstrip("0")
    return s


def format_time(v: dt.time | str) -> str:
    if isinstance(v, str):  # 24:00:00 (planner.result.python_values)
        return v
    s = v.strftime("%H:%M:%S")
    if v.microsecond:
        s += f".{v.microsecond:06d}".rstrip("0")
    return s


def _zone(name: str) -> dt.tzinfo:
    return zone(name) or dt.timezone.utc  # the session refuses unknown zones (Session.set)


def format_timestamptz(v: dt.datetime, timezone: str = "UTC") -> str:
    local = v.astimezone(_zone(timezone))
    return format_timestamp(local.replace(tzinfo=None)) + format_offset(local.utcoffset())


def format_interval(months: int, days: int, micros: int, style: str = "postgres") -> str:
    """An interval as PostgreSQL prints it in IntervalStyle ``style``
    (postgres: a positive field right after a negative one carries a
    ``+``)."""
    if style != "postgres":
        return _INTERVAL_STYLES[style](_interval_fields(months, days, micros))
    parts = []
    years, mons = int(months / 12), months - int(months / 12) * 12
    before = False  # the last field printed was negative
    for value, unit in ((years, "year"), (mons, "mon"), (days, "day")):
        if value:
            parts.append(f"{'+' if before and value > 0 else ''}{value} {unit}{'s' if value != 1 else ''}")
            before = value < 0
    if micros or not parts:
        sign = "-" if micros < 0 else ("+" if before else "")
        m = abs(micros)
        secs, us = divmod(m, 1_000_000)
        h, rem = divmod(secs, 3600)
        mi, s = divmod(rem, 60)
        t = f"{sign}{h:02d}:{mi:02d}:{s:02d}"
        if us:
            t += f".{us:06d}".rstrip("0")
        parts.append(t)
    return " ".join(parts)


def _trunc_div(a: int, b: int) -> tuple[int, int]:
    """C's division: the quotient toward zero, the remainder with a's sign."""
    q = abs(a) // b * (1 if a >= 0 else -1)
    return q, a - q * b


def _interval_fields(months: int, days: int, micros: int) -> tuple[int, int, int, int, int, int, int]:
    """(years, months, days, hours, minutes, seconds, microseconds), each
    with its value's sign, as PostgreSQL splits an interval to print it."""
    years, mons = _trunc_div(months, 12)
    hours, rest = _trunc_div(micros, 3_600_000_000)
    mins, rest = _trunc_div(rest, 60_000_000)
    secs, fsec = _trunc_div(rest, 1_000_000)
    return years, mons, days, hours, mins, secs, fsec


def _seconds(secs: int, fsec: int, fill: bool) -> str:
    """Seconds without their sign (two digits with ``fill``), the fraction's trailing zeros dropped."""
    out = f"{abs(secs):02d}" if fill else str(abs(secs))
    return out + (f".{abs(fsec):06d}".rstrip("0") if fsec else "")


def _sql_standard(f) -> str:
    negative, positive = any(x < 0 for x in f), any(x > 0 for x in f)
    years, mons, days, hours, mins, secs, fsec = f
    year_month, day_time = bool(years or mons), bool(days or hours or mins or secs or fsec)
    standard = not (negative and positive) and not (year_month and day_time)
    if not negative and not positive:
        return "0"
    if not standard:  # mixed signs, or years with days: every part signed
        return (f"{'-' if years < 0 or mons < 0 else '+'}{abs(years)}-{abs(mons)} {'-' if days < 0 else '+'}{abs(days)} "
                f"{'-' if hours < 0 or mins < 0 or secs < 0 or fsec < 0 else '+'}{abs(hours)}:{abs(mins):02d}:{_seconds(secs, fsec, True)}")
    sign = "-" if negative else ""  # one sign for the whole value
    years, mons, days, hours, mins = (abs(x) for x in (years, mons, days, hours, mins))
    if year_month:
        return f"{sign}{years}-{mons}"
    if days:
        return f"{sign}{days} {hours}:{mins:02d}:{_seconds(secs, fsec, True)}"
    return f"{sign}{hours}:{mins:02d}:{_seconds(secs, fsec, True)}"


def _iso_8601(f) -> str:
    years, mons, days, hours, mins, secs, fsec = f
    if not any(f):
        return "PT0S"
    out = "P" + "".join(f"{v}{u}" for v, u in ((years, "Y"), (mons, "M"), (days, "D")) if v)
    if hours or mins or secs or fsec:
        out += "T" + "".join(f"{v}{u}" for v, u in ((hours, "H"), (mins, "M")) if v)
    if secs or fsec:
        out += ("-" if secs < 0 or fsec < 0 else "") + _seconds(secs, fsec, False) + "S"
    return out


def _postgres_verbose(f) -> str:
    years, mons, days, hours, mins, secs, fsec = f
    out, zero, before = "@", True, False
    for value, unit in ((years, "year"), (mons, "mon"), (days, "day"), (hours, "hour"), (mins, "min")):
        if not value:
            continue
        if zero:  # the first field decides: a negative one prints as "ago"
            before, value = value < 0, abs(value)
        elif before:
            value = -value
        out += f" {value} {unit}{'' if value == 1 else 's'}"
        zero = False
    if secs or fsec:
        out += " "
        if secs < 0 or (secs == 0 and fsec < 0):
            if zero:
                before = True
            elif not before:
                out += "-"
        elif before:
            out += "-"
        out += _seconds(secs, fsec, False) + (" sec" if abs(secs) == 1 and not fsec else " secs")
        zero = False
    return out + (" 0" if zero else "") + (" ago" if before else "")


#: the IntervalStyles other than postgres (format_interval)
_INTERVAL_STYLES = {"sql_standard": _sql_standard, "iso_8601": _iso_8601, "postgres_verbose": _postgres_verbose}


def format_float_digits(x: float, digits: int) -> str:
    """A float with ``digits`` significant digits (extra_float_digits 0 and below: 15 or 6 plus it)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return f"{x:.{max(digits, 1)}g}"


def format_bytea_escape(b: bytes) -> str:
    """bytea_output escape: printable ASCII as it is, a backslash doubled, other bytes as octal ``\\ooo``."""
    return "".join("\\\\" if c == 92 else chr(c) if 32 <= c < 127 else f"\\{c:03o}" for c in b)


@dataclass(frozen=True)
class TextStyle:
    """The settings of a session that change how values print: TimeZone
    (timestamptz), IntervalStyle, bytea_output and extra_float_digits (1 to
    3: floats shortest-exact; 0 and below: 15 (6 for real) plus that many
    significant digits)."""
    timezone: str = "UTC"
    intervalstyle: str = "postgres"
    bytea_output: str = "hex"
    float_digits: int = 1

    @staticmethod
    @lru_cache(maxsize=256)
    def of(timezone: str, intervalstyle: str, bytea_output: str, extra_float_digits: str) -> TextStyle:
        """The style of these settings (cached: a session asks per result)."""
        return TextStyle(timezone, intervalstyle, bytea_output, int(extra_float_digits))


#: PostgreSQL's default settings
PLAIN = TextStyle()


def format_value(v, sql_type: str, style: TextStyle | None = None) -> str | None:
    """One Python value (as Arrow's to_pylist gives it) in text format."""
    if v is None:
        return None
    if isinstance(v, list):
        if sql_type in ("int2vector", "oidvector"):
            return " ".join(str(x) for x in v)
        return format_array(v, sql_type.removesuffix("[]"), style)
    if sql_type == "boolean":
        return "t" if v else "f"
    if is_record(sql_type) and isinstance(v, dict):
        return format_record(v, style)
    if sql_type in ("double precision", "real") and style is not None and style.float_digits <= 0:
        return format_float_digits(v, (15 if sql_type == "double precision" else 6) + style.float_digits)
    if sql_type == "double precision":
        return format_float8(v)
    if sql_type == "real":
        return format_float4(v)
    if sql_type == "numeric" and isinstance(v, str):  # computed as its exact text (local_exec.numeric)
        return v
    if sql_type == "numeric":
        return format_numeric(significant(v))
    if sql_type.startswith("numeric"):
        return format_numeric(v)
    if sql_type == "timestamptz":
        return format_timestamptz(v, (style or PLAIN).timezone)
    if sql_type == "timestamp":
        return format_timestamp(v)
    if sql_type == "time":
        return format_time(v)
    if sql_type == "date":
        return v.isoformat() if v.year >= 1000 else f"{v.year:04d}-{v.month:02d}-{v.day:02d}"
    if sql_type == "interval":
        interval_style = (style or PLAIN).intervalstyle
        if isinstance(v, dt.timedelta):
            total = v // dt.timedelta(microseconds=1)
            days = int(total / 86_400_000_000)
            return format_interval(0, days, total - days * 86_400_000_000, interval_style)
        if isinstance(v, dict):
            return format_interval(v["months"], v["days"], v["micros"], interval_style)
        return format_interval(v.months, v.days, v.nanoseconds // 1000, interval_style)
    if sql_type == "bytea":
        return format_bytea_escape(bytes(v)) if style is not None and style.bytea_output == "escape" else "\\x" + bytes(v).hex()
    if sql_type == "uuid":
        return str(uuid.UUID(bytes=bytes(v))) if isinstance(v, (bytes, bytearray)) else str(v)
    if sql_type in ("json", "jsonb") and not isinstance(v, str):
        return json.dumps(v)
    return str(v)


def format_array(values: list, element_type: str, style: TextStyle | None = None) -> str:
    out = []
    for v in values:
        if isinstance(v, list) and element_type not in ("int2vector", "oidvector"):
            out.append(format_array(v, element_type, style))  # a multidimensional array's next dimension
            continue
        s = format_value(v, element_type, style)
        if s is None:
            out.append("NULL")
        elif s == "" or any(c in s for c in '{},"\\ \t\n') or s.upper() == "NULL":
            out.append('"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')
        else:
            out.append(s)
    return "{" + ",".join(out) + "}"


def _format_floats(arr: pa.Array, one, plain_below: float) -> pa.Array:
    """Floats with Arrow's shortest round-trip cast where it matches
    PostgreSQL (plain notation: ``1e-4 <= |x| < plain_below``, and zeros),
    and ``one`` value by value elsewhere (exponents, NaN, infinities)."""
    out = arr.cast(pa.string())
    size = pc.abs(arr)
    plain = pc.or_(pc.and_(pc.greater_equal(size, 1e-4), pc.less(size, plain_below)), pc.equal(size, 0))
    same = pc.and_(plain, pc.invert(pc.match_substring_regex(out, "[eni]")))
    redo = pc.and_(pc.invert(same.fill_null(True)), arr.is_valid())
    where = pc.indices_nonzero(redo)
    if len(where) == 0:
        return out
    return pc.replace_with_mask(out, redo, pa.array([one(v) for v in pc.take(arr, where).to_pylist()], pa.string()))


def _format_times(arr: pa.Array) -> pa.Array:
    """Times as PostgreSQL prints them, from their microseconds since
    midnight (which reach 24:00:00; a Python time does not)."""
    us = arr.cast(pa.time64("us")).cast(pa.int64())
    seconds = pc.divide(us, 1_000_000)

    def two(x):
        return pc.utf8_lpad(x.cast(pa.string()), 2, "0")

    fraction = pc.subtract(us, pc.multiply(seconds, 1_000_000))
    digits = pc.utf8_rtrim(pc.utf8_lpad(fraction.cast(pa.string()), 6, "0"), "0")
    point = pc.if_else(pc.equal(fraction, 0), "", pc.binary_join_element_wise(".", digits, ""))
    minutes = pc.divide(seconds, 60)
    return pc.binary_join_element_wise(two(pc.divide(minutes, 60)), ":", two(pc.subtract(minutes, pc.multiply(pc.divide(minutes, 60), 60))), ":",
                                       two(pc.subtract(seconds, pc.multiply(minutes, 60))), point, "")


#: decimal arithmetic without rounding for any value a numeric column holds
_EXACT = decimal.Context(prec=1000, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)

#: Arrow writes a decimal in plain notation (as PostgreSQL does) when its
#: adjusted exponent is -6 or more, so always at a scale from 0 to 6; past
#: that, small values come out as ``1E-7`` and go through format_numeric
MAX_PLAIN_SCALE = 6


def format_column(arr, sql_type: str, style: TextStyle | None = None) -> pa.Array:
    """A column as PostgreSQL text (a string array, nulls kept)."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    t = arr.type
    if pa.types.is_list(t):
        return _format_values(arr, sql_type, style)
    if is_record(sql_type) and pa.types.is_struct(t):
        return _format_records(arr, style)
    if sql_type == "void":  # a function that returns nothing (pg_sleep): PostgreSQL prints an empty value
        return pa.array([""] * len(arr), pa.string())
    if sql_type in ("text", "json", "jsonb", "name") or sql_type.startswith(("varchar", "char", "enum(")):
        return arr.cast(pa.string())
    if sql_type == "numeric" and pa.types.is_string(t):  # computed as its exact text (local_exec.numeric)
        return arr
    if sql_type.startswith("numeric") and pa.types.is_decimal(t) and 0 <= t.scale <= MAX_PLAIN_SCALE:
        text = arr.cast(pa.string())  # Arrow's text of a decimal is plain at these scales: format_numeric's
        if sql_type == "numeric" and t.scale > 0:  # unconstrained: its significant digits after the point (format_value)
            text = pc.replace_substring_regex(text, r"\.?0+$", "")
        return text
    if pa.types.is_integer(t):
        return arr.cast(pa.string())
    if sql_type == "boolean":
        return pc.if_else(arr, "t", "f")
    if (pa.types.is_date32(t) or pa.types.is_timestamp(t)) and arr.null_count < len(arr):
        finite, infinite = split_infinities(arr)
        if infinite is not None:
            return pc.coalesce(infinite, format_column(finite, sql_type, style))
        inside, outside = split_far_dates(arr, sql_type)
        if outside is not None:
            return pc.coalesce(outside, format_column(inside, sql_type, style))
    if sql_type == "date" and pa.types.is_date(t):
        return arr.cast(pa.string())
    if sql_type == "time" and pa.types.is_time(t):
        return _format_times(arr)
    if sql_type in ("double precision", "real") and pa.types.is_floating(t) and (style is None or style.float_digits > 0):
        return _format_floats(arr, format_float8 if sql_type == "double precision" else format_float4, 1e15 if sql_type == "double precision" else 1e6)
    return _format_values(arr, sql_type, style)


#: the values DuckDB gives dates and timestamps of 'infinity' and '-infinity'
#: (the storage's largest value and its negation)
INFINITIES = {pa.int32(): (2**31 - 1, -(2**31 - 1)), pa.int64(): (2**63 - 1, -(2**63 - 1))}


#: Python's dates end at these (microseconds since 1970), PostgreSQL's do not (4713 BC .. 294276 AD)
_PY_FIRST_US, _PY_END_US = -62135596800 * 10**6, 253402300800 * 10**6


def split_far_dates(arr: pa.Array, sql_type: str) -> tuple[pa.Array, pa.Array | None]:
    """``arr`` (dates or timestamps) with the values Python cannot hold
    (before year 1, after 9999) made NULL, and their text (PostgreSQL's:
    ``0044-03-15 BC``, ``12345-01-01``; NULL elsewhere); None when there are none."""
    if pa.types.is_date32(arr.type):
        raw, per_day = arr.cast(pa.int32()).cast(pa.int64()), 1
    else:
        raw, per_day = arr.cast(pa.int64()), {"s": 86_400, "ms": 86_400 * 10**3, "us": 86_400 * 10**6, "ns": 86_400 * 10**9}[arr.type.unit]
    first, end = _PY_FIRST_US // 86_400_000_000 * per_day, _PY_END_US // 86_400_000_000 * per_day
    far = pc.or_(pc.less(raw, first), pc.greater_equal(raw, end))
    if not pc.any(far).as_py():
        return arr, None
    text = [None if not f or v is None else _far_date_text(v, per_day, sql_type) for f, v in zip(far.to_pylist(), raw.to_pylist())]
    return pc.if_else(far, pa.scalar(None, arr.type), arr), pa.array(text, pa.string())


def _far_date_text(value: int, per_day: int, sql_type: str) -> str:
    days, rest = divmod(value, per_day)
    rest = rest * 86_400 * 10**6 // per_day  # microseconds into the day
    # days since 1970-01-01 to the proleptic Gregorian civil date (year 0 is 1 BC)
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day, month = doy - (153 * mp + 2) // 5 + 1, mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    text = f"{year if year > 0 else 1 - year:04d}-{month:02d}-{day:02d}"
    if sql_type != "date":
        seconds, micro = divmod(rest, 10**6)
        text += f" {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" + (f".{micro:06d}".rstrip("0") if micro else "")
        if sql_type == "timestamptz":
            text += "+00"
    return text + (" BC" if year <= 0 else "")


def split_infinities(arr: pa.Array) -> tuple[pa.Array, pa.Array | None]:
    """``arr`` (dates or timestamps) with its infinite values made NULL, and
    their text (``infinity``/``-infinity``, NULL elsewhere); None when there
    are none."""
    storage = pa.int32() if pa.types.is_date32(arr.type) else pa.int64()
    high, low = INFINITIES[storage]
    raw = arr.cast(storage)
    positive, negative = pc.equal(raw, high), pc.equal(raw, low)
    if not pc.any(pc.or_(positive, negative)).as_py():
        return arr, None
    text = pc.if_else(positive, "infinity", pc.if_else(negative, "-infinity", pa.scalar(None, pa.string())))
    return pc.if_else(pc.or_kleene(positive, negative), pa.scalar(None, arr.type), arr), text


def _format_records(arr: pa.StructArray, style: TextStyle | None) -> pa.Array:
    """Records as PostgreSQL prints them: ``(1,a,,"b c")``, each field in
    its own type's text, NULL as nothing, quoted when empty or holding
    a double quote, a backslash, a parenthesis, a comma or white space."""
    fields = [format_column(child, of_arrow(f), style).to_pylist() for child, f in zip(arr.flatten(), arr.type)]
    valid = arr.is_valid().to_pylist()
    out = []
    for r, ok in enumerate(valid):
        out.append(format_record_texts([f[r] for f in fields]) if ok else None)
    return pa.array(out, pa.string())


_RECORD_SPECIAL = re.compile(r'[",\\()\s]')


def value_type(v) -> str:
    """The SQL type of a Python value, for a record's fields when only the
    values are at hand (a record inside an array)."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "bigint"
    if isinstance(v, float):
        return "double precision"
    if isinstance(v, decimal.Decimal):
        return "numeric"
    if isinstance(v, dt.datetime):
        return "timestamptz" if v.tzinfo else "timestamp"
    if isinstance(v, dt.date):
        return "date"
    if isinstance(v, dt.time):
        return "time"
    if isinstance(v, dt.timedelta):
        return "interval"
    if isinstance(v, (bytes, bytearray)):
        return "bytea"
    if isinstance(v, uuid.UUID):
        return "uuid"
    if isinstance(v, dict):
        return "record"
    if isinstance(v, list):
        return (value_type(next((x for x in v if x is not None), "")) if v else "text") + "[]"
    return "text"


def format_record(values: dict, style: TextStyle | None = None) -> str:
    """One record (field name -> Python value) in text format."""
    return format_record_texts([format_value(x, value_type(x), style) for x in values.values()])


def format_record_texts(texts: list[str | None]) -> str:
    """One record in text format from its fields' texts (None for NULL)."""
    return "(" + ",".join(_record_field(t) for t in texts) + ")"


def _record_field(text: str | None) -> str:
    if text is None:
        return ""
    if text == "" or _RECORD_SPECIAL.search(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '""') + '"'
    return text


def _format_values(arr: pa.Array, sql_type: str, style: TextStyle | None) -> pa.Array:
    return pa.array([format_value(v, sql_type, style) for v in arr.to_pylist()], pa.string())


class ByteaInputError(InvalidInput):
    """Text that bytea's input refuses; ``sqlstate`` is PostgreSQL's for it."""


_BYTEA_ESCAPE = re.compile(r"\\(?:[0-3][0-7]{2}|\\)?")


def parse_bytea(text: str) -> bytes:
    """PostgreSQL's bytea input: after ``\\x``, pairs of hex digits
    (whitespace between pairs allowed; 22023 otherwise); else the escape
    format: ``\\ooo`` an octal byte, ``\\\\`` a backslash, any other
    character its UTF-8 bytes (22P02 for any other backslash)."""
    if text.startswith("\\x"):
        return _hex_bytes(text[2:])
    out, pos = bytearray(), 0
    for m in _BYTEA_ESCAPE.finditer(text):
        out += text[pos:m.start()].encode()
        esc = m.group()
        if esc == "\\":
            raise ByteaInputError("22P02", "invalid input syntax for type bytea")
        out += b"\\" if esc == "\\\\" else bytes([int(esc[1:], 8)])
        pos = m.end()
    return bytes(out + text[pos:].encode())


def _hex_bytes(digits: str) -> bytes:
    out, i = bytearray(), 0
    while i < len(digits):
        if digits[i] in " \t\n\r":
            i += 1
            continue
        pair = digits[i:i + 2]
        bad = next((c for c in pair if c not in string.hexdigits), None)
        if bad is not None:
            raise ByteaInputError("22023", f'invalid hexadecimal digit: "{bad}"')
        if len(pair) < 2:
            raise ByteaInputError("22023", "invalid hexadecimal data: odd number of digits")
        out.append(int(pair, 16))
        i += 2
    return bytes(out)


class ArrayLiteralError(InvalidInput):
    """Text that is not a one-dimensional array literal (``detail`` says why)."""

    def __init__(self, text: str, detail: str, *, nested: bool = False):
        super().__init__("22P02", f'malformed array literal: "{text}"')
        self.detail = detail
        self.nested = nested  # a multidimensional array (valid PostgreSQL, not supported)


_ARRAY_SPACE = " \t\n\r\v\f"


def parse_array(text: str, *, nested: bool = False) -> list:
    """The elements of a one-dimensional array literal, as text (None for an
    unquoted NULL); with ``nested``, of a multidimensional one too, as
    lists of lists (its sub-arrays must have matching dimensions)."""
    body = text.strip(_ARRAY_SPACE)
    if not body.startswith("{"):
        raise ArrayLiteralError(text, 'Array value must start with "{" or dimension information.')
    out, i = _array_level(text, body, 0, nested)
    if body[i:].strip(_ARRAY_SPACE):
        raise ArrayLiteralError(text, "Junk after closing right brace.")
    if out and isinstance(out[0], list) and not _rectangular(out):
        raise ArrayLiteralError(text, "Multidimensional arrays must have sub-arrays with matching dimensions.")
    return out


def _rectangular(items: list) -> bool:
    """Whether sub-arrays at each depth have one length (and depth)."""
    if not all(isinstance(x, list) for x in items):
        return not any(isinstance(x, list) for x in items)
    return len({len(x) for x in items}) == 1 and all(_rectangular(x) for x in items) \
        and len({isinstance(x[0], list) if x else None for x in items}) == 1


def _array_level(text: str, body: str, i: int, nested: bool) -> tuple[list, int]:
    """The items of the braces opening at ``body[i]`` and where they end."""
    out: list = []
    i0, i, n = i, i + 1, len(body)
    expect_element = True  # after "{" or ","
    while True:
        while i < n and body[i] in _ARRAY_SPACE:
            i += 1
        if i >= n:
            raise ArrayLiteralError(text, "Unexpected end of input.")
        c = body[i]
        if c == "}" and (not out and expect_element and i0 == 0 or not expect_element):  # (only the whole array may be empty)
            return out, i + 1
        if not expect_element:
            if c != ",":
                raise ArrayLiteralError(text, f'Unexpected "{c}" character.')
            i += 1
            expect_element = True
            continue
        if c == "{":
            if not nested:
                raise ArrayLiteralError(text, "multidimensional arrays", nested=True)
            if out and not isinstance(out[-1], list):
                raise ArrayLiteralError(text, 'Unexpected "{" character.')
            sub, i = _array_level(text, body, i, nested)
            out.append(sub)
            expect_element = False
            continue
        if c in "},":
            raise ArrayLiteralError(text, f'Unexpected "{c}" character.')
        if out and isinstance(out[-1], list):
            raise ArrayLiteralError(text, "Unexpected array element.")
        item, i = _array_element(text, body, i)
        out.append(item)
        expect_element = False


def _array_element(text: str, body: str, i: int) -> tuple[str | None, int]:
    """One element's text (None for an unquoted NULL) at ``body[i]`` and where it ends."""
    n, buf = len(body), []
    if body[i] == '"':
        i += 1
        while True:
            if i >= n:
                raise ArrayLiteralError(text, "Unexpected end of input.")
            c = body[i]
            if c == '"':
                return "".join(buf), i + 1
            if c == "\\":
                i += 1
                if i >= n:
                    raise ArrayLiteralError(text, "Unexpected end of input.")
                c = body[i]
            buf.append(c)
            i += 1
    escaped_upto = 0  # trailing whitespace that was escaped is kept
    while i < n and body[i] not in ",}":
        c = body[i]
        if c in '"{':
            raise ArrayLiteralError(text, f'Unexpected "{c}" character.')
        if c == "\\":
            i += 1
            if i >= n:
                raise ArrayLiteralError(text, "Unexpected end of input.")
            buf.append(body[i])
            escaped_upto = len(buf)
        else:
            buf.append(c)
        i += 1
    item = "".join(buf)
    item = item[:escaped_upto] + item[escaped_upto:].rstrip(_ARRAY_SPACE)
    return (None if escaped_upto == 0 and item.upper() == "NULL" else item), i


#: the session's DateStyle field order (MDY, DMY or YMD) for the statement running
DATE_ORDER: ContextVar[str] = ContextVar("date_order", default="MDY")
_NUMERIC_DATE = re.compile(r"\s*(\d+)([-/. ])(\d+)\2(\d+)\s*")


class DateSyntax(InvalidInput):
    """Text PostgreSQL refuses as a date: ``sqlstate`` 22007 or 22008."""


_BC_TEXT = re.compile(r"\s*(\d+)(-\d{1,2}-\d{1,2}(?:[ T]\S.*?)?)\s+BC\s*", re.IGNORECASE)


def bc_input(text: str, sql_type: str = "date") -> str | None:
    """An ISO date or timestamp written with PostgreSQL's ``BC`` suffix
    (``0044-03-15 BC``, ``0097-02-16 17:32:01 BC``) as DuckDB reads it: the
    astronomical year (1 BC is year 0, 2 BC is -1). DuckDB itself reads a
    timestamp's ``BC`` as AD (a silent wrong value). None for other text;
    22008 for year 0 BC, which does not exist, and before PostgreSQL's
    first day (4714-11-24 BC)."""
    m = _BC_TEXT.fullmatch(text)
    if m is None:
        return None
    year = int(m.group(1))
    if year == 0:
        raise DateSyntax("22008", f'date/time field value out of range: "{text}"')
    month, day = (int(x) for x in m.group(2).split()[0].split("T")[0].lstrip("-").split("-")[:2])
    if (year, -month, -day) > (4714, -11, -24):
        raise DateSyntax("22008", f'{"date" if sql_type == "date" else "timestamp"} out of range: "{text}"')
    astronomical = 1 - year
    return (f"-{-astronomical:04d}" if astronomical else "0000") + m.group(2)


_DATE_THEN_TIME = re.compile(r"\s*(\d+([-/.])\d+\2\d+)((?:\s+|T)\d.*|\s*)", re.DOTALL)


def timestamp_input(text: str, order: str | None = None) -> str | None:
    """``date_input`` for a timestamp's date (``97-02-10 17:32:01`` is
    1997, as PostgreSQL reads it; DuckDB read year 97; ``01/02/2000``
    alone is that day's midnight, which DuckDB refused): the text with its
    date part as ISO text, or None when that part needs no rewriting."""
    m = _DATE_THEN_TIME.fullmatch(text)
    if m is None:
        return None
    try:
        iso = date_input(m.group(1), order)
    except DateSyntax:
        raise DateSyntax("22008", f'date/time field value out of range: "{text}"') from None
    return None if iso is None else (iso + m.group(3)).rstrip()


def date_input(text: str, order: str | None = None) -> str | None:
    """A date written as three numbers whose first has at most two digits
    (``01/02/03``, ``99-01-08``, ``1/8/1999``) read as PostgreSQL reads it:
    the fields in DateStyle's order, a year of one or two digits in
    1970..2069;
    ISO ``YYYY-MM-DD`` text; DateSyntax (22008) when the fields make no
    date. None for any other text (DuckDB reads it as PostgreSQL does, or
    refuses it)."""
    m = _NUMERIC_DATE.fullmatch(text)
    if m is None or len(m.group(1)) > 2:
        return None
    first, second, third = m.group(1), m.group(3), m.group(4)
    order = order or DATE_ORDER.get()
    if order != "YMD":  # YMD reads the fields in that order whatever their digits (1/8/1999: day 1999, refused)
        year = third
        month, day = (second, first) if order == "DMY" else (first, second)
    else:
        year, month, day = first, second, third
    y = int(year)
    if len(year) <= 2:
        y += 2000 if y < 70 else 1900
    try:
        value = dt.date(y, int(month), int(day))
    except ValueError:
        raise DateSyntax("22008", f'date/time field value out of range: "{text}"') from None
    return value.isoformat()
