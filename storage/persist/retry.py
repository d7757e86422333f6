"""Retrying location operations that are safe to repeat.

Blob reads change nothing, and Blob writes are of write-once keys with one
value, so both may be retried after *any* location error (a repeated write
stores the same bytes again). Retries back off exponentially (with jitter)
until ``timeout_s`` has passed, then the last error is raised. The state
machine uses the same loop with ``on=DeterminateError``: a compare-and-set
may only be repeated blindly when it certainly did not happen.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Awaitable, Callable, TypeVar

from storage.errors import LocationError

T = TypeVar("T")


async def retry_idempotent(
    op: Callable[[], Awaitable[T]], timeout_s: float = 30.0, *, on: type[Exception] | tuple = LocationError
) -> T:
    """Run ``op`` until it succeeds, retrying errors of type ``on``."""
    deadline = time.monotonic() + timeout_s
    delay = 0.005
    while True:
        try:
            return await op()
        except on:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 1.0)
