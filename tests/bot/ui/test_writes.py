"""The bot's own budget of Discord writes."""

from __future__ import annotations

import asyncio

import pytest

from bot.ui.writes import RateLimit, Writes, discord_budget


class Clock:
    """Time that passes only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_a_burst_goes_at_once_then_tokens_come_at_the_rate() -> None:
    clock = Clock()
    limit = RateLimit(10, burst=3, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        await limit.take()
    assert clock.now == 100.0, "the burst did not wait"
    for _ in range(10):
        await limit.take()
    assert clock.now == pytest.approx(101.0), "ten more took one second at 10/s"


async def test_idle_time_refills_up_to_the_burst_only() -> None:
    clock = Clock()
    limit = RateLimit(5, burst=2, clock=clock, sleep=clock.sleep)
    clock.now += 60  # a quiet minute
    await limit.take()
    await limit.take()
    assert clock.now == 100.0 + 60
    await limit.take()
    assert clock.now == pytest.approx(160.2), "the third waited for a token"


async def test_waiting_writes_sleep_once_each_and_go_in_order() -> None:
    """Twenty writes ask at the same moment: past the burst, each is given its own
    moment (the rate apart, in the order they asked) and sleeps once, until then."""
    naps: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(seconds: float) -> None:
        nap = asyncio.get_running_loop().create_future()
        naps.append((seconds, nap))
        await nap

    limit = RateLimit(10, burst=2, clock=lambda: 100.0, sleep=sleep)
    served: list[int] = []

    async def write(number: int) -> None:
        await limit.take()
        served.append(number)

    writes = [asyncio.create_task(write(number)) for number in range(20)]
    await asyncio.sleep(0)
    assert served == [0, 1], "the burst went at once"
    assert [seconds for seconds, _ in naps] == pytest.approx([0.1 * k for k in range(1, 19)])
    for _, nap in sorted(naps, key=lambda item: item[0]):  # time passes: each wakes once
        nap.set_result(None)
    await asyncio.gather(*writes)
    assert served == list(range(20)), "first come, first served"
    assert len(naps) == 18, "none slept twice"


async def test_the_bots_budget_never_puts_more_than_50_writes_in_one_second() -> None:
    """Discord's global limit is 50 requests a second: after a quiet minute, writes
    queued for three seconds never put more than 50 in any one second."""
    clock = Clock()
    budget = discord_budget(45, clock=clock, sleep=clock.sleep)
    clock.now += 60
    sent = []
    while clock.now < 163:
        await budget.take()
        sent.append(clock.now)
    busiest = max(sum(1 for s in sent if start <= s < start + 1) for start in sent)
    assert 45 <= busiest <= 50


def test_a_rate_limit_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError):
        RateLimit(0)
    with pytest.raises(ValueError):
        RateLimit(5, burst=0)


async def test_writes_hold_at_most_their_slots_at_once() -> None:
    writes = Writes(2, RateLimit(1000, burst=100))
    inside = peak = 0

    async def write() -> None:
        nonlocal inside, peak
        async with writes:
            inside += 1
            peak = max(peak, inside)
            await asyncio.sleep(0)
            inside -= 1

    await asyncio.gather(*(write() for _ in range(10)))
    assert peak == 2
