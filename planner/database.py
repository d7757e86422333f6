"""A txngate database: storage, the txns shard, the oracle, the catalog and
the local engine, shared by every session of a process.

``Database.open(consensus_url, blob_url)`` opens (creating on first use) the
environment: Consensus and the timestamp oracle live in the same store
(PostgreSQL or SQLite), data in Blob; the catalog shard is registered in the
txns set. Sessions come from ``database.session()``.

Every ``SINCE_INTERVAL`` seconds a background task lets compaction forget
the history of the tables this process reads: each data shard's since moves
up to the oldest read timestamp still held by work in flight, and never
past the time the snapshot cache holds the table at
(``TxnsHandle.downgrade_data_sinces``). Without it, a table's old row
versions and their retractions would never cancel out.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from typing import Callable

from storage.location import open_blob, open_consensus
from storage.metrics import Histogram, family
from storage.oracle import open_oracle
from storage.persist import PersistClient, PersistConfig
from storage.sequence import Sequences
from storage.txns import Committer, TxnsHandle

from local_exec import LocalEngine, SnapshotCache
from spark_exec import BlobAccess, SparkEngine, SparkRuntime
from planner.bind import Binder, transpile
from planner.catalog import CATALOG_SCHEMA, CATALOG_SHARD, Catalog
from planner.pgcatalog import macros, session_activity


logger = logging.getLogger(__name__)

#: seconds between data since downgrades
SINCE_INTERVAL = 5.0
#: seconds between reads of the txns shard that let its history go
#: (``TxnsHandle.follow``), which keep it small when this process is idle
FOLLOW_INTERVAL = 1.0
#: catalog versions kept built
CATALOG_VERSIONS = 16


def _native_path(blob, spark_conf):
    """How Spark reads parts itself: files of a local folder; ``s3a://``
    objects when the Spark configuration sets up the S3A connector;
    otherwise None (the ``txngate_parts`` data source reads them)."""
    if blob.external_path("x") is not None:
        return blob.external_path
    bucket = getattr(blob, "bucket", None)
    if bucket is not None and any(k.startswith("spark.hadoop.fs.s3a.") for k, _v in spark_conf):
        prefix = f"{blob.prefix}/" if blob.prefix else ""
        return lambda key: f"s3a://{bucket}/{prefix}{key}"
    return None


class BindCache:
    """Bound statements by (statement node, catalog version, search path).

    Parsed statements are cached by query text (``parse.parse``), so a
    repeated query brings the same node and binds once per catalog version.
    Entries hold their node and catalog version, so the ids in a key stay
    theirs. ``bind`` replays into the reader's catalog view the keys the
    binding looked up, so a cached binding joins the read set as a fresh
    one does."""

    def __init__(self, size: int = 512):
        self.size = size
        self._entries: OrderedDict = OrderedDict()

    async def bind(self, node, catalog, search_path, emulation):
        """``node`` bound against ``catalog`` (a work's view of a version);
        a binding not cached is made on a worker thread, so a huge statement
        (a 20 MB literal) does not stall the other sessions."""
        version = catalog.base
        hit = self._entries.get((id(node), id(version), search_path))
        if hit is None or hit[0] is not node or hit[1] is not version:
            hit = await asyncio.to_thread(self._bind, node, catalog, search_path, emulation)
        for keys in hit[3]:
            catalog.saw(keys)
        return hit[2]

    def _bind(self, node, catalog, search_path, emulation):
        version = catalog.base
        hit = self._entries.get((id(node), id(version), search_path))
        if hit is None or hit[0] is not node or hit[1] is not version:
            seen: list = []
            bound = Binder(catalog.base.seen_by(seen.append), search_path, emulation).bind(node)
            hit = (node, version, bound, seen)
            if not bound.uncacheable:
                self._keep((id(node), id(version), search_path), hit)
        return hit

    def described(self, node, catalog, search_path, describe: Callable):
        """``describe(catalog)`` of ``node`` (what its result's columns
        read and are: ``Session._with_origins``), cached as bindings are: a
        repeated query pays for it once per catalog version (2 ms of TPC-H
        Q2's 9 at scale factor 0.1 when made each time)."""
        version = catalog.base
        key = ("described", id(node), id(version), search_path)
        hit = self._entries.get(key)
        if hit is None or hit[0] is not node or hit[1] is not version:
            seen: list = []
            hit = (node, version, describe(version.seen_by(seen.append)), seen)
            self._keep(key, hit)
        for keys in hit[3]:
            catalog.saw(keys)
        return hit[2]

    def _keep(self, key, hit) -> None:
        self._entries[key] = hit
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


class Database:
    def __init__(self, consensus, blob, oracle, client: PersistClient, txns: TxnsHandle, engine: LocalEngine, spark: SparkEngine | None = None):
        self.consensus = consensus
        self.sequences = Sequences(consensus)
        self.spark = spark
        self.blob = blob
        self.oracle = oracle
        self.client = client
        self.txns = txns
        self.engine = engine
        self.committer = Committer(txns, oracle)
        self.snapshots = SnapshotCache(txns)
        self.committer.on_commit = self.snapshots.note_commit  # its own writes, without reading them back
        self._catalogs: OrderedDict[int, Catalog] = OrderedDict()  # by version time, least recently used first
        self.bind_cache = BindCache()
        self.sessions: weakref.WeakSet = weakref.WeakSet()  # open sessions, for pg_stat_activity
        #: the other worker processes of this gateway (``gateway.peers``):
        #: ``signal(pid, terminate) -> bool`` and ``activity() -> rows``, blocking
        self.peers = None
        self.statement_seconds = Histogram()  # every statement's, by Session.run
        self.errors: dict[str, int] = {}  # statements failed, by SQLSTATE
        self._loop = asyncio.get_running_loop()
        self._sinces = self._loop.create_task(self._downgrade_sinces())
        engine.add_function("txngate_signal_backend", self.signal_backend, ["INTEGER", "BOOLEAN"], "BOOLEAN")

    def local_activity(self) -> list[dict]:
        """pg_stat_activity rows of this process's sessions."""
        return session_activity(self.sessions)

    def note_statement(self, seconds: float, sqlstate: str | None = None) -> None:
        """A statement ended (``sqlstate``: how it failed)."""
        self.statement_seconds.observe(seconds)
        if sqlstate is not None:
            self.errors[sqlstate] = self.errors.get(sqlstate, 0) + 1

    def metrics(self) -> list[dict]:
        """This process's metric families (``storage.metrics.family``)."""
        c, maintenance, cache = self.committer, self.client.maintenance, self.snapshots
        return [
            family("txngate_sessions", "gauge", "Open sessions.", len(self.sessions)),
            family("txngate_statement_seconds", "histogram", "Statement latency.", self.statement_seconds.snapshot()),
            family("txngate_statement_errors_total", "counter", "Statements failed, by SQLSTATE (40001: serialization failures).",
                   self.errors, label="sqlstate"),
            family("txngate_commits_total", "counter", "Transactions committed.", c.txns_committed),
            family("txngate_commit_groups_total", "counter", "Compare-and-appends on the txns shard that committed a group.", c.groups),
            family("txngate_commit_retries_total", "counter", "Commits validated again at a later time (recomputed or failed).", c.retries),
            family("txngate_commit_conflicts_total", "counter", "Commits refused by validation (40001 to an explicit transaction).", c.conflicts),
            family("txngate_txns_append_losses_total", "counter", "Compare-and-appends on the txns shard lost to another process.",
                   self.txns.append_losses),
            family("txngate_commit_seconds", "histogram", "Commit latency, queue to commit point.", c.latency.snapshot()),
            family("txngate_apply_backlog", "gauge", "Data shards with commits not yet applied.", c.apply_backlog),
            family("txngate_snapshot_cache_hits_total", "counter", "Table reads answered from the snapshot cache.", cache.hits),
            family("txngate_snapshot_cache_misses_total", "counter", "Table reads the snapshot cache could not answer.", cache.misses),
            family("txngate_maintenance_running", "gauge", "Background compactions and GCs under way (the backlog).",
                   {k: maintenance.running(k) for k in ("compact", "gc")}, label="kind"),
            family("txngate_maintenance_finished_total", "counter", "Background compactions and GCs done.", maintenance.finished, label="kind"),
            family("txngate_maintenance_failed_total", "counter", "Background compactions and GCs that failed.", maintenance.failed, label="kind"),
        ]

    def signal_backend(self, pid: int, terminate: bool) -> bool:
        """pg_cancel_backend / pg_terminate_backend (called from the engine's
        thread): ask the session with ``pid`` to cancel its statement or end
        its connection, on the event loop (another worker's, through
        ``peers``); whether there was one."""
        if self.peers is not None and not self.peers.is_mine(pid):
            return self.peers.signal(pid, terminate)
        for session in list(self.sessions):
            if session.backend_pid == pid:
                signal = session.on_terminate if terminate else session.on_cancel
                if signal is None:
                    return False
                self._loop.call_soon_threadsafe(signal)
                return True
        return False

    async def downgrade_sinces(self) -> int:
        """Move the data shards' sinces up now (the background task does it
        every ``SINCE_INTERVAL``); how many moved."""
        return await self.txns.downgrade_data_sinces(self.snapshots.held_ts)

    async def _downgrade_sinces(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(FOLLOW_INTERVAL)
            ticks += 1
            try:
                await self.txns.follow()  # an idle process too lets the txns shard forget
                if ticks * FOLLOW_INTERVAL >= SINCE_INTERVAL:
                    ticks = 0
                    await self.downgrade_sinces()
            except Exception:  # noqa: BLE001 - only lets compaction do more; next time
                logger.warning("downgrading sinces failed", exc_info=True)

    @classmethod
    async def open(cls, consensus_url: str, blob_url: str, *, config: PersistConfig | None = None,
                   spark_master: str | None = "local[*]", spark_conf: tuple[tuple[str, str], ...] = (),
                   cache_bytes: int | None = None) -> "Database":
        """``spark_master`` None: no Spark (every query runs locally); else
        the driver starts on the first query routed to it. ``cache_bytes``:
        the budget of table contents kept between queries (``SnapshotCache``)."""
        consensus = await open_consensus(consensus_url, setting="--consensus")
        blob = await open_blob(blob_url, setting="--blob")
        oracle = await open_oracle(consensus_url, setting="--consensus")
        client = PersistClient(blob, consensus, config or PersistConfig())
        txns = await TxnsHandle.open(client)
        upper = await txns.upper()
        if upper > 0:  # every commit readable, whatever the oracle's row lost (SqliteOracle)
            await oracle.apply_write(upper - 1)
        await client.create_shard(CATALOG_SHARD, CATALOG_SCHEMA)
        await txns.register(CATALOG_SHARD, 0)
        spark = None
        if spark_master is not None:
            runtime = SparkRuntime(spark_master, spark_conf)
            spark = SparkEngine(runtime, BlobAccess(blob_url, blob, _native_path(blob, spark_conf)))
        transpile("SELECT 1")  # sqlglot loads its dialects on first use (0.15 s): now, not in the first query
        db = cls(consensus, blob, oracle, client, txns, LocalEngine(macros=macros()), spark)
        if cache_bytes is not None:
            db.snapshots.max_bytes = cache_bytes
        return db

    def session(self, **kwargs):
        from planner.session import Session

        return Session(self, **kwargs)

    async def catalog_at(self, ts: int) -> Catalog:
        """The catalog as of ``ts``, cached per catalog version: by the time
        of its latest write when the txns cache knows it, else by the time
        it was read at (good for any later ``ts`` with no catalog write in
        between). A cached version is used without reading (or catching
        up) the catalog shard."""
        version = await self.txns.latest_write(CATALOG_SHARD, ts)
        if version is None:
            read_at = max((t for t in self._catalogs if t <= ts), default=None)
            if read_at is not None and not await self.txns.written_between(CATALOG_SHARD, read_at, ts):
                version = read_at
            else:
                version = ts
        cached = self._catalogs.get(version)
        if cached is None:
            cached = self._catalogs[version] = Catalog.from_table(await self.txns.read(CATALOG_SHARD, ts))
            while len(self._catalogs) > CATALOG_VERSIONS:
                self._catalogs.popitem(last=False)
        self._catalogs.move_to_end(version)
        return cached

    async def close(self) -> None:
        self._sinces.cancel()
        try:
            await asyncio.wait_for(self.committer.settled(), 5)
        except Exception:  # noqa: BLE001 - readers finish what is left
            logger.warning("closing with commits not yet applied or announced", exc_info=True)
        if self.spark is not None:
            await self.spark.runtime.stop()
        await self.client.close()
        await self.oracle.close()
        await self.blob.close()
        await self.consensus.close()
        self.engine.close()
