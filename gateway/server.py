"""The PostgreSQL front end: one asyncio task per connection driving a
``planner.Session``.

Connection life: startup (SSLRequest answered ``S`` and the stream
upgraded to TLS when a certificate is configured, else ``N``; GSSENCRequest
``N``; CancelRequest; protocol 3.0, a 3.x minor above 0 gets
NegotiateProtocolVersion), authentication (gateway.auth: trust, cleartext,
md5 or SCRAM-SHA-256; a failure is FATAL 28P01), ParameterStatus for the
settings clients read (and again whenever one changes), BackendKeyData,
then queries until Terminate or EOF.

* Simple query: every statement of the string, results streamed as each
  finishes (the planner runs several as one implicit transaction);
  EmptyQueryResponse for an empty string; COPY FROM STDIN / TO STDOUT
  through CopyIn/CopyOut sub-protocols.
* Extended query: Parse/Bind/Describe/Execute/Close/Flush/Sync with named
  and unnamed statements and portals, text and binary parameters and
  results, row limits with PortalSuspended; after an error every message is
  discarded until Sync.
* Each statement runs in its own task: CancelRequest (matched by process id
  and secret key) cancels that task only, which interrupts DuckDB; the
  client gets 57014.
* Rows go out in chunks with ``drain()`` between them, so a slow client
  holds back only its own query.

Invariants: exactly one ReadyForQuery per simple query and per Sync; an
error never leaves a connection half-way through a message; a protocol
violation ends only its own connection, with FATAL 08P01.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import ssl
import struct
import time
from dataclasses import dataclass

from planner import COPY, TXN, CopySink, CopySource, Result, RowStream, SqlError, batchable, from_storage, param_count, parse_async
from storage import TxngateError
from values import TYPED_PARAMS, InvalidInput, decode_binary, decode_param, encode_binary, sql_of_oid, type_oid

from gateway import wire
from gateway.auth import Authenticator, Users
from gateway.peers import Peers, pid_base

log = logging.getLogger("txngate.gateway")

SSL_REQUEST, GSSENC_REQUEST, CANCEL_REQUEST, PROTOCOL_3 = 80877103, 80877104, 80877102, 196608
FLUSH_BYTES = 1 << 16
#: how long a SIGTERM waits for running statements before cancelling them
DRAIN_SECONDS = 30.0
# The settings PostgreSQL 16 reports in ParameterStatus (GUC_REPORT).
REPORTED = ["application_name", "client_encoding", "DateStyle", "default_transaction_read_only", "in_hot_standby", "integer_datetimes",
            "IntervalStyle", "is_superuser", "scram_iterations", "server_encoding", "server_version", "session_authorization",
            "standard_conforming_strings", "TimeZone"]


@dataclass
class Prepared:
    sql: str
    statements: list
    param_oids: list[int]


@dataclass
class Bound:
    """A Bind message, read: the portal it makes, of which statement, with
    which parameters and result formats."""
    portal: str
    prepared: Prepared
    params: list
    formats: list[int]


@dataclass
class Portal:
    prepared: Prepared
    params: list
    formats: list[int]
    result: Result | None = None
    sent: bool = False  # an Execute has sent some of its result
    done: bool = False  # the statement has run (its rows may still stream)

    def close(self) -> None:
        if self.result is not None and self.result.stream is not None:
            self.result.stream.close()


class Server:
    def __init__(self, db, host: str = "127.0.0.1", port: int = 6875, *, max_connections: int = 100,
                 authenticator: Authenticator | None = None, tls: ssl.SSLContext | None = None,
                 peers: Peers | None = None):
        self.db = db
        self.authenticator = authenticator or Authenticator("trust", Users())
        self.tls = tls
        self.host, self.port = host, port
        self.max_connections = max_connections
        self.connections: dict[int, "Connection"] = {}
        self._changed = asyncio.Event()  # a connection went idle or away (drain waits on it)
        #: a worker of ``txngate serve --workers N``: it shares the port
        #: (SO_REUSEPORT), its backend pids are its own range, the others are ``peers``
        self.peers = peers
        self._next_pid = pid_base(peers.index) if peers is not None else 1000
        self._server: asyncio.base_events.Server | None = None
        self._forwards: set[asyncio.Task] = set()  # cancels handed to other workers

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, self.port, limit=1 << 20, reuse_port=self.peers is not None)
        if self.port == 0:
            self.port = self._server.sockets[0].getsockname()[1]
        if self.peers is not None:
            await self.peers.serve(self, self.db)
            self.db.peers = self.peers
        log.info("listening", extra={"host": self.host, "port": self.port})

    async def serve_forever(self) -> None:
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    async def close(self) -> None:
        if self.peers is not None:
            await self.peers.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for conn in list(self.connections.values()):
            conn.close()

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """SIGTERM: stop listening, then end every session with FATAL 57P01
        once it is between statements, so a statement (and a commit) in
        flight finishes and its client gets its answer; what still runs
        after ``timeout`` seconds is cancelled by ``close``."""
        if self._server is not None:
            self._server.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.connections and loop.time() < deadline:
            self._changed.clear()
            for conn in list(self.connections.values()):
                if not conn.busy:
                    conn.terminate()
            if not self.connections:
                break
            try:
                await asyncio.wait_for(self._changed.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                break
        log.info("drained", extra={"left": len(self.connections)})

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._next_pid += 1
        conn = Connection(self, self._next_pid, reader, writer)
        try:
            await conn.run()
        except Exception:  # noqa: BLE001 - one connection's failure never reaches the server
            log.exception("connection failed", extra={"pid": conn.pid})
        finally:
            self.connections.pop(conn.pid, None)
            self._changed.set()
            conn.close()
            if conn.session is not None:
                try:
                    await conn.session.close()
                except Exception:  # noqa: BLE001 - cleanup of a gone client must not fail the server
                    log.exception("closing a session failed", extra={"pid": conn.pid})

    def cancel(self, pid: int, secret: int) -> None:
        if self.peers is not None and not self.peers.is_mine(pid):
            task = asyncio.get_running_loop().create_task(self.peers.forward_cancel(pid, secret))
            self._forwards.add(task)
            task.add_done_callback(self._forwards.discard)
            return
        conn = self.connections.get(pid)
        if conn is not None and conn.secret == secret:
            conn.cancel_running()


class _Fatal(Exception):
    def __init__(self, sqlstate: str, message: str, detail: str | None = None):
        super().__init__(message)
        self.sqlstate, self.message, self.detail = sqlstate, message, detail


class Connection:
    def __init__(self, server: Server, pid: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.server = server
        self.pid = pid
        self.secret = secrets.randbits(31)
        self.reader, self.writer = reader, writer
        self.session = None
        self.prepared: dict[str, Prepared] = {}
        self.portals: dict[str, Portal] = {}
        self.running: asyncio.Task | None = None
        self.cancelled = False
        self.busy = False  # between a query message and its ReadyForQuery
        self.cancel_pending = False  # a cancel that arrived between two messages of a batch
        self.reported: dict[str, str] = {}  # ParameterStatus values the client has
        self.tls = False
        self._out = bytearray()

    # -- output ----------------------------------------------------------------

    def send(self, data: bytes) -> None:
        if data[:1] == b"Z":
            self.busy = self.cancel_pending = False
            if self.session is not None:
                self.session.active = False
            self.server._changed.set()  # a drain waits for sessions to be between statements
        self._out += data

    async def flush(self) -> None:
        if self.writer.transport.is_closing():
            # asyncio drops writes to a lost connection without an error: stop the work instead
            raise ConnectionResetError("the client went away")
        if self._out:
            self.writer.write(bytes(self._out))
            self._out.clear()
        await self.writer.drain()

    async def maybe_flush(self) -> None:
        if len(self._out) >= FLUSH_BYTES:
            await self.flush()

    def close(self) -> None:
        for portal in self.portals.values():
            portal.close()
        if self.running is not None and not self.running.done():
            self.running.cancel()
        if not self.writer.is_closing():
            self.writer.close()

    def terminate(self) -> None:
        """pg_terminate_backend: FATAL 57P01 and the connection ends, as
        PostgreSQL's; a running statement is stopped first."""
        if self.running is not None and not self.running.done():
            self.running.cancel()
        if not self.writer.is_closing():
            self.writer.write(bytes(self._out) + wire.error_response("FATAL", "57P01", "terminating connection due to administrator command"))
            self._out.clear()
            self.writer.close()

    def cancel_running(self) -> None:
        if self.running is not None and not self.running.done():
            self.cancelled = True
            self.running.cancel()
        elif self.busy:
            self.cancel_pending = True

    # -- startup ---------------------------------------------------------------

    async def run(self) -> None:
        try:
            if not await self._startup():
                return
            await self._loop()
        except _Fatal as e:
            self.send(wire.error_response("FATAL", e.sqlstate, e.message, detail=e.detail))
            await self._try_flush()
        except wire.ProtocolViolation as e:
            self.send(wire.error_response("FATAL", "08P01", f"invalid frontend message: {e}"))
            await self._try_flush()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the client went away

    async def _try_flush(self) -> None:
        try:
            await self.flush()
        except ConnectionError:
            pass

    async def _read_startup(self) -> tuple[int, bytes]:
        head = await self.reader.readexactly(4)
        length = struct.unpack("!i", head)[0]
        if length < 8 or length > 10_000:
            raise wire.ProtocolViolation(f"invalid startup packet length {length}")
        body = await self.reader.readexactly(length - 4)
        return struct.unpack("!i", body[:4])[0], body[4:]

    async def _startup(self) -> bool:
        while True:
            code, body = await self._read_startup()
            if code == SSL_REQUEST and self.server.tls is not None and not self.tls:
                self.writer.write(b"S")
                await self.writer.drain()
                await self.writer.start_tls(self.server.tls)
                self.tls = True
                continue
            if code in (SSL_REQUEST, GSSENC_REQUEST):
                self.writer.write(b"N")
                await self.writer.drain()
                continue
            if code == CANCEL_REQUEST:
                pid, secret = struct.unpack("!ii", body[:8])
                self.server.cancel(pid, secret)
                return False
            break
        if code >> 16 < 3:  # answered in the old protocol's framing, as PostgreSQL does
            self.writer.write(b"E" + wire.cstr(f"FATAL:  unsupported frontend protocol {code >> 16}.{code & 0xFFFF}: server supports 3.0 to 3.0\n"))
            await self._try_flush()
            return False
        if code >> 16 != 3:
            raise _Fatal("0A000", f"unsupported frontend protocol {code >> 16}.{code & 0xFFFF}: server supports 3.0 to 3.0")
        parts = body.split(b"\x00")
        params = {}
        for i in range(0, len(parts) - 1, 2):
            if not parts[i]:
                break
            params[parts[i].decode()] = parts[i + 1].decode()
        if code & 0xFFFF:
            unknown = [k for k in params if k.startswith("_pq_.")]
            self.send(wire.msg(b"v", struct.pack("!ii", PROTOCOL_3, len(unknown)) + b"".join(wire.cstr(k) for k in unknown)))
        user = params.get("user")
        if not user:
            raise _Fatal("28000", "no PostgreSQL user name specified in startup packet")
        if len(self.server.connections) >= self.server.max_connections:
            raise _Fatal("53300", "sorry, too many clients already")
        if not await self._authenticate(user):
            log.info("authentication failed", extra={"pid": self.pid, "user": user})
            raise _Fatal("28P01", f'password authentication failed for user "{user}"')
        self.send(wire.authentication(0))  # then the database and settings are checked, as in PostgreSQL
        database = params.get("database") or user
        if database != "txngate":
            raise _Fatal("3D000", f'database "{database}" does not exist')
        self.server.connections[self.pid] = self
        self.session = self.server.db.session(user=user)
        self.session.on_cancel, self.session.on_terminate = self.cancel_running, self.terminate
        self.session.backend_pid = self.pid
        self.session.on_deallocate = self._deallocate
        self.session.on_notice = self._notice_now
        for key, value in params.items():
            if key in ("user", "database", "replication") or key.startswith("_pq_."):
                continue
            if key == "options":
                for name, val in re.findall(r"(?:-c\s*|--)([\w.]+)=(\S+)", value):
                    self._apply_setting(name.replace("-", "_"), val)
                continue
            self._apply_setting(key, value)
        self._report_changes()
        self.send(wire.msg(b"K", struct.pack("!ii", self.pid, self.secret)))
        self.send(wire.ready_for_query("I"))
        await self.flush()
        return True

    async def _authenticate(self, user: str) -> bool:
        async def send(code: int, extra: bytes) -> None:
            self.send(wire.authentication(code, extra))
            await self.flush()

        async def receive() -> bytes:
            kind, body = await wire.read_message(self.reader)
            if kind != b"p":
                raise wire.ProtocolViolation(f"expected a password message, got {kind!r}")
            return body

        try:
            return await self.server.authenticator.exchange(user, send, receive)
        except (ValueError, KeyError, IndexError, struct.error) as e:
            raise _Fatal("08P01", f"malformed authentication message: {e}") from None

    def _apply_setting(self, name: str, value: str) -> None:
        try:
            self.session.set(name, value)
        except SqlError as e:
            raise _Fatal(e.sqlstate, e.message) from None

    # -- the message loop -------------------------------------------------------

    async def _next_message(self) -> tuple[bytes, bytes]:
        """The next frontend message; idle_in_transaction_session_timeout
        ends a connection that waits too long inside a transaction."""
        limit = self.session.settings.get("idle_in_transaction_session_timeout", "0")
        if self.session.status == "I" or limit == "0" or self.busy:
            return await wire.read_message(self.reader)
        try:
            return await asyncio.wait_for(wire.read_message(self.reader), int(limit) / 1000)
        except asyncio.TimeoutError:
            await self.session.close()
            raise _Fatal("25P03", "terminating connection due to idle-in-transaction timeout") from None

    async def _loop(self) -> None:
        skipping = False  # after an error in the extended protocol: until Sync
        while True:
            kind, body = await self._next_message()
            if kind == b"X":
                return
            if kind == b"Q":
                if not self.session.in_implicit or await self._guarded(self.session.end_implicit()):  # a pipeline before it commits first
                    await self._guarded(self._simple_query(body))
                self._end_of_transaction()
                self._report_changes()
                self.send(wire.ready_for_query(self.session.status))
                await self.flush()
                continue
            if kind == b"S":
                skipping = False
                if self.session.in_implicit:
                    await self._guarded(self.session.end_implicit())  # a pipeline's statements commit (or roll back) here
                self._end_of_transaction()
                self._report_changes()
                self.send(wire.ready_for_query(self.session.status))
                await self.flush()
                continue
            if kind == b"H":
                await self.flush()
                continue
            if kind in (b"d", b"c", b"f"):
                continue  # copy messages outside a copy are ignored, as PostgreSQL does
            if kind not in (b"P", b"B", b"D", b"E", b"C"):
                raise wire.ProtocolViolation(f"unexpected message type {kind!r}")
            if skipping:
                continue
            r = wire.Reader(body)
            if kind == b"B" and (batch := self._batch(r)) is not None:
                bounds, described, length = batch
                await self.reader.readexactly(length)  # taken from what was received already
                ok = await self._guarded(self._run_batch(bounds, described))
            elif kind in (b"B", b"C"):
                ok = self._inline(self._bind if kind == b"B" else self._close, r)
            elif kind == b"E" and (portal := self._sent_portal(r)) is not None:
                ok = self._inline(self._complete, portal)
            else:
                ok = await self._guarded(self._extended(kind, r))
            skipping = not ok
            await self.maybe_flush()

    async def _guarded(self, coro) -> bool:
        """Run one unit of work in its own task (cancellable); send its error."""
        self.cancelled = False
        self.busy = True
        if self.session is not None:
            self.session.active = True  # pg_stat_activity's state until ReadyForQuery
        if self.cancel_pending:
            self.cancel_pending = False
            coro.close()
            self.send(wire.error_response("ERROR", "57014", "canceling statement due to user request"))
            return False
        self.running = asyncio.ensure_future(coro)
        started = time.monotonic()
        try:
            try:
                await self.running
                return True
            except BaseException:
                if self.session is not None:
                    self.session.fail()  # any error aborts the open transaction, as in PostgreSQL
                raise
        except asyncio.CancelledError:
            if not self.cancelled:
                raise
            self.send(wire.error_response("ERROR", "57014", "canceling statement due to user request"))
        except Exception as e:  # noqa: BLE001 - reported (or the connection ends) in _report
            self._report(e)
        finally:
            self.running = None
            self._log_duration(started)
        return False

    def _inline(self, handler, arg) -> bool:
        """Run a message's handler that never waits (Bind, Close, an
        Execute whose statement already ran) on the connection's own task:
        no task of its own to start and wake (most of a pipelined row's
        cost); send its error."""
        self.busy = True
        self.session.active = True
        try:
            handler(arg)
            return True
        except Exception as e:  # noqa: BLE001 - reported (or the connection ends) in _report
            self.session.fail()
            self._report(e)
            return False

    def _report(self, e: Exception) -> None:
        """Send the ErrorResponse a failed unit of work earns; re-raise what
        ends the connection instead (the client went away or broke the
        protocol, in COPY data)."""
        if isinstance(e, (ConnectionError, asyncio.IncompleteReadError, wire.ProtocolViolation)):
            raise e
        if isinstance(e, SqlError):
            self._send_error(e)
        elif isinstance(e, TxngateError):  # from a stream's rows, after the session returned
            self._send_error(from_storage(e))
        elif isinstance(e, wire.MessageFormatError):
            self.send(wire.error_response("ERROR", "08P01", str(e)))
        elif isinstance(e, UnicodeDecodeError):
            self.send(wire.error_response("ERROR", "22021", wire.bad_encoding_message(e)))
        else:  # a bug fails the statement, not the connection (a value the client wrote wrong is InvalidInput, above)
            log.error("internal error", exc_info=e, extra={"pid": self.pid})
            self.send(wire.error_response("ERROR", "XX000", f"internal error: {type(e).__name__}: {e}"))

    def _log_duration(self, started: float) -> None:
        """log_min_duration_statement: a statement that took at least that
        many milliseconds is logged with its duration (-1: none)."""
        limit = int(self.session.settings.get("log_min_duration_statement", "-1")) if self.session is not None else -1
        elapsed = (time.monotonic() - started) * 1000
        if 0 <= limit <= elapsed:
            log.info("duration", extra={"pid": self.pid, "duration_ms": round(elapsed, 3), "statement": self.session.query})

    def _send_error(self, e: SqlError) -> None:
        if e.severity == "FATAL":  # the session cannot go on (e.g. a COMMIT of unknown outcome)
            raise _Fatal(e.sqlstate, e.message, e.detail)
        self.send(wire.error_response(e.severity, e.sqlstate, e.message, detail=e.detail, hint=e.hint, position=e.position, objects=e.objects))

    def _report_changes(self) -> None:
        """ParameterStatus for each reported setting whose value changed
        (all of them at startup), before ReadyForQuery, as PostgreSQL does."""
        for name in REPORTED:
            value = self.session.settings.get(name.lower(), "")
            if self.reported.get(name) != value:
                self.reported[name] = value
                self.send(wire.parameter_status(name, value))

    def _notice_now(self, notice: str) -> None:
        """A notice raised while a statement runs (Spark progress): sent at
        once, with whatever this connection had queued before it."""
        self._send_notices([notice])
        if not self.writer.transport.is_closing():
            self.writer.write(bytes(self._out))
            self._out.clear()

    def _send_notices(self, notices: list[str]) -> None:
        for n in notices:
            m = re.match(r"^(WARNING|NOTICE) (\w{5}): (.*)$", n, re.S)
            if m:
                self.send(wire.notice_response(m.group(1), m.group(2), m.group(3)))
            else:
                self.send(wire.notice_response("NOTICE", "00000", n))

    # -- simple query -------------------------------------------------------------

    async def _simple_query(self, body: bytes) -> None:
        r = wire.Reader(body)
        sql = r.cstr()
        if r.remaining():
            raise wire.MessageFormatError("invalid message format")
        source, sink = _CopyIn(self), _CopyOut(self)
        answered = False
        async for result in self.session.stream(sql, None, copy_source=source, copy_sink=sink, lazy=True):
            answered = True
            self._send_notices(result.notices)
            if sink.started:
                sink.finish()
            elif result.returns_rows:
                self.send(wire.row_description(result.described, [0] * len(result.columns), result.origins))
                stream = result.row_stream()
                try:
                    await self._send_rows(stream, result.columns, [0] * len(result.columns), None)
                finally:
                    stream.close()
            self.send(wire.command_complete(result.command_tag()))
            await self.maybe_flush()
            source.started = sink.started = False
        if not answered:  # no statement in it (blank, comments, semicolons)
            self.send(wire.msg(b"I"))

    async def _send_rows(self, stream: RowStream, columns, formats: list[int], limit: int | None) -> tuple[int, bool]:
        """DataRows from ``stream``, at most ``limit``: how many, and whether
        the stream ran out.
        Each batch is flushed (awaiting the socket) once the output buffer
        is full, so a slow client holds back only its own query."""
        types = [t for _n, t in columns]
        style = self.session.text_style()
        sent = 0
        while limit is None or sent < limit:
            part = await stream.next(None if limit is None else limit - sent)
            if part is None:
                return sent, True
            self.send(wire.data_rows(part, types, formats, style))
            sent += part.num_rows
            await self.maybe_flush()
        return sent, stream.done

    # -- extended query ------------------------------------------------------------

    async def _extended(self, kind: bytes, r: wire.Reader) -> None:
        if kind == b"P":
            name, sql = r.cstr(), r.cstr()
            oids = [r.int32() for _ in range(r.int16())]
            statements = await parse_async(self.session.readable(sql))
            if len(statements) > 1:
                raise SqlError("42601", "cannot insert multiple commands into a prepared statement")
            self.session.check_not_aborted(statements[0] if statements else None)
            if name and name in self.prepared:
                raise SqlError("42P05", f'prepared statement "{name}" already exists')
            nparams = param_count(statements)
            oids = oids + [0] * (nparams - len(oids))
            if statements and any(o in TYPED_PARAMS for o in oids):
                statements = [self.session.with_param_types(statements[0], [sql_of_oid(o) if o in TYPED_PARAMS else None for o in oids])]
            if statements and 0 in oids:
                inferred = await self.session.param_types(statements[0], nparams)
                oids = [o or type_oid(t)[0] for o, t in zip(oids, inferred)]
            self.prepared[name] = Prepared(sql, statements, oids)
            self.send(wire.msg(b"1"))
        elif kind == b"D":
            what, name = r.bytes(1), r.cstr()
            if what == b"S":
                prepared = self.prepared.get(name)
                if prepared is None:
                    raise SqlError("26000", f'prepared statement "{name}" does not exist')
                self.send(wire.parameter_description(prepared.param_oids))
                described = await self._describe(prepared)
                self.send(wire.msg(b"n") if described is None else
                          wire.row_description(described.described, [0] * len(described.columns), described.origins))
            elif name not in self.portals and name in self.session.cursors.open:  # a DECLAREd cursor is a portal too
                columns = self.session.cursors.open[name].columns
                self.send(wire.row_description(columns, [0] * len(columns)))
            else:
                portal = self._portal(name)
                if portal.prepared.statements and portal.prepared.statements[0].kind == COPY:
                    self.send(wire.msg(b"n"))  # its data travels in CopyData, run at Execute
                    return
                await self._run_portal(portal)
                res = portal.result
                if res is not None and res.returns_rows:
                    self.send(wire.row_description(res.described, _formats(portal.formats, len(res.columns)), res.origins))
                else:
                    self.send(wire.msg(b"n"))
        elif kind == b"E":
            name, limit = r.cstr(), r.int32()
            portal = self._portal(name)
            await self._run_portal(portal)
            res = portal.result
            if res is None or not res.returns_rows:
                self._complete(portal)
                return
            self._send_notices(res.notices if not portal.sent else [])
            portal.sent = True
            sent, done = await self._send_rows(res.row_stream(), res.columns, _formats(portal.formats, len(res.columns)), limit if limit > 0 else None)
            if not done:
                self.send(wire.msg(b"s"))
                return
            tag = res.command_tag() if res.tag is not None else None
            if tag is None or tag.startswith("SELECT "):
                tag = f"SELECT {sent}"  # the rows of this Execute, as PostgreSQL counts a resumed portal
            self.send(wire.command_complete(tag))

    def _bind(self, r: wire.Reader) -> None:
        b = self._read_bind(r)
        self._drop_portal(b.portal)
        self.portals[b.portal] = Portal(b.prepared, b.params, b.formats)
        self.send(wire.msg(b"2"))

    def _read_bind(self, r: wire.Reader) -> Bound:
        portal, name = r.cstr(), r.cstr()
        prepared = self.prepared.get(name)
        if prepared is None:
            raise SqlError("26000", f'prepared statement "{name}" does not exist')
        self.session.check_not_aborted(prepared.statements[0] if prepared.statements else None)
        pformats = [r.int16() for _ in range(r.int16())]
        values = []
        for i in range(r.int16()):
            n = r.int32()
            values.append(None if n == -1 else r.bytes(n))
        rformats = [r.int16() for _ in range(r.int16())]
        if len(values) != len(prepared.param_oids):
            raise SqlError("08P01", f"bind message supplies {len(values)} parameters, but prepared statement \"{name}\" requires {len(prepared.param_oids)}")
        params = []
        for i, v in enumerate(values):
            fmt = pformats[i] if len(pformats) > 1 else (pformats[0] if pformats else 0)
            try:
                params.append(decode_param(v, prepared.param_oids[i], fmt == 1))
            except InvalidInput as e:
                if e.sqlstate != "22P03":
                    raise
                raise SqlError("22P03", f"incorrect binary data format in bind parameter {i + 1}") from None
        return Bound(portal, prepared, params, rformats)

    def _batch(self, r: wire.Reader) -> tuple[list[Bound], list[bool], int] | None:
        """Pipelined executions of one INSERT (``parse.batchable``) from this
        Bind on: each a Bind of the same statement to the same portal, an
        optional Describe of it and an Execute, as executemany sends them,
        as many as were received whole. Their Binds read, which of them had
        a Describe, and the length of what follows this Bind that they
        take; None (``r`` as it was) for fewer than two."""
        start = r.pos
        try:
            first = self._read_bind(r)
        except Exception:  # noqa: BLE001 - Bind, run on its own, reports it
            first = None
        if first is None or not first.prepared.statements or not batchable(first.prepared.statements[0]):
            r.pos = start
            return None
        portal = first.portal.encode() + b"\x00"
        bounds, described, length = [], [], 0
        bound, messages = first, wire.received(self.reader._buffer)  # noqa: SLF001 - the messages the client already sent
        while True:
            kind, body, end = next(messages, (None, b"", 0))
            if kind == b"D" and body == b"P" + portal:
                described.append(True)
                kind, body, end = next(messages, (None, b"", 0))
            else:
                described.append(False)
            if kind != b"E" or not body.startswith(portal):
                described.pop()
                break
            bounds.append(bound)
            length = end
            kind, body, end = next(messages, (None, b"", 0))
            try:
                bound = self._read_bind(wire.Reader(body)) if kind == b"B" else None
            except Exception:  # noqa: BLE001 - Bind, run on its own, reports it
                bound = None
            if bound is None or bound.prepared is not first.prepared or bound.portal != first.portal:
                break
        if len(bounds) < 2:
            r.pos = start
            return None
        return bounds, described, length

    async def _run_batch(self, bounds: list[Bound], described: list[bool]) -> None:
        """Pipelined executions of one INSERT (``_batch``), run together
        (``Session.run_batch``), answered as each would be: BindComplete,
        NoData if described, CommandComplete, or the error of the first that
        fails (the rest are skipped until Sync, as they would be)."""
        prepared = bounds[0].prepared
        self.session.begin_query(prepared.sql)
        self.session.begin_implicit("pipeline")  # several statements before a Sync, outside a transaction: one block
        self._drop_portal(bounds[0].portal)
        results = self.session.run_batch(prepared.statements[0], [b.params for b in bounds])
        try:
            for d in described:
                self.send(wire.msg(b"2"))
                if d:
                    self.send(wire.msg(b"n"))
                result = await anext(results)
                self._send_notices(result.notices)
                self.send(wire.command_complete(result.command_tag()))
        finally:
            await results.aclose()
        last = bounds[-1]
        self.portals[last.portal] = Portal(prepared, last.params, last.formats, result, sent=True, done=True)

    def _close(self, r: wire.Reader) -> None:
        what, name = r.bytes(1), r.cstr()
        if what == b"S":
            self.prepared.pop(name, None)
        else:
            self._drop_portal(name)
        self.send(wire.msg(b"3"))

    def _sent_portal(self, r: wire.Reader) -> Portal | None:
        """The portal an Execute names when its statement already ran (at
        Describe) and returns no rows: all that is left is to complete it.
        None otherwise (the reader is left as it was)."""
        end = r.data.find(b"\x00", r.pos)
        portal = self.portals.get(r.data[r.pos:end].decode("utf-8", "replace")) if end >= 0 else None
        if portal is None or not portal.done or (portal.result is not None and portal.result.returns_rows):
            return None
        return portal

    def _complete(self, portal: Portal) -> None:
        """An Execute of a portal that returns no rows: its notices and
        CommandComplete (EmptyQueryResponse for an empty query)."""
        res = portal.result
        if res is None:
            self.send(wire.msg(b"I"))
            return
        self._send_notices(res.notices if not portal.sent else [])
        portal.sent = True
        self.send(wire.command_complete(res.command_tag() if res.tag is not None else None))

    def _deallocate(self, name: str | None) -> None:
        """DEALLOCATE name / ALL (and DISCARD ALL): forget prepared statements."""
        if name is None:
            self.prepared.clear()
        elif self.prepared.pop(name, None) is None:
            raise SqlError("26000", f'prepared statement "{name}" does not exist')

    def _drop_portal(self, name: str) -> None:
        portal = self.portals.pop(name, None)
        if portal is not None:
            portal.close()

    def _end_of_transaction(self) -> None:
        """At Sync outside a transaction block every portal is gone, as in
        PostgreSQL (portals live in their transaction)."""
        if self.session.status == "I":
            for name in list(self.portals):
                self._drop_portal(name)

    def _portal(self, name: str) -> Portal:
        portal = self.portals.get(name)
        if portal is None:
            raise SqlError("34000", f'portal "{name}" does not exist')
        return portal

    async def _run_portal(self, portal: Portal) -> None:
        if portal.done:
            return
        portal.done = True
        if not portal.prepared.statements:
            portal.result = None
            return
        stmt = portal.prepared.statements[0]
        self.session.begin_query(portal.prepared.sql)
        if stmt.kind not in (TXN, COPY) and self.session.work is None and await self._pipelined():
            self.session.begin_implicit("pipeline")  # statements pipelined before a Sync commit together, as in PostgreSQL
        if stmt.kind != COPY:
            portal.result = await self.session.run(stmt, portal.params, lazy=True)
            return
        # COPY through the extended protocol (ADBC, connectorx, pg8000): CopyIn/CopyOut at Execute
        source, sink = _CopyIn(self), _CopyOut(self)
        portal.result = await self.session.run(stmt, portal.params, source, sink, lazy=True)
        if sink.started:
            sink.finish()

    async def _pipelined(self) -> bool:
        """Whether the statement about to run is followed by another before
        the next Sync, so that it opens an implicit transaction block (as
        PostgreSQL keeps one open until Sync); a statement whose Sync follows
        it runs on its own, retried on conflict. What the client sent is
        looked at, after one turn of the event loop if none of it arrived
        yet; a client that sends neither yet (pipelining one statement at a
        time) gets the block."""
        for turn in range(2):
            kind = wire.next_of(self.reader._buffer, b"SB")  # noqa: SLF001 - the messages the client already sent
            if kind is not None:
                return kind == b"B"
            if turn == 0:
                await asyncio.sleep(0)  # read what the socket holds already
        return True

    async def _describe(self, prepared: Prepared):
        """Result columns of a prepared statement without running it (None: it returns no rows)."""
        if not prepared.statements:
            return None
        return await self.session.describe(prepared.statements[0], [sql_of_oid(o) for o in prepared.param_oids])


