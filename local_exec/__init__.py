"""local_exec: small queries on DuckDB in-process, over Arrow snapshots of
the shards a query reads, kept in a bounded cache advanced incrementally.

Not built yet (issue: SQL planner, catalog and local engine).
"""
