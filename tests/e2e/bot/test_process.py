"""`python -m bot` as a real process against the fake Discord: settings errors,
a clean SIGTERM, and a crash (SIGKILL) in the middle of a reaction window."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.storage import repository_for
from bot.storage.models import TableStatus
from bot.tables import Snapshot, TableService
from games.complots import ActionKind
from games.complots.models import Act, Pass
from tests.e2e.fake_discord import FakeUser
from tests.e2e.fake_discord.components import components_of

from .harness import Table, World, shown_version, table_update


def bot_env(world: World, **extra: str) -> dict[str, str]:
    """The settings of a bot process on the world's fake Discord and database."""
    fake, path = world.fake, world.path
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    if world.database_url is not None:
        env["DATABASE_URL"] = world.database_url
    env.update(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=f"{fake.url}/api/v10",
        DISCORD_GATEWAY_URL=fake.gateway.url,
        DATABASE_PATH=str(path / "tables.sqlite3"),
        RENDER_INTERVAL="0",
        CHANNEL_LOG="all",  # every line a step owes the channel is checked
        LOG_INTERVAL="0",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


async def run_to_exit(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=cwd, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode is not None
    return process.returncode, stderr.decode()


@asynccontextmanager
async def bot_process(world: World, **settings: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """A bot process (with these extra ``settings``), connected and ready; killed (if
    still alive) on exit."""
    fake = world.fake
    identified = fake.gateway.identifies
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=bot_env(world, **settings),
        cwd=world.path,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_for(
            lambda: fake.gateway.identifies > identified, timeout=30, what="the bot to connect"
        )
        # READY and GUILD_CREATE answer the IDENTIFY; the gateway keeps order, so
        # every interaction a test sends from now on reaches a ready client.
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


class ProcessTable(Table):
    """A table run by a bot process: the test reads the database, and waits for
    the table message to show the stored version."""

    def __init__(self, world: World, table_id: int, reader: Any) -> None:
        super().__init__(world, reader, table_id)

    async def settle(self) -> None:
        snapshot = await self.bot.tables.snapshot(self.id)

        def shows_current_version() -> bool:
            table = snapshot.table
            if table.message_id is None:
                return False
            ids = [
                str(c.get("custom_id", ""))
                for c in components_of(self.fake.message(table.message_id))
            ]
            return any(f":{snapshot.version}:" in i for i in ids if ":0:ui." not in i)

        if snapshot.table.status is TableStatus.RUNNING:
            await self.fake.wait_for(shows_current_version, timeout=10, what="the table message")

    async def wait_for_table_message(self, timeout: float = 10.0) -> None:
        """The bot process stores the table message's id just after sending it."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (table := await self.bot.repo.get_table(self.id)) is None or table.message_id is None:
            assert asyncio.get_running_loop().time() < deadline, "no table message was stored"
            await asyncio.sleep(0.02)

    async def assert_public_message_hides_secrets(self) -> None:
        return None  # checked in-process by the other e2e tests

    async def message(self) -> Any:
        table = await self.bot.repo.get_table(self.id)
        assert table is not None and table.message_id is not None
        return self.fake.message(table.message_id)


class Reader:
    """Read-only access to the bot's database from the test process."""

    def __init__(self, world: World) -> None:
        self.repo = repository_for(
            Settings(
                _env_file=None,
                database_path=world.path / "tables.sqlite3",
                database_url=world.database_url,
            )
        )
        self.tables = _FreshReads(self.repo, _NoScheduler())

    async def __aenter__(self) -> Reader:
        await self.repo.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.repo.close()


async def open_process_table(world: World, reader: Reader, players: list[FakeUser]) -> ProcessTable:
    """The first player opens a Complots table through the bot process, the others
    join, it starts; the table as the reader sees it."""
    await (await world.fake.slash(players[0], world.channel, "complots")).wait_response()
    found = await reader.tables.table_in_channel(world.channel.id)
    assert found is not None
    table = ProcessTable(world, found.id, reader)
    await table.wait_for_table_message()
    for user in players[1:]:
        await (await table.click_label(user, "Join")).wait_response()
    await (await table.click_label(players[0], "Start")).wait_response()
    await table.settle()
    return table


class _FreshReads(TableService):
    """The bot process changes the tables: never trust a cached copy here."""

    async def snapshot(self, table_id: int) -> Snapshot:
        self.forget(table_id)
        return await super().snapshot(table_id)


class _NoScheduler:
    def arm(self, deadline: object) -> None:
        raise AssertionError("the test process must not change the game")

    def disarm(self, table_id: int) -> None:
        raise AssertionError("the test process must not change the game")


async def test_missing_token_is_one_clear_line(world: World) -> None:
    code, stderr = await run_to_exit(bot_env(world, DISCORD_TOKEN=""), world.path)
    assert code == 2
    assert stderr.strip().splitlines() == [
        "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
    ]


async def test_rejected_token_is_one_clear_line(world: World) -> None:
    env = bot_env(world, DISCORD_TOKEN="not-the-token")
    code, stderr = await run_to_exit(env, world.path)
    assert code == 2
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == (
        "Discord rejected the token in DISCORD_TOKEN: check it in .env."
    )


async def test_sigterm_stops_cleanly_and_a_crash_loses_nothing(world: World) -> None:
    fake = world.fake
    players = world.players
    async with bot_process(world) as process, Reader(world) as reader:
        table = await open_process_table(world, reader, players)
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), timeout=10)
        assert process.returncode == 0
        assert process.stderr is not None
        assert b"Traceback" not in await process.stderr.read()

    async with bot_process(world) as process, Reader(world) as reader:
        table = ProcessTable(world, table.id, reader)
        state = await table.state()
        actor = state.turn
        await table.play(actor, Act(action=ActionKind.TAX))
        window_message = await table.message()
        process.kill()  # a crash in the middle of the reaction window
        await process.wait()

    async with bot_process(world), Reader(world) as reader:
        table = ProcessTable(world, table.id, reader)
        state = await table.state()
        waiting = [s for s in range(4) if s != actor]
        first = world.user((await table.seat_users())[waiting[0]])
        click = await fake.click(first, window_message, label="Pass")
        update = await table_update(click)  # a button from before the crash still works
        assert shown_version(update) == (await table.bot.tables.snapshot(table.id)).version, (
            "its answer shows the table as the new process has it"
        )
        for seat in waiting[1:]:
            await table.play(seat, Pass())
        assert (await table.state()).players[actor].coins == 5
        await table.play_randomly(random.Random(3))
        assert await table.status() is TableStatus.FINISHED
