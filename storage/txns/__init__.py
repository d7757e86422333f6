"""storage.txns: atomic writes to any number of data shards (seed 000).

Public API:

* ``TxnsHandle.open(client, txns_id, init_ts)``: ``register``, ``forget``,
  ``begin`` (a ``Txn``: ``write``, ``write_batch``, ``merge``, ``commit_at``,
  ``apply``, ``abort``), ``apply_le``, ``tidy``, ``compact_to``,
  ``data_snapshot``, ``read``, ``estimate_bytes``, ``lease_parts``, ``follow``,
  ``note_committed``, ``validate``; its ``cache`` (``TxnsCache``) answers
  registration and latest-write questions;
* ``Committer(txns, oracle).commit(txn, read_ts=, reads=, recompute=)``:
  the one commit lifecycle of every transaction (write-only ones grouped),
  and the contract on its outcomes (``commit.py``);
* ``read_only(txns, oracle, shards)``: a held read timestamp;
  ``refresh(txns, read_ts, reads, points)``: a later one at which a
  transaction's reads so far read the same (read refresh);
* ``key_hash(constraint, key)``: the hash a transaction names a key by,
  in ``Txn.note_written`` and the ``points`` it read (``keys.py``).
"""

from storage.txns.cache import TXNS_SCHEMA, TxnsCache
from storage.txns.commit import Committed, Committer, read_only, refresh
from storage.txns.handle import CommitResult, Txn, TxnsHandle
from storage.txns.keys import key_hash

__all__ = [
    "CommitResult",
    "Committed",
    "Committer",
    "TXNS_SCHEMA",
    "Txn",
    "TxnsCache",
    "TxnsHandle",
    "key_hash",
    "read_only",
    "refresh",
]
