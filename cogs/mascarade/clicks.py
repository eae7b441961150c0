"""Clicks on Mascarade's own components: apply the choice through the table
service (the same checks, commit and rendering as every other choice), then
answer the chooser privately with what it learnt or its next secret question.

Answers follow the platform's controller: the step is committed first (answered
within the budget, deferred otherwise), refusals are polite ephemeral lines.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.tables import Refusal
from bot.ui.codec import BadCode, choice_models, decode
from bot.ui.components import view_of
from bot.ui.controller import ANSWER_BUDGET, UNKNOWN_INTERACTION, Controller
from bot.ui.i18n import t
from bot.ui.presenter import Panel, TableContext
from games.mascarade import GAME

from .presenter import MascaradePresenter

if TYPE_CHECKING:
    from bot.app import GameMasterBot
    from bot.tables import Snapshot

log = logging.getLogger("bot.mascarade")
MODELS = choice_models(GAME.choice_types)


def _bot(interaction: discord.Interaction[Any]) -> GameMasterBot:
    return cast("GameMasterBot", interaction.client)


def _outcome_seen(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and isinstance(task.exception(), Refusal):
        log.info("a step finished after its interaction expired: %s", task.exception())


async def answer_choice(
    interaction: discord.Interaction[Any],
    table_id: int,
    version: int,
    code: str,
    *,
    private: bool,
) -> None:
    """A click on a choice button: ``private`` when the button is in an ephemeral panel
    (the panel is then replaced by the answer), else on the public table message."""
    try:
        await _choose(interaction, table_id, version, code, private=private)
    except Refusal as refusal:
        await Controller.refuse(interaction, refusal)
    except discord.NotFound as error:
        if error.code != UNKNOWN_INTERACTION:
            raise
        log.warning("interaction %s expired before it was answered", interaction.id)
    except Exception:
        log.exception("mascarade choice %s on table %s failed", code, table_id)
        await Controller.refuse(interaction, Refusal("error"))


async def answer_select(
    interaction: discord.Interaction[Any], table_id: int, version: int, values: list[str]
) -> None:
    if len(values) != 1:
        await Controller.refuse(interaction, Refusal("not_allowed"))
        return
    await answer_choice(interaction, table_id, version, values[0], private=True)


async def _choose(
    interaction: discord.Interaction[Any],
    table_id: int,
    version: int,
    code: str,
    *,
    private: bool,
) -> None:
    try:
        choice = decode(code, GAME.choice_adapter, MODELS)
    except BadCode:
        raise Refusal("not_allowed") from None
    bot = _bot(interaction)
    task = asyncio.ensure_future(bot.tables.act(table_id, version, interaction.user.id, choice))
    task.add_done_callback(_outcome_seen)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_BUDGET)
    if not done:
        await interaction.response.defer()
    snapshot: Snapshot = await task
    panel = _answer_panel(bot, interaction, snapshot)
    if private:
        await _replace_panel(
            interaction, panel or Panel(content=t("table.choice_done", _locale(interaction)))
        )
    elif panel is None:
        if not interaction.response.is_done():
            await interaction.response.defer()
    else:
        await _send_private(interaction, panel)


def _locale(interaction: discord.Interaction[Any]) -> str:
    return interaction.locale.value


def _answer_panel(
    bot: GameMasterBot, interaction: discord.Interaction[Any], snapshot: Snapshot
) -> Panel | None:
    seat = snapshot.seat_of(interaction.user.id)
    presenter = bot.presenters.get("mascarade")
    if seat is None or not isinstance(presenter, MascaradePresenter):
        return None
    ctx = TableContext(snapshot, _locale(interaction), bot.tables.away_after)
    return presenter.after_choice(ctx, seat.seat, snapshot.events)


def _message_args(panel: Panel) -> dict[str, Any]:
    return {
        "content": panel.content,
        "embed": panel.embed,
        "view": view_of(panel.items) if panel.items else None,
    }


async def _replace_panel(interaction: discord.Interaction[Any], panel: Panel) -> None:
    args = _message_args(panel)
    if interaction.response.is_done():
        await interaction.edit_original_response(**args)
    else:
        await interaction.response.edit_message(**args)


async def _send_private(interaction: discord.Interaction[Any], panel: Panel) -> None:
    args: dict[str, Any] = {"content": panel.content, "ephemeral": True}
    if panel.embed is not None:
        args["embed"] = panel.embed
    if panel.items:
        args["view"] = view_of(panel.items)
    if interaction.response.is_done():
        await interaction.followup.send(**args)
    else:
        await interaction.response.send_message(**args)
