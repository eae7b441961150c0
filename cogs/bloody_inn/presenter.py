"""How The Bloody Inn shows itself on Discord: which fields, buttons and panels
(its words are in ``text`` and ``prompt_text``, its picture in ``picture``).

Public rendering (the table embed, its buttons, the picture, event lines) reads
only the spectator view ``self.view(ctx, None)``, plus, for the buttons of a
public choice, that prompt's choices (welcome room, Bribe/Kill/Bury targets,
place, key and service rooms): they depend on public things only (rooms,
corpses, annexes, the *size* of a hand). The action prompt (whether Build is
offered reveals the hand), the Build target, paying, dismissing and how to pay
the police's undertaker (cash or cheques: the player's own decision) are private:
the table message only shows a "Your turn…" button that opens an ephemeral
panel built from the seat's own view (``prompt_panel``). Each choice made in
that panel turns it into the player's next question (``after_choice``), so a
whole action (action, target, accomplices one at a time, Done) is walked in one
panel.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.ui.limits import ACTION_ROWS, CONTENT, ROW_WIDTH, SELECT_OPTIONS, cut, cut_tail
from bot.ui.presenter import EmbedField, GamePresenter, Item, Panel, TableBody, TableContext
from games.base import Choice, Event, Model, Seat
from games.bloody_inn import ActionKind, BloodyInnOptions, BloodyInnState
from games.bloody_inn.models import (
    BloodyInnChoice,
    BloodyInnView,
    Cancel,
    Done,
    KeyRoom,
    Place,
    PoliceInvestigation,
    RoomIncome,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    WagesPaid,
    Welcome,
)

from . import prompt_text, text
from .strings import STRINGS

PANEL_CODE = "turn"
"""The code of the "Your turn…" button (``ui.panel.turn``) and of the panel select."""
MAX_PUBLIC_BUTTONS = ACTION_ROWS * ROW_WIDTH - 2
"""Choice buttons on the table message, besides "Your turn…" and "My hand"."""
MIN_NEWS = 50
"""Room a panel needs to also tell what the last step did."""
MORNING = (PoliceInvestigation, RoomIncome, TravellersLeft, WagesPaid)
TABLE_CHOICES = (Welcome, TargetRoom, TargetPeasants, TargetCard, Place, KeyRoom, ServiceRoom)
"""Choices that are buttons of the table message (also offered in the panel)."""


def is_private(view: BloodyInnView) -> bool:
    """Whether the open prompt's choices depend on a hand (then only in a panel)."""
    stage = view.stage
    if stage in (Stage.ACTION, Stage.PAY, Stage.DISMISS, Stage.UNDERTAKER):
        return True
    return (
        stage is Stage.TARGET
        and view.pending is not None
        and view.pending.action is ActionKind.BUILD
    )


def style_of(choice: BloodyInnChoice) -> discord.ButtonStyle:
    if isinstance(choice, TABLE_CHOICES):
        return discord.ButtonStyle.primary
    if isinstance(choice, Done):
        return discord.ButtonStyle.success
    if isinstance(choice, Cancel):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary


