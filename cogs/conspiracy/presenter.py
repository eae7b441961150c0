"""How Conspiracy shows itself on Discord: the table message (embed, picture,
buttons), the event lines and the "My hand" panel.

Nothing in Conspiracy is secret but the decks' order, so every choice is a
public button on the table message (the platform only counts the prompted
player's clicks); a long list of Locations goes to an ephemeral select. Public
rendering reads only the spectator view, ``GAME.view(state, None)``.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.events import event_text
from bot.ui.i18n import t
from bot.ui.presenter import Panel, TableContext
from games.base import Choice, Event, Seat
from games.conspiracy import GAME, ConspiracyOptions, ConspiracyState, ConspiracyView
from games.conspiracy.cards import COLOURS, LOCATIONS, POSITIONS, Key, LocationEffect, LocationId
from games.conspiracy.models import (
    ChamberPlace,
    ConspiracyChoice,
    GameWon,
    KeepLord,
    LocationTaken,
    PearlMasterTaken,
    PlaceNext,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    TakeLocation,
    TakePile,
    TurnStarted,
)

from . import picture, text
from .text import EMOJI

MAX_ROWS = 4
"""Action rows for the game's buttons: the platform adds "My hand" on row 4."""
ROW_WIDTH = 5
LOCATION_BUTTONS = 5
"""More Locations to choose from than this go to an ephemeral select."""
PANEL_CODE = "choose"


