"""The deadline scheduler: ordering, replacement, disarm, past-due, errors, stop."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable

import pytest

from bot import timers
from bot.storage.models import Deadline
from bot.timers import Scheduler


def deadline(table_id: int, due_at: float, version: int = 0, window: str = "turn") -> Deadline:
    return Deadline(table_id=table_id, window=window, version=version, due_at=due_at)


class Recorder:
    """A fire callback that records what fired."""

    def __init__(self) -> None:
        self.fired: list[Deadline] = []

    async def __call__(self, fired: Deadline) -> None:
        self.fired.append(fired)

    @property
    def tables(self) -> list[int]:
        return [d.table_id for d in self.fired]


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def until(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.002)


@pytest.fixture
async def stoppers() -> AsyncIterator[list[Scheduler]]:
    """Schedulers registered here are stopped after the test."""
    started: list[Scheduler] = []
    yield started
    for scheduler in started:
        await scheduler.stop(timeout=0.1)


async def test_fires_in_due_order(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    stoppers.append(scheduler)
    now = time.time()
    await scheduler.start(
        [deadline(3, now + 0.06), deadline(1, now + 0.02), deadline(2, now + 0.04)]
    )
    assert [d.table_id for d in scheduler.pending()] == [1, 2, 3]
    await until(lambda: len(record.fired) == 3)
    assert record.tables == [1, 2, 3]
    assert all(time.time() >= d.due_at for d in record.fired)
    assert scheduler.pending() == []


async def test_not_fired_before_due(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    stoppers.append(scheduler)
    due = time.time() + 0.1
    await scheduler.start([deadline(1, due)])
    await asyncio.sleep(0.05)
    assert record.fired == []
    await until(lambda: record.tables == [1])
    assert time.time() >= due


async def test_past_due_deadlines_fire_at_once_on_start(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    clock = FakeClock(1000.0)
    scheduler = Scheduler(record, clock=clock)
    stoppers.append(scheduler)
    await scheduler.start(
        [deadline(1, 5000.0), deadline(2, 995.0), deadline(3, 990.0), deadline(4, 1000.0)]
    )
    await until(lambda: len(record.fired) == 3)
    assert record.tables == [3, 2, 4]
    await asyncio.sleep(0.02)
    assert record.tables == [3, 2, 4]
    assert scheduler.pending() == [deadline(1, 5000.0)]


async def test_rearm_replaces_the_old_deadline(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    stoppers.append(scheduler)
    now = time.time()
    await scheduler.start([deadline(1, now + 0.02, version=0)])
    scheduler.arm(deadline(1, now + 0.08, version=1))
    assert scheduler.pending() == [deadline(1, now + 0.08, version=1)]
    await asyncio.sleep(0.05)
    assert record.fired == []  # the old one never fires
    await until(lambda: len(record.fired) == 1)
    assert record.fired == [deadline(1, now + 0.08, version=1)]
    await asyncio.sleep(0.03)
    assert len(record.fired) == 1


async def test_arming_an_earlier_deadline_wakes_the_loop(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    stoppers.append(scheduler)
    now = time.time()
    await scheduler.start([deadline(1, now + 3600), deadline(2, now + 7200)])
    await asyncio.sleep(0.01)  # the loop now sleeps towards table 1
    scheduler.arm(deadline(3, now + 0.02))
    scheduler.arm(deadline(2, now + 0.01, version=1))  # replaced, and earlier
    await until(lambda: len(record.fired) == 2, timeout=1.0)
    assert record.fired == [deadline(2, now + 0.01, version=1), deadline(3, now + 0.02)]
    assert scheduler.pending() == [deadline(1, now + 3600)]


async def test_disarm(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    stoppers.append(scheduler)
    now = time.time()
    await scheduler.start([deadline(1, now + 0.02), deadline(2, now + 0.04)])
    scheduler.disarm(1)
    scheduler.disarm(99)  # unknown: no-op
    assert [d.table_id for d in scheduler.pending()] == [2]
    await until(lambda: record.tables == [2])
    await asyncio.sleep(0.02)
    assert record.tables == [2]


async def test_a_failing_callback_is_logged_and_the_loop_goes_on(
    stoppers: list[Scheduler], caplog: pytest.LogCaptureFixture
) -> None:
    fired: list[int] = []

    async def fire(due: Deadline) -> None:
        fired.append(due.table_id)
        if due.table_id == 1:
            raise RuntimeError("boom")

    scheduler = Scheduler(fire, clock=FakeClock())
    stoppers.append(scheduler)
    with caplog.at_level(logging.ERROR, logger="bot.timers"):
        await scheduler.start([deadline(1, 1.0), deadline(2, 2.0)])
        await until(lambda: fired == [1, 2])
        scheduler.arm(deadline(3, 3.0))
        await until(lambda: fired == [1, 2, 3])
    [failure] = [r for r in caplog.records if r.name == "bot.timers"]
    assert "table 1" in failure.getMessage()
    assert failure.exc_info is not None and isinstance(failure.exc_info[1], RuntimeError)


async def test_a_slow_callback_does_not_block_arming(stoppers: list[Scheduler]) -> None:
    release = asyncio.Event()
    fired: list[int] = []

    async def fire(due: Deadline) -> None:
        fired.append(due.table_id)
        if due.table_id == 1:
            await release.wait()

    scheduler = Scheduler(fire, clock=FakeClock())
    stoppers.append(scheduler)
    await scheduler.start([deadline(1, 1.0)])
    await until(lambda: fired == [1])
    scheduler.arm(deadline(2, 2.0))  # synchronous: returns while table 1 is still firing
    scheduler.arm(deadline(1, 3.0, version=1))  # the same table again, while it fires
    assert [d.table_id for d in scheduler.pending()] == [2, 1]
    await asyncio.sleep(0.01)
    assert fired == [1]  # one at a time
    release.set()
    await until(lambda: fired == [1, 2, 1])
    assert scheduler.pending() == []


async def test_a_callback_may_arm_the_next_deadline_of_its_table(
    stoppers: list[Scheduler],
) -> None:
    fired: list[int] = []
    clock = FakeClock()
    scheduler: Scheduler

    async def fire(due: Deadline) -> None:
        fired.append(due.version)
        if due.version < 3:
            scheduler.arm(deadline(due.table_id, clock.now - 1, version=due.version + 1))

    scheduler = Scheduler(fire, clock=clock)
    stoppers.append(scheduler)
    await scheduler.start([deadline(7, 0.0)])
    await until(lambda: fired == [0, 1, 2, 3])
    await asyncio.sleep(0.01)
    assert fired == [0, 1, 2, 3]


async def test_wall_clock_jump_is_noticed(
    stoppers: list[Scheduler], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timers, "MAX_SLEEP", 0.01)
    record = Recorder()
    clock = FakeClock(1000.0)
    scheduler = Scheduler(record, clock=clock)
    stoppers.append(scheduler)
    await scheduler.start([deadline(1, 2000.0)])
    await asyncio.sleep(0.03)
    assert record.fired == []
    clock.now = 2000.5
    await until(lambda: record.tables == [1], timeout=0.5)


async def test_stop_waits_for_the_fire_in_flight() -> None:
    finished: list[int] = []
    started = asyncio.Event()

    async def fire(due: Deadline) -> None:
        started.set()
        await asyncio.sleep(0.05)
        finished.append(due.table_id)

    scheduler = Scheduler(fire, clock=FakeClock())
    await scheduler.start([deadline(1, 1.0), deadline(2, 2.0)])
    await asyncio.wait_for(started.wait(), 1)
    await scheduler.stop()
    assert finished == [1]  # finished, and table 2 was not fired after the stop began
    assert scheduler.pending() == [deadline(2, 2.0)]
    scheduler.arm(deadline(3, 0.0))
    await asyncio.sleep(0.02)
    assert finished == [1]


async def test_stop_is_bounded_when_a_fire_hangs() -> None:
    cancelled = asyncio.Event()
    started = asyncio.Event()

    async def fire(due: Deadline) -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    scheduler = Scheduler(fire, clock=FakeClock())
    await scheduler.start([deadline(1, 1.0)])
    await asyncio.wait_for(started.wait(), 1)
    begun = time.monotonic()
    await scheduler.stop(timeout=0.05)
    assert time.monotonic() - begun < 0.5
    assert cancelled.is_set()


async def test_stop_an_idle_or_unstarted_scheduler() -> None:
    record = Recorder()
    scheduler = Scheduler(record)
    await scheduler.stop()  # never started: no-op
    await scheduler.start([])
    with pytest.raises(RuntimeError, match="already started"):
        await scheduler.start([])
    begun = time.monotonic()
    await scheduler.stop()
    assert time.monotonic() - begun < 0.1
    # It can be started again.
    await scheduler.start([deadline(1, time.time() - 1)])
    await until(lambda: record.tables == [1])
    await scheduler.stop()


async def test_rearming_many_times_keeps_the_heap_small(stoppers: list[Scheduler]) -> None:
    record = Recorder()
    scheduler = Scheduler(record, clock=FakeClock(0.0))
    stoppers.append(scheduler)
    for version in range(1000):
        scheduler.arm(deadline(1, 100.0 + version, version=version))
        scheduler.arm(deadline(2, 50.0, version=version))
    assert scheduler.pending() == [deadline(2, 50.0, version=999), deadline(1, 1099.0, version=999)]
    assert len(scheduler._heap) < 200
    await scheduler.start([])
    await asyncio.sleep(0.01)
    assert record.fired == []
