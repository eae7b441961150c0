"""Replays on Discord: the "Replay a game" select under /history, and the replay
message with its ⏮ ◀ ▶ ⏭ buttons, shown to the asker alone.

Persistent like every component of ours: routed by custom_id alone (``bot.app``),
so a replay sent before a restart keeps working. custom_id: ``rp:open`` for the
select (its values are table ids), ``rp:<table>:<step>:<op>`` for the buttons
(``step``: the step shown, counted from 0; ``op``: first, prev, next, last). No
custom_id holds a secret (a game that is over has none), and each is a claim:
the table must be of the interaction's guild, and have a record (a game over).

The message shows, at each step, what happened (the public lines and, as the game
is over, every seat's private lines), every hand, and the table as it stood (the
presenter's table message, with its picture for the games that draw one).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.replays import Replay, ReplayUnavailable, load_replay
from bot.storage.models import ActionKind, GameRecord
from bot.storage.repository import Repository
from bot.tables import Refusal, Snapshot

from .components import view_of
from .controller import expired, storable, tell
from .i18n import t
from .limits import (
    EMBED_TOTAL,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    SELECT_OPTIONS,
    cut,
    fit_embed,
)
from .names import plain_name
from .presenter import AnyPresenter, Panel, TableContext

log = logging.getLogger("bot.replays")

PREFIX = "rp:"
OPEN = "rp:open"
BUTTON_ID = re.compile(
    r"rp:(?P<table>[0-9]{1,19}):(?P<step>[0-9]{1,19}):(?P<op>first|prev|next|last)"
)
TABLE_ID = re.compile(r"[0-9]{1,19}")
BUTTON, STRING_SELECT = 2, 3
OPS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
PICTURE = "replay.png"
MIN_SHARE = 40
"""The fewest characters of a hand kept when the hands must share the room left."""
CACHED = 32
"""Replays kept in memory (a game that is over never changes)."""
CAPTIONS = {
    ActionKind.START: "replay.dealt",
    ActionKind.TIMEOUT: "replay.timeout",
    ActionKind.END: "replay.ended",
}


def replay_select(records: Sequence[GameRecord], locale: str | None) -> discord.ui.Select[Any]:
    """The select under /history: one option per listed game."""
    options = [
        discord.SelectOption(
            label=cut(
                t(
                    "replay.option",
                    locale,
                    table=record.table_id,
                    game=t(f"{record.game}.title", locale),
                ),
                OPTION_LABEL,
            ),
            value=str(record.table_id),
            description=cut(", ".join(plain_name(s.name) for s in record.seats), OPTION_DESCRIPTION)
            or None,
        )
        for record in records[:SELECT_OPTIONS]
    ]
    return discord.ui.Select(
        custom_id=OPEN, options=options, placeholder=cut(t("replay.choose", locale), PLACEHOLDER)
    )


def target(op: str, shown: int) -> int:
    """The step a button leads to from the step ``shown`` (clamped by the replay)."""
    return {"first": 0, "prev": shown - 1, "next": shown + 1, "last": 2**63 - 1}[op]


@dataclass
class ReplayMessage:
    """One step of a replay as Discord shows it: what happened with every hand, then
    the table; its buttons; the table's picture (PNG) for the games that draw one."""

    embeds: list[discord.Embed]
    items: list[discord.ui.Item[Any]]
    picture: bytes | None


