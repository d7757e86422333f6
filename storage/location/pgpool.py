"""A minimal pool of asyncpg connections for autocommit statements, shared
by the PostgreSQL Consensus and the PostgreSQL timestamp oracle.

asyncpg's own pool costs a task, a shield and a reset round trip per
acquire/release, which more than halves the compare-and-set rate. This one is
a stack of idle connections and a semaphore bounding how many exist. A
connection that saw a transport error or timeout is terminated, never reused
(its state is unknown); the next acquire opens a fresh one.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from storage.errors import ConfigError, DeterminateError, IndeterminateError
from storage.location.urls import redact_url

_OUR_OPTIONS = {"pool_size", "table", "timeout", "timeline"}


def split_dsn(url: str, setting: str = "consensus") -> tuple[str, dict[str, str]]:
    """Separate txngate's own query options from the libpq-style DSN."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ConfigError(setting, f"{url!r} is not a postgres:// URL")
    query = parse_qs(parts.query, keep_blank_values=True)
    ours = {k: v[-1] for k, v in query.items() if k in _OUR_OPTIONS}
    rest = {k: v for k, v in query.items() if k not in _OUR_OPTIONS}
    dsn = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(rest, doseq=True), parts.fragment))
    return dsn, ours


class ConnPool:
    """A minimal pool of asyncpg connections for autocommit statements.

    asyncpg's own pool costs a task, a shield and a reset round trip per
    acquire/release, which more than halves the CaS rate. Ours is a stack of
    idle connections and a semaphore bounding how many exist. A connection
    that saw a transport error or timeout is terminated, never reused (its
    state is unknown); the next acquire opens a fresh one.
    """

    def __init__(self, dsn: str, *, max_size: int, connect_timeout: float):
        self.dsn = dsn
        self.connect_timeout = connect_timeout
        self._slots = asyncio.Semaphore(max_size)
        self._idle: list = []
        self._closed = False

    async def _connect(self):
        import asyncpg

        return await asyncpg.connect(self.dsn, timeout=self.connect_timeout, statement_cache_size=64)

    async def prime(self) -> None:
        """Open one connection now, so bad configuration fails at open time."""
        self._idle.append(await self._connect())

    async def acquire(self):
        if self._closed:
            raise DeterminateError("postgres consensus is closed")
        await self._slots.acquire()
        try:
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
            return await self._connect()
        except BaseException:
            self._slots.release()
            raise

    def release(self, conn, *, broken: bool) -> None:
        if broken or self._closed or conn.is_closed():
            conn.terminate()
        else:
            self._idle.append(conn)
        self._slots.release()

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close(timeout=5)

    async def run(self, what: str, mutating: bool, fn):
        """Run ``fn(conn)`` on a pooled connection, mapping failures onto
        determinate/indeterminate errors.

        The pool failing to hand out a connection, or the server answering
        an autocommit statement with an error (so it rolled back), is
        determinate. A timeout or broken connection after sending is
        indeterminate for a mutating call (it may have committed); reads are
        always determinate.
        """
        import asyncpg

        try:
            conn = await self.acquire()
        except DeterminateError:
            raise
        except Exception as e:  # noqa: BLE001 - nothing was sent
            raise DeterminateError(f"{what}: no connection: {e}") from e
        broken = True
        try:
            result = await fn(conn)
            broken = False
            return result
        except asyncpg.PostgresError as e:
            sqlstate = getattr(e, "sqlstate", "") or ""
            if sqlstate.startswith("08") or sqlstate.startswith("57P"):
                # Connection-class errors and admin shutdown: the answer may be lost.
                if mutating:
                    raise IndeterminateError(f"{what}: {e}") from e
                raise DeterminateError(f"{what}: {e}") from e
            broken = False
            raise DeterminateError(f"{what}: {e}") from e
        except (asyncio.TimeoutError, OSError, asyncpg.InterfaceError, ConnectionError) as e:
            if mutating:
                raise IndeterminateError(f"{what}: {type(e).__name__}: {e}") from e
            raise DeterminateError(f"{what}: {type(e).__name__}: {e}") from e
        finally:
            self.release(conn, broken=broken)


async def open_pool(url: str, *, setting: str, default_pool_size: int = 8) -> tuple[ConnPool, dict[str, str], float]:
    """Open a pool for a ``postgres://`` URL, checking it at once; return the
    pool, txngate's own URL options, and the statement timeout in seconds.
    Bad configuration raises ``ConfigError`` naming ``setting``."""
    import asyncpg

    dsn, ours = split_dsn(url, setting)
    try:
        pool_size = int(ours.get("pool_size", str(default_pool_size)))
        timeout = float(ours.get("timeout", "30"))
    except ValueError as e:
        raise ConfigError(setting, f"bad number in postgres options: {e}") from e
    pool = ConnPool(dsn, max_size=max(1, pool_size), connect_timeout=min(timeout, 10.0))
    try:
        await pool.prime()
    except (OSError, asyncio.TimeoutError) as e:
        raise ConfigError(setting, f"cannot reach PostgreSQL at {redact_url(url)}: {e}") from e
    except asyncpg.InvalidPasswordError as e:
        raise ConfigError(setting, f"PostgreSQL refused the credentials for {redact_url(url)}: {e}") from e
    except asyncpg.InvalidCatalogNameError as e:
        raise ConfigError(setting, f"PostgreSQL database does not exist: {e}") from e
    except asyncpg.PostgresError as e:
        raise ConfigError(setting, f"PostgreSQL refused the connection to {redact_url(url)}: {e}") from e
    except Exception as e:  # noqa: BLE001 - e.g. a malformed DSN
        raise ConfigError(setting, f"cannot connect to PostgreSQL at {redact_url(url)}: {e}") from e
    return pool, ours, timeout
