"""storage.oracle: the timestamp oracle.

One row per *timeline* holding ``(read_ts, write_ts)``:

* ``write_ts()`` returns a timestamp strictly greater than every timestamp it
  returned before (across processes sharing the store) and at least the wall
  clock in milliseconds;
* ``read_ts()`` returns a timestamp >= every write made visible with
  ``apply_write`` and < every ``write_ts()`` returned later;
* ``apply_write(ts)`` makes ``ts`` readable: advances ``read_ts`` (and
  ``write_ts``, so later writes are above it) to at least ``ts``.

Each call is one atomic statement on the store, so the order holds across
any number of processes. Implementations: PostgreSQL (``postgres://...``),
SQLite (``sqlite:///path``, the embedded default) and memory (``mem://``).
"""

from storage.oracle.oracle import Oracle, MemOracle, open_oracle

__all__ = ["MemOracle", "Oracle", "open_oracle"]
