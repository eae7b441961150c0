"""Commands every game shares: /hand and /table (log, leave)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import Refusal

if TYPE_CHECKING:
    from bot.app import GameMasterBot


@app_commands.guild_only()
class TablesCog(
    commands.GroupCog,
    group_name="table",
    group_description="This channel's game table",
):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        super().__init__()

    async def _table_here(self, interaction: discord.Interaction[Any]) -> int:
        assert interaction.channel_id is not None
        table = await self.bot.tables.table_in_channel(interaction.channel_id)
        if table is None:
            raise Refusal("no_table_here")
        return table.id

    @app_commands.command(
        name="log", description="What has happened so far at this channel's table"
    )
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        table_id = await self._table_here(interaction)
        user_id = interaction.user.id
        panel = await self.bot.clicks.log_panel(table_id, user_id, interaction.locale.value)
        await self.bot.clicks.show_panel(interaction, panel)


class HandCog(commands.Cog):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="See your secret cards at this channel's table")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        table = await self.bot.tables.table_in_channel(interaction.channel_id)
        if table is None:
            raise Refusal("no_table_here")
        await self.bot.clicks.on_click(interaction, table.id, 0, "ui.hand")


async def setup(bot: GameMasterBot) -> None:
    await bot.add_cog(TablesCog(bot))
    await bot.add_cog(HandCog(bot))
