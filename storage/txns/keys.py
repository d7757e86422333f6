"""Written keys: what a commit changed in a data shard, at key granularity,
so any process can validate a transaction's key reads against it.

A transaction that read a shard only by key (a uniqueness check, a lookup by
primary key) conflicts with a later commit only if that commit wrote one of
those keys, or wrote the shard without saying which keys (``WHOLE``). Keys
travel as 64-bit hashes (``key_hash``: stable across processes, unlike
Python's ``hash``), so a summary is small and a collision can only cause a
needless conflict, never a missed one.

A commit's row in the txns shard carries its summary inside the batch's
encoding (``attach``; ``BatchHandle.from_bytes`` ignores fields it does not
know). A row without one means ``WHOLE``: every writer that cannot name
its keys (Spark, bulk loads, tables without keys, the catalog) conflicts
with every reader of the shard, as before.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
from decimal import Decimal
from typing import Iterable

#: A summary that names no keys: the whole shard may have changed.
WHOLE = None

KeySet = frozenset  # of int hashes


def _canonical(v) -> object:
    if isinstance(v, Decimal):
        return ("d", str(v.normalize()))  # 1.0 and 1.00 are one key
    if isinstance(v, float):
        return ("f", repr(v + 0.0))  # -0.0 and 0.0 are one key
    if isinstance(v, (list, tuple)):
        return ("l", tuple(_canonical(x) for x in v))
    if isinstance(v, bytes):
        return ("b", v.hex())
    return (type(v).__name__, repr(v))


def key_hash(constraint: str, key: Iterable) -> int:
    """The hash of one key value (a tuple of column values) of one unique
    constraint of a table."""
    text = repr((constraint, tuple(_canonical(v) for v in key))).encode()
    return struct.unpack("<q", hashlib.blake2b(text, digest_size=8).digest())[0]


def attach(batch: bytes, keys: KeySet | None) -> bytes:
    """``batch`` (a BatchHandle's bytes) carrying the written ``keys``."""
    if keys is WHOLE:
        return batch
    assert batch.endswith(b"}") and b'"written"' not in batch, "a batch's bytes are a JSON object without written keys"
    encoded = base64.b64encode(struct.pack(f"<{len(keys)}q", *sorted(keys)))
    return batch[:-1] + b',"written":"' + encoded + b'"}'


def written(batch: bytes) -> KeySet | None:
    """The keys a txns row's batch says it wrote (``WHOLE`` if it does not say)."""
    if b'"written"' not in batch:
        return WHOLE
    raw = base64.b64decode(json.loads(batch)["written"])
    return frozenset(struct.unpack(f"<{len(raw) // 8}q", raw))


def union(a: KeySet | None, b: KeySet | None) -> KeySet | None:
    return WHOLE if a is WHOLE or b is WHOLE else a | b
