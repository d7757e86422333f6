"""PostgreSQL protocol 3.0 messages, and values as the protocol carries them.

Framing: every frontend message after startup is a type byte and an int32
length (including itself); startup-phase messages have no type byte.
``read_message`` enforces ``MAX_MESSAGE`` so a malformed length cannot make
the server allocate without bound (``ProtocolViolation`` closes the
connection with a FATAL error).

Values: DataRows built a column at a time from Arrow (each value in text
or binary format, by ``values``' codecs: the gateway holds none of its
own), and parameters decoded by OID (binary by ``values.decode_binary``;
text checked as PostgreSQL's input functions check it, dates and
intervals read by the planner's readers).
"""

from __future__ import annotations

import datetime as dt
import decimal
import re
import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from planner.errors import INVALID_TEXT_REPRESENTATION, NUMERIC_VALUE_OUT_OF_RANGE, SqlError
from planner.sqltypes import datetime_text, interval_text
from values import (INFINITIES, PG_ARRAY_ELEMENT, TextStyle, decode_binary, encode_binary, format_column, format_value, of_arrow, parse_array,
                    python_values, type_length, type_oid)

MAX_MESSAGE = 64 << 20

class ProtocolViolation(Exception):
    """The client broke the protocol; the connection ends with FATAL 08P01."""


class MessageFormatError(Exception):
    """A message whose body does not parse (too short, a string without its
    NUL): ERROR 08P01 and the session goes on, as PostgreSQL's pq_getmsg*
    errors do."""


def utf8(data: bytes) -> str:
    """Client text as a str; UnicodeDecodeError (22021 at the boundary) for
    bytes that are not UTF-8, the only client_encoding txngate speaks."""
    return data.decode()


def bad_encoding_message(e: UnicodeDecodeError) -> str:
    """PostgreSQL's report of an invalid UTF-8 sequence: its bytes in hex."""
    bad = e.object[e.start : max(e.end, e.start + 1) + 1]
    return 'invalid byte sequence for encoding "UTF8": ' + " ".join(f"0x{b:02x}" for b in bad[:2])


# -- building backend messages -----------------------------------------------


def msg(kind: bytes, payload: bytes = b"") -> bytes:
    return kind + struct.pack("!i", len(payload) + 4) + payload


def cstr(s: str) -> bytes:
    return s.encode() + b"\x00"


def authentication(code: int, extra: bytes = b"") -> bytes:
    return msg(b"R", struct.pack("!i", code) + extra)


def parameter_status(name: str, value: str) -> bytes:
    return msg(b"S", cstr(name) + cstr(value))


def ready_for_query(status: str) -> bytes:
    return msg(b"Z", status.encode())


def command_complete(tag: str) -> bytes:
    return msg(b"C", cstr(tag))


#: ErrorResponse's fields naming the object an error is about
_OBJECT_FIELDS = {"schema": b"s", "table": b"t", "column": b"c", "constraint": b"n"}


def error_fields(severity: str, sqlstate: str, message: str, *, detail=None, hint=None, position=None, objects=None) -> bytes:
    out = b"S" + cstr(severity) + b"V" + cstr(severity) + b"C" + cstr(sqlstate) + b"M" + cstr(message)
    if detail:
        out += b"D" + cstr(detail)
    if hint:
        out += b"H" + cstr(hint)
    if position:
        out += b"P" + cstr(str(position))
    for name, value in (objects or {}).items():
        out += _OBJECT_FIELDS[name] + cstr(value)
    return out + b"\x00"


def error_response(severity: str, sqlstate: str, message: str, **kw) -> bytes:
    return msg(b"E", error_fields(severity, sqlstate, message, **kw))


def notice_response(severity: str, sqlstate: str, message: str) -> bytes:
    return msg(b"N", error_fields(severity, sqlstate, message))


def row_description(columns: list[tuple[str, str]], formats: list[int], origins: list[tuple[int, int]] | None = None) -> bytes:
    out = [struct.pack("!h", len(columns))]
    for i, ((name, sql_type), fmt) in enumerate(zip(columns, formats)):
        oid, typmod = type_oid(sql_type)
        table, attnum = origins[i] if origins else (0, 0)
        out.append(cstr(name) + struct.pack("!IhIhih", table, attnum, oid, type_length(oid), typmod, fmt))
    return msg(b"T", b"".join(out))


