"""local_exec: small queries on DuckDB in-process, over Arrow snapshots of
the shards a query reads.

Public API: ``LocalEngine.run(sql, tables, params)`` and ``EngineError``
(with a PostgreSQL SQLSTATE). Still to come (issue: SQL planner): a bounded
snapshot cache advanced incrementally, cancellation and statement_timeout.
"""

from local_exec.engine import EngineError, LocalEngine

__all__ = ["EngineError", "LocalEngine"]
