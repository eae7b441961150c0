"""How a game shows itself on Discord: the base every game's presenter extends.

``GamePresenter`` mirrors ``games.base.Game``: it is built from its game and
owns what every game's presentation shares — typed access to the state and
views, the frame of the table message (title, colour, footer, Discord's
limits), buttons and selects bound to the table and its version, event lines
and DM lines from one ``event_text``, the refusal of a panel when the seat is
not asked anything, and the game's strings. A game's presenter
(``cogs/<game>/presenter.py``) is then wording and layout only.

Public rendering must only use the spectator view (``self.view(ctx, None)``),
or the final state once the game is over: that keeps cards out of public
messages. Private rendering (hand, panels, DMs) uses the seat's view.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import discord

from bot.storage.models import TableStatus
from bot.tables import COMPUTER_LEVELS, COMPUTER_MARK
from games.base import Event, Game, GameState, Model, View

from .codec import encode
from .components import GameButton, GameSelect
from .i18n import AUTONYMS, LANGUAGES, Text, has, language_of, register_strings, t
from .limits import (
    BUTTON_LABEL,
    CONTENT,
    FIELD_VALUE,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    cut,
    cut_tail,
    field_values,
    fit_embed,
)
from .names import markdown_name, plain_name

if TYPE_CHECKING:
    from bot.tables import Snapshot
    from games.base import Choice, Seat

StateT = TypeVar("StateT", bound=GameState)
ViewT = TypeVar("ViewT", bound=View)

SEAT_FIELDS = frozenset(
    {
        "seat",
        "actor",
        "target",
        "claimant",
        "challenger",
        "blocker",
        "thief",
        "victim",
        "inquisitor",
        "winner",
        "owner",
    }
)
"""Event fields that hold a seat: their value is shown as that player's name."""
Item = discord.ui.Item[Any]
RECENT_LINES = 5
"""Lines of "what just happened" on the table message."""


@dataclass
class Panel:
    """An ephemeral answer: text, an optional embed and components (the text and
    embed are cut to Discord's limits here, once for every game)."""

    content: str
    embed: discord.Embed | None = None
    items: list[Item] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    """Attachments (a drawn board, shown by the embed's ``attachment://`` image)."""

    def __post_init__(self) -> None:
        self.content = cut(self.content, CONTENT)
        if self.embed is not None:
            fit_embed(self.embed)


@dataclass
class TableContext:
    """One table as one reader sees it: the snapshot, the reader's locale, and the
    players' names made safe to show."""

    snapshot: Snapshot
    locale: str | None = None
    away_after: int = 3
    player: bool = False
    """The reader plays at this table (its private watch panel): a hidden table is
    not hidden from it."""

    @property
    def table_id(self) -> int:
        return self.snapshot.table.id

    @property
    def version(self) -> int:
        return self.snapshot.version or 0

    @property
    def hidden(self) -> bool:
        """The game runs hidden from non-players: public messages show who plays and
        who is asked, nothing else (see ``hidden_embed``)."""
        table = self.snapshot.table
        return table.hidden and table.status is TableStatus.RUNNING and not self.player

    def name(self, seat: Seat, *, marked: bool = True) -> str:
        """The seat's name for message text and embeds (escaped: it cannot ping, link
        or format); a computer playing for a player away adds its mark (``marked``)."""
        return self._name(seat, markdown=True, marked=marked)

    def plain_name(self, seat: Seat) -> str:
        """The seat's name where no markdown is rendered: labels, pictures, code blocks."""
        return self._name(seat, markdown=False, marked=True)

    def _name(self, seat: Seat, *, markdown: bool, marked: bool) -> str:
        seats = self.snapshot.seats
        if not 0 <= seat < len(seats):
            return f"#{seat + 1}"
        raw = seats[seat].name
        name = markdown_name(raw) if markdown else plain_name(raw)
        if not name:
            name = t("table.unnamed", self.locale, number=seat + 1)
        if marked and self.taken_over(seat):
            return f"{name} {COMPUTER_MARK}"
        return name

    def away(self, seat: Seat) -> bool:
        seats = self.snapshot.seats
        return 0 <= seat < len(seats) and seats[seat].away_strikes >= self.away_after

    def taken_over(self, seat: Seat) -> bool:
        """A computer plays for this player, who is away."""
        return 0 <= seat < len(self.snapshot.seats) and self.snapshot.taken_over(
            seat, self.away_after
        )

    def countdown(self) -> str:
        """A live Discord relative timestamp of the open window's deadline, after its
        separator (`` · <t:…:R>``), to end a line; nothing when no deadline runs (a
        replay, a finished game), so no separator dangles."""
        deadline = self.snapshot.deadline
        return f" · <t:{int(deadline.due_at)}:R>" if deadline is not None else ""


