"""How Conspiracy shows itself on Discord: the table message (embed, picture,
buttons), the event lines and the "My hand" panel.

Nothing in Conspiracy is secret but the decks' order, so every choice is a
public button on the table message (the platform only counts the prompted
player's clicks); a long list of Locations goes to an ephemeral select. Public
rendering reads only the spectator view, ``self.view(ctx, None)``.
"""

from __future__ import annotations

import discord

from bot.ui.i18n import t
from bot.ui.limits import ACTION_ROWS, EMBED_DESCRIPTION, ROW_WIDTH, cut
from bot.ui.presenter import EmbedField, GamePresenter, Item, Panel, TableBody, TableContext
from games.base import Event, Model, Seat
from games.conspiracy import ConspiracyOptions, ConspiracyState, ConspiracyView
from games.conspiracy.cards import (
    COLOURS,
    LOCATIONS,
    POSITIONS,
    Colour,
    Key,
    LocationEffect,
    LocationId,
)
from games.conspiracy.models import (
    ChamberPlace,
    ConspiracyChoice,
    GameWon,
    KeepLord,
    LocationTaken,
    LordFace,
    PearlMasterTaken,
    PlaceNext,
    PlayerScored,
    RevealLocations,
    RevealLords,
    SkipSwap,
    Stage,
    SwapPick,
    TakeLocation,
    TakePile,
    TurnStarted,
)

from . import text
from .strings import STRINGS
from .text import EMOJI

MAX_ROWS = ACTION_ROWS - 1
"""Action rows for the game's buttons: the platform adds "My hand" on row 4."""
LOCATION_BUTTONS = 5
"""More Locations to choose from than this go to an ephemeral select."""
PANEL_CODE = "choose"
SCORE_NAME = 8
"""The width of a player's column head in the final score table."""


