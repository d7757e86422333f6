"""storage.persist: durable shards of ``(row, time, diff)`` updates.

Will own: the shard state machine (versioned by seqno in Consensus: upper,
since, batches, writers, readers and leases), batch building and reading
(Parquet parts in Blob, tiny batches inline), compare_and_append, snapshots
and listen, compaction and GC.

Not built yet (issue: durable shards).
"""
