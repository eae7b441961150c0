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
    """At most ``per_second`` tokens a second on average, ``burst`` at once.

    Each caller is given the next free moment when it asks (first come, first
    served) and sleeps once until then: hundreds of waiting writes do not all wake
    for every token (the generic cell rate algorithm, as a scheduler)."""

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
        self._interval = 1.0 / per_second
        self._empty = clock() - burst * self._interval
        """When the bucket is (or was) empty: tokens at ``now`` are
        ``(now - _empty) * per_second``, at most ``burst``."""

    async def take(self) -> None:
        """Wait for a token and spend it."""
        now = self._clock()
        self._empty = max(self._empty, now - self.burst * self._interval) + self._interval
        wait = self._empty - now  # > 0: the token is that far in the future
        if wait > _EPSILON:
            await self._sleep(wait)


def discord_budget(
    per_second: float,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> RateLimit:
    """The bot's budget of REST writes: ``per_second`` on average, bursting by a
    tenth of that. Any one second then holds at most the rate plus the burst (49
    at the default 45): under Discord's 50. With a fifth (54 in the second after
    a quiet moment), the fake answered dozens of 429s a minute at 500 busy tables.
    """
    return RateLimit(per_second, burst=max(1, int(per_second / 10)), clock=clock, sleep=sleep)


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
