"""Routes every click and select of table components to the table service.

A custom_id is a claim, not a proof (a modified client can send any), so a
click counts only from its table's place (``check_place``): the interaction's
guild and channel are the table's, and the clicked message is the table message
or an ephemeral panel the bot sent to the clicker for that table. Ids beyond
what the storage holds are refused before any query.

Every path answers the interaction, after the step is committed (a local
SQLite transaction: milliseconds), so the answer tells the outcome: an
accepted choice is a silent deferred update (the renderer edits the table
message); anything refused is a polite ephemeral line (logged at DEBUG); an
unexpected error is logged and still answered politely.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.storage.models import TableRecord, TableStatus
from bot.tables import Refusal, Snapshot, TableService
from games.ai import Level

from .codec import BadCode, choice_models, decode
from .components import table_named, view_of
from .i18n import language_of, t
from .presenter import AnyPresenter, Panel, TableContext, refresh_button

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.clicks")

PICTURE = "table.png"
"""The file name of a drawn board in a watch panel (its embed shows it)."""
REFRESH = "ui.watch.refresh"
ANSWER_BUDGET = 1.5
"""Seconds of work before a click is answered first (Discord allows 3)."""
UNKNOWN_INTERACTION = 10062
STORED_MAX = 2**63 - 1
"""The largest integer the storage (SQLite) holds: a larger id or version names nothing."""


def expired(error: BaseException) -> bool:
    """Discord no longer takes an answer to this interaction (its 3 s passed)."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """``text`` to the interaction's user alone: its answer, or a follow-up once it
    was answered; an interaction that expired meanwhile is told in the log."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound as error:
        if not expired(error):
            raise
        log.warning("interaction %s expired before it was answered", interaction.id)


def storable(*numbers: int) -> bool:
    return all(0 <= number <= STORED_MAX for number in numbers)


def check_place(interaction: discord.Interaction[Any], table: TableRecord) -> None:
    """Raise Refusal unless the interaction comes from ``table``'s place: its guild
    and channel, and either the table message, or an ephemeral panel that Discord
    says answered this same user (``interaction_metadata``) and that shows this
    table's components. With no message (a slash command of ours, which found
    the table by its channel), the guild and channel suffice."""
    if interaction.guild_id != table.guild_id or interaction.channel_id != table.channel_id:
        raise Refusal("wrong_place")
    message = interaction.message
    if message is None:
        if interaction.type is discord.InteractionType.application_command:
            return
        raise Refusal("wrong_place")
    if message.id == table.message_id:
        return
    metadata = message.interaction_metadata
    if message.flags.ephemeral and metadata is not None and metadata.user.id == interaction.user.id:
        shown = _tables_on(message)
        if table.id in shown:
            return
        if not shown:  # the user's own panel, already answered (a second click)
            raise Refusal("stale")
    raise Refusal("wrong_place")


def _tables_on(message: discord.Message) -> set[int]:
    """The tables whose components ``message`` shows (as Discord sent it)."""
    tables: set[int] = set()
    for custom_id in _custom_ids(message):
        table_id = table_named(custom_id)
        if table_id is not None:
            tables.add(table_id)
    return tables


def _custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of the components ``message`` shows (as Discord sent it)."""
    ids: list[str] = []
    for row in message.components:
        for component in getattr(row, "children", [row]):
            custom_id = getattr(component, "custom_id", None)
            if isinstance(custom_id, str):
                ids.append(custom_id)
    return ids


def _is_watch_panel(message: discord.Message | None) -> bool:
    """An ephemeral watch panel (it shows a Refresh button)."""
    return (
        message is not None
        and message.flags.ephemeral
        and any(custom_id.endswith(f":{REFRESH}") for custom_id in _custom_ids(message))
    )


async def _wrong_place() -> None:
    raise Refusal("wrong_place")


def _maybe_reposted(interaction: discord.Interaction[Any], table: TableRecord) -> bool:
    """A public message of the table's channel that is not the table message we know."""
    message = interaction.message
    return (
        message is not None
        and not message.flags.ephemeral
        and message.id != table.message_id
        and interaction.channel_id == table.channel_id
        and interaction.guild_id == table.guild_id
    )