@dataclass
class EmbedField:
    name: str
    value: str
    inline: bool = False


@dataclass
class TableBody:
    """What a game puts in the frame of its table message."""

    description: str
    fields: list[EmbedField] = field(default_factory=list)
    footer: str | None = None
    """None: the platform's footer (the table number)."""


class GamePresenter(ABC, Generic[StateT, ViewT]):
    """How one game shows itself; see the module's docstring. Subclasses set
    ``strings`` and ``colour`` and implement the abstract methods."""

    strings: ClassVar[Mapping[str, Text]]
    """The game's English texts; every key starts with ``<game name>.``."""
    colour: ClassVar[discord.Colour]
    """The table message's colour while the game runs (gold once it is over)."""
    draws_picture: ClassVar[bool] = False
    """Whether ``table_image`` draws a picture (the renderer skips it otherwise)."""
    seat_fields: ClassVar[frozenset[str]] = SEAT_FIELDS
    notable_events: ClassVar[frozenset[str]] = frozenset({"player_removed", "game_won"})
    """Event types worth a post in the channel when it gets only what people need
    to be told (``CHANNEL_LOG=notable``): a game adds its own (a player out...)."""

    def __init__(self, game: Game[StateT, Any, Any, ViewT]) -> None:
        self.game = game
        self.name = game.name
        folder = Path(inspect.getfile(type(self))).parent / "locales"
        register_strings(game.name, self.strings, folder)

    # --- typed access ---------------------------------------------------------------

    def state(self, ctx: TableContext) -> StateT:
        state = ctx.snapshot.state
        if not isinstance(state, self.game.state_model):
            raise TypeError(f"{self.name} cannot show a {type(state).__name__}")
        return state  # type: ignore[return-value]  # state_model is StateT's class

    def view(self, ctx: TableContext, seat: Seat | None) -> ViewT:
        return self.game.view(self.state(ctx), seat)

    def finished(self, ctx: TableContext) -> bool:
        return self.game.result(self.state(ctx)) is not None

    def text(self, ctx: TableContext, key: str, /, **args: object) -> str:
        """This game's text ``<game>.<key>`` in the reader's locale."""
        return t(f"{self.name}.{key}", ctx.locale, **args)

    # --- the public table message ---------------------------------------------------------

    def title(self, locale: str | None) -> str:
        return t(f"{self.name}.title", locale)

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        """The running or finished game, within Discord's limits."""
        body = self.table_body(ctx)
        embed = discord.Embed(
            title=self.text(ctx, "table_title", table=ctx.table_id),
            description=body.description,
            colour=discord.Colour.gold() if self.finished(ctx) else self.colour,
        )
        for item in body.fields:
            name = item.name
            for value in field_values(item.value.split("\n")):
                embed.add_field(name=name, value=value, inline=item.inline)
                name = "\u200b"  # a long field goes on below, without repeating its name
        if recent := self.recent_lines(ctx):
            embed.add_field(name=t("table.recent", ctx.locale), value=recent, inline=False)
        embed.set_footer(text=body.footer or t("table.footer", ctx.locale, table=ctx.table_id))
        return fit_embed(embed)

    def recent_lines(self, ctx: TableContext) -> str:
        """What just happened: the last lines of the game's latest public events (the
        channel gets them too, in fewer posts). Lines come from a window of the latest
        events (a game may word events together), widened until it gives enough."""
        recent = ctx.snapshot.recent
        window = 2 * RECENT_LINES  # the lines of the latest events only: most give one line
        while True:
            lines = self.event_lines(ctx, recent[-window:])
            if len(lines) >= RECENT_LINES or window >= len(recent):
                break
            window *= 2
        return cut_tail("\n".join(lines[-RECENT_LINES:]), FIELD_VALUE)

    @abstractmethod
    def table_body(self, ctx: TableContext) -> TableBody:
        """The table message's text (public: spectator view or final state)."""

    @abstractmethod
    def table_items(self, ctx: TableContext) -> list[Item]:
        """Buttons of the table message for the open prompts (public labels only)."""

    def table_image(self, ctx: TableContext) -> bytes | None:
        """A PNG of the table for games that draw one (public: no secret in it), or
        None. Called in a worker thread: it must not touch the event loop."""
        return None

    # --- components bound to this table and version ---------------------------------------

    def button(
        self,
        ctx: TableContext,
        code: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> GameButton:
        return GameButton(
            ctx.table_id,
            ctx.version,
            code,
            label=cut(label, BUTTON_LABEL),
            style=style,
            emoji=emoji,
            row=row,
        )

    def choice_button(
        self,
        ctx: TableContext,
        choice: Choice,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> GameButton:
        return self.button(ctx, encode(choice), label, style=style, emoji=emoji, row=row)

    def panel_button(
        self,
        ctx: TableContext,
        panel: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        emoji: str | None = None,
    ) -> GameButton:
        """A public button that opens the clicker's private ``panel``."""
        return self.button(ctx, f"ui.panel.{panel}", label, style=style, emoji=emoji)

    def select(
        self,
        ctx: TableContext,
        code: str,
        options: Sequence[discord.SelectOption],
        placeholder: str,
    ) -> GameSelect:
        return GameSelect(
            ctx.table_id, ctx.version, code, options, placeholder=cut(placeholder, PLACEHOLDER)
        )

    @staticmethod
    def option(
        choice: Choice,
        label: str,
        *,
        description: str | None = None,
        emoji: str | None = None,
    ) -> discord.SelectOption:
        """A select option whose value is the choice's code."""
        return discord.SelectOption(
            label=cut(label, OPTION_LABEL),
            value=encode(choice),
            description=cut(description, OPTION_DESCRIPTION) if description else None,
            emoji=emoji,
        )

    # --- private: My hand, panels, answers ------------------------------------------------

    @abstractmethod
    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        """The ephemeral "My hand" (also sent by DM when the cards are dealt)."""

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        """An ephemeral panel opened by a ``ui.panel.<code>`` button; a seat that is
        not asked anything gets a polite refusal."""
        view = self.view(ctx, seat)
        if view.prompt is None:
            return Panel(content=t("refusal.not_prompted", ctx.locale))
        return self.prompt_panel(ctx, seat, view, code)

    def prompt_panel(self, ctx: TableContext, seat: Seat, view: ViewT, code: str) -> Panel:
        """The panel ``code`` for a seat that is asked something (``view.prompt``);
        games whose table message opens panels override it."""
        return self.stale(ctx)

    @staticmethod
    def stale(ctx: TableContext) -> Panel:
        """The answer to a panel that no longer fits the table."""
        return Panel(content=t("refusal.stale", ctx.locale))

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """What the chooser sees privately right after its choice was applied (its new
        hand, a card it looked at, its next secret question), or None."""
        return None

    # --- event lines ----------------------------------------------------------------------

    def notable(self, event: Event) -> bool:
        """Whether people need a post about ``event`` (see ``notable_events``)."""
        return event_type(event) in self.notable_events

    def event_lines(self, ctx: TableContext, events: Sequence[Event]) -> list[str]:
        """Short public lines for the channel (none while the table is hidden)."""
        if ctx.hidden:
            return []
        return [line for e in events if e.public if (line := self.event_text(ctx, e, "log"))]

    def private_texts(self, ctx: TableContext, seat: Seat, events: Sequence[Event]) -> list[str]:
        """What the seat alone learnt from these events (its secrets)."""
        return [
            line
            for e in events
            if not e.public and e.visible_to(seat) and self.tells(e, seat)
            if (line := self.event_text(ctx, e, "dm"))
        ]

    def private_lines(self, ctx: TableContext, seat: Seat, events: Sequence[Event]) -> list[str]:
        """The seat's DM lines: its private texts, each naming the table."""
        return [
            cut(t("table.dm_line", ctx.locale, table=ctx.table_id, line=line), CONTENT)
            for line in self.private_texts(ctx, seat, events)
        ]

    def tells(self, event: Event, seat: Seat) -> bool:
        """Whether a private event that ``seat`` may see is news worth a line to it."""
        return True

    def event_text(
        self,
        ctx: TableContext,
        event: Event,
        kind: str,
        *,
        extra: Mapping[str, object] | None = None,
    ) -> str | None:
        """The text of ``<game>.<kind>.<event_key>`` for ``event`` (``kind``: "log" for
        the channel, "dm" for its owner), or None when there is no such text. Its
        arguments are the event's fields (seats as names, other values through
        ``describe``), then ``event_args``, then ``extra``."""
        key = f"{self.name}.{kind}.{self.event_key(ctx, event)}"
        if not has(key):
            return None
        args: dict[str, object] = {}
        for name in type(event).model_fields:
            if name in ("audience", "type"):
                continue
            value = getattr(event, name)
            if name in self.seat_fields and isinstance(value, int):
                args[name] = ctx.name(value)
            elif value is None:
                args[name] = ""
            else:
                args[name] = self.describe(value, ctx.locale)
        args.update(self.event_args(ctx, event))
        args.update(extra or {})
        return t(key, ctx.locale, **args)

    def event_key(self, ctx: TableContext, event: Event) -> str:
        """The last part of an event's text key: its type, which a game refines where
        one type reads two ways (``game_won.shared``)."""
        return event_type(event)

    def event_args(self, ctx: TableContext, event: Event) -> dict[str, object]:
        """Computed arguments of an event's text, besides its fields."""
        return {}

    def describe(self, value: object, locale: str | None) -> str:
        """A field value in words (cards, actions by name); games extend it."""
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, tuple | list):
            return ", ".join(self.describe(v, locale) for v in value)
        return str(value)

    # --- the lobby -------------------------------------------------------------------------

    def options_summary(self, options_json: str, locale: str | None) -> str:
        """The table's options in words (the lobby)."""
        return self.describe_options(
            self.game.options_model.model_validate_json(options_json), locale
        )

    @abstractmethod
    def describe_options(self, options: Model, locale: str | None) -> str:
        """The game's options model in words."""


AnyPresenter = GamePresenter[Any, Any]


def event_type(event: Event) -> str:
    return str(vars(event)["type"])


def lobby_embed(ctx: TableContext, presenter: AnyPresenter) -> discord.Embed:
    snap = ctx.snapshot
    game = presenter.game
    title = presenter.title(ctx.locale)
    if snap.table.status is TableStatus.CANCELLED:
        return discord.Embed(title=title, description=t("lobby.cancelled", ctx.locale))
    seats = "\n".join(f"{i + 1}. {_lobby_name(ctx, i)}" for i in range(len(snap.seats)))
    embed = discord.Embed(
        title=title,
        description=t("lobby.description", ctx.locale, creator=f"<@{snap.table.creator_id}>"),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=t(
            "lobby.seats",
            ctx.locale,
            count=len(snap.seats),
            minimum=game.min_players,
            maximum=game.max_players,
        ),
        value=seats,
        inline=False,
    )
    embed.add_field(
        name=t("lobby.options", ctx.locale),
        value="\n".join(
            (
                presenter.options_summary(snap.table.options_json, ctx.locale),
                t(f"lobby.takeover.{'on' if snap.table.takeover else 'off'}", ctx.locale),
                t(f"lobby.hidden.{'on' if snap.table.hidden else 'off'}", ctx.locale),
                t(
                    "lobby.computer_level",
                    ctx.locale,
                    level=t(f"lobby.level_name.{snap.table.computer_level}", ctx.locale),
                ),
                t("lobby.language", ctx.locale, language=AUTONYMS[language_of(ctx.locale)]),
            )
        ),
        inline=False,
    )
    embed.set_footer(text=t("lobby.footer", ctx.locale, table=snap.table.id))
    return fit_embed(embed)


def _lobby_name(ctx: TableContext, seat: int) -> str:
    record = ctx.snapshot.seats[seat]
    if record.computer is None:
        return f"<@{record.user_id}>"
    return f"{ctx.name(seat)} · {t(f'lobby.level.{record.computer}', ctx.locale)}"


def lobby_items(ctx: TableContext) -> list[Item]:
    table, locale = ctx.table_id, ctx.locale
    takeover = "off" if ctx.snapshot.table.takeover else "on"
    hidden = "off" if ctx.snapshot.table.hidden else "on"
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
            table, 0, "ui.computer.add", label=t("lobby.add_computer", locale), emoji="🤖", row=1
        ),
        GameButton(table, 0, "ui.computer.remove", label=t("lobby.remove_computer", locale), row=1),
        GameButton(
            table,
            0,
            f"ui.takeover.{takeover}",
            label=t(f"lobby.set_takeover.{takeover}", locale),
            row=1,
        ),
        GameButton(
            table, 0, f"ui.hidden.{hidden}", label=t(f"lobby.set_hidden.{hidden}", locale), row=1
        ),
        language_select(ctx),
        level_select(ctx),
    ]


