"""storage.oracle: the timestamp oracle (PostgreSQL, SQLite, memory):
strictly increasing ``write_ts``, ``read_ts`` at least every applied write.

Not built yet (issue: transactions).
"""
