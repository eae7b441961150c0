"""Whole Complots games played by clicks of fake users on the fake Discord."""

from __future__ import annotations

import random

from bot.storage.models import TableStatus
from tests.e2e.fake_discord.components import labels

from .harness import Table, World


async def test_four_players_play_a_whole_game_to_a_winner(world: World) -> None:
    fake = world.fake
    async with fake.running(world.bot()) as bot:
        table = await Table.open(world, bot)
        message = await table.message()
        assert "My hand" in labels(message)
        await table.play_randomly(random.Random(4))
        assert await table.status() is TableStatus.FINISHED
        message = await table.message()
    final = message.embeds[0]
    assert "🏆" in final["description"] + str(final.get("fields"))
    assert "Rematch" in labels(message)
    lines = [m.content for m in fake.channel_messages(world.channel)]
    assert any("wins the game" in line for line in lines)
