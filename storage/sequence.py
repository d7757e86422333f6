"""Sequences: counters that hand out each value once, outside transactions
(PostgreSQL's ``nextval``, behind serial and identity columns).

A sequence is one Consensus key, ``sequence/<name>``, whose head holds the
last value handed out (JSON ``{"last": n}``). ``take(name, n, step=s)``
moves it by ``n`` steps of ``s`` with a compare-and-set and returns the
first of those ``n`` values, so every value goes to one caller across every gateway of a
store, and values only grow in the order takes succeed. Like PostgreSQL's,
a take is never undone: a transaction that rolls back leaves a gap.

A sequence that does not exist yet starts after ``initial()`` (its
creator's choice: 0 for a new column, the largest value present for a
column that existed before its sequence).

Invariants: the head's ``last`` only moves in the direction of the steps
taken (upward for serial and identity columns) except by ``restart``;
an outcome-unknown compare-and-set is retried from a fresh head (at worst
a gap, never a value handed out twice). Old log entries are truncated as
the key grows.
"""

from __future__ import annotations

import json
from typing import Awaitable, Callable

from storage.errors import IndeterminateError
from storage.location import Consensus

#: Log entries a sequence key keeps before its older ones are truncated.
KEEP_ENTRIES = 64
#: Compare-and-sets a take retries after an unknown outcome before giving up.
UNKNOWN_RETRIES = 8


def _key(name: str) -> str:
    return f"sequence/{name}"


def _encode(last: int) -> bytes:
    return json.dumps({"last": last}).encode()


class Sequences:
    """The sequences of one store (its Consensus)."""

    def __init__(self, consensus: Consensus):
        self.consensus = consensus

    async def create(self, name: str, last: int = 0) -> bool:
        """Start ``name`` after ``last`` unless it exists; whether it was created."""
        return await self.consensus.compare_and_set(_key(name), None, _encode(last))

    async def take(self, name: str, n: int, initial: Callable[[], Awaitable[int]], step: int = 1) -> int:
        """Reserve the next ``n`` values of ``name``, ``step`` apart (a
        sequence's increment, negative for a descending one); the first of
        them."""
        assert n > 0 and step != 0, (n, step)
        return await self._advance(name, initial, lambda last: (last + n * step, last + step))

    async def take_cycling(self, name: str, initial: Callable[[], Awaitable[int]], step: int, low: int, high: int) -> int:
        """The next value of a CYCLE sequence: past ``high`` (below ``low``
        for a descending one) it starts again at ``low`` (``high``), in the
        same compare-and-set, so no value is handed out twice per round."""
        assert step != 0 and low < high, (step, low, high)

        def after(last: int) -> tuple[int, int]:
            value = last + step
            value = low if value > high else high if value < low else value
            return value, value

        return await self._advance(name, initial, after)

    async def _advance(self, name: str, initial: Callable[[], Awaitable[int]], after: Callable[[int], tuple[int, int]]) -> int:
        """Move ``name``'s head from ``last`` to ``after(last)[0]`` with a
        compare-and-set; ``after(last)[1]``, the first value taken."""
        unknown = 0
        key = _key(name)
        while True:
            head = await self.consensus.head(key)
            last = json.loads(head.data)["last"] if head is not None else await initial()
            moved, first = after(last)
            try:
                won = await self.consensus.compare_and_set(key, head.seqno if head is not None else None, _encode(moved))
            except IndeterminateError:
                unknown += 1
                if unknown > UNKNOWN_RETRIES:
                    raise
                continue  # perhaps taken: a fresh head decides (at worst a gap)
            if won:
                if head is not None and (head.seqno + 1) % KEEP_ENTRIES == 0:
                    await self.consensus.truncate(key, head.seqno + 1)
                return first

    async def restart(self, name: str, last: int = 0) -> None:
        """Make ``name`` continue after ``last`` (TRUNCATE ... RESTART IDENTITY, setval)."""
        key = _key(name)
        while True:
            head = await self.consensus.head(key)
            if await self.consensus.compare_and_set(key, head.seqno if head is not None else None, _encode(last)):
                return