def _on_table_message(
    interaction: discord.Interaction[Any], table: TableRecord | None
) -> int | None:
    """The table whose own message was clicked, if it was."""
    message = interaction.message
    if table is None or message is None or message.id != table.message_id:
        return None
    return table.id


def _panel_message(panel: Panel) -> dict[str, Any]:
    """An ephemeral message showing ``panel``."""
    message: dict[str, Any] = {"content": panel.content, "ephemeral": True}
    if panel.embed is not None:
        message["embed"] = panel.embed
    if panel.items:
        message["view"] = view_of(panel.items)
    if panel.files:
        message["files"] = panel.files
    return message


def _unanswered(interaction_id: int, why: str, task: asyncio.Future[object]) -> None:
    """The outcome of a step whose interaction could not be answered: only the log
    tells it (and asyncio never warns of an exception never retrieved)."""
    if task.cancelled():
        return
    error = task.exception()
    if error is None:
        log.info("interaction %s %s; its step was applied", interaction_id, why)
    elif isinstance(error, Refusal):
        log.info("interaction %s %s; its step was refused: %s", interaction_id, why, error.key)
    else:
        log.error("interaction %s %s; its step failed", interaction_id, why, exc_info=error)


class TableMessages(Protocol):
    """What the controller needs of the renderer to update a table message through
    the answer to a click on it (``bot.ui.renderer.Renderer``)."""

    def hold(self, table_id: int) -> None: ...

    def release(self, table_id: int) -> None: ...

    async def message_update(self, snapshot: Snapshot) -> dict[str, Any]: ...

    async def shown(self, snapshot: Snapshot) -> None: ...

    def carry(self, table_id: int, interaction: discord.Interaction[Any]) -> None: ...

    def needs_carrier(self, table_id: int) -> bool: ...

    async def direct_message(self, user_id: int, content: str) -> bool: ...

    async def picture_of(self, ctx: TableContext) -> bytes | None: ...


