"""Storage throughput: commits per second and per-commit latency when N tables
click as fast as they can.

    .venv/bin/python -m bench.storage [--tables 1 10 100] [--seconds 5] [--run-on thread|loop]

One process, the real ``TableService`` over a ``SqliteRepository`` on a temp
file. ``--tables`` coroutines each click random legal choices on a running
Complots table (4 players), a click as soon as the previous one returned (the
service's ``act``: one compare-and-set transaction a click); when its game ends,
a coroutine moves on to a table started beforehand (nothing but clicks is
written while the clock runs). Twice per count of tables: with the ``Silent``
announcer (the step alone) and with the bot's real ``TableAnnouncer`` (every
step also writes its channel lines and DMs to the outbox). ``--run-on`` picks
where SQLite runs (``SqliteRepository(run_on=...)``), the repository's default
when not given (the only choice for a repository without that option: run this
file from a copy of an older tree to measure its storage).

Figures per run: commits per second, the latency of a click (median, p99, max),
the CPU per commit of the whole process and of the event loop's thread alone
(the loop is what saturates first), and how late the loop wakes a 5 ms timer
(what a heartbeat or a new interaction waits for). Figures only, with the
machine's load; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import statistics
import tempfile
import time
from importlib import import_module
from pathlib import Path
from typing import Any

from bot.app import game_extension
from bot.storage import SqliteRepository
from bot.tables import Announcer, Silent, TableService
from bot.ui.announcer import TableAnnouncer
from games.registry import GAMES

from .outbox import NoScheduler, one_step, open_tables, percentile

SPARE_PER_SECOND = 100
"""Tables started ahead per second of clicking, to replace the games that end
(about 30 steps each)."""


def repository(path: Path, run_on: str | None) -> SqliteRepository:
    if run_on is None:
        return SqliteRepository(path)
    if "run_on" not in inspect.signature(SqliteRepository).parameters:
        raise SystemExit("this SqliteRepository has no run_on option")
    options: dict[str, Any] = {"run_on": run_on}
    return SqliteRepository(path, **options)


class Clicking:
    """The tables of one run and what their clicks measured."""

    def __init__(self, service: TableService, tables: list[int], seed: int) -> None:
        self.service = service
        self.spare = tables
        """Started tables nobody clicks yet: a clicker whose game ended takes one."""
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.refused = 0
        self.games = 0

    async def clicker(self, until: float) -> None:
        table = self.spare.pop()
        while time.perf_counter() < until:
            seconds = await one_step(self.service, table, self.rng)
            if seconds is not None:
                self.latencies.append(seconds)
            elif (await self.service.snapshot(table)).table.status.value == "running":
                self.refused += 1
            elif self.spare:
                self.games += 1
                table = self.spare.pop()
            else:
                raise SystemExit("out of spare tables: raise SPARE_PER_SECOND")


async def tick(lags: list[float], until: float, every: float = 0.005) -> None:
    """How late the loop wakes a timer (what a heartbeat or a new click waits for)."""
    while time.perf_counter() < until:
        started = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - started - every)


async def measure(
    folder: Path, tables: int, announcer: Announcer, seconds: float, run_on: str | None
) -> str:
    repo = repository(folder / f"{tables}-{type(announcer).__name__}.sqlite3", run_on)
    await repo.open()
    try:
        service = TableService(repo, NoScheduler())
        service.announcer = announcer
        spare = await open_tables(
            service, tables + int(seconds * SPARE_PER_SECOND), random.Random(tables)
        )
        clicking = Clicking(service, spare, seed=tables)
        cpu, loop_cpu, wall = time.process_time(), time.thread_time(), time.perf_counter()
        until = wall + seconds
        lags: list[float] = []
        ticking = asyncio.create_task(tick(lags, until))
        await asyncio.gather(*(clicking.clicker(until) for _ in range(tables)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        loop_cpu = time.thread_time() - loop_cpu
        await ticking
    finally:
        await repo.close()
    done = clicking.latencies
    return (
        f"{tables:>4} tables {'outbox' if isinstance(announcer, TableAnnouncer) else 'silent':<7}"
        f"{len(done) / wall:8.0f} commits/s  median {statistics.median(done) * 1e3:6.2f} ms"
        f"  p99 {percentile(done, 0.99) * 1e3:6.2f} ms  max {max(done) * 1e3:6.1f} ms"
        f"  cpu {cpu / len(done) * 1e3:5.2f} (loop {loop_cpu / len(done) * 1e3:5.2f}) ms/commit"
        f"  loop lag p99 {percentile(lags, 0.99) * 1e3:5.1f} max {max(lags) * 1e3:5.1f} ms"
        f"  ({len(done)} commits, {clicking.refused} refused, {clicking.games} games ended,"
        f" load {os.getloadavg()[0]:.2f})"
    )


async def run(counts: list[int], seconds: float, run_on: str | None) -> None:
    presenters = {name: import_module(game_extension(name)).PRESENTER for name in GAMES}
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        for tables in counts:
            for announcer in (Silent(), TableAnnouncer(presenters, away_after=3)):
                print(await measure(Path(folder), tables, announcer, seconds, run_on), flush=True)
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--seconds", type=float, default=5.0, help="clicking time per run")
    parser.add_argument(
        "--run-on",
        choices=("thread", "loop"),
        help="where SQLite runs (the repository's run_on option); its default if not given",
    )
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores, {args.seconds:g} s per run,"
        f" SQLite on: {args.run_on or 'the default'}"
    )
    asyncio.run(run(args.tables, args.seconds, args.run_on))


if __name__ == "__main__":
    main()
