"""A process of the bot's table service on a shared PostgreSQL database, for the
multi-process tests (``tests/bot/test_processes.py``). No Discord: the service,
its repository and its timers, as a bot process runs them.

    python -m tests.bot.process_worker serve DSN OWNER [--lease S] [--slow-timeout S]
    python -m tests.bot.process_worker click DSN TABLE VERSION USER CHOICE_JSON GO_FILE

``serve`` fires the database's deadlines as they fall due (claiming each first),
printing ``ready`` once armed and ``firing <table>`` when it holds a deadline and
is about to commit its timeout (``--slow-timeout`` then waits that long first, so
a test can kill it mid-fire). ``click`` waits until GO_FILE exists, then makes the
choice and prints ``applied`` or ``refused <key>``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.storage.models import ActionKind
from bot.storage.postgres import PostgresRepository
from bot.tables import Refusal, TableService
from bot.timers import Scheduler


def say(line: str) -> None:
    print(line, flush=True)


class SlowTimeouts(PostgresRepository):
    """Waits before committing a timeout: the process dies there when killed."""

    slow = 0.0

    async def commit(self, table_id: int, **step: Any) -> bool:
        if step["action"].kind is ActionKind.TIMEOUT:
            say(f"firing {table_id}")
            await asyncio.sleep(self.slow)
        return await super().commit(table_id, **step)


async def serve(dsn: str, owner: str, lease: float, slow: float) -> None:
    repo = SlowTimeouts(dsn)
    repo.slow = slow
    await repo.open()
    scheduler: Scheduler
    service: TableService

    async def fire(deadline: Any) -> None:
        await service.fire(deadline)

    scheduler = Scheduler(fire)
    service = TableService(repo, scheduler, owner=owner)
    service.deadline_lease = lease
    await scheduler.start(await service.armed_deadlines())
    say("ready")
    await asyncio.Event().wait()  # until killed


async def click(dsn: str, table: int, version: int, user: int, choice: str, go: Path) -> None:
    repo = PostgresRepository(dsn)
    await repo.open()
    service = TableService(repo, Scheduler(lambda _: asyncio.sleep(0)))
    snap = await service.snapshot(table)  # loaded before the race starts
    parsed = snap.game.parse_choice(choice)
    say("ready")
    while not go.exists():
        await asyncio.sleep(0.005)
    try:
        applied = await service.act(table, version, user, parsed)
        say("applied" if applied else "refused lost")
    except Refusal as refusal:
        say(f"refused {refusal.key}")
    finally:
        await repo.close()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    serving = modes.add_parser("serve")
    serving.add_argument("dsn")
    serving.add_argument("owner")
    serving.add_argument("--lease", type=float, default=30.0)
    serving.add_argument("--slow-timeout", type=float, default=0.0)
    clicking = modes.add_parser("click")
    for name, kind in (("dsn", str), ("table", int), ("version", int), ("user", int)):
        clicking.add_argument(name, type=kind)
    clicking.add_argument("choice")
    clicking.add_argument("go", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "serve":
        asyncio.run(serve(args.dsn, args.owner, args.lease, args.slow_timeout))
    else:
        asyncio.run(click(args.dsn, args.table, args.version, args.user, args.choice, args.go))


if __name__ == "__main__":
    main(sys.argv[1:])
