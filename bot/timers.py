"""Durable deadlines, in memory: one task sleeps until the earliest and fires it.

The scheduler knows nothing of Discord or storage. The caller stores each
deadline through the repository (in the same transaction as the state it
belongs to), then ``arm``s it here; on boot it re-arms what the database holds::

    scheduler = Scheduler(on_deadline)
    await scheduler.start(await repo.deadlines())

Deadlines are kept in a heap with lazy deletion: ``arm`` pushes a new entry and
records it as the table's current one, ``disarm`` forgets the table; entries that
are no longer current are dropped when they reach the top (and the heap is
rebuilt when mostly stale). Fires are awaited one at a time in due order; a
callback's exception is logged and the loop goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from bot.storage.models import Deadline

FireCallback = Callable[[Deadline], Awaitable[None]]

log = logging.getLogger("bot.timers")

MAX_SLEEP = 30.0
"""Longest single sleep (seconds). Deadlines are wall-clock times while the event
loop sleeps on a monotonic clock, so the loop re-reads the clock at least this
often to follow wall-clock jumps."""

STOP_TIMEOUT = 5.0
"""How long ``stop`` waits for an in-flight fire before cancelling it."""

_COMPACT_MIN = 64

_Entry = tuple[float, int, Deadline]
"""(due_at, sequence number, deadline): the sequence number breaks ties in arming
order and identifies the entry, so a deadline is never compared."""


class Scheduler:
    def __init__(self, fire: FireCallback, *, clock: Callable[[], float] = time.time) -> None:
        self._fire = fire
        self._clock = clock
        self._heap: list[_Entry] = []
        self._current: dict[int, int] = {}
        """Table id -> sequence number of its armed entry."""
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # --- public API ---

    async def start(self, deadlines: Iterable[Deadline]) -> None:
        """Arms ``deadlines`` (past-due ones fire at once) and starts the loop."""
        if self._task is not None:
            raise RuntimeError("scheduler already started")
        for deadline in deadlines:
            self.arm(deadline)
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="bot.timers")

    def arm(self, deadline: Deadline) -> None:
        """Arms ``deadline``, replacing any deadline of the same table."""
        seq = next(self._seq)
        self._current[deadline.table_id] = seq
        heapq.heappush(self._heap, (deadline.due_at, seq, deadline))
        if self._heap[0][1] == seq:
            self._wake.set()
        self._compact_if_sparse()

    def disarm(self, table_id: int) -> None:
        self._current.pop(table_id, None)

    def pending(self) -> list[Deadline]:
        """Armed deadlines, earliest first."""
        return [deadline for _, _, deadline in sorted(self._live_entries())]

    async def stop(self, *, timeout: float = STOP_TIMEOUT) -> None:
        """Stops the loop. A fire in progress may finish within ``timeout``
        seconds, then it is cancelled. Armed deadlines stay armed (not fired)."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if not done:
            task.cancel()
            await asyncio.wait({task}, timeout=timeout)
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("scheduler loop had failed", exc_info=task.exception())

    # --- heap ---

    def _is_live(self, entry: _Entry) -> bool:
        return self._current.get(entry[2].table_id) == entry[1]

    def _live_entries(self) -> list[_Entry]:
        return [entry for entry in self._heap if self._is_live(entry)]

    def _compact_if_sparse(self) -> None:
        if len(self._heap) > _COMPACT_MIN and len(self._heap) > 2 * len(self._current):
            self._heap = self._live_entries()
            heapq.heapify(self._heap)

    def _earliest(self) -> Deadline | None:
        """The earliest armed deadline (stale entries on top are dropped)."""
        while self._heap and not self._is_live(self._heap[0]):
            heapq.heappop(self._heap)
        return self._heap[0][2] if self._heap else None

    def _take(self, deadline: Deadline) -> None:
        """Removes the earliest entry (``deadline``): it fires exactly once."""
        heapq.heappop(self._heap)
        del self._current[deadline.table_id]

    # --- loop ---

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            deadline = self._earliest()
            if deadline is None:
                await self._sleep(None)
                continue
            delay = deadline.due_at - self._clock()
            if delay > 0:
                await self._sleep(min(delay, MAX_SLEEP))
                continue
            self._take(deadline)
            await self._fire_one(deadline)
            await asyncio.sleep(0)  # let others run between back-to-back fires

    async def _sleep(self, delay: float | None) -> None:
        """Until ``delay`` passes or ``arm``/``stop`` wakes the loop."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(delay):
                await self._wake.wait()

    async def _fire_one(self, deadline: Deadline) -> None:
        try:
            await self._fire(deadline)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            log.error("deadline callback of table %d was cancelled", deadline.table_id)
        except Exception:
            log.exception(
                "deadline callback of table %d (%s, v%d) failed",
                deadline.table_id,
                deadline.window,
                deadline.version,
            )
