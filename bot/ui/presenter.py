"""How a game shows itself on Discord. Each game's cog provides a Presenter;
what all games share (the lobby, the frame of the table message) is here.

Public rendering must only use ``game.view(state, None)``, the spectator view
(or, once the game is over, the final state): that is what keeps cards out of
public messages. Private rendering (hand, panels, DMs) uses the seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.storage.models import TableStatus

from .i18n import t

if TYPE_CHECKING:
    from bot.tables import Snapshot
    from games.base import Choice, Event, Seat


@dataclass
class Panel:
    """An ephemeral answer: text, an optional embed and components."""

    content: str
    embed: discord.Embed | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)


@dataclass
class TableContext:
    snapshot: Snapshot
    locale: str | None = None
    away_after: int = 3

    @property
    def table_id(self) -> int:
        return self.snapshot.table.id

    @property
    def version(self) -> int:
        return self.snapshot.version or 0

    def name(self, seat: Seat) -> str:
        seats = self.snapshot.seats
        return seats[seat].name if 0 <= seat < len(seats) else f"#{seat + 1}"

    def mention(self, seat: Seat) -> str:
        seats = self.snapshot.seats
        return f"<@{seats[seat].user_id}>" if 0 <= seat < len(seats) else self.name(seat)

    def away(self, seat: Seat) -> bool:
        seats = self.snapshot.seats
        return 0 <= seat < len(seats) and seats[seat].away_strikes >= self.away_after

    def countdown(self) -> str:
        """A live Discord relative timestamp of the open window's deadline."""
        deadline = self.snapshot.deadline
        return f"<t:{int(deadline.due_at)}:R>" if deadline is not None else ""


class Presenter(Protocol):
    game: str
    title_key: str
    draws: bool
    """Whether ``table_image`` draws a picture (the renderer skips it otherwise)."""

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        """The running or finished game (public: spectator view or final state)."""

    def table_items(self, ctx: TableContext) -> list[discord.ui.Item[Any]]:
        """Buttons of the table message for the open prompts (public labels only)."""

    def event_lines(self, ctx: TableContext, events: list[Event]) -> list[str]:
        """Short public lines for the channel."""

    def private_lines(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        """Lines for that seat's DM (its secrets)."""

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        """The ephemeral "My hand"."""

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        """An ephemeral panel opened by a ``ui.panel.*`` button (private choices)."""

    def options_summary(self, options_json: str, locale: str | None) -> str: ...

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """What the chooser sees privately right after its choice was applied (its
        new hand, a card it looked at, its next secret question), or None."""

    def table_image(self, ctx: TableContext) -> bytes | None:
        """A PNG of the table for games that draw one (public: no secret in it),
        or None. Called in a worker thread: it must not touch the event loop."""


def lobby_embed(
    ctx: TableContext, presenter: Presenter, minimum: int, maximum: int
) -> discord.Embed:
    snap = ctx.snapshot
    status = snap.table.status
    title = t(presenter.title_key, ctx.locale)
    if status is TableStatus.CANCELLED:
        return discord.Embed(title=title, description=t("lobby.cancelled", ctx.locale))
    seats = "\n".join(f"{i + 1}. <@{s.user_id}>" for i, s in enumerate(snap.seats)) or "-"
    embed = discord.Embed(
        title=title,
        description=t("lobby.description", ctx.locale, creator=f"<@{snap.table.creator_id}>"),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=t("lobby.seats", ctx.locale, count=len(snap.seats), minimum=minimum, maximum=maximum),
        value=seats,
        inline=False,
    )
    embed.add_field(
        name=t("lobby.options", ctx.locale),
        value=presenter.options_summary(snap.table.options_json, ctx.locale),
        inline=False,
    )
    embed.set_footer(text=t("lobby.footer", ctx.locale, table=snap.table.id))
    return embed


def lobby_items(ctx: TableContext) -> list[discord.ui.Item[Any]]:
    from .components import GameButton

    table, locale = ctx.table_id, ctx.locale
    return [
        GameButton(
            table, 0, "ui.join", label=t("lobby.join", locale), style=discord.ButtonStyle.success
        ),
        GameButton(table, 0, "ui.leave", label=t("lobby.leave", locale)),
        GameButton(
            table, 0, "ui.start", label=t("lobby.start", locale), style=discord.ButtonStyle.primary
        ),
        GameButton(
            table, 0, "ui.cancel", label=t("lobby.cancel", locale), style=discord.ButtonStyle.danger
        ),
    ]


def hand_button(ctx: TableContext) -> discord.ui.Item[Any]:
    from .components import GameButton

    return GameButton(
        ctx.table_id, 0, "ui.hand", label=t("table.my_hand", ctx.locale), emoji="🃏", row=4
    )


def finished_items(ctx: TableContext) -> list[discord.ui.Item[Any]]:
    from .components import GameButton

    return [
        GameButton(
            ctx.table_id,
            0,
            "ui.rematch",
            label=t("table.rematch", ctx.locale),
            style=discord.ButtonStyle.primary,
        ),
        GameButton(ctx.table_id, 0, "ui.log", label=t("table.log_button", ctx.locale)),
    ]
