"""storage.sequence's counters on every Consensus kind: values taken by
concurrent callers are each handed out once, ``step`` apart, and a CYCLE
counter starts again at its first value past its last in the same
compare-and-set (no value twice within a round)."""

from __future__ import annotations

import asyncio

from storage.sequence import Sequences


async def test_concurrent_takes_with_a_step_hand_each_value_out_once(consensus):
    counters = Sequences(consensus)

    async def before_start() -> int:
        return 10 - 5  # start 10, increment 5

    firsts = await asyncio.gather(*(counters.take("c", 3, before_start, step=5) for _ in range(20)))
    values = sorted(v for first in firsts for v in range(first, first + 3 * 5, 5))
    assert values == list(range(10, 10 + 60 * 5, 5))
    assert await counters.take("c", 1, before_start, step=5) == 10 + 60 * 5


async def test_a_descending_cycle_starts_again_at_its_top(consensus):
    counters = Sequences(consensus)

    async def before_start() -> int:
        return 7 + 2  # start 7, increment -2, between 1 and 7

    taken = await asyncio.gather(*(counters.take_cycling("d", before_start, -2, 1, 7) for _ in range(8)))
    assert sorted(taken) == [1, 1, 3, 3, 5, 5, 7, 7]  # two whole rounds of 7 5 3 1, whoever took which
    assert await counters.take_cycling("d", before_start, -2, 1, 7) == 7