class Replays:
    """Answers the replay components (see the module's docstring)."""

    def __init__(
        self, repo: Repository, presenters: dict[str, AnyPresenter], away_after: int
    ) -> None:
        self.repo = repo
        self.presenters = presenters
        self.away_after = away_after
        self._cache: OrderedDict[int, Replay] = OrderedDict()

    @staticmethod
    def handles(custom_id: str) -> bool:
        return custom_id.startswith(PREFIX)

    async def on_component(self, interaction: discord.Interaction[Any]) -> None:
        """A click or select on a replay component: answered, whatever happens."""
        try:
            await self._answer(interaction)
        except Refusal as refusal:
            text = t(f"refusal.{refusal.key}", interaction.locale.value, **refusal.params)
            await tell(interaction, text)
        except ReplayUnavailable as unavailable:
            await tell(interaction, t(f"replay.{unavailable.key}", interaction.locale.value))
        except discord.NotFound as error:
            if not expired(error):
                raise
            log.warning("interaction %s expired before it was answered", interaction.id)
        except Exception:
            log.exception("replay component of interaction %s failed", interaction.id)
            await tell(interaction, t("refusal.error", interaction.locale.value))

    async def _answer(self, interaction: discord.Interaction[Any]) -> None:
        data = cast("dict[str, Any]", interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        kind = data.get("component_type")
        values = [str(v) for v in data.get("values", [])]
        locale = interaction.locale.value
        if kind == BUTTON and (match := BUTTON_ID.fullmatch(custom_id)):
            replay = await self.replay_here(interaction, int(match["table"]))
            message = await self.message(replay, target(match["op"], int(match["step"])), locale)
            picture = _file(message.picture)
            await interaction.response.edit_message(
                embeds=message.embeds,
                view=view_of(message.items),
                attachments=[picture] if picture is not None else [],
            )
        elif kind == STRING_SELECT and custom_id == OPEN and len(values) == 1:
            if not TABLE_ID.fullmatch(values[0]):
                raise Refusal("wrong_place")
            replay = await self.replay_here(interaction, int(values[0]))
            message = await self.message(replay, 0, locale)
            await interaction.response.send_message(
                embeds=message.embeds,
                view=view_of(message.items),
                file=_file(message.picture) or discord.utils.MISSING,
                ephemeral=True,
            )
        else:
            raise Refusal("wrong_place")

    async def replay_here(self, interaction: discord.Interaction[Any], table_id: int) -> Replay:
        """The replay of ``table_id`` once the interaction is known to come from the
        table's guild (a forged id naming another guild's table is refused)."""
        if not storable(table_id):
            raise Refusal("wrong_place")
        table = await self.repo.get_table(table_id)
        if table is not None and table.guild_id != interaction.guild_id:
            raise Refusal("wrong_place")
        replay = self._cache.get(table_id)
        if replay is None:
            replay = await load_replay(self.repo, table_id)
            self._cache[table_id] = replay
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        self._cache.move_to_end(table_id)
        if replay.record.guild_id != interaction.guild_id:
            raise Refusal("wrong_place")
        return replay

    async def message(self, replay: Replay, index: int, locale: str | None) -> ReplayMessage:
        """The replay at step ``index`` (clamped), in ``locale``."""
        index, step = replay.step(index)
        presenter = self.presenters[replay.table.game]
        seats = [seat.model_copy(update={"away_strikes": 0}) for seat in replay.seats]
        snapshot = Snapshot(
            table=replay.table,
            seats=seats,
            state=step.state,
            version=step.version,
            events=list(step.events),
        )
        ctx = TableContext(snapshot, locale, self.away_after)
        story = self._story(presenter, ctx, replay, index)
        table = presenter.table_embed(ctx)
        picture = None
        if presenter.draws_picture:
            picture = await asyncio.to_thread(presenter.table_image, ctx)
            if picture is not None:
                table.set_image(url=f"attachment://{PICTURE}")
        _fit_together(story, table)
        return ReplayMessage([story, table], self._buttons(replay, index), picture)

    @staticmethod
    def _story(
        presenter: AnyPresenter, ctx: TableContext, replay: Replay, index: int
    ) -> discord.Embed:
        """What happened at this step, and every hand as it then was."""
        step = replay.steps[index]
        locale = ctx.locale
        said: list[str] = []
        if caption := CAPTIONS.get(step.kind):
            said.append(t(caption, locale))
        said += presenter.event_lines(ctx, step.events)
        for seat in range(len(replay.seats)):
            for line in presenter.private_texts(ctx, seat, step.events):
                said.append(t("replay.private_line", locale, player=ctx.name(seat), line=line))
        heading = t("replay.step", locale, step=index + 1, steps=len(replay.steps))
        embed = discord.Embed(
            title=t("replay.title", locale, game=presenter.title(locale), table=ctx.table_id),
            description="\n".join([f"**{heading}**", *(said or [t("replay.quiet", locale)])]),
            colour=discord.Colour.dark_grey(),
        )
        for seat in range(len(replay.seats)):
            embed.add_field(
                name=t("replay.hand", locale, player=ctx.name(seat)),
                value=_hand_text(presenter.hand(ctx, seat)),
                inline=False,
            )
        return embed

    @staticmethod
    def _buttons(replay: Replay, index: int) -> list[discord.ui.Item[Any]]:
        first, last = index == 0, index == len(replay.steps) - 1
        at_end = {"first": first, "prev": first, "next": last, "last": last}
        return [
            discord.ui.Button(
                emoji=emoji,
                custom_id=f"rp:{replay.table.id}:{index}:{op}",
                disabled=at_end[op],
                style=discord.ButtonStyle.secondary,
            )
            for op, emoji in OPS.items()
        ]


def _hand_text(panel: Panel) -> str:
    """A hand panel's text, without its title or components."""
    parts = [panel.content] if panel.content else []
    if panel.embed is not None:
        if panel.embed.description:
            parts.append(panel.embed.description)
        parts += [f"{f.name}: {f.value}" for f in panel.embed.fields]
    return "\n".join(parts) or "-"


def _fit_together(story: discord.Embed, table: discord.Embed) -> None:
    """Both embeds within Discord's limit for a message's embeds together: the story
    keeps at least half of it, the table the rest."""
    fit_embed(table)
    budget = max(EMBED_TOTAL - len(table), EMBED_TOTAL // 2)
    _share_fields(story, budget)
    fit_embed(story)
    _shrink(story, budget)
    _shrink(table, EMBED_TOTAL - len(story))


def _share_fields(embed: discord.Embed, budget: int) -> None:
    """Every field's value cut to an equal share of what is left of ``budget`` when
    they do not all fit: every hand keeps its beginning (its own cards) rather than
    the last hands being dropped."""
    fields = embed.fields
    if len(embed) <= budget or not fields:
        return
    values = sum(len(f.value or "") for f in fields)
    share = max((budget - (len(embed) - values)) // len(fields), MIN_SHARE)
    shared = [(f.name, cut(f.value or "", share), bool(f.inline)) for f in fields]
    embed.clear_fields()
    for name, value, inline in shared:
        embed.add_field(name=name, value=value, inline=inline)


def _shrink(embed: discord.Embed, budget: int) -> None:
    """Fields dropped from the end, then the description cut, until ``embed`` fits."""
    while len(embed) > budget and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    over = len(embed) - budget
    if over > 0 and embed.description:
        embed.description = cut(embed.description, max(len(embed.description) - over, 1))


def _file(picture: bytes | None) -> discord.File | None:
    return None if picture is None else discord.File(io.BytesIO(picture), filename=PICTURE)
