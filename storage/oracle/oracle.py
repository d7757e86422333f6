"""Timestamp oracle implementations. See the package docstring for the
contract; every method is one atomic statement against the store."""

from __future__ import annotations

import abc
import asyncio
import os
import sqlite3
import threading
import time
from urllib.parse import parse_qs, unquote, urlsplit

from storage.errors import ConfigError, DeterminateError
from storage.location import SqliteConnections, SqliteLoopWrites, sqlite_connect, sqlite_error


def now_ms() -> int:
    return int(time.time() * 1000)


class Oracle(abc.ABC):
    kind = "?"

    @abc.abstractmethod
    async def write_ts(self) -> int:
        """A new write timestamp, above every earlier one and >= now (ms)."""

    @abc.abstractmethod
    async def read_ts(self) -> int:
        """A timestamp at which every applied write is visible."""

    @abc.abstractmethod
    async def apply_write(self, ts: int) -> None:
        """Make writes at ``ts`` visible to later ``read_ts`` calls."""

    async def close(self) -> None:
        pass


class MemOracle(Oracle):
    kind = "mem"

    def __init__(self, start: int = 0, *, clock=now_ms):
        self._read = start
        self._write = start
        self._clock = clock
        self._lock = threading.Lock()

    async def write_ts(self) -> int:
        with self._lock:
            self._write = max(self._write + 1, self._clock())
            return self._write

    async def read_ts(self) -> int:
        with self._lock:
            return self._read

    async def apply_write(self, ts: int) -> None:
        with self._lock:
            self._read = max(self._read, ts)
            self._write = max(self._write, ts)


class Coalesced:
    """Concurrent calls of an async read sharing one round trip, without
    giving up linearizability: a call is answered by a read that *started
    after it was made* (the round in flight when it arrives is too early:
    it joins the next one, which starts when that one ends). So N sessions
    asking for ``read_ts`` at once cost two queries, not N, and each answer
    is still at least every timestamp applied before its call.

    Invariant: at most one read is in flight; ``_waiting`` is None or the
    future of the round that starts next."""

    def __init__(self, read):
        self._read = read
        self._waiting: asyncio.Future | None = None
        self._running = False
        self.rounds = 0

    async def __call__(self):
        if self._waiting is None:
            self._waiting = asyncio.get_running_loop().create_future()
            if not self._running:
                self._running = True
                asyncio.get_running_loop().create_task(self._rounds())
        # shielded: one caller's cancellation must not cancel the others' answer
        return await asyncio.shield(self._waiting)

    async def _rounds(self) -> None:
        try:
            while self._waiting is not None:
                fut, self._waiting = self._waiting, None
                self.rounds += 1
                try:
                    value = await self._read()
                except BaseException as e:  # noqa: BLE001 - every waiter of the round gets it
                    fut.set_exception(e)
                    fut.exception()  # retrieved here: a round whose callers all left logs nothing
                    if isinstance(e, asyncio.CancelledError):
                        raise
                else:
                    fut.set_result(value)
        finally:
            self._running = False
            if self._waiting is not None:  # cancelled (the loop is closing): nobody will run their round
                self._waiting.cancel()
                self._waiting = None

    def validate(self) -> None:
        assert self._running or self._waiting is None, "callers wait for a round nobody runs"


class PostgresOracle(Oracle):
    """The oracle row in PostgreSQL. ``read_ts`` calls made while one is
    in flight share the next query (``Coalesced``)."""

    kind = "postgres"

    def __init__(self, pool, timeline: str, timeout: float):
        self._pool = pool
        self.timeline = timeline
        self.timeout = timeout
        self._read_ts = Coalesced(self._query_read_ts)

    @classmethod
    async def open(cls, url: str, *, timeline: str = "txngate", setting: str = "consensus") -> "PostgresOracle":
        from storage.location.pgpool import open_pool, split_dsn

        timeline = split_dsn(url, setting)[1].get("timeline", timeline)
        pool, _ours, timeout = await open_pool(url, setting=setting, default_pool_size=4)
        self = cls(pool, timeline, timeout)

        async def init(conn):
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext('txngate.timestamp_oracle'))")
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS timestamp_oracle (timeline text PRIMARY KEY, read_ts bigint NOT NULL, write_ts bigint NOT NULL)"
                )
                await conn.execute(
                    "INSERT INTO timestamp_oracle VALUES ($1, 0, 0) ON CONFLICT (timeline) DO NOTHING", timeline
                )

        try:
            await pool.run("oracle init", True, init)
        except Exception:
            await pool.close()
            raise
        return self

    async def write_ts(self) -> int:
        async def q(conn):
            return await conn.fetchval(
                "UPDATE timestamp_oracle SET write_ts = GREATEST(write_ts + 1, $2) WHERE timeline = $1 RETURNING write_ts",
                self.timeline, now_ms(), timeout=self.timeout,
            )

        return await self._pool.run("oracle write_ts", True, q)

    async def read_ts(self) -> int:
        return await self._read_ts()

    async def _query_read_ts(self) -> int:
        async def q(conn):
            return await conn.fetchval("SELECT read_ts FROM timestamp_oracle WHERE timeline = $1", self.timeline, timeout=self.timeout)

        return await self._pool.run("oracle read_ts", False, q)

    async def apply_write(self, ts: int) -> None:
        async def q(conn):
            await conn.execute(
                "UPDATE timestamp_oracle SET read_ts = GREATEST(read_ts, $2), write_ts = GREATEST(write_ts, $2) WHERE timeline = $1",
                self.timeline, ts, timeout=self.timeout,
            )

        await self._pool.run("oracle apply_write", True, q)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()