def _formats(formats: list[int], n: int) -> list[int]:
    if not formats:
        return [0] * n
    if len(formats) == 1:
        return formats * n
    return formats


class _CopyIn(CopySource):
    """COPY FROM STDIN data from CopyData messages, until CopyDone/CopyFail."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.started = False

    async def start(self, columns: int, fmt: str) -> None:
        self.started = True
        self.conn.send(wire.copy_response(b"G", columns, binary=fmt == "binary"))
        await self.conn.flush()

    @staticmethod
    def decode(data: bytes, sql_type: str):
        """A binary COPY field's value (the wire's binary format)."""
        return decode_binary(data, type_oid(sql_type)[0])

    async def __aiter__(self):
        while True:
            kind, body = await wire.read_message(self.conn.reader)
            if kind == b"d":
                yield body
            elif kind == b"c":
                return
            elif kind == b"f":
                raise SqlError("57014", f"COPY from stdin failed: {wire.Reader(body).cstr()}")
            elif kind in (b"H", b"S"):
                continue
            else:
                raise SqlError("08P01", f"unexpected message type 0x{kind[0]:02x} during COPY from stdin")


class _CopyOut(CopySink):
    def __init__(self, conn: Connection):
        self.conn = conn
        self.started = False

    async def start(self, columns: int, fmt: str) -> None:
        self.started = True
        self.conn.send(wire.copy_response(b"H", columns, binary=fmt == "binary"))

    @staticmethod
    def encode(value, sql_type: str) -> bytes:
        """A value in binary COPY (the wire's binary format)."""
        return encode_binary(value, sql_type)

    async def write(self, rows: list[bytes]) -> None:
        for row in rows:
            self.conn.send(wire.msg(b"d", row))
        await self.conn.maybe_flush()

    def finish(self) -> None:
        self.conn.send(wire.msg(b"c"))
