"""planner: from SQL text to work at timestamps.

Will own: parsing with pglast, statement classification (read-only,
write-only, read-then-write), the multi-statement transaction rules, oracle
timestamps, engine choice (DuckDB or Spark), the catalog (itself a shard
written through the txns shard) and the pg_catalog/information_schema
emulation. Its public face is ``Session.execute(sql, params)``.

Not built yet (issue: SQL planner, catalog and local engine).
"""
