"""The Bloody Inn on Discord: the /bloody_inn command, and how the game is shown
(``presenter``: the table message, its buttons, event lines, My hand and the
private action panel; ``picture``: the PNG of the inn; ``text`` and
``prompt_text``: its words; ``strings``: its English texts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from games.bloody_inn import GAME, BloodyInnOptions, Length

from .presenter import BloodyInnPresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["PRESENTER", "BloodyInnCog", "BloodyInnPresenter", "setup"]

PRESENTER = BloodyInnPresenter(GAME)


class BloodyInnCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="bloody_inn", description="Open a table of The Bloody Inn (1-4 players) here"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        length="Short or long game (how many travellers are removed at setup)",
        first_come_first_served="Variant: the travellers fill the rooms in order 1, 2, 3 ...",
        unlimited_wealth="Variant: past 40 F, 40 F become four cheques and the track goes on",
        turn_timeout="Seconds for a turn (30-600)",
    )
    @app_commands.choices(
        length=[
            app_commands.Choice(name="Short", value=Length.SHORT.value),
            app_commands.Choice(name="Long", value=Length.LONG.value),
        ]
    )
    async def bloody_inn(
        self,
        interaction: discord.Interaction[Any],
        length: str = Length.SHORT.value,
        first_come_first_served: bool = False,
        unlimited_wealth: bool = False,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
    ) -> None:
        await self.bot.open_table(
            interaction,
            GAME,
            BloodyInnOptions(
                length=Length(length),
                first_come_first_served=first_come_first_served,
                unlimited_wealth=unlimited_wealth,
            ),
            turn_timeout=turn_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    await bot.add_game(PRESENTER, BloodyInnCog(bot))
