"""storage.txns: the txns shard that commits writes to any number of data
shards atomically at one timestamp (register, commit_at, apply, tidy,
forget, compact_to), its cache, and data snapshots.

Not built yet (issue: transactions).
"""
