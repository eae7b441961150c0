"""Whole Mascarade games played by clicks of fake users on the fake Discord,
with the leak check after every step."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.models import TableStatus
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.components import labels

from .harness import World, build_world
from .mascarade_harness import MascaradeTable


@pytest.fixture
async def world5(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str | None
) -> AsyncIterator[World]:
    yield build_world(fake_discord, tmp_path, players=5, database_url=database_url)


@pytest.mark.parametrize(("players", "seed"), [(5, 1), (2, 2), (3, 3)])
async def test_random_games_by_clicks_to_a_winner(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    database_url: str | None,
    players: int,
    seed: int,
) -> None:
    world = build_world(fake_discord, tmp_path, players=players, database_url=database_url)
    async with world.fake.running(world.bot()) as bot:
        table = await MascaradeTable.open(world, bot, players=players)
        message = await table.message()
        assert labels(message) == ["Swap…", "My hand", "Watch"], "the first four turns are swaps"
        await table.play_randomly(random.Random(seed))
        assert await table.status() is TableStatus.FINISHED
        final = await table.message()
    assert "Rematch" in labels(final)
    embed = final.embeds[0]
    assert "🏆" in str(embed)
    assert "🂠" not in embed["description"], "every card is turned over at the end"
    assert "wins the game" in table.channel_text() or "win the game" in table.channel_text()
