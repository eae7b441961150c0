"""Restarts: a new bot on the same database carries every table on; buttons
sent by the old bot keep working and deadlines fire (past-due ones at once)."""

from __future__ import annotations

import random

from bot.storage.models import TableStatus
from games.complots import ActionKind
from games.complots.models import Act, Pass, Stage
from tests.e2e.fake_discord.components import components_of
from tests.games.complots.helpers import AM, CA, CO, A, D

from .harness import Table, World, rig, shown_version, table_update


async def test_restarts_during_a_window_a_choice_and_a_due_deadline(world: World) -> None:
    fake = world.fake
    carol = world.players[2]

    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        await rig(table, [[D, CA], [CO, AM], [A, D], [CA, CO]], turn=0)
        await table.play(0, Act(action=ActionKind.TAX))
        await table.play(1, Pass())
        window_message = await table.message()
    # Stopped with a reaction window open: carol and dave still to answer.

    shown = len(window_message.history)

    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        assert len(fake.message(window_message.id).history) == shown, (
            "an up-to-date table message is not edited at boot"
        )
        challenge = await fake.click(carol, window_message, label="Challenge")
        update = await table_update(challenge)  # a button sent by the old bot works
        await table.settle()
        assert shown_version(update) == (await bot.tables.snapshot(table.id)).version, (
            "its answer shows the table as the new bot has it"
        )
        state = await table.state()
        assert state.losses and state.losses[0].seat == 2
        panel = await table.click_code(carol, "ui.panel.choose")
        await panel.wait_response()
        assert panel.ephemeral
    # Stopped while carol chooses the card she loses, her panel still open; as if
    # the last step had not reached Discord, the message is marked as not rendered.
    world.write("UPDATE tables SET rendered_version = NULL WHERE id = ?", table.id)
    shown = len(window_message.history)

    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        await table.settle()
        assert len(fake.message(window_message.id).history) == shown + 1, (
            "a table message behind the stored state is refreshed at boot"
        )
        select = next(c for c in components_of(panel.message) if c.get("type") == 3)
        chosen = await fake.select(carol, panel.message, select["custom_id"], ["reveal.0"])
        await chosen.wait_response()
        await table.settle()
        state = await table.state()
        assert state.players[2].revealed() == [A] and state.turn == 1
        assert state.stage is Stage.ACTION
    # Stopped during bob's turn; its deadline passes while the bot is down.

    world.write("UPDATE deadlines SET due_at = 0 WHERE table_id = ?", table.id)

    async with fake.running(world.bot()) as bot:
        table = Table(world, bot, table.id)
        await fake.wait_for(
            lambda: (
                bot.tables._deadlines.get(table.id) is not None
                and bot.tables._deadlines[table.id].due_at > 0
            ),
            timeout=5,
            what="the past-due turn deadline to fire at boot",
        )
        await table.settle()
        state = await table.state()
        assert state.turn == 2 and state.players[1].coins == 3, "bob's timeout took income"
        seats = await bot.repo.seats(table.id)
        assert seats[1].away_strikes == 1
        lines = "\n".join(m.content for m in fake.channel_messages(world.channel))
        assert "**bob** takes 1 🪙" in lines
        await table.play_randomly(random.Random(9))
        assert await table.status() is TableStatus.FINISHED
