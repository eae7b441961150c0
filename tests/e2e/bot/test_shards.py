"""Two bot processes, one Discord shard each, on one PostgreSQL database: each
serves its own guild's tables, a process down leaves its guild's tables waiting
(the other never touches them), and they resume when it comes back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.storage.models import ActionKind, TableStatus
from tests.e2e.fake_discord import FakeDiscord

from .harness import MANAGE_GUILD, World, build_world
from .test_process import ProcessTable, Reader, bot_process

SHARDS = 2
TURN = 5
"""Seconds for a turn (TURN_TIMEOUT): the shortest the settings allow."""


def second_guild(world: World) -> World:
    """The same people in another guild, on the other shard."""
    fake = world.fake
    shard = (world.guild.id >> 22) % SHARDS
    guild = fake.add_guild("Second night", shard=(1 - shard, SHARDS))
    channel = fake.add_channel(guild, "games")
    for user in [*world.players, world.outsider]:
        fake.add_member(guild, user)
    fake.add_member(guild, world.moderator, permissions=MANAGE_GUILD)
    return World(
        fake,
        world.path,
        guild,
        channel,
        world.players,
        world.moderator,
        world.outsider,
        database_url=world.database_url,
    )


def shard_of(world: World) -> str:
    return str((world.guild.id >> 22) % SHARDS)


async def open_table(world: World, reader: Reader) -> ProcessTable:
    """A started Complots table of three players in the world's channel."""
    alice, bob, carol = world.players[:3]
    await (await world.fake.slash(alice, world.channel, "complots")).wait_response()
    found = await reader.tables.table_in_channel(world.channel.id)
    assert found is not None and found.guild_id == world.guild.id
    table = ProcessTable(world, found.id, reader)
    await table.wait_for_table_message()
    for user in (bob, carol):
        await (await table.click_label(user, "Join")).wait_response()
    await (await table.click_label(alice, "Start")).wait_response()
    await table.settle()
    return table


async def kinds(reader: Reader, table: ProcessTable) -> list[ActionKind]:
    return [action.kind for action in await reader.repo.actions(table.id)]


async def test_each_shard_process_serves_its_guilds_and_resumes_them_after_a_crash(
    fake_discord: FakeDiscord, tmp_path: Path, postgres_dsn: str
) -> None:
    first = build_world(fake_discord, tmp_path, database_url=postgres_dsn)
    second = second_guild(first)
    assert shard_of(first) != shard_of(second)
    sharded = {"SHARD_COUNT": str(SHARDS), "TURN_TIMEOUT": str(TURN)}
    async with (
        Reader(first) as reader,
        bot_process(first, SHARD_IDS=shard_of(first), **sharded),
    ):
        async with bot_process(second, SHARD_IDS=shard_of(second), **sharded) as other:
            here = await open_table(first, reader)
            there = await open_table(second, reader)
            assert await here.status() is TableStatus.RUNNING
            assert await there.status() is TableStatus.RUNNING
            [deadline] = [d for d in await reader.repo.deadlines() if d.table_id == there.id]
            other.kill()  # the second guild's process dies
            await other.wait()

        # Its deadline falls due while it is down: nobody fires it, and a restart of
        # the first process does not take the second guild's tables either.
        async with bot_process(first, SHARD_IDS=shard_of(first), **sharded):
            await asyncio.sleep(max(deadline.due_at - time.time(), 0) + 1.5)
            assert await kinds(reader, there) == [ActionKind.START], "not its guild"

            async with bot_process(second, SHARD_IDS=shard_of(second), **sharded):
                for _ in range(200):  # back: its overdue deadline fires at once
                    if ActionKind.TIMEOUT in await kinds(reader, there):
                        break
                    await asyncio.sleep(0.05)
                assert (await kinds(reader, there))[:2] == [ActionKind.START, ActionKind.TIMEOUT]
                await there.settle()  # and its table message shows it
