"""What a session's statement is waiting for, as ``pg_stat_activity``
shows it (``wait_event_type``, ``wait_event``).

A session owns a *slot* (``Slot``); ``Session.run`` makes it the current
one for the statement's task (a context variable, so tasks and threads the
statement starts inherit it) and the places that wait say so with
``waiting(type, event)``:

* ``IO`` / ``DataRead``: a table's contents at the read time (the snapshot
  cache, or the shard's parts in Blob);
* ``IPC`` / ``TxnsCommit``: the commit (queue, validation, the
  compare-and-append on the txns shard);
* ``Extension`` / ``DuckDB`` or ``Spark``: an engine running the query.

An idle session waits for its client (``Client`` / ``ClientRead``, as
PostgreSQL shows it); a statement between waits shows none.

Invariant: a ``waiting`` block restores the wait it found, so nested waits
unwind to the outer one.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar


class Slot:
    """One session's current wait (``None``: running, or nothing to say)."""

    __slots__ = ("event",)

    def __init__(self) -> None:
        self.event: tuple[str, str] | None = None


CURRENT: ContextVar[Slot | None] = ContextVar("txngate_wait_slot", default=None)


@contextlib.contextmanager
def waiting(kind: str, event: str):
    slot = CURRENT.get()
    if slot is None:
        yield
        return
    outer, slot.event = slot.event, (kind, event)
    try:
        yield
    finally:
        slot.event = outer
