"""planner: from SQL text to work at timestamps.

Public API: ``Database.open(consensus_url, blob_url)`` and
``database.session()`` → ``Session.execute(sql, params)`` → ``[Result]``
(columns with SQL types, rows, command tag), raising ``SqlError`` (with a
SQLSTATE) on failure.

Built so far: parsing and classification with pglast (``parse``), the
catalog as a shard in the txns set (``catalog``), CREATE/DROP TABLE,
INSERT ... VALUES/SELECT (write-only, or read-then-write for keyed tables),
SELECT on DuckDB at one read_ts, SET/SHOW/RESET. Still to come (issue: SQL
planner): explicit transactions, UPDATE/DELETE, COPY, ON CONFLICT,
RETURNING, EXPLAIN, views, the snapshot cache, pg_catalog emulation.
"""

from planner.database import Database
from planner.errors import SqlError
from planner.session import Result, Session

__all__ = ["Database", "Result", "Session", "SqlError"]