class BloodyInnPresenter(GamePresenter[BloodyInnState, BloodyInnView]):
    notable_events = GamePresenter.notable_events | {
        "police_investigation",
        "final_round",
        "solo_lost",
    }
    strings = STRINGS
    colour = discord.Colour.dark_red()
    draws_picture = True

    # --- the public table message ------------------------------------------------------

    def table_body(self, ctx: TableContext) -> TableBody:
        view = self.view(ctx, None)
        over = view.stage is Stage.OVER
        now = text.result(ctx, view) if over else prompt_text.now_line(ctx, view)
        if over:
            fields = [EmbedField(self.text(ctx, "result"), text.score_lines(ctx, view))]
        else:
            innkeepers = "\n".join(text.player_line(ctx, view, p) for p in view.players)
            fields = [
                EmbedField(self.text(ctx, "innkeepers"), innkeepers),
                EmbedField(self.text(ctx, "rooms"), text.room_lines(ctx, view)),
                EmbedField(self.text(ctx, "inn"), text.inn_value(ctx, view)),
            ]
        return TableBody(
            description=f"{text.heading(ctx, view, over)}\n{now}",
            fields=fields,
            footer=text.footer(ctx, view),
        )

    def table_items(self, ctx: TableContext) -> list[Item]:
        view = self.view(ctx, None)
        if view.stage is Stage.OVER or not view.awaiting:
            return []
        private = is_private(view)
        style = discord.ButtonStyle.primary if private else discord.ButtonStyle.secondary
        turn = self.text(ctx, "button.turn")
        items: list[Item] = [self.panel_button(ctx, PANEL_CODE, turn, style=style, emoji="🕯️")]
        prompt = self.game.prompt_for(self.state(ctx), view.awaiting[0])
        if prompt is None:
            return items
        shown: Sequence[BloodyInnChoice] = prompt.choices
        if private:  # only Cancel is public while paying or choosing what to build
            shown = [c for c in prompt.choices if isinstance(c, Cancel)]
        if len(shown) > MAX_PUBLIC_BUTTONS:
            return items  # the panel's select holds them all
        return items + [self._choice_button(ctx, view, c) for c in shown]

    def _choice_button(
        self, ctx: TableContext, view: BloodyInnView, choice: BloodyInnChoice
    ) -> Item:
        label = prompt_text.button_label(ctx, view, choice)
        return self.choice_button(ctx, choice, label, style=style_of(choice))

    def table_image(self, ctx: TableContext) -> bytes | None:
        view = self.view(ctx, None)
        names = [ctx.plain_name(seat) for seat in range(len(view.players))]
        from . import picture  # Pillow loads with the first board drawn, not at boot

        return picture.draw(view, names, ctx.locale)

    # --- private: My hand and the action panel -------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        view = self.view(ctx, seat)
        embed = discord.Embed(
            title=self.text(ctx, "hand.title", table=ctx.table_id),
            description="\n".join(text.hand_lines(view, seat, ctx.locale)),
            colour=self.colour,
        )
        if view.prompt is None:
            return Panel(content="", embed=embed)
        items = self.prompt_panel(ctx, seat, view, PANEL_CODE).items
        return Panel(content=prompt_text.question(ctx, view), embed=embed, items=items)

    def prompt_panel(self, ctx: TableContext, seat: Seat, view: BloodyInnView, code: str) -> Panel:
        """The seat's private panel for its open prompt, whatever the stage: a select
        of its choices, then Done and Cancel as buttons."""
        prompt = view.prompt
        assert prompt is not None
        main = [c for c in prompt.choices if not isinstance(c, Done | Cancel)]
        items: list[Item] = []
        if main:
            options = [
                self.option(choice, label, description=help_)
                for choice in main[:SELECT_OPTIONS]
                for label, help_ in [prompt_text.option_words(ctx, view, seat, choice)]
            ]
            items.append(self.select(ctx, PANEL_CODE, options, self.text(ctx, "panel.placeholder")))
        items += [
            self._choice_button(ctx, view, c)
            for c in prompt.choices
            if isinstance(c, Done | Cancel)
        ]
        question = prompt_text.question(ctx, view)
        header = prompt_text.panel_header(ctx, view, seat)
        return Panel(content=cut(f"{question}\n{header}", CONTENT), items=items)

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """What the chooser sees right after its choice: in the private panel, that
        panel becomes its next question (or, at the end of its turn, what happened);
        after a button of the table message, its panel opens by itself when its next
        decision is private (pay for the target just chosen), else nothing.

        The platform answers both the same way (it replaces a panel, or sends a new
        one after a public button), so the choice tells where it was made: the
        table's buttons only carry public choices, and a public choice leading to
        another public moment is answered silently (from a panel: "Done.")."""
        if self.game.prompt_for(self.state(ctx), seat) is None:
            if isinstance(choice, (*TABLE_CHOICES, Cancel)):
                return None
            return self.next_panel(ctx, seat, events)
        if isinstance(choice, TABLE_CHOICES) and not is_private(self.view(ctx, None)):
            return None
        return self.next_panel(ctx, seat, events)

    def next_panel(self, ctx: TableContext, seat: Seat, events: list[Event]) -> Panel:
        """The seat's next question after a step (with what the step did), or, when
        it has nothing more to decide, what the step did."""
        news = "\n".join([*self.event_lines(ctx, events), *self.private_texts(ctx, seat, events)])
        if self.game.prompt_for(self.state(ctx), seat) is not None:
            panel = self.panel(ctx, seat, PANEL_CODE)
            room = CONTENT - len(panel.content) - 2
            if news and room > MIN_NEWS:
                panel.content = f"{cut_tail(news, room)}\n\n{panel.content}"
            return panel
        done = self.text(ctx, "panel.done")
        return Panel(content=cut_tail(f"{done}\n{news}" if news else done, CONTENT))

    # --- event lines -------------------------------------------------------------------

    def event_lines(self, ctx: TableContext, events: Sequence[Event]) -> list[str]:
        """The public lines, the Morning's under a header."""
        public = [e for e in events if e.public]
        morning = next((i for i, e in enumerate(public) if isinstance(e, MORNING)), len(public))
        lines = super().event_lines(ctx, public[:morning])
        if morning < len(public):
            lines.append(self.text(ctx, "log.morning"))
            lines += super().event_lines(ctx, public[morning:])
        return lines

    def event_key(self, ctx: TableContext, event: Event) -> str:
        return super().event_key(ctx, event) + text.event_variant(ctx, event)

    def event_args(self, ctx: TableContext, event: Event) -> dict[str, object]:
        return text.event_args(ctx, event)

    def describe(self, value: object, locale: str | None) -> str:
        words = text.value_words(value, locale)
        return words if words is not None else super().describe(value, locale)

    # --- the lobby -----------------------------------------------------------------------

    def describe_options(self, options: Model, locale: str | None) -> str:
        assert isinstance(options, BloodyInnOptions)
        return text.options_words(options, locale)
