"""PostgreSQL protocol 3.0 messages, and values as the protocol carries them.

Framing: every frontend message after startup is a type byte and an int32
length (including itself); startup-phase messages have no type byte.
``read_message`` enforces ``MAX_MESSAGE`` so a malformed length cannot make
the server allocate without bound (``ProtocolViolation`` closes the
connection with a FATAL error).

Values: DataRows framed a column at a time from Arrow (each value in
text or binary format by ``values.encode_column``); parameters are
decoded by ``values.decode_param``. The gateway holds no value codec of
its own.
"""

from __future__ import annotations

import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from values import TextStyle, encode_column, encode_values, fixed_width_binary, type_length, type_oid

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
        values = encode_column(col, t, fmt, style)
        size = pc.binary_length(values).fill_null(-1).to_numpy(zero_copy_only=False)
        lengths += 4 + np.maximum(size, 0)
        pieces.append(fixed_width_binary(size.astype(">i4"), 4))
        pieces.append(values.fill_null(b"") if values.null_count else values)
    header = np.empty(n, dtype=[("kind", "S1"), ("length", ">i4"), ("columns", ">i2")])
    header["kind"], header["length"], header["columns"] = b"D", lengths, table.num_columns
    joined = pc.binary_join_element_wise(fixed_width_binary(header, 7), *pieces, b"")
    offsets = np.frombuffer(joined.buffers()[1], dtype=np.int32)[joined.offset:joined.offset + n + 1]
    return joined.buffers()[2][int(offsets[0]):int(offsets[-1])]


FEW_ROWS = 16  # below this, Arrow's per-call overhead exceeds Python's per-row work


def _few_data_rows(table: pa.Table, types: list[str], formats: list[int], style: TextStyle) -> bytes:
    columns = [encode_values(col, t, fmt, style) for col, t, fmt in zip(table.columns, types, formats)]
    head = struct.pack("!h", table.num_columns)
    out = []
    for r in range(table.num_rows):
        fields = [head]
        for c in columns:
            v = c[r]
            fields.append(b"\xff\xff\xff\xff" if v is None else struct.pack("!i", len(v)) + v)
        out.append(msg(b"D", b"".join(fields)))
    return b"".join(out)
