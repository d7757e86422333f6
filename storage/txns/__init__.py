"""storage.txns: atomic writes to any number of data shards (seed 000).

Public API:

* ``TxnsHandle.open(client, txns_id, init_ts)``: ``register``, ``forget``,
  ``begin`` (a ``Txn``: ``write``, ``write_batch``, ``merge``, ``commit_at``,
  ``apply``, ``abort``), ``apply_le``, ``tidy``, ``compact_to``,
  ``data_snapshot``, ``read``, ``estimate_bytes``, ``lease_parts``, ``validate``; its ``cache`` (``TxnsCache``)
  answers registration and latest-write questions;
* ``GroupCommitter(txns, oracle).commit(txn)``: group commit;
* ``loops``: ``read_only``, ``commit_write_only``, ``read_then_write``.
"""

from storage.txns.cache import TXNS_SCHEMA, TxnsCache
from storage.txns.group import GroupCommitter, commit_write_only
from storage.txns.handle import CommitResult, Txn, TxnsHandle
from storage.txns.loops import RtwResult, read_only, read_then_write

__all__ = [
    "CommitResult",
    "GroupCommitter",
    "RtwResult",
    "TXNS_SCHEMA",
    "Txn",
    "TxnsCache",
    "TxnsHandle",
    "commit_write_only",
    "read_only",
    "read_then_write",
]
