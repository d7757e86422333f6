"""Consensus over SQLite (the embedded default).

One table ``consensus(shard TEXT, seqno INTEGER, data BLOB, PRIMARY KEY
(shard, seqno))`` in a database file opened in WAL mode. Safe across threads
(each worker thread has its own connection) and across processes sharing the
file (SQLite's file locks serialize writers; ``busy_timeout`` makes a writer
wait for the lock instead of failing).

Compare-and-set is one statement, so it is atomic under SQLite's write lock:

    INSERT INTO consensus (shard, seqno, data)
    SELECT ?1, ?2, ?3
     WHERE EXISTS (SELECT 1 FROM consensus WHERE shard = ?1 AND seqno = ?2 - 1)
        ON CONFLICT DO NOTHING

It inserts at ``expected + 1`` only when the row at ``expected`` exists and no
row at ``expected + 1`` does; because seqnos are contiguous and truncation
never removes the head, that is exactly "the head is at ``expected``". (For
``expected = None`` the condition is "no row for the shard exists".) One row
changed means we won; zero means someone else did.

``synchronous=FULL`` by default: an acknowledged CaS survives power loss.

Writes that do not sync the disk (``synchronous`` OFF or NORMAL: the
timestamp oracle's) are tried first on the event loop's own write
connection, which never waits for the lock (``busy_timeout = 0``): a
one-row write in WAL mode costs a fraction of the hop to a thread and back
(measured: 0.23 ms against 0.66 ms idle, and the hop grows to milliseconds
when the process is busy, its threads taking turns at the GIL; the
oracle's apply_write went from 0.95 ms to 0.07 ms in a TPC-B loop). A
write that syncs (FULL, the consensus's default: an fsync, as long as the
disk takes) or finds the lock held (another process's, or this one's
writer thread; it had no effect) goes to the writer thread
(``LoopWrites.run``): writes of one process that contend for the lock
wait in that connection's busy handler, which sleeps in steps of
milliseconds; queued on one thread they wait only for each other. The
loop's connection never checkpoints the WAL on its own (a checkpoint is a
copy of up to the whole log, too long for the loop): every
``CHECKPOINT_EVERY`` of its writes one runs on the writer thread.

Errors: SQLite reports failures before committing (the statement is rolled
back), so every error is determinate, except an ``OperationalError`` raised
while committing the write, which is mapped to indeterminate to stay safe.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from storage.errors import ConfigError, DeterminateError, IndeterminateError
from storage.location.consensus import (
    SCAN_ALL,
    Consensus,
    VersionedData,
    check_cas_args,
    check_key,
    check_scan_args,
    truncate_past_head,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS consensus (
    shard TEXT NOT NULL,
    seqno INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (shard, seqno)
) WITHOUT ROWID
"""

_CAS_NEXT = """
INSERT INTO consensus (shard, seqno, data)
SELECT ?1, ?2, ?3
 WHERE EXISTS (SELECT 1 FROM consensus WHERE shard = ?1 AND seqno = ?2 - 1)
ON CONFLICT DO NOTHING
"""

_CAS_FIRST = """
INSERT INTO consensus (shard, seqno, data)
SELECT ?1, 0, ?2
 WHERE NOT EXISTS (SELECT 1 FROM consensus WHERE shard = ?1)
ON CONFLICT DO NOTHING
"""


