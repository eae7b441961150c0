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

from bot.storage.models import SeatRecord, TableStatus
from bot.tables import COMPUTER_MARK

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
        """The seat's name; a computer playing for a player away adds its mark."""
        seats = self.snapshot.seats
        if not 0 <= seat < len(seats):
            return f"#{seat + 1}"
        if self.taken_over(seat):
            return f"{seats[seat].name} {COMPUTER_MARK}"
        return seats[seat].name

    def mention(self, seat: Seat) -> str:
        seats = self.snapshot.seats
        if not 0 <= seat < len(seats) or seats[seat].is_computer:
            return self.name(seat)
        return f"<@{seats[seat].user_id}>"

    def away(self, seat: Seat) -> bool:
        seats = self.snapshot.seats
        return 0 <= seat < len(seats) and seats[seat].away_strikes >= self.away_after

    def taken_over(self, seat: Seat) -> bool:
        """A computer plays for this player, who is away."""
        return 0 <= seat < len(self.snapshot.seats) and self.snapshot.taken_over(
            seat, self.away_after
        )

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
    seats = "\n".join(f"{i + 1}. {_lobby_name(s, ctx.locale)}" for i, s in enumerate(snap.seats))
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
        value="\n".join(
            (
                presenter.options_summary(snap.table.options_json, ctx.locale),
                t(f"lobby.takeover.{'on' if snap.table.takeover else 'off'}", ctx.locale),
            )
        ),
        inline=False,
    )
    embed.set_footer(text=t("lobby.footer", ctx.locale, table=snap.table.id))
    return embed


def _lobby_name(seat: SeatRecord, locale: str | None) -> str:
    if seat.computer is None:
        return f"<@{seat.user_id}>"
    return f"{seat.name} · {t(f'lobby.level.{seat.computer}', locale)}"


def lobby_items(ctx: TableContext) -> list[discord.ui.Item[Any]]:
    from .components import GameButton

    table, locale = ctx.table_id, ctx.locale
    takeover = "off" if ctx.snapshot.table.takeover else "on"
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
        GameButton(
            table, 0, "ui.computer.normal", label=t("lobby.add_normal", locale), emoji="🤖", row=1
        ),
        GameButton(
            table, 0, "ui.computer.easy", label=t("lobby.add_easy", locale), emoji="🤖", row=1
        ),
        GameButton(table, 0, "ui.computer.remove", label=t("lobby.remove_computer", locale), row=1),
        GameButton(
            table,
            0,
            f"ui.takeover.{takeover}",
            label=t(f"lobby.set_takeover.{takeover}", locale),
            row=1,
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
