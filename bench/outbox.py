"""What the outbox adds to a step: writing its announcements in the step's own
transaction, and delivering them (reading what is undelivered, marking each
entry once Discord accepted it).

    .venv/bin/python -m bench.outbox [--tables 500] [--steps 4000]

One process, the real ``TableService`` on a temp SQLite file, ``--tables``
running Complots tables of 4 players. Random legal steps are started on random
tables at ``--rate`` per second (a table's steps one after another), twice: with the
bot's real ``TableAnnouncer`` (every step writes its channel lines and DMs) and
with an announcer that owes nothing (the step alone). The difference of the
step latencies is what writing the outbox adds. Then every owed entry is
delivered by the real ``Renderer`` to a client that accepts each send at once
(no network): that time per step is what delivering adds besides Discord's own
answer. Figures only, with the machine's load; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from importlib import import_module
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.app import game_extension
from bot.storage import Deadline, SqliteRepository, Timeouts
from bot.tables import Announcer, Refusal, Silent, TableService
from bot.ui.announcer import TableAnnouncer
from bot.ui.renderer import Renderer
from games.registry import GAMES

USERS = [1001, 1002, 1003, 1004]
TIMEOUTS = Timeouts(turn=600, reaction=600, choice=600)


class NoScheduler:
    def arm(self, deadline: Deadline) -> None:
        pass

    def disarm(self, table_id: int) -> None:
        pass


class InstantChannel:
    """Accepts every send at once, as if Discord answered in no time."""

    async def send(self, *args: Any, **kwargs: Any) -> SimpleNamespace:
        return SimpleNamespace(id=1)


class InstantClient:
    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> InstantChannel:
        return InstantChannel()

    async def create_dm(self, user: Any) -> SimpleNamespace:
        return SimpleNamespace(id=user.id)


async def service_on(path: Path, announcer: Announcer) -> TableService:
    repo = SqliteRepository(path)
    await repo.open()
    service = TableService(repo, NoScheduler())
    service.announcer = announcer
    return service


async def open_tables(service: TableService, count: int, rng: random.Random) -> list[int]:
    tables = []
    for channel in range(count):
        snap = await service.create_table(
            guild_id=1,
            channel_id=10_000 + channel,
            game="complots",
            creator_id=USERS[0],
            creator_name="ann",
            options=GAMES["complots"].options_model(),
            timeouts=TIMEOUTS,
        )
        for number, user in enumerate(USERS[1:], start=1):
            await service.join(snap.table.id, user, f"player {number}")
        service.seeds = lambda: rng.getrandbits(63)
        await service.start(snap.table.id, USERS[0], moderator=False)
        tables.append(snap.table.id)
    return tables


async def one_step(service: TableService, table: int, rng: random.Random) -> float | None:
    """A random legal step on ``table``; its seconds, None when there was none."""
    snap = await service.snapshot(table)
    if snap.state is None or snap.table.status.value != "running":
        return None
    prompt = rng.choice(snap.game.prompts(snap.state))
    user = snap.seats[prompt.player].user_id
    started = time.perf_counter()
    try:
        await service.act(table, snap.version or 0, user, rng.choice(prompt.choices))
    except Refusal:
        return None
    return time.perf_counter() - started


async def play(
    service: TableService, tables: list[int], steps: int, rate: float, seed: int
) -> list[float]:
    """``steps`` steps on random tables, started at ``rate`` per second (as players
    click), each waiting for its table's previous step."""
    rng = random.Random(seed)
    latencies: list[float] = []
    busy: dict[int, asyncio.Task[None]] = {}

    async def step(table: int, after: asyncio.Task[None] | None) -> None:
        if after is not None:
            await after
        seconds = await one_step(service, table, rng)
        if seconds is not None:
            latencies.append(seconds)

    loop = asyncio.get_running_loop()
    started = loop.time()
    for number in range(steps):
        await asyncio.sleep(max(0.0, started + number / rate - loop.time()))
        table = rng.choice(tables)
        busy[table] = asyncio.create_task(step(table, busy.get(table)))
    await asyncio.gather(*busy.values())
    return latencies


def percentile(seconds: list[float], share: float) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def figures(name: str, seconds: list[float]) -> str:
    p99 = percentile(seconds, 0.99)
    return (
        f"{name:<34}{len(seconds):>7} steps  median {statistics.median(seconds) * 1e3:7.2f} ms"
        f"  p99 {p99 * 1e3:7.2f} ms"
    )


async def run(tables: int, steps: int, rate: float) -> None:
    presenters = {name: import_module(game_extension(name)).PRESENTER for name in GAMES}
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        results: dict[str, list[float]] = {}
        for label, announcer in (
            ("step, nothing owed", Silent()),
            ("step, announcements in the outbox", TableAnnouncer(presenters, away_after=3)),
        ):
            service = await service_on(Path(folder) / f"{len(results)}.sqlite3", announcer)
            table_ids = await open_tables(service, tables, random.Random(1))
            results[label] = await play(service, table_ids, steps, rate, seed=2)
            print(figures(label, results[label]))
            if isinstance(announcer, TableAnnouncer):
                await deliver_all(service, presenters, table_ids, len(results[label]))
            await service.repo.close()
        plain, owed = results.values()
        added = statistics.median(owed) - statistics.median(plain)
        added_p99 = percentile(owed, 0.99) - percentile(plain, 0.99)
        print(
            f"writing the outbox adds {added * 1e3:.2f} ms to a step's median,"
            f" {added_p99 * 1e3:.2f} ms to its p99"
        )
    print(f"load average after: {os.getloadavg()}")


async def deliver_all(
    service: TableService, presenters: dict[str, Any], tables: list[int], steps: int
) -> None:
    """Every table delivers what it owes at once (as after a burst of steps); the
    outbox's own calls are timed one by one."""
    renderer = Renderer(InstantClient(), presenters, service, interval=0)  # type: ignore[arg-type]
    repo = service.repo
    entries = sum([len(await repo.undelivered(t)) for t in tables])
    reads: list[float] = []
    marks: list[float] = []
    read, mark = repo.undelivered, repo.mark_delivered

    async def timed_read(table_id: int) -> Any:
        started = time.perf_counter()
        try:
            return await read(table_id)
        finally:
            reads.append(time.perf_counter() - started)

    async def timed_mark(entry_id: int) -> None:
        started = time.perf_counter()
        await mark(entry_id)
        marks.append(time.perf_counter() - started)

    repo.undelivered = timed_read  # type: ignore[method-assign]
    repo.mark_delivered = timed_mark  # type: ignore[method-assign]
    started = time.perf_counter()
    for table in tables:
        renderer.deliver(table)
    await renderer.drain(timeout=600)
    seconds = time.perf_counter() - started
    print(
        f"delivering {entries} entries of {steps} steps (no network): {seconds:.2f} s,"
        f" {seconds / entries * 1e3:.2f} ms per entry"
    )
    print(figures("  reading what is owed", reads).replace("steps", "calls"))
    print(figures("  marking one delivered", marks).replace("steps", "calls"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument(
        "--rate", type=float, default=100.0, help="steps started per second, over all tables"
    )
    args = parser.parse_args()
    print(f"{args.tables} tables, {args.steps} steps at {args.rate:g} per second")
    asyncio.run(run(args.tables, args.steps, args.rate))


if __name__ == "__main__":
    main()