def connect(path: str, *, synchronous: str = "FULL", busy_timeout_ms: int = 30_000, setup: tuple[str, ...] = ()) -> sqlite3.Connection:
    """A connection to the SQLite file ``path`` in WAL mode (shared by the
    consensus and the timestamp oracle kept in one file), after ``setup``
    statements. Processes opening a new file at once (the workers of one
    gateway) may find it locked while another switches it to WAL, which
    SQLite reports at once rather than through the busy handler: the setup
    is retried until ``busy_timeout_ms`` has passed."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.005
    while True:
        conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {synchronous}")
            for sql in setup:
                conn.execute(sql)
            return conn
        except sqlite3.OperationalError as e:
            conn.close()
            if "locked" not in str(e) or time.monotonic() + delay > deadline:
                raise
            time.sleep(delay)  # on a worker thread (or at open), never the event loop's
            delay = min(delay * 2, 0.2)


#: Scans of at most this many entries read on the event loop, as ``head`` does.
SCAN_NOW = 128

#: The event loop's writes between two WAL checkpoints on the writer thread.
CHECKPOINT_EVERY = 256


class ThreadConnections:
    """One connection per thread to a SQLite file (``open_one()`` makes a
    thread's first), all closed together by ``close``."""

    def __init__(self, open_one):
        self._open_one = open_one
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open_one()
            with self._lock:
                self._conns.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            conn.close()


def mapped(e: sqlite3.Error, mutating: bool, what: str) -> Exception:
    """The storage error for ``e``: "database is locked" after the busy
    timeout, I/O errors: the statement was rolled back (determinate), except
    that an I/O error while committing a write cannot be told apart from one
    after it (indeterminate, to stay safe)."""
    if mutating and isinstance(e, sqlite3.OperationalError) and "disk I/O error" in str(e):
        return IndeterminateError(f"{what}: {e}")
    return DeterminateError(f"{what}: {e}")


def _busy(e: sqlite3.OperationalError) -> bool:
    """Whether ``e`` says the write lock was held (the statement did nothing)."""
    return "locked" in str(e) or "busy" in str(e)


class LoopWrites:
    """Writes to one SQLite file tried at once on the event loop's thread,
    else queued on one writer thread (see the module docstring). ``fn(conn)``
    is one autocommit statement, or a transaction it begins and ends
    itself; ``errors(e, mutating)`` turns a sqlite3 error into a storage
    one."""

    def __init__(self, path: str, synchronous: str, setup: tuple[str, ...], connection, errors):
        self.path, self.synchronous, self.setup = path, synchronous, setup
        self._connection, self._mapped = connection, errors  # (a thread's own pooled connection)
        self._now = ThreadConnections(self._open_now)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"sqlite-write-{os.path.basename(path)}")
        self._since_checkpoint = 0
        self.stats = {"now": 0, "queued": 0, "checkpoints": 0}

    def _open_now(self) -> sqlite3.Connection:
        conn = connect(self.path, synchronous=self.synchronous, setup=self.setup)
        conn.execute("PRAGMA busy_timeout = 0")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        return conn

    async def run(self, fn, *, now: bool = True):
        """``fn(conn)``'s result: at once when the lock is free (``now``)
        and the write does not sync the disk, else on the writer thread."""
        if now and self.synchronous.upper() in ("OFF", "NORMAL"):
            conn = self._now.get()
            try:
                out = fn(conn)
            except sqlite3.OperationalError as e:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if not _busy(e):
                    raise self._mapped(e, True) from e
            except sqlite3.Error as e:
                raise self._mapped(e, True) from e
            else:
                self.stats["now"] += 1
                self._since_checkpoint += 1
                if self._since_checkpoint >= CHECKPOINT_EVERY:
                    self._since_checkpoint = 0
                    self._thread.submit(self._checkpoint)
                return out
        self.stats["queued"] += 1
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._on_thread, fn)

    def _on_thread(self, fn):
        try:
            return fn(self._connection())
        except sqlite3.Error as e:
            raise self._mapped(e, True) from e

    def _checkpoint(self) -> None:
        try:
            self._connection().execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.stats["checkpoints"] += 1
        except sqlite3.Error:
            pass  # the next one copies what this one did not

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self._now.close()