def level_select(ctx: TableContext) -> Item:
    """How well the table's computers play, for its creator to choose (row 3)."""
    current = ctx.snapshot.table.computer_level
    options = [
        discord.SelectOption(
            label=t(f"lobby.level_name.{level}", ctx.locale), value=level, default=level == current
        )
        for level in COMPUTER_LEVELS
    ]
    return GameSelect(
        ctx.table_id, 0, "ui.level", options, placeholder=t("lobby.choose_level", ctx.locale), row=3
    )


def language_select(ctx: TableContext) -> Item:
    """The table's language, for its creator to change (row 2)."""
    current = ctx.snapshot.table.language
    options = [
        discord.SelectOption(label=AUTONYMS[lang], value=lang, default=lang == current)
        for lang in LANGUAGES
    ]
    return GameSelect(
        ctx.table_id,
        0,
        "ui.language",
        options,
        placeholder=t("lobby.choose_language", ctx.locale),
        row=2,
    )


def hand_button(ctx: TableContext) -> Item:
    return GameButton(
        ctx.table_id, 0, "ui.hand", label=t("table.my_hand", ctx.locale), emoji="🃏", row=4
    )


def watch_button(ctx: TableContext) -> Item:
    """Opens the clicker's private spectator view of the table (the watch panel)."""
    return GameButton(
        ctx.table_id, 0, "ui.watch", label=t("watch.button", ctx.locale), emoji="👁️", row=4
    )


