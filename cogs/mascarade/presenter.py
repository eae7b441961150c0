"""How Mascarade shows itself on Discord.

Public rendering (table message, its buttons, event lines) reads only the
spectator view ``self.view(ctx, None)``, or the final state once the game is
over; of the cards it shows the opening deal (turn 1, before anyone moved: the
cards were dealt face up) and the cards turned face up in the announcement
being resolved. Private rendering (My hand, panels, DMs, the ephemeral answers
to choices) reads the seat's own view: its memories, fresh or "maybe moved".
"""

from __future__ import annotations

import discord

from bot.ui.codec import encode
from bot.ui.i18n import t
from bot.ui.presenter import EmbedField, GamePresenter, Item, Panel, TableBody, TableContext
from games.base import Choice, Event, InvalidOptions, Model, Seat
from games.mascarade import Character, Mascarade, MascaradeOptions, MascaradeState
from games.mascarade.cards import BISHOP_TAKES, OFFICIAL_SETS, check_custom_set
from games.mascarade.models import (
    Announce,
    Announced,
    AnnouncementView,
    CardRef,
    CardRevealed,
    CardSeen,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Contested,
    Decide,
    GameWon,
    Guess,
    Guessed,
    Look,
    Looked,
    MascaradeChoice,
    MascaradeView,
    Memory,
    Pass,
    PowerUsed,
    Stage,
    Swap,
    SwapCause,
    SwapDecided,
    SwapPrepared,
    SwapView,
    TurnStarted,
    WinReason,
)

from .strings import STRINGS
from .text import (
    COIN,
    HIDDEN,
    Places,
    card,
    card_of,
    card_set,
    card_the,
    memory_text,
    slot_name,
)

PANELS = ("swap", "look", "announce", "decide")
PANEL_CHOICES: dict[str, type[MascaradeChoice]] = {"swap": Swap, "look": Look, "announce": Announce}
"""The select panels of a turn, by the kind of choice they offer."""


