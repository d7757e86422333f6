"""A raw PostgreSQL protocol client for tests: builds frontend messages
byte by byte and reads backend messages as (type, fields) tuples, so tests
can send exactly the sequences a driver would (or would not) send and see
exactly what comes back. Independent of gateway/ on purpose: it is the
other side of the wire.
"""

from __future__ import annotations

import asyncio
import struct

PROTOCOL_3 = 196608
SSL_REQUEST = struct.pack("!ii", 8, 80877103)
GSSENC_REQUEST = struct.pack("!ii", 8, 80877104)


def _cstr(s: str | bytes) -> bytes:
    return (s.encode() if isinstance(s, str) else s) + b"\x00"


def _msg(kind: bytes, payload: bytes = b"") -> bytes:
    return kind + struct.pack("!i", len(payload) + 4) + payload


# -- frontend messages ---------------------------------------------------------


def startup(params: dict[str, str], version: int = PROTOCOL_3) -> bytes:
    body = struct.pack("!i", version) + b"".join(_cstr(k) + _cstr(v) for k, v in params.items()) + b"\x00"
    return struct.pack("!i", len(body) + 4) + body


def query(sql: str | bytes) -> bytes:
    return _msg(b"Q", _cstr(sql))


def parse(name: str, sql: str, oids: tuple[int, ...] = ()) -> bytes:
    return _msg(b"P", _cstr(name) + _cstr(sql) + struct.pack("!h", len(oids)) + b"".join(struct.pack("!i", o) for o in oids))


def bind(portal: str, statement: str, params: tuple = (), param_formats: tuple[int, ...] = (), result_formats: tuple[int, ...] = ()) -> bytes:
    out = [_cstr(portal), _cstr(statement), struct.pack("!h", len(param_formats))]
    out += [struct.pack("!h", f) for f in param_formats]
    out.append(struct.pack("!h", len(params)))
    for p in params:
        if p is None:
            out.append(struct.pack("!i", -1))
        else:
            data = p.encode() if isinstance(p, str) else p
            out.append(struct.pack("!i", len(data)) + data)
    out.append(struct.pack("!h", len(result_formats)))
    out += [struct.pack("!h", f) for f in result_formats]
    return _msg(b"B", b"".join(out))


def describe(what: str, name: str = "") -> bytes:
    return _msg(b"D", what.encode() + _cstr(name))


def execute(portal: str = "", max_rows: int = 0) -> bytes:
    return _msg(b"E", _cstr(portal) + struct.pack("!i", max_rows))


def close(what: str, name: str = "") -> bytes:
    return _msg(b"C", what.encode() + _cstr(name))


def sync() -> bytes:
    return _msg(b"S")


def flush() -> bytes:
    return _msg(b"H")


def terminate() -> bytes:
    return _msg(b"X")


def copy_data(data: bytes) -> bytes:
    return _msg(b"d", data)


def copy_done() -> bytes:
    return _msg(b"c")


def copy_fail(message: str) -> bytes:
    return _msg(b"f", _cstr(message))


def raw(kind: bytes, payload: bytes) -> bytes:
    return _msg(kind, payload)


# -- backend messages ------------------------------------------------------------


def _fields(body: bytes) -> dict[str, str]:
    out, i = {}, 0
    while i < len(body) and body[i] != 0:
        end = body.index(b"\x00", i + 1)
        out[chr(body[i])] = body[i + 1:end].decode()
        i = end + 1
    return out


def decode(kind: bytes, body: bytes) -> tuple:
    """A backend message as a tuple whose first item is its type letter."""
    k = kind.decode()
    if k in "EN":
        return (k, _fields(body))
    if k == "R":
        return (k, struct.unpack("!i", body[:4])[0])
    if k == "S":
        name, value = body.split(b"\x00")[:2]
        return (k, name.decode(), value.decode())
    if k == "K":
        return (k, struct.unpack("!ii", body))
    if k == "Z":
        return (k, body.decode())
    if k == "C":
        return (k, body[:-1].decode())
    if k == "T":
        (n,), i, cols = struct.unpack("!h", body[:2]), 2, []
        for _ in range(n):
            end = body.index(b"\x00", i)
            name = body[i:end].decode()
            table, attnum, oid, size, mod, fmt = struct.unpack("!ihihih", body[end + 1:end + 19])
            cols.append((name, table, attnum, oid, size, mod, fmt))
            i = end + 19
        return (k, tuple(cols))
    if k == "D":
        (n,), i, values = struct.unpack("!h", body[:2]), 2, []
        for _ in range(n):
            (size,) = struct.unpack("!i", body[i:i + 4])
            i += 4
            if size < 0:
                values.append(None)
            else:
                values.append(body[i:i + size])
                i += size
        return (k, tuple(values))
    if k == "t":
        (n,) = struct.unpack("!h", body[:2])
        return (k, struct.unpack(f"!{n}i", body[2:2 + 4 * n]))
    if k in "GHW":
        fmt, n = struct.unpack("!bh", body[:3])
        return (k, fmt, struct.unpack(f"!{n}h", body[3:3 + 2 * n]))
    if k == "v":
        minor, n = struct.unpack("!ii", body[:8])
        return (k, minor, tuple(x.decode() for x in body[8:].split(b"\x00")[:n]))
    if k == "d":
        return (k, body)
    return (k,)


class RawConnection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.closed = False

    @classmethod
    async def open(cls, host: str, port: int) -> "RawConnection":
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        return cls(reader, writer)

    async def send(self, *messages: bytes) -> None:
        self.writer.write(b"".join(messages))
        await self.writer.drain()

    async def read_byte(self) -> bytes:
        return await self.reader.readexactly(1)

    async def read(self) -> tuple | None:
        """The next backend message, decoded; None when the server closed."""
        try:
            head = await self.reader.readexactly(5)
            (length,) = struct.unpack("!i", head[1:])
            return decode(head[:1], await self.reader.readexactly(length - 4))
        except (asyncio.IncompleteReadError, ConnectionError):
            self.closed = True
            return None

    async def read_until_ready(self, count: int = 1) -> list[tuple]:
        """Messages up to and including the ``count``-th ReadyForQuery (or
        until the server closes the connection)."""
        out = []
        while count > 0:
            m = await self.read()
            if m is None:
                out.append(("closed",))
                break
            out.append(m)
            if m[0] == "Z":
                count -= 1
        return out

    async def close(self) -> None:
        if not self.writer.is_closing():
            try:
                self.writer.write(terminate())
                self.writer.close()
                await self.writer.wait_closed()
            except ConnectionError:
                pass