def parameter_description(oids: list[int]) -> bytes:
    return msg(b"t", struct.pack("!h", len(oids)) + b"".join(struct.pack("!i", o) for o in oids))


def copy_response(kind: bytes, columns: int, binary: bool = False) -> bytes:
    fmt = 1 if binary else 0
    return msg(kind, struct.pack("!bh", fmt, columns) + struct.pack("!h", fmt) * columns)


# -- reading frontend messages ----------------------------------------------------


class Reader:
    """Parses one message body."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def int16(self) -> int:
        return struct.unpack("!h", self.bytes(2))[0]

    def int32(self) -> int:
        return struct.unpack("!i", self.bytes(4))[0]

    def cstr(self) -> str:
        end = self.data.find(b"\x00", self.pos)
        if end < 0:
            raise MessageFormatError("invalid string in message")
        s = utf8(self.data[self.pos : end])
        self.pos = end + 1
        return s

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def bytes(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise MessageFormatError("insufficient data left in message")
        b = self.data[self.pos : self.pos + n]
        self.pos += n
        return b


async def read_message(reader) -> tuple[bytes, bytes]:
    head = await reader.readexactly(5)
    kind, length = head[:1], struct.unpack("!i", head[1:])[0]
    if length < 4 or length > MAX_MESSAGE:
        raise ProtocolViolation(f"invalid message length {length}")
    return kind, await reader.readexactly(length - 4)


def received(buffered: bytes | bytearray):
    """The whole frontend messages at the start of ``buffered`` (what was
    received and not yet read): ``(kind, body, end)``, ``end`` the offset
    just past it."""
    pos = 0
    while pos + 5 <= len(buffered):
        length = struct.unpack_from("!i", buffered, pos + 1)[0]
        end = pos + 1 + length
        if length < 4 or end > len(buffered):
            return
        yield bytes(buffered[pos : pos + 1]), bytes(buffered[pos + 5 : end]), end
        pos = end


def next_of(buffered: bytes | bytearray, kinds: bytes) -> bytes | None:
    """The first message type of ``kinds`` among the frontend messages
    already received (``buffered``, whole or cut short), or None."""
    pos = 0
    while pos + 5 <= len(buffered):
        kind = buffered[pos : pos + 1]
        if kind in kinds:
            return kind
        pos += 1 + struct.unpack_from("!i", buffered, pos + 1)[0]
    return None


# -- values -------------------------------------------------------------------------


# Binary formats computed column at a time: SQL type -> (big-endian numpy
# type, Arrow type to cast to first, value added after the cast).
_FIXED_BINARY = {
    "smallint": (">i2", pa.int16(), 0),
    "integer": (">i4", pa.int32(), 0),
    "bigint": (">i8", pa.int64(), 0),
    "oid": (">u4", pa.uint32(), 0),
    "real": (">f4", pa.float32(), 0),
    "double precision": (">f8", pa.float64(), 0),
    "boolean": ("u1", pa.uint8(), 0),
    "date": (">i4", pa.int32(), -10957),  # days since 2000-01-01
    "timestamp": (">i8", pa.int64(), -946684800_000_000),  # microseconds since 2000-01-01
    "timestamptz": (">i8", pa.int64(), -946684800_000_000),
    "time": (">i8", pa.int64(), 0),  # microseconds since midnight (24:00:00 included)
}


def data_rows(table: pa.Table, types: list[str], formats: list[int], style: TextStyle) -> bytes | pa.Buffer:
    """DataRow messages for every row of ``table``, built a column at a time
    with Arrow kernels (no Python work per row): each column is encoded to a
    binary array, prefixed with its int32 lengths (-1 for NULL), and the
    pieces are joined row-wise behind each row's message header."""
    n = table.num_rows
    if n == 0:
        return pa.py_buffer(b"")
    if n <= FEW_ROWS:
        return _few_data_rows(table, types, formats, style)
    lengths = np.full(n, 4 + 2, dtype=np.int64)
    pieces = []
    for col, t, fmt in zip(table.columns, types, formats):
        values = _encoded_column(col, t, fmt, style)
        size = pc.binary_length(values).fill_null(-1).to_numpy(zero_copy_only=False)
        lengths += 4 + np.maximum(size, 0)
        pieces.append(_fixed_bytes(size.astype(">i4"), 4))
        pieces.append(values.fill_null(b"") if values.null_count else values)
    header = np.empty(n, dtype=[("kind", "S1"), ("length", ">i4"), ("columns", ">i2")])
    header["kind"], header["length"], header["columns"] = b"D", lengths, table.num_columns
    joined = pc.binary_join_element_wise(_fixed_bytes(header, 7), *pieces, b"")
    offsets = np.frombuffer(joined.buffers()[1], dtype=np.int32)[joined.offset:joined.offset + n + 1]
    return joined.buffers()[2][int(offsets[0]):int(offsets[-1])]