def refresh_button(ctx: TableContext) -> Item:
    """Updates the watch panel it is on to the table as it is now."""
    return GameButton(
        ctx.table_id, 0, "ui.watch.refresh", label=t("watch.refresh", ctx.locale), emoji="🔄", row=4
    )


def hidden_embed(ctx: TableContext, presenter: AnyPresenter) -> discord.Embed:
    """The public table message of a hidden running table: the players and who is
    asked something now, with the deadline; no card, coin, line or board."""
    snap = ctx.snapshot
    asked = presenter.game.awaiting(snap.state) if snap.state is not None else []
    embed = discord.Embed(
        title=f"{presenter.text(ctx, 'table_title', table=ctx.table_id)} · "
        f"{t('watch.hidden_title', ctx.locale)}",
        description=t("watch.hidden_description", ctx.locale),
        colour=presenter.colour,
    )
    players = "\n".join(
        f"{seat + 1}. {ctx.name(seat)}"
        for seat in range(len(snap.seats))
        if not snap.seats[seat].removed
    )
    embed.add_field(name=t("watch.players", ctx.locale), value=players, inline=False)
    turn = ", ".join(ctx.name(seat) for seat in asked) or t("watch.nobody", ctx.locale)
    turn += ctx.countdown()
    embed.add_field(name=t("watch.turn", ctx.locale), value=turn, inline=False)
    embed.set_footer(text=t("table.footer", ctx.locale, table=ctx.table_id))
    return fit_embed(embed)


def finished_items(ctx: TableContext) -> list[Item]:
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