_ORACLE_SCHEMA = ("CREATE TABLE IF NOT EXISTS timestamp_oracle (timeline TEXT PRIMARY KEY, read_ts INTEGER NOT NULL, write_ts INTEGER NOT NULL)",)


class SqliteOracle(Oracle):
    """The oracle row in a SQLite file (WAL mode), safe across processes.

    Its updates are not synced to disk on their own (``synchronous =
    NORMAL``: durable across a process crash, and synced by the next commit
    of the consensus in the same file): the oracle is recoverable from the
    txns shard, whose upper the database applies when it opens
    (``Database.open``), so a power loss that drops its last updates drops
    nothing a reader needs."""

    kind = "sqlite"

    def __init__(self, path: str, timeline: str):
        self.path = path
        self.timeline = timeline
        self._conns = SqliteConnections(lambda: sqlite_connect(self.path, synchronous="NORMAL", setup=_ORACLE_SCHEMA))
        self._writes = SqliteLoopWrites(path, "NORMAL", _ORACLE_SCHEMA, self._conn, lambda e, mutating: sqlite_error(e, mutating, "sqlite oracle"))

    @classmethod
    async def open(cls, path: str, *, timeline: str = "txngate", setting: str = "consensus") -> "SqliteOracle":
        folder = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise ConfigError(setting, f"cannot create folder {folder} for the SQLite file: {e.strerror}") from e
        self = cls(path, timeline)
        try:
            await self._run(lambda c: c.execute("INSERT OR IGNORE INTO timestamp_oracle VALUES (?, 0, 0)", (timeline,)))
            self._read_now(lambda c: None)  # the event loop's own connection, for read_ts, made here where waiting is fine
        except DeterminateError as e:
            raise ConfigError(setting, f"cannot open SQLite database {path}: {e}") from e
        return self

    def _conn(self) -> sqlite3.Connection:
        return self._conns.get()

    async def _run(self, fn):
        """A write of the oracle row: at once on the loop when the lock is
        free, else on its writer thread (``SqliteLoopWrites``)."""
        return await self._writes.run(fn)

    async def write_ts(self) -> int:
        return await self._run(
            lambda c: c.execute(
                "UPDATE timestamp_oracle SET write_ts = max(write_ts + 1, ?) WHERE timeline = ? RETURNING write_ts", (now_ms(), self.timeline)
            ).fetchone()[0]
        )

    async def read_ts(self) -> int:
        # A read of one row by its key in WAL mode (readers never wait for the writer): on the event loop itself,
        # which costs less than the hop to a thread and back
        return self._read_now(lambda c: c.execute("SELECT read_ts FROM timestamp_oracle WHERE timeline = ?", (self.timeline,)).fetchone()[0])

    def _read_now(self, fn):
        try:
            return fn(self._conn())
        except sqlite3.Error as e:
            raise DeterminateError(f"sqlite oracle: {e}") from e

    async def apply_write(self, ts: int) -> None:
        await self._run(
            lambda c: c.execute(
                "UPDATE timestamp_oracle SET read_ts = max(read_ts, ?1), write_ts = max(write_ts, ?1) WHERE timeline = ?2", (ts, self.timeline)
            )
        )

    async def close(self) -> None:
        self._writes.close()
        self._conns.close()


async def open_oracle(url: str, *, timeline: str = "txngate", setting: str = "consensus") -> Oracle:
    """The oracle stored where a Consensus URL points (same database)."""
    scheme = urlsplit(url).scheme.lower() if "://" in url else ""
    if scheme in ("postgres", "postgresql"):
        return await PostgresOracle.open(url, timeline=timeline, setting=setting)
    if scheme == "sqlite":
        path = unquote(urlsplit(url).path)
        if not path or path == "/":
            raise ConfigError(setting, f"{url!r} names no path")
        q = parse_qs(urlsplit(url).query)
        return await SqliteOracle.open(path, timeline=q.get("timeline", [timeline])[-1], setting=setting)
    if scheme == "mem":
        return MemOracle()
    raise ConfigError(setting, f"no timestamp oracle for {url!r} (use postgres://, sqlite:// or mem://)")
