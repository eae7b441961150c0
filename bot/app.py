"""The Discord client: wires storage, the scheduler, the table service, the
renderer and the cogs together, and answers slash-command errors politely."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from games.base import Model
from games.entry import AnyGame
from games.registry import GAMES

from .autoplay import Autoplay
from .config import Settings
from .records import RecordKeeper
from .reminders import Reminders
from .storage import repository_for
from .storage.models import Deadline, Timeouts
from .storage.repository import Repository
from .tables import Refusal, TableService
from .thinking import Thinker
from .timers import Scheduler
from .ui.announcer import TableAnnouncer
from .ui.command_translator import CatalogueTranslator
from .ui.components import BUTTON_ID, SELECT_ID
from .ui.controller import Controller, expired, tell
from .ui.i18n import language_of, t
from .ui.presenter import AnyPresenter
from .ui.renderer import Renderer
from .ui.replay_view import Replays

log = logging.getLogger("bot")

BUTTON, STRING_SELECT = 2, 3
"""Discord's component types of our buttons and selects."""
SHARED_EXTENSIONS = ("cogs.tables", "cogs.admin", "cogs.standings")
"""Commands every game shares."""


def game_extension(name: str) -> str:
    """The Discord side of a registered game is the package ``cogs/<name>``: its
    ``setup`` adds the game's presenter and command (``GameMasterBot.add_game``)."""
    return f"cogs.{name}"


def extensions() -> list[str]:
    return [*(game_extension(name) for name in GAMES), *SHARED_EXTENSIONS]


FULL_COLLECTION_EVERY = 100
"""Middle-generation collections between two full ones (Python's default: 10)."""


