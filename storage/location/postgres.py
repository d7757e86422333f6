"""Consensus over PostgreSQL, through an asyncpg connection pool.

One table, created on first use:

    consensus(shard text, seqno bigint, data bytea, PRIMARY KEY (shard, seqno))

Compare-and-set is a single INSERT that succeeds only if the row at the
expected seqno exists, locking that row ``FOR KEY SHARE`` so a concurrent
truncation cannot delete it between the check and the insert; the primary key
makes exactly one of several racing inserts at the same seqno succeed (the
others see a conflict and insert nothing):

    INSERT INTO consensus (shard, seqno, data)
    SELECT $1, $2, $3 FROM consensus
     WHERE shard = $1 AND seqno = $2 - 1
       FOR KEY SHARE
    ON CONFLICT DO NOTHING

Because seqnos are contiguous and truncation never removes the head, "row
``expected`` exists and row ``expected + 1`` does not" is exactly "the head is
at ``expected``". One row inserted: we won. Zero: someone else did.

Error mapping: the pool failing to hand out a connection, or the server
returning an error for an autocommit statement (which rolled it back), is
determinate. A timeout or a broken connection after the statement was sent is
indeterminate for CaS and truncate (it may have committed); reads are always
determinate.

No value is ever formatted into SQL text; the table name is a validated
identifier quoted once at construction.
"""

from __future__ import annotations

import re

from storage.errors import ConfigError
from storage.location.pgpool import open_pool, split_dsn
from storage.location.consensus import (
    SCAN_ALL,
    Consensus,
    VersionedData,
    check_cas_args,
    check_key,
    check_scan_args,
    truncate_past_head,
)

_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class PostgresConsensus(Consensus):
    kind = "postgres"

    def __init__(self, pool, *, table: str = "consensus", timeout: float = 30.0):
        if not _IDENT.match(table):
            raise ConfigError("consensus", f"table name {table!r} is not a plain lower-case identifier")
        self._pool = pool
        self.table = table
        self.timeout = timeout
        t = f'"{table}"'
        self._sql_head = f"SELECT seqno, data FROM {t} WHERE shard = $1 ORDER BY seqno DESC LIMIT 1"
        self._sql_cas_next = (
            f"INSERT INTO {t} (shard, seqno, data) SELECT $1, $2::bigint, $3 FROM {t} "
            f"WHERE shard = $1 AND seqno = $2::bigint - 1 FOR KEY SHARE ON CONFLICT DO NOTHING"
        )
        self._sql_cas_first = (
            f"INSERT INTO {t} (shard, seqno, data) SELECT $1, 0, $2 "
            f"WHERE NOT EXISTS (SELECT 1 FROM {t} WHERE shard = $1) ON CONFLICT DO NOTHING"
        )
        self._sql_scan = f"SELECT seqno, data FROM {t} WHERE shard = $1 AND seqno >= $2 ORDER BY seqno LIMIT $3"
        # Deletes only rows below the head as of this statement's snapshot.
        # The head only grows, so the row deleted is never the head, however
        # CaS and other truncations interleave. A CaS whose expected row is
        # deleted under it was stale anyway (a later row existed). Rows are
        # locked in seqno order first, so concurrent truncations of one key
        # cannot deadlock each other.
        self._sql_truncate = (
            f"WITH head AS (SELECT max(seqno) AS seqno FROM {t} WHERE shard = $1), "
            f"victims AS (SELECT seqno FROM {t} WHERE shard = $1 AND seqno < $2 "
            f"AND $2 <= (SELECT seqno FROM head) ORDER BY seqno FOR UPDATE), "
            f"del AS (DELETE FROM {t} c USING victims v WHERE c.shard = $1 AND c.seqno = v.seqno RETURNING 1) "
            f"SELECT (SELECT seqno FROM head), (SELECT count(*) FROM del)"
        )
        self._sql_keys = f"SELECT DISTINCT shard FROM {t} ORDER BY shard"

    @classmethod
    async def open(cls, url: str, *, setting: str = "consensus") -> "PostgresConsensus":
        table = split_dsn(url, setting)[1].get("table", "consensus")
        if not _IDENT.match(table):
            raise ConfigError(setting, f"table name {table!r} is not a plain lower-case identifier")
        pool, _ours, timeout = await open_pool(url, setting=setting)
        self = cls(pool, table=table, timeout=timeout)
        try:
            await self._create_table()
        except Exception:
            await pool.close()
            raise
        return self

    async def _create_table(self) -> None:
        import asyncpg

        sql = (
            f'CREATE TABLE IF NOT EXISTS "{self.table}" '
            "(shard text NOT NULL, seqno bigint NOT NULL, data bytea NOT NULL, PRIMARY KEY (shard, seqno))"
        )
        conn = await self._pool.acquire()
        try:
            # Two processes creating the table at once can collide on the
            # catalog even with IF NOT EXISTS; an advisory lock serializes them.
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"txngate.{self.table}")
                try:
                    await conn.execute(sql)
                except asyncpg.InsufficientPrivilegeError as e:
                    raise ConfigError("consensus", f"not allowed to create table {self.table}: {e}") from e
        finally:
            self._pool.release(conn, broken=False)

    async def _call(self, what: str, mutating: bool, fn):
        return await self._pool.run(f"postgres consensus {what}", mutating, fn)

    async def head(self, key: str) -> VersionedData | None:
        check_key(key)

        async def q(conn):
            row = await conn.fetchrow(self._sql_head, key, timeout=self.timeout)
            return VersionedData(row[0], bytes(row[1])) if row else None

        return await self._call("head", False, q)

    async def compare_and_set(self, key: str, expected: int | None, data: bytes) -> bool:
        seqno = check_cas_args(key, expected, data)
        data = bytes(data)

        async def q(conn):
            if expected is None:
                status = await conn.execute(self._sql_cas_first, key, data, timeout=self.timeout)
            else:
                status = await conn.execute(self._sql_cas_next, key, seqno, data, timeout=self.timeout)
            return status == "INSERT 0 1"

        return await self._call("compare_and_set", True, q)

    async def scan(self, key: str, from_seqno: int = 0, limit: int = SCAN_ALL) -> list[VersionedData]:
        check_scan_args(key, from_seqno, limit)

        async def q(conn):
            rows = await conn.fetch(self._sql_scan, key, from_seqno, min(limit, 2**62), timeout=self.timeout)
            return [VersionedData(r[0], bytes(r[1])) for r in rows]

        return await self._call("scan", False, q)

    async def truncate(self, key: str, before: int) -> int:
        check_key(key)

        async def q(conn):
            return await conn.fetchrow(self._sql_truncate, key, before, timeout=self.timeout)

        head, deleted = await self._call("truncate", True, q)
        if head is None or before > head:
            raise truncate_past_head(key, before, head)
        return int(deleted)

    async def list_keys(self) -> list[str]:
        async def q(conn):
            return [r[0] for r in await conn.fetch(self._sql_keys, timeout=self.timeout)]

        return await self._call("list_keys", False, q)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
