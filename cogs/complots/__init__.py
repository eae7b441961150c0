"""Complots on Discord: the /complots command, and how the game is shown
(``presenter``; its words are in ``strings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from games.complots import GAME, ComplotsOptions, Variant

from .presenter import ComplotsPresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["PRESENTER", "ComplotsCog", "ComplotsPresenter", "setup"]

PRESENTER = ComplotsPresenter(GAME)


class ComplotsCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="complots", description="Open a Complots table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        variant="The fifth character: Ambassador (recommended first) or Inquisitor",
        turn_timeout="Seconds for a turn (30-600)",
        reaction_timeout="Seconds to challenge or block (10-120)",
    )
    @app_commands.choices(
        variant=[
            app_commands.Choice(name="Ambassador", value=Variant.AMBASSADOR.value),
            app_commands.Choice(name="Inquisitor", value=Variant.INQUISITOR.value),
        ]
    )
    async def complots(
        self,
        interaction: discord.Interaction[Any],
        variant: str = Variant.AMBASSADOR.value,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
        reaction_timeout: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        await self.bot.open_table(
            interaction,
            GAME,
            ComplotsOptions(variant=Variant(variant)),
            turn_timeout=turn_timeout,
            reaction_timeout=reaction_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    await bot.add_game(PRESENTER, ComplotsCog(bot))
