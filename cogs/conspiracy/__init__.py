"""Conspiracy on Discord: the /conspiracy command, and how the game is shown
(``presenter``: the table message, buttons, event lines, My hand; ``picture``:
the PNG of the table)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from games.conspiracy import ConspiracyOptions

from .presenter import ConspiracyPresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["ConspiracyCog", "ConspiracyPresenter", "setup"]


class ConspiracyCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="conspiracy", description="Open a Conspiracy table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        turn_timeout="Seconds for a turn (30-600)",
        reaction_timeout="Seconds for reactions (10-120; Conspiracy itself has none)",
    )
    async def conspiracy(
        self,
        interaction: discord.Interaction[Any],
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
        reaction_timeout: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        await self.bot.open_table(
            interaction,
            game="conspiracy",
            options=ConspiracyOptions(),
            turn_timeout=turn_timeout,
            reaction_timeout=reaction_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    bot.presenters["conspiracy"] = ConspiracyPresenter()
    await bot.add_cog(ConspiracyCog(bot))
