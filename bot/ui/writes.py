"""The bot's own budget of Discord REST writes.

Discord allows a bot 50 requests a second over all its routes (its *global*
rate limit; interaction answers do not count) and answers 429 beyond that. A
busy bot that leaves the counting to Discord gets storms of 429s and retries
(bench.discord_latency with the fake enforcing the limit: thousands a minute at
500 tables, a table edit waiting seconds). So the renderer counts for itself:
every write it makes waits for a token of ``RateLimit`` first, and a table edit
takes its token before it renders, so what it shows is the latest state (edits
of one table coalesce while they wait).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from types import TracebackType

_EPSILON = 1e-9


class RateLimit:
    """At most ``per_second`` tokens a second on average, ``burst`` at once."""

    def __init__(
        self,
        per_second: float,
        burst: int = 1,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if per_second <= 0 or burst < 1:
            raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = float(burst)
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.per_second)
        self._at = now

    async def take(self) -> None:
        """Wait for a token and spend it."""
        while True:
            self._refill()
            if self._tokens >= 1 - _EPSILON:  # a token, give or take rounding
                self._tokens -= 1
                return
            await self._sleep((1 - self._tokens) / self.per_second)


class Writes:
    """Discord writes: at most ``concurrent`` in flight, and within ``rate``.

    ``async with writes:`` takes a token, then a slot; ``token()`` then ``slot()``
    let a caller take its token before it prepares what it writes."""

    def __init__(self, concurrent: int, rate: RateLimit) -> None:
        self.rate = rate
        self._slots = asyncio.Semaphore(concurrent)

    async def token(self) -> None:
        await self.rate.take()

    def slot(self) -> asyncio.Semaphore:
        return self._slots

    async def __aenter__(self) -> None:
        await self.rate.take()
        await self._slots.acquire()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._slots.release()
