"""Kill the bot (SIGKILL) many times in the middle of games, restart it each time,
and measure how long a restart takes until everything owed is on Discord again.

    .venv/bin/python -m bench.crash [--kills 100] [--seed 1]

The same scenario as tests/e2e/bot/test_crash.py (a real ``python -m bot``
process against the fake Discord, kills while the fake holds the table edit, a
line, a DM, or right after a click), with more kills; at the end it checks that
every owed line and DM is on Discord exactly once, in order, and prints the
restart figures with the machine's load. A failed check raises.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
from pathlib import Path

from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.e2e.bot.harness import build_world
from tests.e2e.bot.test_crash import (
    check_everything_delivered_once,
    owed_everything,
    play_with_kills,
    running,
)
from tests.e2e.fake_discord import FakeDiscord


async def run(kills: int, seed: int) -> None:
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            world = build_world(fake, Path(folder))
            recoveries = await play_with_kills(world, kills, random.Random(seed))
            async with running(world) as (_, reader):
                await owed_everything(reader)
                await check_everything_delivered_once(world, reader)
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
    ordered = sorted(recoveries)
    print(
        f"{kills} kills, every owed line and DM delivered once, in order."
        f" Restart until all delivered: median {statistics.median(ordered):.2f} s,"
        f" max {ordered[-1]:.2f} s (a process start included)"
    )
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.kills, args.seed))


if __name__ == "__main__":
    main()