class ConspiracyPresenter:
    game = "conspiracy"
    title_key = "conspiracy.title"
    draws = True

    # --- the public table message -------------------------------------------------------

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        state = _state(ctx)
        view = GAME.view(state, None)
        locale = ctx.locale
        finished = view.stage is Stage.OVER
        embed = discord.Embed(
            title=t("conspiracy.table_title", locale, table=ctx.table_id),
            colour=discord.Colour.gold() if finished else discord.Colour.dark_teal(),
        )
        embed.description = "\n".join(
            self._player_line(ctx, view, seat) for seat in range(len(view.players))
        )
        if finished:
            embed.add_field(
                name=t("conspiracy.field.final_score", locale),
                value=_cap(score_table(ctx, view)),
                inline=False,
            )
            embed.add_field(
                name=t("conspiracy.field.result", locale),
                value=self._result(ctx, view),
                inline=False,
            )
        else:
            embed.add_field(
                name=t("conspiracy.field.now", locale),
                value=_cap(self.now(ctx, view)),
                inline=False,
            )
            if view.ender is not None:
                embed.add_field(
                    name=t("conspiracy.field.final_round", locale),
                    value=_cap(self._final_round(ctx, view)),
                    inline=False,
                )
            embed.add_field(
                name=t("conspiracy.field.table", locale),
                value=_cap(self._table_text(ctx, view)),
                inline=False,
            )
        embed.set_footer(
            text=t("conspiracy.footer", locale, turn=view.turn_number, table=ctx.table_id)
        )
        return embed

    def _player_line(self, ctx: TableContext, view: ConspiracyView, seat: Seat) -> str:
        locale = ctx.locale
        player = view.players[seat]
        finished = view.stage is Stage.OVER
        marker = "▶" if view.turn == seat and not finished else "▪"
        status = ""
        if player.pearl_master:
            status += t("conspiracy.status.pearl_master", locale)
        if player.removed:
            status += t("conspiracy.status.removed", locale)
        elif ctx.away(seat) and not finished:
            status += t("conspiracy.status.away", locale)
        if finished and seat in view.winners:
            status += t("conspiracy.status.winner", locale)
        return t(
            "conspiracy.player",
            locale,
            marker=marker,
            name=ctx.name(seat),
            pearls=player.pearls,
            silver=player.silver,
            gold=player.gold,
            lords=len(player.chamber),
            locations=len(player.locations),
            score=view.scores[seat].total,
            status=status,
        )

    def now(self, ctx: TableContext, view: ConspiracyView) -> str:
        """What the active player is deciding, with the live countdown."""
        locale = ctx.locale
        player = ctx.name(view.turn)
        when = ctx.countdown()
        stage = view.stage
        if stage is Stage.RECRUIT:
            if view.recruit_limit is not None:
                return t(
                    "conspiracy.now.recruit_limited",
                    locale,
                    player=player,
                    rule=_rule(view.recruit_limit, locale),
                    when=when,
                )
            line = t("conspiracy.now.recruit", locale, player=player, when=when)
        elif stage is Stage.KEEP:
            line = t(
                "conspiracy.now.keep",
                locale,
                player=player,
                lords=text.lords(view.revealed, locale),
                when=when,
            )
        elif stage is Stage.ORDER:
            return t(
                "conspiracy.now.order",
                locale,
                player=player,
                lords=text.lords(view.pending, locale),
                when=when,
            )
        elif stage is Stage.LOCATION:
            key = (
                "conspiracy.now.location_whole"
                if view.players[view.turn].whole_deck
                else "conspiracy.now.location"
            )
            line = t(key, locale, player=player, place=view.location_place, when=when)
        elif stage is Stage.LOCATION_KEEP:
            line = t(
                "conspiracy.now.location_keep",
                locale,
                player=player,
                locations=text.locations(view.revealed_locations, locale),
                when=when,
            )
        elif stage is Stage.SWAP_FIRST:
            line = t("conspiracy.now.swap_first", locale, player=player, when=when)
        elif stage is Stage.SWAP_SECOND:
            line = t(
                "conspiracy.now.swap_second",
                locale,
                player=player,
                place=view.swap_first,
                when=when,
            )
        else:
            line = t("conspiracy.now.waiting", locale)
        if view.pending and stage is not Stage.KEEP:
            line += "\n" + t(
                "conspiracy.now.to_place", locale, lords=text.lords(view.pending, locale)
            )
        return line

    def _final_round(self, ctx: TableContext, view: ConspiracyView) -> str:
        assert view.ender is not None
        ender = ctx.name(view.ender)
        if not view.last_turns:
            return t("conspiracy.final_round.done", ctx.locale, ender=ender)
        players = ", ".join(ctx.name(seat) for seat in view.last_turns)
        return t("conspiracy.final_round", ctx.locale, ender=ender, players=players)

    def _table_text(self, ctx: TableContext, view: ConspiracyView) -> str:
        locale = ctx.locale
        piles = " · ".join(
            t(
                "conspiracy.table.pile",
                locale,
                emoji=EMOJI[colour],
                initial=text.initial(colour, locale),
                count=len(view.piles[colour]),
            )
            for colour in COLOURS
        )
        lines = [
            t(
                "conspiracy.table.decks",
                locale,
                lords=view.deck_size,
                locations=view.location_deck_size,
            ),
            t("conspiracy.table.piles", locale, piles=piles),
            t(
                "conspiracy.table.face_up",
                locale,
                locations=text.locations(view.face_up, locale)
                if view.face_up
                else t("conspiracy.table.none", locale),
            ),
        ]
        lines.extend(
            t(
                "conspiracy.table.restriction",
                locale,
                owner=ctx.name(r.owner),
                location=f"**{text.location_ref(r.location, locale)}**",
                rule=_rule(r.location, locale),
            )
            for r in view.restrictions
        )
        return "\n".join(lines)

    def _result(self, ctx: TableContext, view: ConspiracyView) -> str:
        locale = ctx.locale
        if not view.winners:
            return t("conspiracy.nobody", locale)
        total = view.scores[view.winners[0]].total
        if len(view.winners) == 1:
            return t("conspiracy.winner", locale, winner=ctx.name(view.winners[0]), total=total)
        names = ", ".join(f"**{ctx.name(seat)}**" for seat in view.winners)
        return t("conspiracy.winners", locale, winners=names, total=total)

    # --- the table message's buttons ------------------------------------------------------

    def table_items(self, ctx: TableContext) -> list[discord.ui.Item[Any]]:
        state = _state(ctx)
        prompts = GAME.prompts(state)
        if not prompts:
            return []
        view = GAME.view(state, None)
        choices = list(prompts[0].choices)
        rows = self._rows(ctx, view, choices)
        if rows is None or len(rows) > MAX_ROWS or any(len(r) > ROW_WIDTH for r in rows):
            rows = [[self._panel_button(ctx, t("conspiracy.button.choose", ctx.locale))]]
        items: list[discord.ui.Item[Any]] = []
        for number, row in enumerate(rows):
            for item in row:
                item.row = number
                items.append(item)
        return items

    def _rows(
        self, ctx: TableContext, view: ConspiracyView, choices: list[ConspiracyChoice]
    ) -> list[list[GameButton]] | None:
        """The buttons by action row, or None when they do not fit."""
        stage = view.stage
        buttons = {choice: self._button(ctx, view, choice) for choice in choices}
        if stage is Stage.RECRUIT:
            reveals = [b for c, b in buttons.items() if isinstance(c, RevealLords)]
            piles = [b for c, b in buttons.items() if isinstance(c, TakePile)]
            return [row for row in (reveals, piles) if row]
        if stage in (Stage.KEEP, Stage.ORDER):
            return _chunked(list(buttons.values()))
        if stage in (Stage.LOCATION, Stage.LOCATION_KEEP):
            takes = [b for c, b in buttons.items() if isinstance(c, TakeLocation)]
            reveals = [b for c, b in buttons.items() if isinstance(c, RevealLocations)]
            if len(takes) > LOCATION_BUTTONS:
                count = len(takes)
                takes = [
                    self._panel_button(
                        ctx, t("conspiracy.button.choose_location", ctx.locale, count=count)
                    )
                ]
            return [row for row in (takes, reveals) if row]
        if stage in (Stage.SWAP_FIRST, Stage.SWAP_SECOND):
            return self._swap_rows(buttons)
        return None

    @staticmethod
    def _swap_rows(buttons: dict[ConspiracyChoice, GameButton]) -> list[list[GameButton]]:
        """Like the picture's pyramid: the top rows first, a chamber row never split,
        "skip" last, or first when it would make a fifth row (1 + 1 + 2 | 3 | 4 | 5)."""
        groups: list[list[GameButton]] = [
            [
                b
                for c, b in buttons.items()
                if isinstance(c, SwapPick) and POSITIONS[c.place - 1][0] == chamber_row
            ]
            for chamber_row in range(4, -1, -1)
        ]
        skip = [b for c, b in buttons.items() if isinstance(c, SkipSwap)]
        rows = _packed([*groups, skip])
        return rows if len(rows) <= MAX_ROWS else _packed([skip, *groups])

    def _panel_button(self, ctx: TableContext, label: str) -> GameButton:
        return GameButton(
            ctx.table_id,
            ctx.version,
            f"ui.panel.{PANEL_CODE}",
            label=label,
            style=discord.ButtonStyle.success,
            emoji="📍",
        )

    def _button(
        self, ctx: TableContext, view: ConspiracyView, choice: ConspiracyChoice
    ) -> GameButton:
        style = discord.ButtonStyle.secondary
        emoji: str | None = None
        if isinstance(choice, RevealLords | RevealLocations):
            style = discord.ButtonStyle.primary
        elif isinstance(choice, TakePile):
            emoji = EMOJI[choice.colour]
        elif isinstance(choice, KeepLord | PlaceNext):
            style, emoji = discord.ButtonStyle.primary, EMOJI[choice.colour]
        elif isinstance(choice, TakeLocation):
            style, emoji = discord.ButtonStyle.success, "📍"
        elif isinstance(choice, SwapPick):
            place = _place(view, choice.place)
            if place is not None:
                emoji = EMOJI[place.colour]
            if choice.place == view.swap_first:
                style = discord.ButtonStyle.success
        elif isinstance(choice, SkipSwap):
            style = discord.ButtonStyle.danger
        return GameButton(
            ctx.table_id,
            ctx.version,
            encode(choice),
            label=self.choice_label(ctx, view, choice, short=True),
            style=style,
            emoji=emoji,
        )

    def choice_label(
        self,
        ctx: TableContext,
        view: ConspiracyView,
        choice: ConspiracyChoice,
        *,
        short: bool = False,
    ) -> str:
        """A choice in words, for a button (``short``) or a select option."""
        locale = ctx.locale
        if isinstance(choice, RevealLords):
            return t("conspiracy.button.reveal", locale, count=choice.count)
        if isinstance(choice, TakePile):
            pile = view.piles[choice.colour]
            return t(
                "conspiracy.button.take_pile",
                locale,
                colour=text.colour_name(choice.colour, locale),
                count=len(pile),
                influences="·".join(str(lord.influence) for lord in reversed(pile)),
            )
        if isinstance(choice, KeepLord | PlaceNext):
            key = (
                "conspiracy.button.keep"
                if isinstance(choice, KeepLord)
                else ("conspiracy.button.place")
            )
            return t(
                key,
                locale,
                colour=text.colour_name(choice.colour, locale),
                influence=choice.influence,
                power=text.power(choice.influence, locale),
            )
        if isinstance(choice, TakeLocation):
            return t(
                "conspiracy.button.take_location",
                locale,
                name=text.location_ref(choice.location, locale),
            )
        if isinstance(choice, RevealLocations):
            key = "reveal_location" if choice.count == 1 else "reveal_locations"
            return t(f"conspiracy.button.{key}", locale, count=choice.count)
        if isinstance(choice, SwapPick):
            if choice.place == view.swap_first:
                return t("conspiracy.button.unpick", locale, place=choice.place)
            place = _place(view, choice.place)
            if place is None:  # not in the chamber: cannot happen for a legal choice
                return str(choice.place)
            if short:
                return t(
                    "conspiracy.button.swap",
                    locale,
                    place=choice.place,
                    initial=text.initial(place.colour, locale),
                    influence=place.influence,
                )
            return t(
                "conspiracy.select.swap",
                locale,
                place=choice.place,
                colour=text.colour_name(place.colour, locale),
                influence=place.influence,
            )
        return t("conspiracy.button.skip_swap", locale)

    # --- private: My hand and the select panel ---------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        me = view.players[seat]
        score = view.scores[seat]
        lines: list[str] = []
        if me.chamber:
            for row in range(5):
                places = [p for p in me.chamber if POSITIONS[p.place - 1][0] == row]
                if places:
                    shown = " ".join(_hand_place(p.place, p, locale) for p in places)
                    lines.append(t("conspiracy.hand.row", locale, row=row + 1, places=shown))
            lines.append(t("conspiracy.hand.legend", locale))
        else:
            lines.append(t("conspiracy.hand.empty", locale))
        lines.append(
            t(
                "conspiracy.hand.pearls",
                locale,
                pearls=me.pearls,
                master=t("conspiracy.hand.master", locale) if me.pearl_master else "",
                silver=me.silver,
                gold=me.gold,
            )
        )
        if score.locations:
            lines.append(t("conspiracy.hand.locations", locale))
            lines.extend(
                t(
                    "conspiracy.hand.location",
                    locale,
                    name=text.location_ref(p.location, locale),
                    points=p.points,
                )
                for p in score.locations
            )
        lines.append(
            t(
                "conspiracy.hand.score",
                locale,
                lords=score.lords_total,
                locations=score.locations_total,
                coalition=score.coalition,
                size=score.coalition_size,
                master=score.pearl_master,
                total=score.total,
            )
        )
        items: list[discord.ui.Item[Any]] = []
        if view.stage is Stage.OVER:
            lines.append(t("conspiracy.hand.over", locale))
        elif view.prompt is not None:
            lines.append(t("conspiracy.hand.prompt", locale, what=self.now(ctx, view)))
            items = self.panel(ctx, seat, PANEL_CODE).items
        else:
            lines.append(t("conspiracy.hand.not_your_turn", locale, player=ctx.name(view.turn)))
        embed = discord.Embed(
            title=t("conspiracy.hand.title", locale, table=ctx.table_id),
            description="\n".join(lines)[:4096],
        )
        return Panel(content="", embed=embed, items=items)

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        """Every choice of the seat's prompt in one select (long Location lists)."""
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        prompt = view.prompt
        if prompt is None:
            return Panel(content=t("refusal.not_prompted", locale))
        if code != PANEL_CODE:
            return Panel(content=t("refusal.stale", locale))
        options = [self._option(ctx, view, choice) for choice in prompt.choices]
        select = GameSelect(
            ctx.table_id,
            ctx.version,
            PANEL_CODE,
            options,
            placeholder=t("conspiracy.button.choose", locale),
        )
        location = view.stage in (Stage.LOCATION, Stage.LOCATION_KEEP)
        content = t("conspiracy.panel.location" if location else "conspiracy.panel.choose", locale)
        return Panel(content=content, items=[select])

    def _option(
        self, ctx: TableContext, view: ConspiracyView, choice: ConspiracyChoice
    ) -> discord.SelectOption:
        description: str | None = None
        emoji: str | None = None
        if isinstance(choice, TakeLocation):
            description = text.location_help(choice.location, ctx.locale)[:100]
            emoji = "📍"
        elif isinstance(choice, TakePile | KeepLord | PlaceNext):
            emoji = EMOJI[choice.colour]
        return discord.SelectOption(
            label=self.choice_label(ctx, view, choice)[:100],
            value=encode(choice),
            description=description,
            emoji=emoji,
        )

    # --- event lines --------------------------------------------------------------------

    def event_lines(self, ctx: TableContext, events: list[Event]) -> list[str]:
        lines = (
            event_text(ctx, f"conspiracy.log.{_variant(e)}", e, text.describe)
            for e in events
            if e.public
        )
        return [line for line in lines if line]

    def private_lines(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        return []  # nothing in Conspiracy is secret to one player

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        return None  # nothing is secret: the table message shows every outcome

    def options_summary(self, options_json: str, locale: str | None) -> str:
        options = ConspiracyOptions.model_validate_json(options_json)
        first = (
            t("conspiracy.options.random", locale)
            if options.first_player is None
            else t("conspiracy.options.seat", locale, seat=options.first_player + 1)
        )
        return t("conspiracy.options", locale, first=first)

    # --- the picture ----------------------------------------------------------------------

    def table_image(self, ctx: TableContext) -> bytes | None:
        state = _state(ctx)
        view = GAME.view(state, None)
        names = [ctx.name(seat) for seat in range(len(view.players))]
        return picture.draw(view, names, ctx.locale)


# --- helpers ----------------------------------------------------------------------------


def score_table(ctx: TableContext, view: ConspiracyView) -> str:
    """The final score as a monospace table: one column per player."""
    locale = ctx.locale
    scores = view.scores
    names = [ctx.name(seat).replace("`", "'")[:8] for seat in range(len(scores))]
    rows: list[tuple[str, list[str]]] = [("", names)]
    for index, colour in enumerate(COLOURS):
        rows.append(
            (
                f"{text.initial(colour, locale)} {text.colour_name(colour, locale)}",
                [str(s.lords[index].influence) for s in scores],
            )
        )
    rows.extend(
        [
            (t("conspiracy.score.lords", locale), [str(s.lords_total) for s in scores]),
            (t("conspiracy.score.locations", locale), [str(s.locations_total) for s in scores]),
            (t("conspiracy.score.coalition", locale), [str(s.coalition) for s in scores]),
            (t("conspiracy.score.pearl_master", locale), [str(s.pearl_master) for s in scores]),
            (t("conspiracy.score.total", locale), [str(s.total) for s in scores]),
            (t("conspiracy.score.pearls", locale), [str(s.pearls) for s in scores]),
        ]
    )
    label_width = max(len(label) for label, _ in rows)
    widths = [max(len(cells[i]) for _, cells in rows) for i in range(len(scores))]
    lines = []
    for number, (label, cells) in enumerate(rows):
        line = label.ljust(label_width) + "".join(
            " " + cell.rjust(width) for cell, width in zip(cells, widths, strict=True)
        )
        lines.append(line.rstrip())
        if number in (0, 5, 9):
            lines.append("-" * (label_width + sum(w + 1 for w in widths)))
    return "```\n" + "\n".join(lines) + "\n```"


def _packed(groups: list[list[GameButton]]) -> list[list[GameButton]]:
    """Groups of buttons into action rows, a group never split across rows."""
    rows: list[list[GameButton]] = []
    for group in groups:
        if not group:
            continue
        if rows and len(rows[-1]) + len(group) <= ROW_WIDTH:
            rows[-1].extend(group)
        else:
            rows.append(list(group))
    return rows


def _chunked(buttons: list[GameButton]) -> list[list[GameButton]]:
    return [buttons[i : i + ROW_WIDTH] for i in range(0, len(buttons), ROW_WIDTH)]


def _place(view: ConspiracyView, place: int) -> ChamberPlace | None:
    player = view.players[view.turn]
    return next((p for p in player.chamber if p.place == place), None)


def _hand_place(number: int, place: ChamberPlace, locale: str | None) -> str:
    marks = ""
    if place.key is not None:
        marks += "🔑" if place.key is Key.SILVER else "🗝️"
    if place.location is not None:
        marks += "📍"
    return f"`{number}`{text.short_lord(place.colour, place.influence, locale)}{marks}"


def _rule(location: LocationId, locale: str | None) -> str:
    effect = LOCATIONS[location].effect
    key = "top_lord" if effect is LocationEffect.TOP_LORD_ONLY else "reveal_two"
    return t(f"conspiracy.rule.{key}", locale)


def _variant(event: Event) -> str:
    """The text key's last part: the event type, refined where one type reads two ways."""
    if isinstance(event, TurnStarted) and event.last:
        return "turn_started.last"
    if isinstance(event, PearlMasterTaken) and event.victim is None:
        return "pearl_master_taken.first"
    if isinstance(event, LocationTaken) and event.from_deck:
        return "location_taken.from_deck"
    if isinstance(event, GameWon) and event.shared:
        return "game_won.shared"
    return str(vars(event)["type"])


def _cap(value: str, limit: int = 1024) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _state(ctx: TableContext) -> ConspiracyState:
    state = ctx.snapshot.state
    assert isinstance(state, ConspiracyState)
    return state
