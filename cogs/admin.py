"""Moderator commands: /mod tables, end, remove, timeouts, role, language.

Moderators are members with Manage Server (or Administrator), or the role a
guild configures. `/mod` is guild-only and its default member permission is
Manage Server, so Discord hides it from other members (a server admin can open
it to the moderator role in Server Settings > Integrations). The check also runs
in code on every command: those permissions can be overridden by server admins,
and a client can forge an interaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage.models import TableStatus
from bot.tables import Refusal
from bot.ui.i18n import AUTONYMS, LANGUAGES, language_of, t

if TYPE_CHECKING:
    from bot.app import GameMasterBot


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    commands.GroupCog,
    group_name="mod",
    group_description="Moderator tools: tables, players and this server's settings",
):
    def __init__(self, bot: GameMasterBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if not await self.bot.is_moderator(interaction):
            raise app_commands.CheckFailure("moderators only")
        return True

    async def _say(self, interaction: discord.Interaction[Any], key: str, **args: object) -> None:
        await interaction.response.send_message(
            t(key, interaction.locale.value, **args), ephemeral=True
        )

    async def _guild_table(self, interaction: discord.Interaction[Any], table_id: int) -> int:
        table = await self.bot.repo.get_table(table_id)
        if table is None or interaction.guild is None or table.guild_id != interaction.guild.id:
            raise Refusal("no_table")
        return table.id

    @app_commands.command(name="tables", description="List this server's open tables")
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild is not None
        locale = interaction.locale.value
        open_tables = await self.bot.repo.list_tables(
            interaction.guild.id, (TableStatus.LOBBY, TableStatus.RUNNING)
        )
        lines = []
        for table in open_tables:
            seats = await self.bot.repo.seats(table.id)
            lines.append(
                t(
                    "admin.table_line",
                    locale,
                    table=table.id,
                    game=t(f"{table.game}.title", locale),
                    channel=table.channel_id,
                    status=table.status.value,
                    players=len(seats),
                )
            )
        embed = discord.Embed(
            title=t("admin.tables_title", locale),
            description="\n".join(lines) or t("admin.no_tables", locale),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="end", description="End a table now (nobody wins)")
    @app_commands.describe(table="The table number (see /mod tables)")
    async def end(self, interaction: discord.Interaction[Any], table: int) -> None:
        table_id = await self._guild_table(interaction, table)
        await self.bot.tables.end(table_id, interaction.user.id)  # the channel is told too
        await self._say(interaction, "admin.ended", table=table_id)

    @app_commands.command(name="remove", description="Remove a player from a running table")
    @app_commands.describe(table="The table number", player="The player to remove")
    async def remove(
        self, interaction: discord.Interaction[Any], table: int, player: discord.User
    ) -> None:
        table_id = await self._guild_table(interaction, table)
        snapshot = await self.bot.tables.snapshot(table_id)
        seat = snapshot.seat_of(player.id)
        if seat is None:
            raise Refusal("no_such_seat")
        await self.bot.tables.remove_player(table_id, seat.seat, interaction.user.id)
        await self._say(interaction, "admin.removed", player=player.mention, table=table_id)

    @app_commands.command(name="timeouts", description="Default answer times for new tables")
    @app_commands.describe(
        turn="Seconds for a turn (30-600)",
        reaction="Seconds to challenge, block or contest (10-120)",
        choice="Seconds for a follow-up choice: which card to lose, which to keep (15-300)",
    )
    async def timeouts(
        self,
        interaction: discord.Interaction[Any],
        turn: app_commands.Range[int, 30, 600],
        reaction: app_commands.Range[int, 10, 120],
        choice: app_commands.Range[int, 15, 300],
    ) -> None:
        assert interaction.guild is not None
        settings = await self.bot.repo.guild_settings(interaction.guild.id)
        await self.bot.repo.save_guild_settings(
            settings.model_copy(
                update={
                    "turn_timeout": turn,
                    "reaction_timeout": reaction,
                    "choice_timeout": choice,
                }
            )
        )
        await self._say(
            interaction, "admin.timeouts_set", turn=turn, reaction=reaction, choice=choice
        )

    @app_commands.command(name="role", description="Set (or clear) the moderator role")
    @app_commands.describe(
        role="Role allowed to moderate (also allow it /mod in Server Settings > Integrations)"
    )
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        assert interaction.guild is not None
        settings = await self.bot.repo.guild_settings(interaction.guild.id)
        await self.bot.repo.save_guild_settings(
            settings.model_copy(update={"moderator_role_id": role.id if role else None})
        )
        if role is None:
            await self._say(interaction, "admin.role_cleared")
        else:
            await self._say(interaction, "admin.role_set", role=role.mention)

    @app_commands.command(name="language", description="The language of new tables")
    @app_commands.describe(language="English, Italiano or Français; Auto: this server's language")
    @app_commands.choices(
        language=[
            *(app_commands.Choice(name=AUTONYMS[lang], value=lang) for lang in LANGUAGES),
            app_commands.Choice(name="Auto", value="auto"),
        ]
    )
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        assert interaction.guild is not None
        chosen = None if language.value == "auto" else language_of(language.value)
        settings = await self.bot.repo.guild_settings(interaction.guild.id)
        await self.bot.repo.save_guild_settings(settings.model_copy(update={"language": chosen}))
        spoken = AUTONYMS[await self.bot.table_language(interaction.guild)]
        key = "admin.language_auto" if chosen is None else "admin.language_set"
        await self._say(interaction, key, language=spoken)


async def setup(bot: GameMasterBot) -> None:
    await bot.add_cog(AdminCog(bot))