class ConspiracyPresenter(GamePresenter[ConspiracyState, ConspiracyView]):
    notable_events = GamePresenter.notable_events | {"final_round"}
    strings = STRINGS
    colour = discord.Colour.dark_teal()
    draws_picture = True

    # --- the public table message -------------------------------------------------------

    def table_body(self, ctx: TableContext) -> TableBody:
        view = self.view(ctx, None)
        description = "\n".join(
            self._player_line(ctx, view, seat) for seat in range(len(view.players))
        )
        if view.stage is Stage.OVER:
            fields = [
                EmbedField(self.text(ctx, "field.final_score"), self._score_table(ctx, view)),
                EmbedField(self.text(ctx, "field.result"), self._result(ctx, view)),
            ]
        else:
            fields = [EmbedField(self.text(ctx, "field.now"), self.now(ctx, view))]
            if view.ender is not None:
                fields.append(
                    EmbedField(self.text(ctx, "field.final_round"), self._final_round(ctx, view))
                )
            fields.append(EmbedField(self.text(ctx, "field.table"), self._table_text(ctx, view)))
        footer = self.text(ctx, "footer", turn=view.turn_number, table=ctx.table_id)
        return TableBody(description=description, fields=fields, footer=footer)

    def _player_line(self, ctx: TableContext, view: ConspiracyView, seat: Seat) -> str:
        player = view.players[seat]
        finished = view.stage is Stage.OVER
        marker = "▶" if view.turn == seat and not finished else "▪"
        status = ""
        if player.pearl_master:
            status += self.text(ctx, "status.pearl_master")
        if player.removed:
            status += self.text(ctx, "status.removed")
        elif ctx.away(seat) and not finished:
            status += self.text(ctx, "status.away")
        if finished and seat in view.winners:
            status += self.text(ctx, "status.winner")
        return self.text(
            ctx,
            "player",
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
                rule = self._rule(ctx, view.recruit_limit)
                return self.text(ctx, "now.recruit_limited", player=player, rule=rule, when=when)
            line = self.text(ctx, "now.recruit", player=player, when=when)
        elif stage is Stage.KEEP:
            lords = text.lords(view.revealed, locale)
            line = self.text(ctx, "now.keep", player=player, lords=lords, when=when)
        elif stage is Stage.ORDER:
            lords = text.lords(view.pending, locale)
            return self.text(ctx, "now.order", player=player, lords=lords, when=when)
        elif stage is Stage.LOCATION:
            place = view.location_place
            if view.players[view.turn].whole_deck:
                line = self.text(ctx, "now.location_whole", player=player, place=place, when=when)
            else:
                line = self.text(ctx, "now.location", player=player, place=place, when=when)
        elif stage is Stage.LOCATION_KEEP:
            locations = text.locations(view.revealed_locations, locale)
            line = self.text(
                ctx, "now.location_keep", player=player, locations=locations, when=when
            )
        elif stage is Stage.SWAP_FIRST:
            line = self.text(ctx, "now.swap_first", player=player, when=when)
        elif stage is Stage.SWAP_SECOND:
            line = self.text(
                ctx, "now.swap_second", player=player, place=view.swap_first, when=when
            )
        else:
            line = self.text(ctx, "now.waiting")
        if view.pending and stage is not Stage.KEEP:
            line += "\n" + self.text(ctx, "now.to_place", lords=text.lords(view.pending, locale))
        return line

    def _final_round(self, ctx: TableContext, view: ConspiracyView) -> str:
        assert view.ender is not None
        ender = ctx.name(view.ender)
        if not view.last_turns:
            return self.text(ctx, "final_round.done", ender=ender)
        players = ", ".join(ctx.name(seat) for seat in view.last_turns)
        return self.text(ctx, "final_round", ender=ender, players=players)

    def _table_text(self, ctx: TableContext, view: ConspiracyView) -> str:
        locale = ctx.locale
        piles = " · ".join(
            self.text(
                ctx,
                "table.pile",
                emoji=EMOJI[colour],
                initial=text.initial(colour, locale),
                count=len(view.piles[colour]),
            )
            for colour in COLOURS
        )
        face_up = (
            text.locations(view.face_up, locale) if view.face_up else self.text(ctx, "table.none")
        )
        lines = [
            self.text(ctx, "table.decks", lords=view.deck_size, locations=view.location_deck_size),
            self.text(ctx, "table.piles", piles=piles),
            self.text(ctx, "table.face_up", locations=face_up),
        ]
        lines.extend(
            self.text(
                ctx,
                "table.restriction",
                owner=ctx.name(r.owner),
                location=f"**{text.location_ref(r.location, locale)}**",
                rule=self._rule(ctx, r.location),
            )
            for r in view.restrictions
        )
        return "\n".join(lines)

    def _result(self, ctx: TableContext, view: ConspiracyView) -> str:
        if not view.winners:
            return self.text(ctx, "nobody")
        total = view.scores[view.winners[0]].total
        if len(view.winners) == 1:
            return self.text(ctx, "winner", winner=ctx.name(view.winners[0]), count=total)
        names = ", ".join(f"**{ctx.name(seat)}**" for seat in view.winners)
        return self.text(ctx, "winners", winners=names, count=total)

    def _score_table(self, ctx: TableContext, view: ConspiracyView) -> str:
        """The final score as a monospace table: one column per player."""
        locale = ctx.locale
        scores = view.scores
        rows: list[tuple[str, list[str]]] = [("", [_code_name(ctx, s) for s in range(len(scores))])]
        for index, colour in enumerate(COLOURS):
            rows.append(
                (
                    f"{text.initial(colour, locale)} {text.colour_name(colour, locale)}",
                    [str(s.lords[index].influence) for s in scores],
                )
            )
        rows.extend(
            [
                (self.text(ctx, "score.lords"), [str(s.lords_total) for s in scores]),
                (self.text(ctx, "score.locations"), [str(s.locations_total) for s in scores]),
                (self.text(ctx, "score.coalition"), [str(s.coalition) for s in scores]),
                (self.text(ctx, "score.pearl_master"), [str(s.pearl_master) for s in scores]),
                (self.text(ctx, "score.total"), [str(s.total) for s in scores]),
                (self.text(ctx, "score.pearls"), [str(s.pearls) for s in scores]),
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

    def _rule(self, ctx: TableContext, location: LocationId) -> str:
        effect = LOCATIONS[location].effect
        key = "top_lord" if effect is LocationEffect.TOP_LORD_ONLY else "reveal_two"
        return self.text(ctx, f"rule.{key}")

    # --- the table message's buttons ------------------------------------------------------

    def table_items(self, ctx: TableContext) -> list[Item]:
        prompts = self.game.prompts(self.state(ctx))
        if not prompts:
            return []
        view = self.view(ctx, None)
        rows = self._rows(ctx, view, list(prompts[0].choices))
        if rows is None or len(rows) > MAX_ROWS or any(len(r) > ROW_WIDTH for r in rows):
            rows = [[self._panel_button(ctx, self.text(ctx, "button.choose"))]]
        items: list[Item] = []
        for number, row in enumerate(rows):
            for item in row:
                item.row = number
                items.append(item)
        return items

    def _rows(
        self, ctx: TableContext, view: ConspiracyView, choices: list[ConspiracyChoice]
    ) -> list[list[Item]] | None:
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
                label = self.text(ctx, "button.choose_location", count=len(takes))
                takes = [self._panel_button(ctx, label)]
            return [row for row in (takes, reveals) if row]
        if stage in (Stage.SWAP_FIRST, Stage.SWAP_SECOND):
            return self._swap_rows(buttons)
        return None

    @staticmethod
    def _swap_rows(buttons: dict[ConspiracyChoice, Item]) -> list[list[Item]]:
        """Like the picture's pyramid: the top rows first, a chamber row never split,
        "skip" last, or first when it would make a fifth row (1 + 1 + 2 | 3 | 4 | 5)."""
        groups: list[list[Item]] = [
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

    def _panel_button(self, ctx: TableContext, label: str) -> Item:
        return self.panel_button(
            ctx, PANEL_CODE, label, style=discord.ButtonStyle.success, emoji="📍"
        )

    def _button(self, ctx: TableContext, view: ConspiracyView, choice: ConspiracyChoice) -> Item:
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
        label = self.choice_label(ctx, view, choice, short=True)
        return self.choice_button(ctx, choice, label, style=style, emoji=emoji)

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
            return self.text(ctx, "button.reveal", count=choice.count)
        if isinstance(choice, TakePile):
            pile = view.piles[choice.colour]
            return self.text(
                ctx,
                "button.take_pile",
                colour=text.colour_name(choice.colour, locale),
                count=len(pile),
                influences="·".join(str(lord.influence) for lord in reversed(pile)),
            )
        if isinstance(choice, KeepLord | PlaceNext):
            return self.text(
                ctx,
                "button.keep" if isinstance(choice, KeepLord) else "button.place",
                colour=text.colour_name(choice.colour, locale),
                influence=choice.influence,
                power=text.power(choice.influence, locale),
            )
        if isinstance(choice, TakeLocation):
            name = text.location_ref(choice.location, locale)
            return self.text(ctx, "button.take_location", name=name)
        if isinstance(choice, RevealLocations):
            if choice.count == 1:
                return self.text(ctx, "button.reveal_location", count=choice.count)
            return self.text(ctx, "button.reveal_locations", count=choice.count)
        if isinstance(choice, SwapPick):
            if choice.place == view.swap_first:
                return self.text(ctx, "button.unpick", place=choice.place)
            place = _place(view, choice.place)
            if place is None:  # not in the chamber: cannot happen for a legal choice
                return str(choice.place)
            if short:
                return self.text(
                    ctx,
                    "button.swap",
                    place=choice.place,
                    initial=text.initial(place.colour, locale),
                    influence=place.influence,
                )
            return self.text(
                ctx,
                "select.swap",
                place=choice.place,
                colour=text.colour_name(place.colour, locale),
                influence=place.influence,
            )
        return self.text(ctx, "button.skip_swap")

    # --- private: My hand and the select panel ---------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        view = self.view(ctx, seat)
        locale = ctx.locale
        me = view.players[seat]
        score = view.scores[seat]
        lines: list[str] = []
        if me.chamber:
            for row in range(5):
                places = [p for p in me.chamber if POSITIONS[p.place - 1][0] == row]
                if places:
                    shown = " ".join(_hand_place(p.place, p, locale) for p in places)
                    lines.append(self.text(ctx, "hand.row", row=row + 1, places=shown))
            lines.append(self.text(ctx, "hand.legend"))
        else:
            lines.append(self.text(ctx, "hand.empty"))
        master = self.text(ctx, "hand.master") if me.pearl_master else ""
        lines.append(
            self.text(
                ctx, "hand.pearls", pearls=me.pearls, master=master, silver=me.silver, gold=me.gold
            )
        )
        if score.locations:
            lines.append(self.text(ctx, "hand.locations"))
            lines.extend(
                self.text(
                    ctx,
                    "hand.location",
                    name=text.location_ref(p.location, locale),
                    points=p.points,
                )
                for p in score.locations
            )
        lines.append(
            self.text(
                ctx,
                "hand.score",
                lords=score.lords_total,
                locations=score.locations_total,
                coalition=score.coalition,
                size=score.coalition_size,
                master=score.pearl_master,
                total=score.total,
            )
        )
        items: list[Item] = []
        if view.stage is Stage.OVER:
            lines.append(self.text(ctx, "hand.over"))
        elif view.prompt is not None:
            lines.append(self.text(ctx, "hand.prompt", what=self.now(ctx, view)))
            items = self.prompt_panel(ctx, seat, view, PANEL_CODE).items
        else:
            lines.append(self.text(ctx, "hand.not_your_turn", player=ctx.name(view.turn)))
        embed = discord.Embed(
            title=self.text(ctx, "hand.title", table=ctx.table_id),
            description=cut("\n".join(lines), EMBED_DESCRIPTION),
        )
        return Panel(content="", embed=embed, items=items)

    def prompt_panel(self, ctx: TableContext, seat: Seat, view: ConspiracyView, code: str) -> Panel:
        """Every choice of the seat's prompt in one select (long Location lists)."""
        prompt = view.prompt
        assert prompt is not None
        if code != PANEL_CODE:
            return self.stale(ctx)
        options = [self._option(ctx, view, choice) for choice in prompt.choices]
        select = self.select(ctx, PANEL_CODE, options, self.text(ctx, "button.choose"))
        if view.stage in (Stage.LOCATION, Stage.LOCATION_KEEP):
            return Panel(content=self.text(ctx, "panel.location"), items=[select])
        return Panel(content=self.text(ctx, "panel.choose"), items=[select])

    def _option(
        self, ctx: TableContext, view: ConspiracyView, choice: ConspiracyChoice
    ) -> discord.SelectOption:
        description: str | None = None
        emoji: str | None = None
        if isinstance(choice, TakeLocation):
            description = text.location_help(choice.location, ctx.locale)
            emoji = "📍"
        elif isinstance(choice, TakePile | KeepLord | PlaceNext):
            emoji = EMOJI[choice.colour]
        label = self.choice_label(ctx, view, choice)
        return self.option(choice, label, description=description, emoji=emoji)

    # --- event lines (nothing in Conspiracy is secret to one player: no DM lines) ---------

    def event_key(self, ctx: TableContext, event: Event) -> str:
        if isinstance(event, TurnStarted) and event.last:
            return "turn_started.last"
        if isinstance(event, PearlMasterTaken) and event.victim is None:
            return "pearl_master_taken.first"
        if isinstance(event, LocationTaken) and event.from_deck:
            return "location_taken.from_deck"
        if isinstance(event, GameWon) and event.shared:
            return "game_won.shared"
        return super().event_key(ctx, event)

    def event_args(self, ctx: TableContext, event: Event) -> dict[str, object]:
        """A score's total is its ``count``: the word "points" agrees with it."""
        if isinstance(event, PlayerScored):
            return {"count": event.total}
        return {}

    def describe(self, value: object, locale: str | None) -> str:
        """Colours, Locations and Lords in words."""
        if isinstance(value, Colour):
            return f"{EMOJI[value]} {text.colour_name(value, locale)}"
        if isinstance(value, LocationId):
            return f"**{text.location_ref(value, locale)}**"
        if isinstance(value, tuple):
            if all(isinstance(v, LordFace) for v in value):
                return text.lords(value, locale)
            if all(isinstance(v, LocationId) for v in value):
                return text.locations(value, locale)
        return super().describe(value, locale)

    def describe_options(self, options: Model, locale: str | None) -> str:
        assert isinstance(options, ConspiracyOptions)
        if options.first_player is None:
            first = t("conspiracy.options.random", locale)
        else:
            first = t("conspiracy.options.seat", locale, seat=options.first_player + 1)
        return t("conspiracy.options", locale, first=first)

    # --- the picture ----------------------------------------------------------------------

    def table_image(self, ctx: TableContext) -> bytes | None:
        view = self.view(ctx, None)
        names = [ctx.plain_name(seat) for seat in range(len(view.players))]
        from . import picture  # Pillow loads with the first board drawn, not at boot

        return picture.draw(view, names, ctx.locale)


# --- helpers ----------------------------------------------------------------------------


def _code_name(ctx: TableContext, seat: Seat) -> str:
    """A column head of the score table: the plain name, cut to the column, with no
    backtick that could close the code block."""
    return cut(ctx.plain_name(seat).replace("`", "'"), SCORE_NAME)


def _packed(groups: list[list[Item]]) -> list[list[Item]]:
    """Groups of buttons into action rows, a group never split across rows."""
    rows: list[list[Item]] = []
    for group in groups:
        if not group:
            continue
        if rows and len(rows[-1]) + len(group) <= ROW_WIDTH:
            rows[-1].extend(group)
        else:
            rows.append(list(group))
    return rows


def _chunked(buttons: list[Item]) -> list[list[Item]]:
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
