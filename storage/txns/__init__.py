"""storage.txns: atomic writes to any number of data shards (seed 000).

Public API:

* ``TxnsHandle.open(client, txns_id, init_ts)``: ``register``, ``forget``,
  ``begin`` (a ``Txn``: ``write``, ``write_batch``, ``merge``, ``commit_at``,
  ``apply``, ``abort``), ``apply_le``, ``tidy``, ``compact_to``,
  ``data_snapshot``, ``read``, ``estimate_bytes``, ``lease_parts``,
  ``note_committed``, ``validate``; its ``cache`` (``TxnsCache``) answers
  registration and latest-write questions;
* ``Committer(txns, oracle).commit(txn, read_ts=, reads=, recompute=)``:
  the one commit lifecycle of every transaction (write-only ones grouped),
  and the contract on its outcomes (``commit.py``);
* ``read_only(txns, oracle, shards)``: a held read timestamp.
"""

from storage.txns.cache import TXNS_SCHEMA, TxnsCache
from storage.txns.commit import Committed, Committer, read_only
from storage.txns.handle import CommitResult, Txn, TxnsHandle

__all__ = [
    "CommitResult",
    "Committed",
    "Committer",
    "TXNS_SCHEMA",
    "Txn",
    "TxnsCache",
    "TxnsHandle",
    "read_only",
]
