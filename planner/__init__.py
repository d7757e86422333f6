"""planner: from SQL text to work at timestamps.

Public API: ``Database.open(consensus_url, blob_url)`` and
``database.session()`` → ``Session.execute(sql, params)`` → ``[Result]``
(columns with SQL types, rows, command tag), raising ``SqlError`` (with a
SQLSTATE) on failure.

Modules: ``parse`` (pglast: split, classify, 42601 positions, result
names), ``catalog`` (schemas, tables, views, materialized views as a shard),
``bind`` (names to snapshots, rewrite for DuckDB), ``work`` (a transaction's
read_ts, reads, buffered writes, commit), ``dml``, ``ddl``, ``copy``,
``textfmt`` (PostgreSQL text output), ``session`` (statement dispatch,
autocommit, implicit and explicit transactions, settings).
"""

from planner.database import Database
from planner.errors import SqlError
from planner.session import Result, Session

__all__ = ["Database", "Result", "Session", "SqlError"]
