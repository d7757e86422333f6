"""storage: the transactional lake engine txngate's tables live in.

Sub-packages, lowest first (each imports only those before it):

* ``storage.location``: Blob (fs, s3, mem) and Consensus (postgres, sqlite,
  mem), the only places anything is made durable;
* ``storage.persist``: shards of ``(row, time, diff)`` updates with ``upper``
  and ``since`` frontiers, batches in Blob, state in Consensus;
* ``storage.txns``: the txns shard that commits to many data shards
  atomically, plus apply/tidy and data snapshots;
* ``storage.oracle``: the timestamp oracle.

Errors for all of them live in ``storage.errors``.
"""

from storage.errors import (
    CommitUnknown,
    ConfigError,
    Conflict,
    DeterminateError,
    IndeterminateError,
    LocationError,
    ShardNotRegistered,
    TxngateError,
    UsageError,
)

__all__ = [
    "CommitUnknown",
    "ConfigError",
    "Conflict",
    "DeterminateError",
    "IndeterminateError",
    "LocationError",
    "ShardNotRegistered",
    "TxngateError",
    "UsageError",
]
