"""PostgreSQL's binary format of values (what the wire protocol sends and
receives for a column or parameter in format 1).

``encode_binary(v, sql_type)`` is one Python value's bytes (arrays of any
dimensions, records inside arrays typed by their values, numerics in base
10000 digits); ``decode_binary(data, oid)`` the inverse for parameters
(``InvalidInput``: 08P01 for a form cut short, 22P03 for bytes left over).
Times count from PostgreSQL's epoch, 2000-01-01.

Invariant: ``decode_binary(encode_binary(v, t), type_oid(t)[0])`` gives
``v`` back for every type parameters may have (tested through pgjdbc,
asyncpg and psycopg's binary mode in tests/gateway).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import struct
import uuid

from values.errors import InvalidInput
from values.text import value_type
from values.types import PG_ARRAY_ELEMENT, is_record, type_oid

PG_EPOCH = dt.datetime(2000, 1, 1)
PG_EPOCH_TZ = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)
PG_EPOCH_DATE = dt.date(2000, 1, 1)


#: the numbers of a fixed width, by type OID: smallint, integer, bigint, oid, real, double precision
_FIXED = {21: "!h", 23: "!i", 20: "!q", 26: "!I", 700: "!f", 701: "!d"}


def _length_prefixed(oid: int, data: bytes) -> bytes:
    return struct.pack("!Ii", oid, len(data)) + data


def encode_binary(v, sql_type: str) -> bytes:
    """One value (as ``python_values`` gives it) of SQL type ``sql_type``
    in PostgreSQL's binary format."""
    oid, _ = type_oid(sql_type)
    if is_record(sql_type) and isinstance(v, dict):  # a record inside an array: its fields typed by their values
        fields = [(x, value_type(x)) for x in v.values()]
        return struct.pack("!i", len(fields)) + b"".join(
            struct.pack("!Ii", type_oid(t)[0], -1) if x is None else _length_prefixed(type_oid(t)[0], encode_binary(x, t)) for x, t in fields
        )
    if sql_type.endswith("[]"):
        return _array_binary(v, sql_type[:-2], PG_ARRAY_ELEMENT[oid].oid)
    if sql_type == "int2vector":
        return _array_binary(v, "smallint", 21)
    if sql_type == "oidvector":
        return _array_binary(v, "oid", 26)
    if oid == 16:
        return b"\x01" if v else b"\x00"
    if oid in _FIXED:
        return struct.pack(_FIXED[oid], v)
    if oid == 17:
        return bytes(v)
    if oid == 2950:
        return bytes(v) if isinstance(v, (bytes, bytearray)) else uuid.UUID(str(v)).bytes
    if oid == 1082:
        return struct.pack("!i", (v - PG_EPOCH_DATE).days)
    if oid == 1114:
        return struct.pack("!q", (v - PG_EPOCH) // dt.timedelta(microseconds=1))
    if oid == 1184:
        return struct.pack("!q", (v - PG_EPOCH_TZ) // dt.timedelta(microseconds=1))
    if oid == 1083:
        return struct.pack("!q", ((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond)
    if oid == 1186:
        if isinstance(v, dt.timedelta):
            total = v // dt.timedelta(microseconds=1)
            days = int(total / 86_400_000_000)
            return struct.pack("!qii", total - days * 86_400_000_000, days, 0)
        return struct.pack("!qii", v.nanoseconds // 1000, v.days, v.months)
    if oid == 1700:
        return _numeric_binary(decimal.Decimal(v) if isinstance(v, str) else v)  # a computed exact text (local_exec.numeric)
    if oid == 3802:
        return b"\x01" + str(v).encode()
    return str(v).encode()


def _array_binary(values: list, element_type: str, element_oid: int) -> bytes:
    """An array: ndim, has-nulls, element OID, (size, lower bound) per
    dimension, elements (a nested list is the next dimension, rectangular)."""
    if not values:
        return struct.pack("!iii", 0, 0, element_oid)
    dims, flat = [], values
    while flat and isinstance(flat[0], list):
        dims.append(len(flat))
        flat = [x for inner in flat for x in inner]
    dims.append(len(flat) // max(1, math.prod(dims)))
    has_null = any(v is None for v in flat)
    out = [struct.pack("!iii", len(dims), int(has_null), element_oid)] + [struct.pack("!ii", n, 1) for n in dims]
    for v in flat:
        if v is None:
            out.append(struct.pack("!i", -1))
        else:
            b = encode_binary(v, element_type)
            out.append(struct.pack("!i", len(b)) + b)
    return b"".join(out)


def _numeric_binary(d: decimal.Decimal) -> bytes:
    """A numeric as PostgreSQL sends it: digit count, weight (of the first
    base-10000 digit), sign, display scale, then the base-10000 digits,
    grouped from the decimal point out (leading and trailing zero groups
    left out)."""
    if d.is_nan():
        return struct.pack("!hhHh", 0, 0, 0xC000, 0)
    sign, digits, exp = d.as_tuple()
    dscale = max(0, -exp)
    text = "".join(map(str, digits)) + "0" * max(0, exp)  # the digits of |d| * 10^dscale
    point = len(text) - dscale  # where the decimal point falls in text (<= 0: before its first digit)
    whole, fraction = text[:max(0, point)], text[max(0, point):].rjust(dscale, "0")
    whole = whole.rjust(-(-len(whole) // 4) * 4, "0")
    fraction = fraction.ljust(-(-len(fraction) // 4) * 4, "0")
    groups = [int(whole[i:i + 4]) for i in range(0, len(whole), 4)] + [int(fraction[i:i + 4]) for i in range(0, len(fraction), 4)]
    weight = len(whole) // 4 - 1
    while groups and groups[0] == 0:
        groups.pop(0)
        weight -= 1
    while groups and groups[-1] == 0:
        groups.pop()
    if not groups:
        weight = 0
    return struct.pack("!hhHh", len(groups), weight, 0x4000 if sign else 0, dscale) + b"".join(struct.pack("!h", g) for g in groups)


def decode_binary(data: bytes, oid: int):
    """A value from PostgreSQL's binary format, by its type OID (a
    parameter's: Python values the engine takes; text for types the
    engine reads from text). As PostgreSQL's receive functions: bytes cut
    short are 08P01 ("insufficient data left in message"), bytes left over
    22P03; text that is not UTF-8 stays a UnicodeDecodeError (22021 where
    it is reported)."""
    value, used = _decoded(memoryview(data), oid)
    if used != len(data):
        raise InvalidInput("22P03", "incorrect binary data format")
    return value


#: the width of the fixed-size binary forms, by type OID (bool, dates and times, uuid besides the numbers)
_WIDTH = {**{oid: struct.calcsize(f) for oid, f in _FIXED.items()}, 16: 1, 1082: 4, 1083: 8, 1114: 8, 1184: 8, 1186: 16, 2950: 16}


def _take(data: memoryview, at: int, n: int) -> memoryview:
    """``n`` bytes of ``data`` from ``at``; 08P01 when it has fewer."""
    if n < 0 or at + n > len(data):
        raise InvalidInput("08P01", "insufficient data left in message")
    return data[at:at + n]


def _decoded(data: memoryview, oid: int):
    """(value, bytes used) of a binary form at the start of ``data``."""
    if oid in PG_ARRAY_ELEMENT:
        return _array_from_binary(data)
    if oid in _WIDTH:
        raw = bytes(_take(data, 0, _WIDTH[oid]))
        return _fixed_value(raw, oid), len(raw)
    if oid == 1700:
        return _numeric_from_binary(data)
    raw = bytes(data)
    if oid == 17:
        return raw, len(raw)
    if oid == 3802:
        # jsonb's binary form is a version byte (1) and the text; a client
        # that took the column for json sends the text alone (JSON text
        # never starts with \x01, so the two cannot be confused)
        return (raw[1:].decode() if raw[:1] == b"\x01" else raw.decode()), len(raw)
    return raw.decode(), len(raw)


def _fixed_value(raw: bytes, oid: int):
    if oid == 16:
        return raw != b"\x00"
    if oid in _FIXED:
        return struct.unpack(_FIXED[oid], raw)[0]
    if oid == 2950:
        return str(uuid.UUID(bytes=raw))
    if oid == 1082:
        return PG_EPOCH_DATE + dt.timedelta(days=struct.unpack("!i", raw)[0])
    if oid == 1083:  # microseconds since midnight (24:00:00 included), as text the engine reads
        (micros,) = struct.unpack("!q", raw)
        if not 0 <= micros <= 86_400_000_000:
            raise InvalidInput("22008", "time out of range")
        seconds, fraction = divmod(micros, 1_000_000)
        return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{fraction:06d}"
    if oid == 1186:  # microseconds, days and months, as text the engine reads (values.interval_text's form)
        micros, days, months = struct.unpack("!qii", raw)
        return f"{months} months {days} days {micros} microseconds"
    return (PG_EPOCH if oid == 1114 else PG_EPOCH_TZ) + dt.timedelta(microseconds=struct.unpack("!q", raw)[0])


def _array_from_binary(data: memoryview):
    ndim, _flags, element_oid = struct.unpack("!iii", _take(data, 0, 12))
    if ndim == 0:
        return [], 12
    if ndim != 1:
        raise InvalidInput("0A000", "multidimensional arrays are not supported")
    size, _lower = struct.unpack("!ii", _take(data, 12, 8))
    pos, out = 20, []
    for _ in range(size):
        (n,) = struct.unpack("!i", _take(data, pos, 4))
        pos += 4
        if n < 0:
            out.append(None)
            continue
        value, used = _decoded(_take(data, pos, n), element_oid)
        if used != n:
            raise InvalidInput("22P03", "incorrect binary data format in array element")
        out.append(value)
        pos += n
    return out, pos


def _numeric_from_binary(data: memoryview):
    ndigits, weight, sign, dscale = struct.unpack("!hhHh", _take(data, 0, 8))
    used = 8 + 2 * max(ndigits, 0)
    if sign == 0xC000:
        return decimal.Decimal("NaN"), used
    groups = struct.unpack(f"!{ndigits}h", _take(data, 8, 2 * ndigits))
    value = decimal.Decimal(0)
    for i, g in enumerate(groups):
        value += decimal.Decimal(g).scaleb(4 * (weight - i))
    value = value.quantize(decimal.Decimal(1).scaleb(-dscale)) if dscale else value.quantize(decimal.Decimal(1))
    return (-value if sign == 0x4000 else value), used
