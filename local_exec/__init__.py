"""local_exec: small queries on DuckDB in-process, over Arrow snapshots of
the shards a query reads.

Public API: ``LocalEngine.run(sql, tables, params)``, ``EngineError`` (with
a PostgreSQL SQLSTATE), and ``SnapshotCache`` (table contents at a ts,
advanced incrementally, searched by key in O(log n): ``lookup``), and
``key_tuples`` / ``matching`` (a table's distinct non-NULL keys; a mask of
rows whose key columns equal one of some keys). ``run``
takes a timeout (57014) and is interrupted when its task is cancelled.
``jsonb`` holds PostgreSQL's json semantics (``jsonb.canonical`` is the
text jsonb prints) behind the ``txngate_jsonb_*`` functions the engine
registers.
"""

from local_exec import jsonb
from local_exec.engine import EngineError, LocalEngine, parse_size
from local_exec.runs import key_tuples, matching
from local_exec.snapshots import SnapshotCache

__all__ = ["EngineError", "LocalEngine", "SnapshotCache", "jsonb", "key_tuples", "matching", "parse_size"]
