"""Mascarade on Discord: the /mascarade command and how the game is shown.

``presenter.py`` renders (public: spectator view only; private: the seat's
view) and answers each choice privately through the platform's
``after_choice`` hook (a look, a Spy's cards, the secret swap-or-not);
``text.py`` words places and memories; its strings are in ``strings.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from games.mascarade import GAME, MascaradeOptions

from .characters import parse_characters
from .presenter import MascaradePresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot

__all__ = ["PRESENTER", "MascaradeCog", "MascaradePresenter", "parse_characters", "setup"]

PRESENTER = MascaradePresenter(GAME)


class MascaradeCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="mascarade", description="Open a Mascarade table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        characters=(
            "Custom set (4+ players), e.g. Judge, Bishop, King, Queen, Thief, Cheat;"
            " default: the official one"
        ),
        turn_timeout="Seconds for a turn (30-600)",
        reaction_timeout="Seconds to contest an announcement, per player (10-120)",
    )
    async def mascarade(
        self,
        interaction: discord.Interaction[Any],
        characters: app_commands.Range[str, 1, 300] | None = None,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
        reaction_timeout: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        chosen = None
        if characters is not None and characters.strip():
            chosen = parse_characters(characters, interaction.locale.value)
        await self.bot.open_table(
            interaction,
            GAME,
            MascaradeOptions(characters=chosen),
            turn_timeout=turn_timeout,
            reaction_timeout=reaction_timeout,
        )


async def setup(bot: GameMasterBot) -> None:
    await bot.add_game(PRESENTER, MascaradeCog(bot))
