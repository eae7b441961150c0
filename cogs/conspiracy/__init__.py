"""Conspiracy on Discord: the /conspiracy command, and how the game is shown
(``presenter``: the table message, buttons, event lines, My hand; ``picture``:
the PNG of the table; its words are in ``strings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from games.conspiracy import GAME, ConspiracyOptions

from .presenter import ConspiracyPresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["PRESENTER", "ConspiracyCog", "ConspiracyPresenter", "setup"]

PRESENTER = ConspiracyPresenter(GAME)


class ConspiracyCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="conspiracy", description="Open a Conspiracy table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(turn_timeout="Seconds for a turn (30-600)")
    async def conspiracy(
        self,
        interaction: discord.Interaction[Any],
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
    ) -> None:
        await self.bot.open_table(interaction, GAME, ConspiracyOptions(), turn_timeout=turn_timeout)


async def setup(bot: GameMasterBot) -> None:
    await bot.add_game(PRESENTER, ConspiracyCog(bot))