FEW_ROWS = 16  # below this, Arrow's per-call overhead exceeds Python's per-row work


def _few_data_rows(table: pa.Table, types: list[str], formats: list[int], style: TextStyle) -> bytes:
    columns = []
    for col, t, fmt in zip(table.columns, types, formats):
        if pa.types.is_struct(col.type) or t == "void":  # a record's fields are formatted by their types; void is empty
            columns.append(_encoded_column(col, t, fmt, style).to_pylist())
            continue
        values = python_values(col)
        if (pa.types.is_date32(col.type) or pa.types.is_timestamp(col.type) or pa.types.is_time(col.type)) \
                and any(isinstance(v, str) for v in values):
            # 'infinity', '24:00:00' (Python has neither): the column's own formatting knows them
            columns.append(_encoded_column(col, t, fmt, style).to_pylist())
            continue
        if fmt == 0:
            columns.append([None if v is None else format_value(v, t, style).encode() for v in values])
        else:
            columns.append([None if v is None else encode_binary(v, t) for v in values])
    head = struct.pack("!h", table.num_columns)
    out = []
    for r in range(table.num_rows):
        fields = [head]
        for c in columns:
            v = c[r]
            fields.append(b"\xff\xff\xff\xff" if v is None else struct.pack("!i", len(v)) + v)
        out.append(msg(b"D", b"".join(fields)))
    return b"".join(out)


def _fixed_bytes(values: np.ndarray, width: int) -> pa.Array:
    """A binary array of ``width``-byte values from a numpy array's bytes."""
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), len(values), [None, pa.py_buffer(values)]).cast(pa.binary())


