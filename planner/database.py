"""A txngate database: storage, the txns shard, the oracle, the catalog and
the local engine, shared by every session of a process.

``Database.open(consensus_url, blob_url)`` opens (creating on first use) the
environment: Consensus and the timestamp oracle live in the same store
(PostgreSQL or SQLite), data in Blob; the catalog shard is registered in the
txns set. Sessions come from ``database.session()``.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

from storage.location import open_blob, open_consensus
from storage.oracle import open_oracle
from storage.persist import PersistClient, PersistConfig
from storage.txns import GroupCommitter, TxnsHandle

from local_exec import LocalEngine, SnapshotCache
from planner.catalog import CATALOG_SCHEMA, CATALOG_SHARD, Catalog
from planner.pgcatalog import macros


class BindCache:
    """Bound statements by (statement node, catalog version, search path).

    Parsed statements are cached by query text (``parse.parse``), so a
    repeated query brings the same node and binds once per catalog version.
    Entries hold their node and catalog, so the ids in a key stay theirs."""

    def __init__(self, size: int = 512):
        self.size = size
        self._entries: OrderedDict = OrderedDict()

    def get(self, node, catalog, search_path):
        hit = self._entries.get((id(node), id(catalog), search_path))
        if hit is None or hit[0] is not node or hit[1] is not catalog:
            return None
        return hit[2]

    def put(self, node, catalog, search_path, bound) -> None:
        self._entries[(id(node), id(catalog), search_path)] = (node, catalog, bound)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


class Database:
    def __init__(self, consensus, blob, oracle, client: PersistClient, txns: TxnsHandle, engine: LocalEngine):
        self.consensus = consensus
        self.blob = blob
        self.oracle = oracle
        self.client = client
        self.txns = txns
        self.engine = engine
        self.group = GroupCommitter(txns, oracle)
        self.snapshots = SnapshotCache(txns)
        self._catalogs: dict[int, Catalog] = {}
        self.bind_cache = BindCache()
        self.sessions: weakref.WeakSet = weakref.WeakSet()  # open sessions, for pg_stat_activity

    @classmethod
    async def open(cls, consensus_url: str, blob_url: str, *, config: PersistConfig | None = None) -> "Database":
        consensus = await open_consensus(consensus_url, setting="--consensus")
        blob = await open_blob(blob_url, setting="--blob")
        oracle = await open_oracle(consensus_url, setting="--consensus")
        client = PersistClient(blob, consensus, config or PersistConfig())
        txns = await TxnsHandle.open(client)
        await client.create_shard(CATALOG_SHARD, CATALOG_SCHEMA)
        await txns.register(CATALOG_SHARD, 0)
        return cls(consensus, blob, oracle, client, txns, LocalEngine(macros=macros()))

    def session(self, **kwargs):
        from planner.session import Session

        return Session(self, **kwargs)

    async def catalog_at(self, ts: int) -> Catalog:
        """The catalog as of ``ts`` (cached per catalog write)."""
        await self.txns.data_snapshot(CATALOG_SHARD, ts)
        version = self.txns.cache.latest_write_le(CATALOG_SHARD, ts)
        if version is not None and not self.txns.cache.changed_between(CATALOG_SHARD, version, ts):
            cached = self._catalogs.get(version)
            if cached is not None:
                return cached
        catalog = Catalog.from_table(await self.txns.read(CATALOG_SHARD, ts))
        if version is not None:
            self._catalogs[version] = catalog
        return catalog

    async def close(self) -> None:
        await self.client.close()
        await self.oracle.close()
        await self.blob.close()
        await self.consensus.close()
        self.engine.close()
