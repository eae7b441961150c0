"""Restart recovery time with many stored tables.

    .venv/bin/python -m bench.restore [--tables 10000] [--keep PATH]

Fills a temp SQLite file (through the repository) with N running tables, each
with a realistic ~4 KB state JSON and a far-future deadline, then measures what
a boot does: open a fresh repository, ``running_tables()``, load every state,
``deadlines()``, and ``Scheduler.start(...)`` with them all. The file is in the
OS page cache by then (a warm restart). Nothing is asserted: it is a
measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.storage import ActionKind, ActionRecord, Deadline, SqliteRepository, Timeouts
from bot.timers import Scheduler

T = TypeVar("T")

CARDS = ("duke", "assassin", "captain", "ambassador", "contessa", "inquisitor")
ACTIONS = ("income", "foreign_aid", "tax", "steal", "exchange", "assassinate", "coup")
PLAYERS = 6
STATE_BYTES = 4096


def state_json(rng: random.Random, user_ids: list[int]) -> str:
    """A game state shaped like a real one (players, hands, deck, log, rng), ~4 KB."""
    state: dict[str, Any] = {
        "game": "complots",
        "options": {"variant": "base", "players": len(user_ids)},
        "turn": rng.randrange(1, 60),
        "current": rng.randrange(len(user_ids)),
        "stage": "reaction",
        "players": [
            {
                "seat": seat,
                "user_id": user_id,
                "coins": rng.randrange(13),
                "hand": [rng.choice(CARDS) for _ in range(2)],
                "revealed": [rng.choice(CARDS) for _ in range(rng.randrange(2))],
                "alive": rng.random() > 0.2,
            }
            for seat, user_id in enumerate(user_ids)
        ],
        "deck": [rng.choice(CARDS) for _ in range(max(3, 15 - 2 * len(user_ids)))],
        "rng": [rng.getrandbits(32) for _ in range(32)],
        "log": [],
    }
    while len(text := json.dumps(state)) < STATE_BYTES:
        state["log"].append(
            {
                "turn": len(state["log"]),
                "seat": rng.randrange(len(user_ids)),
                "action": rng.choice(ACTIONS),
                "target": rng.randrange(len(user_ids)),
                "claim": rng.choice(CARDS),
                "challenged_by": None,
                "outcome": "resolved",
            }
        )
    return text


async def fill(path: Path, tables: int) -> float:
    """Creates ``tables`` running tables through the repository; returns seconds taken."""
    rng = random.Random(1)
    repo = SqliteRepository(path)
    await repo.open()
    began = time.perf_counter()
    far_future = time.time() + 86_400
    try:
        for number in range(tables):
            users = [number * 10 + seat + 1 for seat in range(PLAYERS)]
            table = await repo.create_table(
                guild_id=1 + number % 50,
                channel_id=10_000 + number,
                game="complots",
                creator_id=users[0],
                creator_name=f"user{users[0]}",
                options_json='{"variant": "base"}',
                timeouts=Timeouts(turn=60, reaction=20, choice=45),
            )
            for user in users[1:]:
                await repo.add_seat(table.id, user, f"user{user}", max_seats=PLAYERS)
            await repo.start_game(
                table.id,
                seed=number,
                state_json=state_json(rng, users),
                seat_order=rng.sample(users, len(users)),
                action=ActionRecord(
                    table_id=table.id, version=0, kind=ActionKind.START, created_at=time.time()
                ),
                deadline=Deadline(
                    table_id=table.id,
                    window="turn",
                    version=0,
                    due_at=far_future + rng.uniform(0, 3600),
                ),
            )
    finally:
        await repo.close()
    return time.perf_counter() - began


async def timed(label: str, work: Callable[[], Awaitable[T]]) -> T:
    began = time.perf_counter()
    result = await work()
    print(f"  {label:<34} {1000 * (time.perf_counter() - began):9.1f} ms")
    return result


async def no_op(_: Deadline) -> None:
    return None


async def restore(path: Path) -> None:
    repo = SqliteRepository(path)
    began = time.perf_counter()
    await timed("open (connect, pragmas, migrate)", repo.open)
    try:
        running = await timed("running_tables()", repo.running_tables)

        async def load_all() -> list[int]:
            sizes = []
            for table in running:
                state = await repo.load_state(table.id)
                assert state is not None
                sizes.append(len(state.state_json))
            return sizes

        sizes = await timed(f"load_state() x {len(running)}", load_all)
        deadlines = await timed("deadlines()", repo.deadlines)
        scheduler = Scheduler(no_op)

        async def start() -> None:
            await scheduler.start(deadlines)

        await timed(f"Scheduler.start({len(deadlines)} deadlines)", start)
        total = time.perf_counter() - began
        await scheduler.stop()
    finally:
        await repo.close()
    print(f"  {'total boot':<34} {1000 * total:9.1f} ms")
    print(f"  mean state size {sum(sizes) / max(len(sizes), 1):.0f} B")


async def main_async(tables: int, keep: Path | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = keep or Path(folder) / "restore.sqlite3"
        print(f"filling {tables} running tables ({PLAYERS} seats, ~{STATE_BYTES} B state) ...")
        seconds = await fill(path, tables)
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        transactions = tables * (PLAYERS + 1)
        print(
            f"  filled in {seconds:.1f} s: {tables / seconds:.0f} tables/s,"
            f" {transactions / seconds:.0f} write transactions/s; file {size / 1e6:.1f} MB"
        )
        print("restore with a fresh repository:")
        await restore(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="write the database here instead of a temp dir")
    args = parser.parse_args()
    asyncio.run(main_async(args.tables, args.keep))


if __name__ == "__main__":
    main()