class MascaradePresenter(GamePresenter[MascaradeState, MascaradeView]):
    strings = STRINGS
    colour = discord.Colour.purple()
    game: Mascarade

    def _places(self, ctx: TableContext, viewer: Seat | None = None) -> Places:
        state = self.state(ctx)
        return Places(ctx, state.hand_size, state.centre_size, viewer)

    # --- public table message -----------------------------------------------------------

    def table_body(self, ctx: TableContext) -> TableBody:
        state = self.state(ctx)
        finished = self.finished(ctx)
        view = self.view(ctx, None)
        lines = [self._seat_line(ctx, view, state, seat, finished) for seat in range(state.seats)]
        if view.centre:
            cards = self._shown_cards(ctx, view, state, None, view.centre, finished)
            lines.append(self.text(ctx, "centre", cards=cards))
        if view.turn_number == 1 and view.stage is Stage.TURN and not finished:
            lines.append(self.text(ctx, "opening"))
        return TableBody(
            description="\n".join(lines),
            fields=[
                EmbedField(self.text(ctx, "courthouse"), f"{COIN} {view.courthouse}", inline=True),
                EmbedField(
                    self.text(ctx, "characters"), card_set(view.characters, ctx.locale), inline=True
                ),
                EmbedField(self.text(ctx, "now"), self._now(ctx, view)),
            ],
            footer=self.text(ctx, "footer", turn=view.turn_number, table=ctx.table_id),
        )

    def _seat_line(
        self,
        ctx: TableContext,
        view: MascaradeView,
        state: MascaradeState,
        seat: Seat,
        finished: bool,
    ) -> str:
        player = view.players[seat]
        if finished or not player.in_play:
            marker = "▪"
        elif seat == view.turn:
            marker = "▶"
        elif seat in view.awaiting:
            marker = "⏳"
        else:
            marker = "▪"
        cards = self._shown_cards(ctx, view, state, seat, player.cards, finished)
        status = ""
        if seat in view.winners:
            status = " 🏆"
        elif not player.in_play:
            status = " ❌ " + self.text(ctx, "out")
        elif ctx.away(seat):
            status = " 💤 " + t("table.away", ctx.locale)
        return f"{marker} **{ctx.name(seat)}** · {COIN} {player.coins} · {cards}{status}"

    def _shown_cards(
        self,
        ctx: TableContext,
        view: MascaradeView,
        state: MascaradeState,
        seat: Seat | None,
        memories: list[Memory | None],
        finished: bool,
    ) -> str:
        """Face down, except at the opening deal (public fresh memories) and at the
        end (the final state: every card turned over)."""
        locale = ctx.locale
        opening = view.turn_number == 1 and view.stage is Stage.TURN
        shown: list[str] = []
        for slot, memory in enumerate(memories):
            if finished:
                face = f"**{card(state.cards[self.game.place(state, seat, slot)], locale)}**"
            elif opening and memory is not None and not memory.stale:
                face = f"**{card(memory.character, locale)}**"
            else:
                face = HIDDEN
            where = slot_name(slot, view.hand_size, locale) if seat is not None else ""
            if where and slot == view.protected_slot:
                where = "🛡️ " + where
            shown.append(f"{where} {face}" if where else face)
        return " · ".join(shown) if view.hand_size > 1 and seat is not None else " ".join(shown)

    def _now(self, ctx: TableContext, view: MascaradeView) -> str:
        when = ctx.countdown()
        if view.stage is Stage.OVER:
            names = ", ".join(f"**{ctx.name(s)}**" for s in view.winners)
            key = "now.winner" if len(view.winners) == 1 else "now.winners"
            return self.text(ctx, key, winners=names)
        if view.stage is Stage.TURN:
            key = "now.turn_forced" if view.must_swap else "now.turn"
            return self.text(ctx, key, player=ctx.name(view.turn), when=when)
        if view.stage is Stage.DECIDE:
            assert view.swap is not None
            return self._swap_line(ctx, view.swap) + when
        announcement = view.announcement
        assert announcement is not None
        lines = self._announcement_lines(ctx, view, announcement)
        lines.append(self._stage_line(ctx, view, announcement, when))
        return "\n".join(lines)

    def _swap_line(self, ctx: TableContext, swap: SwapView) -> str:
        places = self._places(ctx)
        first = (
            places.own(swap.first.slot)
            if swap.first.seat == swap.actor
            else places.ref(swap.first.seat, swap.first.slot)
        )
        return self.text(
            ctx,
            f"now.decide.{swap.cause.value}",
            actor=ctx.name(swap.actor),
            first=first,
            second=places.ref(swap.second.seat, swap.second.slot),
        )

    def _announcement_lines(
        self, ctx: TableContext, view: MascaradeView, announcement: AnnouncementView
    ) -> list[str]:
        locale = ctx.locale
        hand = view.hand_size

        def who(seat: Seat, slot: int) -> str:
            where = slot_name(slot, hand, locale)
            return f"{ctx.name(seat)} ({where})" if where else ctx.name(seat)

        lines = [
            self.text(
                ctx,
                "now.announced.slot" if hand > 1 else "now.announced",
                claimant=ctx.name(announcement.claimant),
                character=card(announcement.character, locale),
                slot=slot_name(announcement.slot, hand, locale),
            )
        ]
        if announcement.contesters:
            names = ", ".join(who(c.seat, c.slot) for c in announcement.contesters)
            lines.append(self.text(ctx, "now.contesters", players=names))
        if announcement.silent:
            names = ", ".join(ctx.name(s) for s in announcement.silent)
            lines.append(self.text(ctx, "now.silent", players=names))
        if announcement.revealed:
            shown = ", ".join(
                f"{who(r.seat, r.slot)} **{card(r.character, locale)}**"
                for r in announcement.revealed
            )
            lines.append(self.text(ctx, "now.revealed", cards=shown))
        if announcement.fined and view.stage is not Stage.CONTEST:
            names = ", ".join(ctx.name(s) for s in announcement.fined)
            lines.append(self.text(ctx, "now.fined", players=names))
        return lines

    def _stage_line(
        self, ctx: TableContext, view: MascaradeView, announcement: AnnouncementView, when: str
    ) -> str:
        if view.stage is Stage.CONTEST:
            asked = announcement.asked
            player = ctx.name(asked) if asked is not None else "-"
            text = self.text(ctx, "now.asking", player=player, when=when)
            later = announcement.to_ask[1:]
            if later:
                names = ", ".join(ctx.name(s) for s in later)
                text += "\n" + self.text(ctx, "now.then", players=names)
            return text
        if view.stage is Stage.GUESS:
            assert announcement.questioned is not None and announcement.user is not None
            return self.text(
                ctx,
                "now.guess",
                player=ctx.name(announcement.questioned),
                inquisitor=ctx.name(announcement.user),
                when=when,
            )
        user = ctx.name(announcement.user) if announcement.user is not None else "-"
        text = self.text(
            ctx, f"now.{view.stage.value}", player=user, amount=BISHOP_TAKES, when=when
        )
        if view.stage is Stage.FOOL_SECOND and announcement.fool_first is not None:
            first = announcement.fool_first
            place = self._places(ctx).ref(first.seat, first.slot)
            text += "\n" + self.text(ctx, "now.fool_first_card", place=place)
        return text

    def table_items(self, ctx: TableContext) -> list[Item]:
        view = self.view(ctx, None)
        if not view.awaiting:
            return []
        # The choices of a prompt are public (who, which seats, which characters).
        prompt = self.game.prompt_for(self.state(ctx), view.awaiting[0])
        assert prompt is not None
        if view.stage is Stage.TURN:
            swap = self.panel_button(ctx, "swap", self.text(ctx, "button.swap"), emoji="🔀")
            if view.must_swap:
                return [swap]
            if view.hand_size == 1:
                look = self.choice_button(
                    ctx, Look(slot=0), self.text(ctx, "button.look"), emoji="👁️"
                )
            else:
                look = self.panel_button(
                    ctx,
                    "look",
                    self.text(ctx, "button.look_panel"),
                    style=discord.ButtonStyle.secondary,
                    emoji="👁️",
                )
            announce = self.panel_button(
                ctx,
                "announce",
                self.text(ctx, "button.announce"),
                style=discord.ButtonStyle.success,
                emoji="📣",
            )
            return [swap, look, announce]
        if view.stage is Stage.DECIDE:
            return [self.panel_button(ctx, "decide", self.text(ctx, "button.decide"), emoji="🤫")]
        places = self._places(ctx)
        return [
            self.choice_button(
                ctx,
                choice,
                self._button_label(ctx, view, places, choice),
                style=_button_style(choice),
            )
            for choice in prompt.choices
        ]

    def _button_label(
        self, ctx: TableContext, view: MascaradeView, places: Places, choice: MascaradeChoice
    ) -> str:
        """Labels of public choices: names, the set's characters, public coins."""
        locale = ctx.locale
        hand = view.hand_size
        if isinstance(choice, Contest):
            announcement = view.announcement
            assert announcement is not None
            if hand > 1:
                return self.text(
                    ctx, "button.contest_slot", slot=slot_name(choice.slot, hand, locale)
                )
            return self.text(
                ctx, "button.contest", the_character=card_the(announcement.character, locale)
            )
        if isinstance(choice, Pass):
            return self.text(ctx, "button.pass")
        if isinstance(choice, Guess):
            return self.text(ctx, "button.guess", the_character=card_the(choice.character, locale))
        if isinstance(choice, ChooseCard):
            place = places.ref(choice.target, choice.slot, label=True)
            key = {
                Stage.SPY: "button.spy",
                Stage.FOOL_FIRST: "button.fool_first",
            }.get(view.stage, "button.fool_second")
            return self.text(ctx, key, place=place)
        if isinstance(choice, ChoosePlayer):
            if choice.target is None:
                return self.text(ctx, "button.keep_fortune")
            key = {
                Stage.BISHOP: "button.bishop",
                Stage.WITCH: "button.witch",
            }.get(view.stage, "button.inquisitor")
            return self.text(
                ctx,
                key,
                player=ctx.plain_name(choice.target),
                coins=view.players[choice.target].coins,
                amount=BISHOP_TAKES,
            )
        return encode(choice)

    # --- private: hand, panels, answers ------------------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        view = self.view(ctx, seat)
        locale = ctx.locale
        me = view.players[seat]
        lines: list[str] = []
        for slot, memory in enumerate(me.cards):
            where = slot_name(slot, view.hand_size, locale)
            if where and slot == view.protected_slot:
                where = self.text(ctx, "slot.protected", slot=where)
            key = "hand.card_slot" if where else "hand.card"
            lines.append(self.text(ctx, key, slot=where, memory=memory_text(memory, locale)))
        lines.append(self.text(ctx, "hand.coins", coins=me.coins))
        embed = discord.Embed(
            title=self.text(ctx, "hand.title", table=ctx.table_id),
            description="\n".join(lines),
            colour=self.colour,
        )
        places = self._places(ctx, seat)
        remembered = [
            self.text(
                ctx,
                "hand.memory",
                place=places.ref(other.seat, slot, bold=False),
                memory=memory_text(memory, locale),
            )
            for other in view.players
            if other.seat != seat
            for slot, memory in enumerate(other.cards)
        ]
        remembered.extend(
            self.text(
                ctx, "hand.memory", place=places.ref(None, slot), memory=memory_text(memory, locale)
            )
            for slot, memory in enumerate(view.centre)
        )
        if remembered:
            embed.add_field(
                name=self.text(ctx, "hand.remembered"), value="\n".join(remembered), inline=False
            )
        embed.set_footer(text=self.text(ctx, "hand.footer"))
        items: list[Item] = []
        if view.stage is Stage.DECIDE and view.prompt is not None:
            items = self._decide_panel(ctx, view, seat).items
        return Panel(content="", embed=embed, items=items)

    def prompt_panel(self, ctx: TableContext, seat: Seat, view: MascaradeView, code: str) -> Panel:
        assert view.prompt is not None
        if code == "decide":
            if view.stage is not Stage.DECIDE:
                return self.stale(ctx)
            return self._decide_panel(ctx, view, seat)
        kind = PANEL_CHOICES.get(code)
        choices = [c for c in view.prompt.choices if kind is not None and isinstance(c, kind)]
        if not choices:
            return self.stale(ctx)
        places = self._places(ctx, seat)
        options = [self.option(c, self._option_label(ctx, view, places, c)) for c in choices]
        question = self.text(ctx, f"panel.{code}")
        if code == "swap" and view.must_swap:
            question += "\n" + self.text(ctx, "panel.swap_forced")
        placeholder = self.text(ctx, f"panel.{code}_placeholder")
        return Panel(content=question, items=[self.select(ctx, code, options, placeholder)])

    def _option_label(
        self, ctx: TableContext, view: MascaradeView, places: Places, choice: MascaradeChoice
    ) -> str:
        locale = ctx.locale
        hand = view.hand_size
        if isinstance(choice, Swap):
            other = places.ref(choice.target, choice.target_slot, label=True)
            if hand == 1:
                return self.text(ctx, "option.swap", place=other)
            mine = places.ref(view.viewer, choice.slot, label=True)
            return self.text(ctx, "option.swap_slot", mine=mine, place=other)
        if isinstance(choice, Look):
            return self.text(
                ctx, "option.look", place=places.ref(view.viewer, choice.slot, label=True)
            )
        if isinstance(choice, Announce):
            name = card_the(choice.character, locale)
            if hand == 1:
                return self.text(ctx, "option.announce", the_character=name)
            return self.text(
                ctx,
                "option.announce_slot",
                the_character=name,
                slot=slot_name(choice.slot, hand, locale),
            )
        return encode(choice)

    def _decide_panel(self, ctx: TableContext, view: MascaradeView, seat: Seat) -> Panel:
        """Swap or not, in secret: the two cards and what the swapper remembers of them."""
        swap = view.swap
        assert swap is not None
        places = self._places(ctx, seat)

        def remembered(ref: CardRef) -> str:
            cards = view.centre if ref.seat is None else view.players[ref.seat].cards
            return self.text(
                ctx,
                "panel.decide_memory",
                place=places.ref(ref.seat, ref.slot),
                memory=memory_text(cards[ref.slot], ctx.locale),
            )

        lines = [
            self.text(
                ctx,
                f"panel.decide.{swap.cause.value}",
                first=places.ref(swap.first.seat, swap.first.slot),
                second=places.ref(swap.second.seat, swap.second.slot),
            ),
            remembered(swap.first),
            remembered(swap.second),
        ]
        items: list[Item] = [
            self.choice_button(
                ctx,
                Decide(swap=True),
                self.text(ctx, "button.do_swap"),
                style=discord.ButtonStyle.primary,
                emoji="🔀",
            ),
            self.choice_button(
                ctx, Decide(swap=False), self.text(ctx, "button.no_swap"), emoji="✋"
            ),
        ]
        return Panel(content="\n".join(lines), items=items)

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """The ephemeral answer to ``seat``'s own choice: what it just learnt (a look,
        a Spy's cards, its decision), then its next private question (swap or not?)."""
        lines = self.private_texts(ctx, seat, events)
        if not self.finished(ctx):
            view = self.view(ctx, seat)
            if view.stage is Stage.DECIDE and view.prompt is not None:
                decide = self._decide_panel(ctx, view, seat)
                return Panel(content="\n".join([*lines, decide.content]), items=decide.items)
        if lines:
            return Panel(content="\n".join(lines))
        return None

    # --- event lines -------------------------------------------------------------------------

    def event_key(self, ctx: TableContext, event: Event) -> str:
        """The event's type, refined where it reads two ways (``guessed.right``), or
        where each player has several cards (``looked.slot``)."""
        key = super().event_key(ctx, event)
        if isinstance(event, TurnStarted) and event.must_swap:
            return f"{key}.forced"
        if isinstance(event, PowerUsed):
            return f"{key}.revealed" if event.revealed else f"{key}.unrevealed"
        if isinstance(event, Guessed):
            return f"{key}.right" if event.right else f"{key}.wrong"
        if isinstance(event, SwapDecided):
            return f"{key}.swapped" if event.swapped else f"{key}.kept"
        if isinstance(event, SwapPrepared) and event.cause is not SwapCause.TURN:
            return f"{key}.{event.cause.value}"
        if isinstance(event, CardSeen) and event.target == event.seat:
            return f"{key}.own"
        if isinstance(event, GameWon):
            return f"{key}.one" if len(event.winners) == 1 else f"{key}.many"
        if isinstance(event, Looked | Announced | Contested | CardRevealed):
            return f"{key}.slot" if self.state(ctx).hand_size > 1 else key
        return key

    def event_args(self, ctx: TableContext, event: Event) -> dict[str, object]:
        """Places in words, the winners' names, a slot by its name."""
        args: dict[str, object] = {}
        if isinstance(event, SwapPrepared):
            public = self._places(ctx)
            args["first"] = (
                public.own(event.slot)
                if event.seat == event.actor
                else public.ref(event.seat, event.slot)
            )
            args["second"] = public.ref(event.target, event.target_slot)
        elif isinstance(event, CardSeen):
            args["place"] = self._places(ctx, event.seat).ref(event.target, event.slot)
        elif isinstance(event, GameWon):
            args["winners"] = ", ".join(f"**{ctx.name(s)}**" for s in event.winners)
        character = getattr(event, "character", None)
        if isinstance(character, Character):
            args["the_character"] = card_the(character, ctx.locale)
            args["of_character"] = card_of(character, ctx.locale)
        slot = getattr(event, "slot", None)
        if isinstance(slot, int):
            args["slot"] = slot_name(slot, self.state(ctx).hand_size, ctx.locale)
        return args

    def describe(self, value: object, locale: str | None) -> str:
        if isinstance(value, Character):
            return card(value, locale)
        if isinstance(value, WinReason):
            return t(f"mascarade.winreason.{value.value}", locale)
        if isinstance(value, SwapCause):
            return t(f"mascarade.swapcause.{value.value}", locale)
        return super().describe(value, locale)

    # --- the lobby -------------------------------------------------------------------------

    def describe_options(self, options: Model, locale: str | None) -> str:
        assert isinstance(options, MascaradeOptions)
        if options.characters is None:
            return t("mascarade.options.official", locale)
        counts = fitting_player_counts(options.characters)
        span = f"{counts[0]}-{counts[-1]}" if counts else "-"
        return t(
            "mascarade.options.custom",
            locale,
            cards=card_set(list(options.characters), locale),
            players=span,
        )


def _button_style(choice: MascaradeChoice) -> discord.ButtonStyle:
    if isinstance(choice, Contest):
        return discord.ButtonStyle.danger
    if isinstance(choice, Pass) or (isinstance(choice, ChoosePlayer) and choice.target is None):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


def fitting_player_counts(characters: tuple[Character, ...]) -> list[int]:
    """The table sizes a custom set is valid for (the engine's own check)."""
    counts = []
    for players in OFFICIAL_SETS:
        try:
            check_custom_set(players, characters)
        except InvalidOptions:
            continue
        counts.append(players)
    return counts
