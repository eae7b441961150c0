"""A person the table waits on alone is mentioned once half their time is gone; the
line goes once they move. Nobody else is pinged."""

from __future__ import annotations

import asyncio
import time

import pytest

import bot.reminders as reminders_module
from bot.app import GameMasterBot
from games.complots import ActionKind
from games.complots.models import Act
from tests.e2e.fake_discord.models import StoredMessage
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, rig

TURN = 60
"""The tables' turn timeout (the harness's default)."""


def hurry(bot: GameMasterBot, left: float = 0.3) -> None:
    """The reminders' clock runs ahead: a reminder due half a turn after a change
    comes ``left`` seconds after it."""
    bot.reminders.clock = lambda: time.time() + TURN / 2 - left


def reminders(world: World, *, include_deleted: bool = False) -> list[StoredMessage]:
    return [
        m
        for m in world.fake.channel_messages(world.channel, include_deleted=include_deleted)
        if m.content.startswith("⏰")
    ]


async def test_the_player_whose_turn_it_is_is_reminded_and_the_line_goes_when_they_move(
    world: World,
) -> None:
    fake = world.fake
    async with fake.running(world.bot(turn_timeout=TURN)) as bot:
        hurry(bot, left=TURN)  # nothing comes while the table is set up
        table = await Table.open(world, bot, players=2)
        await rig(table, [[D, CA], [CO, AM]], turn=0)
        alice, bob = world.players[:2]
        hurry(bot)
        await table.play(0, Act(action=ActionKind.INCOME))
        await fake.wait_for(lambda: bool(reminders(world)), timeout=5, what="a reminder")
        (line,) = reminders(world)
        assert f"<@{bob.id}>" in line.content and f"<@{alice.id}>" not in line.content
        message = await table.message()
        assert f"/{world.guild.id}/{world.channel.id}/{message.id}" in line.content
        assert line.allowed_mentions is not None
        assert [int(u) for u in line.allowed_mentions.get("users", [])] == [bob.id]
        assert not line.allowed_mentions.get("parse"), "nobody else, no role, no everyone"

        await table.play(1, Act(action=ActionKind.INCOME))
        await fake.wait_for(lambda: line.deleted, timeout=5, what="the reminder deleted")
        await fake.wait_for(lambda: bool(reminders(world)), timeout=5, what="alice's reminder")
        assert f"<@{alice.id}>" in reminders(world)[0].content


async def test_a_player_who_moves_in_time_is_not_reminded(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot(turn_timeout=TURN)) as bot:
        table = await Table.open(world, bot, players=2)
        await rig(table, [[D, CA], [CO, AM]], turn=0)
        hurry(bot, left=0.8)
        await table.play(0, Act(action=ActionKind.INCOME))
        await table.play(1, Act(action=ActionKind.INCOME))
        await table.settle()
        assert not reminders(world, include_deleted=True)


async def test_nobody_is_reminded_of_a_reaction_window(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot(turn_timeout=TURN, reaction_timeout=TURN)) as bot:
        table = await Table.open(world, bot, players=3)
        await rig(table, [[D, CA], [CO, AM], [A, D]], turn=0)
        hurry(bot)
        await table.play(0, Act(action=ActionKind.TAX))  # a window: two may challenge
        snapshot = await bot.tables.snapshot(table.id)
        assert snapshot.state is not None
        assert len(snapshot.game.awaiting(snapshot.state)) == 2
        await asyncio.sleep(1.0)
        assert not reminders(world, include_deleted=True), "nobody pinged for a window"


async def test_a_computer_is_not_reminded(world: World) -> None:
    fake = world.fake
    alice = world.players[0]
    async with fake.running(world.bot(turn_timeout=TURN, computer_delay=30.0)) as bot:
        hurry(bot)
        await (await fake.slash(alice, world.channel, "complots")).wait_response()
        found = await bot.tables.table_in_channel(world.channel.id)
        assert found is not None
        table = Table(world, bot, found.id)
        await table.settle()
        for label in ("Add computer", "Start"):
            await (await table.click_label(alice, label)).wait_response()
            await table.settle()
        state = await table.state()
        if state.turn == 0:
            await table.play(0, Act(action=ActionKind.INCOME))
        assert (await table.state()).turn == 1, "the computer's turn, for 30 s"
        await asyncio.sleep(1.0)
        assert not reminders(world, include_deleted=True)


async def test_nothing_is_armed_once_the_bot_is_closing(world: World) -> None:
    """A step committed while the bot closes (a click being answered) arms no reminder:
    it would fire on a closed session."""
    fake = world.fake
    async with fake.running(world.bot(turn_timeout=TURN)) as bot:
        table = await Table.open(world, bot, players=2)
        await rig(table, [[D, CA], [CO, AM]], turn=0)
        await bot.reminders.stop()
        hurry(bot)
        await table.play(0, Act(action=ActionKind.INCOME))
        await asyncio.sleep(1.0)
        assert not reminders(world, include_deleted=True)


async def test_a_line_still_being_sent_at_shutdown_is_let_go(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping waits a moment for a line being posted, then cancels it: it would
    fail on the session the bot closes next."""
    monkeypatch.setattr(reminders_module, "STOP_WAIT", 0.05)
    async with world.fake.running(world.bot(turn_timeout=TURN)) as bot:
        bot.reminders._spawn(never_answered())
        sending = list(bot.reminders._tasks)
        await asyncio.wait_for(bot.reminders.stop(), timeout=1.0)
        await asyncio.sleep(0)
        assert sending and all(task.done() for task in sending), "nothing outlives the stop"


async def never_answered() -> None:
    """A line Discord takes forever to accept."""
    await asyncio.Event().wait()