class Controller:
    def __init__(
        self,
        service: TableService,
        presenters: dict[str, AnyPresenter],
        is_moderator: Callable[[discord.Interaction[Any], int], Awaitable[bool]],
        messages: TableMessages,
    ) -> None:
        """``is_moderator(interaction, guild_id)``: the clicker moderates that guild."""
        self.service = service
        self.presenters = presenters
        self.is_moderator = is_moderator
        self.messages = messages

    # --- entry points (bot.ui.components.ClickHandler) ------------------------------

    async def on_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, code: str
    ) -> None:
        async def work() -> None:
            table = await self._table_here(interaction, table_id, version)
            if code.startswith("ui."):
                await self._ui(interaction, table, code)
            else:
                await self._choose(interaction, table, version, code)

        await self._guarded(interaction, f"click {code}", table_id, work())

    async def on_select(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        code: str,
        values: list[str],
    ) -> None:
        async def work() -> None:
            table = await self._table_here(interaction, table_id, version)
            if len(values) != 1:
                raise Refusal("not_allowed")
            if code == "ui.language":
                await self._language(interaction, table, values[0])
            elif code == "ui.level":
                await self._level(interaction, table, values[0])
            else:
                await self._choose(interaction, table, version, values[0])

        await self._guarded(interaction, f"select {code}", table_id, work())

    async def on_foreign(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A component interaction whose custom_id is none of ours (forged)."""
        await self._guarded(interaction, f"component {custom_id[:100]!r}", None, _wrong_place())

    async def _table_here(
        self, interaction: discord.Interaction[Any], table_id: int, version: int
    ) -> TableRecord:
        """The table a click names, once the click is known to come from its place."""
        if not storable(table_id, version):
            raise Refusal("wrong_place")
        table = (await self.service.snapshot(table_id)).table  # the cached copy
        if _maybe_reposted(interaction, table):
            # Another process may have posted a new table message: judge the click
            # on the stored table.
            self.service.forget(table_id)
            table = (await self.service.snapshot(table_id)).table
        check_place(interaction, table)
        await self.service.follow_locale(
            table.id, interaction.user.id, language_of(interaction.locale.value)
        )
        return table

    async def _guarded(
        self,
        interaction: discord.Interaction[Any],
        what: str,
        table_id: int | None,
        work: Coroutine[Any, Any, None],
    ) -> None:
        """Run ``work``; a Refusal is answered politely (and logged once, at DEBUG),
        an unexpected error too (logged with its traceback)."""
        try:
            await work
        except Refusal as refusal:
            log.debug(
                "%s on table %s by user %s refused: %s",
                what,
                table_id,
                interaction.user.id,
                refusal.key,
            )
            await self.refuse(interaction, refusal)
        except discord.NotFound as error:
            self._expired(interaction, error)
        except Exception:
            log.exception("%s on table %s failed", what, table_id)
            await self.refuse(interaction, Refusal("error"))

    # --- answers -------------------------------------------------------------------

    @staticmethod
    def _expired(interaction: discord.Interaction[Any], error: discord.NotFound) -> None:
        """Discord no longer accepts an answer: the step (if any) stands; say it in the log."""
        if not expired(error):
            raise error
        log.warning("interaction %s expired before it was answered", interaction.id)

    @staticmethod
    async def refuse(interaction: discord.Interaction[Any], refusal: Refusal) -> None:
        await tell(
            interaction, t(f"refusal.{refusal.key}", interaction.locale.value, **refusal.params)
        )

    @staticmethod
    async def show_panel(interaction: discord.Interaction[Any], panel: Panel) -> None:
        await interaction.response.send_message(**_panel_message(panel))

    # --- choices ---------------------------------------------------------------------

    async def _choose(
        self,
        interaction: discord.Interaction[Any],
        table: TableRecord,
        version: int,
        code: str,
    ) -> None:
        """Apply a choice, then answer the chooser: a private panel (ephemeral)
        is replaced by the outcome; a public button is answered silently unless
        the game shows the chooser something (its ``after_choice``)."""
        table_id = table.id
        game = self.service.game(table.game)
        try:
            choice = decode(code, game.choice_adapter, choice_models(game.choice_types))
        except BadCode:
            raise Refusal("not_allowed") from None
        locale = interaction.locale.value

        async def step() -> Panel | None:
            snapshot = await self.service.act(table_id, version, interaction.user.id, choice)
            seat = snapshot.seat_of(interaction.user.id)
            if seat is None:
                return None
            ctx = TableContext(snapshot, locale, self.service.away_after, player=True)
            presenter = self.presenters[table.game]
            return presenter.after_choice(ctx, seat.seat, choice, snapshot.events)

        message = interaction.message
        private = message is not None and message.flags.ephemeral
        watching = _is_watch_panel(message)

        async def step_then_watch() -> Panel | None:
            """A choice made in a watch panel: the panel follows the table."""
            panel = await step()
            if panel is not None:
                return panel
            snapshot = await self.service.snapshot(table_id)
            return await self.watch_panel(snapshot, interaction.user.id, locale)

        done = Panel(content=t("table.choice_done", locale)) if private else None
        if watching:
            await self.answer_after(interaction, step_then_watch(), private=True, table=table)
            return
        await self.answer_after(interaction, step(), private=private, default=done, table=table)

    async def answer_after(
        self,
        interaction: discord.Interaction[Any],
        work: Coroutine[Any, Any, object],
        *,
        private: bool = False,
        default: Panel | None = None,
        table: TableRecord | None = None,
    ) -> None:
        """Do the work, then answer with the Panel it returns (or ``default``):
        replacing the clicked message when it is ``private`` (an ephemeral panel),
        else as a new ephemeral message; with no panel, silently. A click on
        ``table``'s own message is answered by updating that message to the table as
        it now is (no separate edit, and no call against Discord's global rate
        limit), the panel then following. Work that outlasts ANSWER_BUDGET is
        answered first (deferred), so Discord's 3 s deadline always holds; a Refusal
        then comes as an ephemeral follow-up."""
        on_table = _on_table_message(interaction, table)
        if on_table is not None:
            self.messages.hold(on_table)
        try:
            outcome = await self._within_budget(interaction, work)
            panel = outcome if isinstance(outcome, Panel) else default
            if on_table is not None and not private:
                await self._update_table(interaction, on_table)
                if panel is not None:
                    await interaction.followup.send(**_panel_message(panel))
                return
            await self._answer(interaction, panel, private=private)
        finally:
            if on_table is not None:
                self.messages.release(on_table)

    @staticmethod
    async def _within_budget(
        interaction: discord.Interaction[Any], work: Coroutine[Any, Any, object]
    ) -> object:
        task = asyncio.ensure_future(work)
        try:
            finished, _ = await asyncio.wait({task}, timeout=ANSWER_BUDGET)
            if not finished:
                await interaction.response.defer()
        except BaseException as error:
            # Not answered (the interaction expired, or this click was cancelled):
            # the step still runs to its end, and its outcome goes to the log.
            late = expired(error)
            why = "expired before it was answered" if late else f"was not answered ({error!r})"
            task.add_done_callback(partial(_unanswered, interaction.id, why))
            raise
        return await task

    async def _update_table(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Answer the click with its table message as the table now is (the latest
        snapshot: another step may have landed meanwhile)."""
        snapshot = await self.service.snapshot(table_id)
        update = await self.messages.message_update(snapshot)
        if interaction.response.is_done():
            await interaction.edit_original_response(**update)
        else:
            await interaction.response.edit_message(**update)
        self.messages.carry(table_id, interaction)
        await self.messages.shown(snapshot)

    @staticmethod
    async def _answer(
        interaction: discord.Interaction[Any], panel: Panel | None, *, private: bool
    ) -> None:
        deferred = interaction.response.is_done()
        if panel is None:
            if not deferred:
                await interaction.response.defer()
            return
        view = view_of(panel.items) if panel.items else None
        if private:
            edit: dict[str, Any] = {"content": panel.content, "embed": panel.embed, "view": view}
            message = interaction.message
            if panel.files or (message is not None and message.attachments):
                edit["attachments"] = panel.files  # a drawn board is replaced or goes
            if deferred:
                await interaction.edit_original_response(**edit)
            else:
                await interaction.response.edit_message(**edit)
            return
        if deferred:
            await interaction.followup.send(**_panel_message(panel))
        else:
            await interaction.response.send_message(**_panel_message(panel))

    # --- UI operations ---------------------------------------------------------------

    async def _ui(
        self, interaction: discord.Interaction[Any], table: TableRecord, code: str
    ) -> None:
        table_id, user = table.id, interaction.user
        name = getattr(user, "display_name", user.name)
        service = self.service
        if code == "ui.hand":
            await self._hand(interaction, table)
        elif code in ("ui.watch", REFRESH):
            await self._watch(interaction, table, code)
        elif code.startswith("ui.hidden."):
            moderator = await self.is_moderator(interaction, table.guild_id)
            hidden = code == "ui.hidden.on"
            await self.answer_after(
                interaction,
                service.set_hidden(table_id, user.id, hidden, moderator=moderator),
                table=table,
            )
        elif code == "ui.join":
            await self.answer_after(interaction, self._join(interaction, table_id), table=table)
        elif code == "ui.leave":
            left = Panel(content=t("lobby.left", interaction.locale.value))
            await self.answer_after(
                interaction, service.leave(table_id, user.id), default=left, table=table
            )
        elif code == "ui.start":
            moderator = await self.is_moderator(interaction, table.guild_id)
            await self.answer_after(
                interaction, service.start(table_id, user.id, moderator=moderator), table=table
            )
        elif code == "ui.cancel":
            moderator = await self.is_moderator(interaction, table.guild_id)
            await self.answer_after(
                interaction, service.cancel(table_id, user.id, moderator=moderator), table=table
            )
        elif code.startswith("ui.computer."):
            moderator = await self.is_moderator(interaction, table.guild_id)
            await self.answer_after(
                interaction, self._computer(table_id, user.id, code, moderator), table=table
            )
        elif code.startswith("ui.takeover."):
            moderator = await self.is_moderator(interaction, table.guild_id)
            takeover = code == "ui.takeover.on"
            await self.answer_after(
                interaction,
                service.set_takeover(table_id, user.id, takeover, moderator=moderator),
                table=table,
            )
        elif code == "ui.rematch":
            await self.answer_after(interaction, service.rematch(table_id, user.id, name))
        elif code == "ui.log":
            await self._log(interaction, table_id)
        elif code.startswith("ui.panel."):
            await self._panel(interaction, table, code)
        else:
            raise Refusal("not_allowed")

    async def _language(
        self, interaction: discord.Interaction[Any], table: TableRecord, language: str
    ) -> None:
        moderator = await self.is_moderator(interaction, table.guild_id)
        changed = self.service.set_language(
            table.id, interaction.user.id, language, moderator=moderator
        )
        await self.answer_after(interaction, changed, table=table)

    async def _level(
        self, interaction: discord.Interaction[Any], table: TableRecord, level: str
    ) -> None:
        moderator = await self.is_moderator(interaction, table.guild_id)
        changed = self.service.set_computer_level(
            table.id, interaction.user.id, level, moderator=moderator
        )
        await self.answer_after(interaction, changed, table=table)

    async def _computer(self, table_id: int, user_id: int, code: str, moderator: bool) -> None:
        what = code.removeprefix("ui.computer.")
        if what == "remove":
            await self.service.remove_computer(table_id, user_id, moderator=moderator)
        elif what == "add":
            await self.service.add_computer(table_id, user_id, moderator=moderator)
        elif what in (Level.EASY, Level.NORMAL):  # the buttons of lobbies drawn before levels
            await self.service.add_computer(table_id, user_id, Level(what), moderator=moderator)
        else:
            raise Refusal("not_allowed")

    async def _join(self, interaction: discord.Interaction[Any], table_id: int) -> Panel:
        """Seat the clicker, welcome it by DM; if its DMs are closed, say so (the game
        will use My hand)."""
        user, locale = interaction.user, interaction.locale.value
        name = getattr(user, "display_name", user.name)
        await self.service.join(table_id, user.id, name, language_of(locale))
        if not await self.messages.direct_message(user.id, t("lobby.joined_dm", locale)):
            return Panel(content=t("lobby.joined_no_dm", locale))
        return Panel(content=t("lobby.joined", locale))

    async def _seated(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> tuple[Snapshot, int, TableContext, AnyPresenter]:
        snapshot = await self.service.snapshot(table_id)
        seat = snapshot.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("not_seated")
        if snapshot.state is None:
            raise Refusal("not_running")
        ctx = TableContext(snapshot, interaction.locale.value, self.service.away_after, player=True)
        return snapshot, seat.seat, ctx, self.presenters[snapshot.table.game]

    async def _hand(self, interaction: discord.Interaction[Any], table: TableRecord) -> None:
        await self.service.come_back(table.id, interaction.user.id)
        _, seat, ctx, presenter = await self._seated(interaction, table.id)
        await self._open_panel(interaction, table, presenter.hand(ctx, seat))

    async def _panel(
        self, interaction: discord.Interaction[Any], table: TableRecord, code: str
    ) -> None:
        snapshot, seat, ctx, presenter = await self._seated(interaction, table.id)
        if snapshot.table.status is not TableStatus.RUNNING:
            raise Refusal("stale")
        panel = presenter.panel(ctx, seat, code.removeprefix("ui.panel."))
        await self._open_panel(interaction, table, panel)

    async def _open_panel(
        self, interaction: discord.Interaction[Any], table: TableRecord, panel: Panel
    ) -> None:
        """Show a private panel opened from the table message. The move made in it
        changes the table message, which its worker edits by REST, under the global
        rate limit (seconds of wait on a busy bot), unless a click can edit it:
        when no recent one can, this click becomes one (a deferred update of the
        table message, which stays as it is), and the panel follows it."""
        if _on_table_message(interaction, table) is None or not self.messages.needs_carrier(
            table.id
        ):
            await self.show_panel(interaction, panel)
            return
        await interaction.response.defer()
        self.messages.carry(table.id, interaction)
        await interaction.followup.send(**_panel_message(panel))

    async def _watch(
        self, interaction: discord.Interaction[Any], table: TableRecord, code: str
    ) -> None:
        """Watch opens the clicker's watch panel; its Refresh updates that same panel
        (a Refresh anywhere else opens a new one)."""
        locale = interaction.locale.value

        async def panel() -> Panel:
            snapshot = await self.service.snapshot(table.id)
            return await self.watch_panel(snapshot, interaction.user.id, locale)

        if code == REFRESH and _is_watch_panel(interaction.message):
            await self.answer_after(interaction, panel(), private=True)
        else:
            await self._open_panel(interaction, table, await panel())

    async def watch_panel(self, snapshot: Snapshot, user_id: int, locale: str | None) -> Panel:
        """The table as spectators see it (the final table once it is over) with its
        drawn board, privately, and a Refresh button. A player's panel also holds the
        table message's buttons, so that a hidden table is played from it; a hidden
        table's non-players are refused."""
        if snapshot.state is None:
            raise Refusal("not_running")
        seat = snapshot.seat_of(user_id)
        ctx = TableContext(snapshot, locale, self.service.away_after, player=seat is not None)
        if ctx.hidden:
            return Panel(content=t("watch.hidden_refused", locale))
        presenter = self.presenters[snapshot.table.game]
        running = snapshot.table.status is TableStatus.RUNNING
        embed = presenter.table_embed(ctx)
        files: list[discord.File] = []
        if (png := await self.messages.picture_of(ctx)) is not None:
            embed.set_image(url=f"attachment://{PICTURE}")
            files.append(discord.File(io.BytesIO(png), filename=PICTURE))
        items = presenter.table_items(ctx) if running and seat is not None else []
        header = "watch.header" if running else "watch.header_over"
        return Panel(
            content=t(header, locale, table=ctx.table_id),
            embed=embed,
            items=[*items, refresh_button(ctx)],
            files=files,
        )

    async def _log(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        panel = await self.log_panel(table_id, interaction.user.id, interaction.locale.value)
        await self.show_panel(interaction, panel)

    async def log_panel(self, table_id: int, user_id: int, locale: str | None) -> Panel:
        """The table's public lines (the last 40), privately; refused to non-players
        while a hidden table runs."""
        snapshot = await self.service.snapshot(table_id)
        events = await self.service.public_log(table_id)
        player = snapshot.seat_of(user_id) is not None
        ctx = TableContext(snapshot, locale, self.service.away_after, player=player)
        if ctx.hidden:
            return Panel(content=t("watch.log_hidden", locale))
        lines = self.presenters[snapshot.table.game].event_lines(ctx, events)
        text = "\n".join(lines[-40:]) or t("table.log_empty", locale)
        embed = discord.Embed(
            title=t("table.log_title", locale, table=table_id), description=text[-4000:]
        )
        return Panel(content="", embed=embed)
