"""planner: from SQL text to work at timestamps.

Public API: ``Database.open(consensus_url, blob_url)`` and
``database.session()`` → ``Session.execute(sql, params)`` → ``[Result]``
(columns with SQL types, rows, command tag), raising ``SqlError`` (with a
SQLSTATE) on failure; ``from_storage(e)`` maps an error of the layers
below to the ``SqlError`` a client is told (one mapping, for the gateway's
errors raised while rows stream). For a protocol front end:
``parse_async`` (SQL text to ``Statement``s, parsed once per distinct
text; ``Statement.kind`` is ``COPY`` or ``TXN`` for the statements the
protocol treats apart), ``param_count``, ``batchable`` (an INSERT whose
pipelined executions may be one write), ``RowStream`` (a result's rows,
streamed), ``CopySource`` / ``CopySink`` (COPY's data in and out).

Modules: ``parse`` (pglast: split, classify, 42601 positions, result
names), ``catalog`` (schemas, tables, views, materialized views as a shard),
``bind`` (names to snapshots, rewrite for DuckDB; ``resolve`` types its
column references by scope), ``work`` (a transaction's
read_ts, reads, buffered writes, commit), ``dml``, ``ddl``, ``copy``,
``session`` (statement dispatch, autocommit, implicit and explicit
transactions, settings). Values as text are ``values``', below.
"""

from planner.copy import CopySink, CopySource
from planner.database import Database
from planner.errors import SqlError, from_storage
from planner.parse import COPY, TXN, Statement, batchable, param_count, parse_async
from planner.result import RowStream
from planner.session import Result, Session

__all__ = ["COPY", "TXN", "CopySink", "CopySource", "Database", "Result", "RowStream", "Session", "SqlError", "Statement", "batchable",
           "from_storage", "param_count", "parse_async"]