def _encoded_column(col, sql_type: str, fmt: int, style: TextStyle) -> pa.Array:
    """A column's values in wire format (text or binary) as a binary array
    (NULLs kept)."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if sql_type == "void":  # pg_sleep's: empty, not NULL, in either format
        return pa.array([b""] * len(col), pa.binary())
    if fmt == 0:
        return format_column(col, sql_type, style).cast(pa.binary())
    if sql_type == "record" and pa.types.is_struct(col.type):
        return _record_binary(col, style)
    fixed = _FIXED_BINARY.get(sql_type)
    if fixed is not None and not pa.types.is_decimal(col.type):
        np_type, arrow_type, shift = fixed
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.timestamp("us", col.type.tz))
        elif pa.types.is_time(col.type):
            col = col.cast(pa.time64("us"))
        ints = col.cast(arrow_type).fill_null(0).to_numpy(zero_copy_only=False)
        if shift:
            # infinity and -infinity are the type's extremes in PostgreSQL's binary format too
            high, low = INFINITIES.get(arrow_type, (None, None))
            positive, negative = (ints == high, ints == low) if high is not None else (None, None)
            ints = ints + shift
            if positive is not None and (positive.any() or negative.any()):
                ints[positive], ints[negative] = high, low - 1
        out = _fixed_bytes(np.ascontiguousarray(ints.astype(np_type)), np.dtype(np_type).itemsize)
        return pc.if_else(col.is_valid(), out, pa.scalar(None, pa.binary())) if col.null_count else out
    return pa.array([None if v is None else encode_binary(v, sql_type) for v in python_values(col)], pa.binary())


def _record_binary(col: pa.StructArray, style: TextStyle) -> pa.Array:
    """Records in PostgreSQL's binary format: the field count, then per
    field its type OID and its value (length-prefixed, -1 for NULL)."""
    types = [of_arrow(col.type.field(i)) for i in range(col.type.num_fields)]
    fields = [_encoded_column(child, t, 1, style).to_pylist() for child, t in zip(col.flatten(), types)]
    oids = [type_oid(t)[0] for t in types]
    out = []
    for r, ok in enumerate(col.is_valid().to_pylist()):
        if not ok:
            out.append(None)
            continue
        parts = [struct.pack("!i", len(types))]
        for oid, values in zip(oids, fields):
            v = values[r]
            parts.append(struct.pack("!Ii", oid, -1 if v is None else len(v)) + (v or b""))
        out.append(b"".join(parts))
    return pa.array(out, pa.binary())


def _array_from_text(text: str, element_oid: int) -> list:
    """``{a,b,"c d",NULL}`` -> values (one dimension; ValueError if malformed)."""
    return [None if v is None else decode_param(v.encode(), element_oid, False) for v in parse_array(text)]


def decode_param(data: bytes | None, oid: int, binary: bool):
    """A parameter value for the engine, from its wire form."""
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


_INTEGER_TEXT = re.compile(r"\s*[+-]?\d+\s*")
_NUMBER_TEXT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*|\s*([+-]?(inf|infinity)|nan)\s*", re.IGNORECASE)
_INTEGER_OIDS = {21: ("smallint", -(1 << 15), (1 << 15) - 1), 23: ("integer", -(1 << 31), (1 << 31) - 1),
                 20: ("bigint", -(1 << 63), (1 << 63) - 1), 26: ("oid", 0, (1 << 32) - 1)}


def _bad_text(type_name: str, text: str) -> SqlError:
    return SqlError(INVALID_TEXT_REPRESENTATION, f'invalid input syntax for type {type_name}: "{text}"')


def _integer_param(oid: int):
    name, lo, hi = _INTEGER_OIDS[oid]

    def parse(text: str) -> int:
        if not _INTEGER_TEXT.fullmatch(text):
            raise _bad_text(name, text)
        value = int(text)
        if not lo <= value <= hi:
            raise SqlError(NUMERIC_VALUE_OUT_OF_RANGE, f'value "{text}" is out of range for type {name}')
        return value
    return parse


def _number_param(name: str, convert):
    def parse(text: str):
        if not _NUMBER_TEXT.fullmatch(text) or (name == "numeric" and "inf" in text.lower()):
            raise _bad_text(name, text)
        return convert(text.strip())
    return parse


def _boolean_param(text: str) -> bool:
    """PostgreSQL's boolean input: true/false, yes/no, on/off, 1/0 and their unique prefixes."""
    word = text.strip().lower()
    true = bool(word) and any(w.startswith(word) for w in ("true", "yes", "on", "1")) and word not in ("o",)
    false = bool(word) and any(w.startswith(word) for w in ("false", "no", "off", "0")) and word not in ("o",)
    if true == false:
        raise _bad_text("boolean", text)
    return true


#: text-format parameters checked as PostgreSQL's input functions check them
_TEXT_PARSERS = {**{oid: _integer_param(oid) for oid in _INTEGER_OIDS}, 700: _number_param("real", float),
                 701: _number_param("double precision", float), 1700: _number_param("numeric", decimal.Decimal), 16: _boolean_param}


_DATETIME = re.compile(
    r"\s*(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,6}))?)?)?\s*(?:([+-])(\d\d)(?::?(\d\d))?(?::(\d\d))?|Z)?\s*$"
)


def _datetime_from_text(text: str, oid: int):
    """PostgreSQL's ISO input for date, timestamp and timestamptz (a zone on
    a date or timestamp is ignored, as PostgreSQL does); other spellings are
    read by the planner's reader (BC, the free forms: as text the engine
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
