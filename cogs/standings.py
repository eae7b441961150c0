"""Standings of this server: /stats, /leaderboard and /history (answered to the
asker alone)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage.models import Standing
from bot.ui.components import view_of
from bot.ui.replay_view import replay_select
from bot.ui.standings import history_embed, leaderboard_embed, stats_embed
from games.registry import GAMES

if TYPE_CHECKING:
    from bot.app import GameMasterBot

HISTORY_LENGTH = 10
BOARD_LENGTH = 10


def game_choices() -> list[app_commands.Choice[str]]:
    """Each game by its English title (the game's own strings: Discord's default)."""
    return [
        app_commands.Choice(
            name=import_module(f"cogs.{name}.strings").STRINGS[f"{name}.title"], value=name
        )
        for name in GAMES
    ]


class StandingsCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="A player's games, wins and ratings here")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose statistics (default: yours)", game="Only this game")
    @app_commands.choices(game=game_choices())
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild is not None
        guild_id, user_id = interaction.guild.id, (member or interaction.user).id
        chosen = game.value if game else None
        repo = self.bot.repo
        results = [r for r in await repo.results_of(guild_id, user_id) if chosen in (None, r.game)]
        standings: dict[str, Standing] = {}
        counters: dict[str, dict[str, int]] = {}
        for name in sorted({r.game for r in results}):
            if (standing := await repo.standing(guild_id, name, user_id)) is not None:
                standings[name] = standing
            if GAMES.entry(name).stats is not None:
                counters[name] = await repo.stat_totals(guild_id, user_id, name)
        embed = stats_embed(user_id, chosen, results, standings, interaction.locale.value, counters)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        assert interaction.guild is not None
        guild_id = interaction.guild.id
        board = await self.bot.repo.leaderboard(guild_id, game.value, BOARD_LENGTH)
        mine = await self.bot.repo.standing(guild_id, game.value, interaction.user.id)
        embed = leaderboard_embed(game.value, board, mine, interaction.locale.value)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The latest games played in this server")
    @app_commands.guild_only()
    @app_commands.describe(game="Only this game")
    @app_commands.choices(game=game_choices())
    async def history(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild is not None
        records = await self.bot.repo.recent_records(
            interaction.guild.id, game=game.value if game else None, limit=HISTORY_LENGTH
        )
        locale = interaction.locale.value
        embed = history_embed(records, locale)
        view = view_of([replay_select(records, locale)]) if records else discord.utils.MISSING
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: GameMasterBot) -> None:
    await bot.add_cog(StandingsCog(bot))