def settle_garbage_collector() -> None:
    """What boot loaded stays for good: full collections need not walk it again
    (freeze). And full collections are made ten times rarer: each step's state
    outlives the young generations, so by default one ran every few seconds under
    load, pausing the loop 60-130 ms (bench.discord_latency, 500 tables, a step per
    table every 4 s: 10 in a minute, click p99 26-32 ms, max 100-115 ms; with this,
    1-2: p99 16-20 ms). The price is the cyclic garbage discord.py leaves (views,
    interactions) waiting longer: bench.memory's plateau is ~200 MiB instead of ~155."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


class GameMasterBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        repo: Repository | None = None,
        seeds: Callable[[], int] | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.repo: Repository = repo or repository_for(settings)
        self.scheduler = Scheduler(self._fire)
        self.tables = TableService(
            self.repo, self.scheduler, away_after=settings.away_after, owner=settings.claim_owner
        )
        if seeds is not None:
            self.tables.seeds = seeds  # tests replay exact deals
        self.presenters: dict[str, AnyPresenter] = {}
        self.renderer = Renderer(
            self,
            self.presenters,
            self.tables,
            interval=settings.render_interval,
            # Notable lines are news: they go at once.
            log_interval=settings.log_interval if settings.channel_log == "all" else 0.0,
            rest_per_second=settings.rest_budget,
        )
        self.tables.thinker = Thinker(
            workers=settings.think_workers, budget=settings.computer_think
        )
        self.autoplay = Autoplay(self.tables, delay=settings.computer_delay)
        self.records = RecordKeeper(self.repo)
        self.tables.listeners = [self.renderer, self.autoplay, self.records]
        self.reminders = Reminders(self.tables, self, self.renderer.writes)
        if settings.turn_reminder:
            self.tables.listeners.append(self.reminders)
        self.tables.announcer = TableAnnouncer(
            self.presenters, settings.away_after, every_line=settings.channel_log == "all"
        )
        self.clicks = Controller(self.tables, self.presenters, self.is_moderator, self.renderer)
        self.replays = Replays(self.repo, self.presenters, settings.away_after)

    async def setup_hook(self) -> None:
        await self.repo.open()
        for extension in extensions():
            await self.load_extension(extension)
        if missing := set(GAMES) - set(self.presenters):
            raise RuntimeError(f"registered games without a presenter: {sorted(missing)}")
        await self.tree.set_translator(CatalogueTranslator(self.tree))  # it and fr names
        await self._sync_commands()
        await self.scheduler.start(await self.tables.armed_deadlines())
        await self._resume_output()
        await self.autoplay.resume()
        self.records.start()
        settle_garbage_collector()

    async def _resume_output(self) -> None:
        """What a crash left owed: table messages behind their table (finished and
        ended ones included) are redrawn, undelivered outbox entries delivered."""
        redraw = await self.repo.tables_to_refresh()
        for table_id in redraw:
            await self.renderer.refresh(table_id)
        for table_id in set(await self.repo.tables_with_undelivered()) - set(redraw):
            self.renderer.deliver(table_id)

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """Stop taking timeouts, flush what is queued for Discord, close the database."""
        await self.scheduler.stop()
        await self.autoplay.stop()
        await self.reminders.stop()
        await self.records.stop()
        self.tables.thinker.close()
        await self.renderer.stop(timeout=3.0)
        await self.repo.close()
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click and select is routed here by its custom_id (discord.py keeps no
        view of ours): ours go to the controller, which checks the click's place
        and version; anything else is refused."""
        if interaction.type is not discord.InteractionType.component:
            return
        try:
            await self._route(interaction)
        finally:
            # The interaction and its answer refer to each other: the clicked message
            # (its embed and components: most of what a click leaves behind) is let go
            # now, not by a full collection (see settle_garbage_collector).
            interaction.message = None

    async def _route(self, interaction: discord.Interaction[Any]) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        kind = data.get("component_type")
        if kind == BUTTON and (match := BUTTON_ID.fullmatch(custom_id)):
            await self.clicks.on_click(
                interaction, int(match["table"]), int(match["version"]), match["code"]
            )
        elif kind == STRING_SELECT and (match := SELECT_ID.fullmatch(custom_id)):
            values = [str(v) for v in data.get("values", [])]
            await self.clicks.on_select(
                interaction, int(match["table"]), int(match["version"]), match["code"], values
            )
        elif self.replays.handles(custom_id):
            await self.replays.on_component(interaction)
        else:
            await self.clicks.on_foreign(interaction, custom_id)

    async def _fire(self, deadline: Deadline) -> None:
        await self.tables.fire(deadline)

    # --- shared by the cogs -----------------------------------------------------

    async def add_game(self, presenter: AnyPresenter, cog: commands.Cog) -> None:
        """A game's extension adds its presenter (for the registered engine) and its
        command."""
        if GAMES.get(presenter.name) is not presenter.game:
            raise ValueError(f"{presenter.name!r} is not a registered game's engine")
        self.presenters[presenter.name] = presenter
        await self.add_cog(cog)

    async def is_moderator(
        self, interaction: discord.Interaction[Any], guild_id: int | None = None
    ) -> bool:
        """Manage Server (or Administrator), or the guild's configured moderator role,
        in ``guild_id`` (a table's guild; default: the interaction's). The rights an
        interaction carries are those of its own guild: never a moderator elsewhere."""
        member = interaction.user
        if interaction.guild is None or not isinstance(member, discord.Member):
            return False
        if guild_id is not None and interaction.guild.id != guild_id:
            return False
        permissions = interaction.permissions
        if permissions.manage_guild or permissions.administrator:
            return True
        settings = await self.repo.guild_settings(interaction.guild.id)
        role_id = settings.moderator_role_id
        return role_id is not None and any(role.id == role_id for role in member.roles)

    async def timeouts_for(self, guild_id: int, turn: int | None, reaction: int | None) -> Timeouts:
        stored = await self.repo.guild_settings(guild_id)
        return Timeouts(
            turn=turn or stored.turn_timeout or self.settings.turn_timeout,
            reaction=reaction or stored.reaction_timeout or self.settings.reaction_timeout,
            choice=stored.choice_timeout or self.settings.choice_timeout,
        )

    async def table_language(self, guild: discord.Guild) -> str:
        """New tables' language in ``guild``: its moderators' choice (``/mod
        language``), else the guild's preferred locale when the bot speaks it."""
        stored = await self.repo.guild_settings(guild.id)
        return stored.language or language_of(guild.preferred_locale.value)

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        game: AnyGame,
        options: Model,
        *,
        turn_timeout: int | None,
        reaction_timeout: int | None = None,
    ) -> None:
        """The shared body of every game's "open a table" command."""
        assert interaction.guild is not None and interaction.channel_id is not None
        user = interaction.user
        timeouts = await self.timeouts_for(interaction.guild.id, turn_timeout, reaction_timeout)
        snapshot = await self.tables.create_table(
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id,
            game=game.name,
            creator_id=user.id,
            creator_name=getattr(user, "display_name", user.name),
            options=options,
            timeouts=timeouts,
            language=await self.table_language(interaction.guild),
            creator_locale=language_of(interaction.locale.value),
        )
        await interaction.response.send_message(
            t("lobby.opened", interaction.locale.value, table=snapshot.table.id), ephemeral=True
        )


class ShardedGameMasterBot(GameMasterBot, commands.AutoShardedBot):
    """The bot over the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (one gateway
    connection each, in this process); its storage serves their guilds alone."""


def create_bot(settings: Settings, **options: Any) -> GameMasterBot:
    """The bot the settings describe: sharded when ``SHARD_COUNT`` is set."""
    shards = settings.shards
    if shards is None:
        return GameMasterBot(settings, **options)
    return ShardedGameMasterBot(
        settings, shard_count=shards.count, shard_ids=list(shards.ids), **options
    )


class GameTree(app_commands.CommandTree[GameMasterBot]):
    """Answers every failed slash command with a polite ephemeral line."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if expired(original):
            log.warning("command interaction %s expired before it was answered", interaction.id)
            return
        if isinstance(original, Refusal):
            key, args = f"refusal.{original.key}", original.params
        elif isinstance(error, app_commands.CheckFailure):
            key, args = "refusal.moderators_only", {}
        else:
            log.error("command failed", exc_info=error)
            key, args = "refusal.error", {}
        await tell(interaction, t(key, interaction.locale.value, **args))