class SqliteConsensus(Consensus):
    kind = "sqlite"

    def __init__(self, path: str, *, synchronous: str = "FULL", threads: int = 4, busy_timeout_ms: int = 30_000):
        self.path = path
        self.synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self._conns = ThreadConnections(
            lambda: connect(self.path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms, setup=(_SCHEMA,)))
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sqlite-consensus")
        self._writes = LoopWrites(path, synchronous, (_SCHEMA,), self._conn, lambda e, mutating: mapped(e, mutating, "sqlite consensus"))
        self._closed = False

    @classmethod
    async def open(cls, path: str, *, synchronous: str = "FULL", setting: str = "consensus") -> "SqliteConsensus":
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ConfigError(setting, f"sqlite synchronous must be off, normal, full or extra, got {synchronous!r}")
        folder = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise ConfigError(setting, f"cannot create folder {folder} for the SQLite file: {e.strerror}") from e
        self = cls(path, synchronous=synchronous.upper())
        try:
            await self._run(lambda conn: None)
            self._conn()  # the event loop's own connection, for reads (head), made here where waiting is fine
        except (DeterminateError, sqlite3.Error) as e:
            await self.close()
            raise ConfigError(setting, f"cannot open SQLite database {path}: {e.__cause__ or e}") from e
        return self

    def _conn(self) -> sqlite3.Connection:
        return self._conns.get()

    async def _run(self, fn, *, mutating: bool = False, now: bool = True):
        """``fn(conn)`` on a pooled thread, or a write (``mutating``) tried
        on the loop first (``now``, ``LoopWrites``)."""
        if self._closed:
            raise DeterminateError("sqlite consensus is closed")
        if mutating:
            return await self._writes.run(fn, now=now)

        def call():
            try:
                return fn(self._conn())
            except sqlite3.Error as e:
                raise mapped(e, False, "sqlite consensus") from e

        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def head(self, key: str) -> VersionedData | None:
        check_key(key)

        def q(conn):
            row = conn.execute(
                "SELECT seqno, data FROM consensus WHERE shard = ? ORDER BY seqno DESC LIMIT 1", (key,)
            ).fetchone()
            return VersionedData(row[0], bytes(row[1])) if row else None

        return self._read_now(q)

    def _read_now(self, fn):
        """A read of one key's newest row, on the event loop itself (WAL:
        readers never wait for the writer; the hop to a thread and back
        costs more than the read)."""
        if self._closed:
            raise DeterminateError("sqlite consensus is closed")
        try:
            return fn(self._conn())
        except sqlite3.Error as e:
            raise DeterminateError(f"sqlite consensus: {e}") from e

    async def compare_and_set(self, key: str, expected: int | None, data: bytes) -> bool:
        seqno = check_cas_args(key, expected, data)
        data = bytes(data)

        def q(conn):
            if expected is None:
                cur = conn.execute(_CAS_FIRST, (key, data))
            else:
                cur = conn.execute(_CAS_NEXT, (key, seqno, data))
            return cur.rowcount == 1

        return await self._run(q, mutating=True)

    async def scan(self, key: str, from_seqno: int = 0, limit: int = SCAN_ALL) -> list[VersionedData]:
        check_scan_args(key, from_seqno, limit)

        def q(conn):
            rows = conn.execute(
                "SELECT seqno, data FROM consensus WHERE shard = ? AND seqno >= ? ORDER BY seqno LIMIT ?",
                (key, from_seqno, min(limit, 2**62)),
            ).fetchall()
            return [VersionedData(s, bytes(d)) for s, d in rows]

        # a few rows by key, like head (a shard's machine catching up): on the loop
        return self._read_now(q) if limit <= SCAN_NOW else await self._run(q)

    async def truncate(self, key: str, before: int) -> int:
        check_key(key)

        def q(conn):
            # Check the head and delete in one write transaction so a
            # concurrent CaS cannot interleave (BEGIN IMMEDIATE takes the
            # write lock up front).
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT max(seqno) FROM consensus WHERE shard = ?", (key,)).fetchone()
                head = row[0] if row else None
                if head is None or before > head:
                    conn.execute("ROLLBACK")
                    return truncate_past_head(key, before, head)
                cur = conn.execute("DELETE FROM consensus WHERE shard = ? AND seqno < ?", (key, before))
                conn.execute("COMMIT")
                return cur.rowcount
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        result = await self._run(q, mutating=True, now=False)  # a delete of many rows: never on the loop
        if isinstance(result, Exception):
            raise result
        return result

    async def list_keys(self) -> list[str]:
        return await self._run(lambda conn: [r[0] for r in conn.execute("SELECT DISTINCT shard FROM consensus ORDER BY shard")])

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=True)
        self._writes.close()
        self._conns.close()
