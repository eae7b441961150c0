"""How Mascarade shows itself on Discord.

Public rendering (table message, its buttons, event lines) reads only the
spectator view ``GAME.view(state, None)``, or the final state once the game is
over; of the cards it shows the opening deal (turn 1, before anyone moved: the
cards were dealt face up) and the cards turned face up in the announcement
being resolved. Private rendering (My hand, panels, DMs, the ephemeral answers
to choices) reads the seat's own view: its memories, fresh or "maybe moved".
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.i18n import t
from bot.ui.presenter import Panel, TableContext
from games.base import Choice, Event, Seat
from games.mascarade import GAME, Character, MascaradeOptions, MascaradeState
from games.mascarade.cards import BISHOP_TAKES, OFFICIAL_SETS
from games.mascarade.models import (
    Announce,
    AnnouncementView,
    CardRef,
    ChooseCard,
    ChoosePlayer,
    Contest,
    Decide,
    Guess,
    Look,
    MascaradeChoice,
    MascaradeView,
    Memory,
    Pass,
    Stage,
    Swap,
    SwapView,
)

from .text import (
    COIN,
    HIDDEN,
    Places,
    card,
    card_set,
    event_line,
    memory_text,
    slot_name,
)

PANELS = ("swap", "look", "announce", "decide")


def _state(ctx: TableContext) -> MascaradeState:
    state = ctx.snapshot.state
    assert isinstance(state, MascaradeState)
    return state


def _places(ctx: TableContext, view: MascaradeView, viewer: Seat | None = None) -> Places:
    return Places(ctx, view.hand_size, len(view.centre), viewer)


class MascaradePresenter:
    game = "mascarade"
    title_key = "mascarade.title"
    draws = False

    # --- public table message -----------------------------------------------------------

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        state = _state(ctx)
        locale = ctx.locale
        finished = GAME.result(state) is not None
        view = GAME.view(state, None)
        embed = discord.Embed(
            title=t("mascarade.table_title", locale, table=ctx.table_id),
            colour=discord.Colour.gold() if finished else discord.Colour.purple(),
        )
        lines = [self._seat_line(ctx, view, state, seat, finished) for seat in range(state.seats)]
        if view.centre:
            cards = self._shown_cards(ctx, view, state, None, view.centre, finished)
            lines.append(t("mascarade.centre", locale, cards=cards))
        if view.turn_number == 1 and view.stage is Stage.TURN and not finished:
            lines.append(t("mascarade.opening", locale))
        embed.description = "\n".join(lines)
        embed.add_field(
            name=t("mascarade.courthouse", locale), value=f"{COIN} {view.courthouse}", inline=True
        )
        embed.add_field(
            name=t("mascarade.characters", locale),
            value=card_set(view.characters, locale),
            inline=True,
        )
        name = t("mascarade.now", locale)
        for chunk in _fields(self._now(ctx, view).split("\n")):
            embed.add_field(name=name, value=chunk, inline=False)
            name = "\u200b"  # a long "now" (13 players, long names) goes on below
        embed.set_footer(
            text=t("mascarade.footer", locale, turn=view.turn_number, table=ctx.table_id)
        )
        return embed

    def _seat_line(
        self,
        ctx: TableContext,
        view: MascaradeView,
        state: MascaradeState,
        seat: Seat,
        finished: bool,
    ) -> str:
        locale = ctx.locale
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
            status = " ❌ " + t("mascarade.out", locale)
        elif ctx.away(seat):
            status = " 💤 " + t("table.away", locale)
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
                face = f"**{card(state.cards[GAME.place(state, seat, slot)], locale)}**"
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
        locale = ctx.locale
        when = ctx.countdown()
        if view.stage is Stage.OVER:
            names = ", ".join(f"**{ctx.name(s)}**" for s in view.winners)
            key = "mascarade.now.winner" if len(view.winners) == 1 else "mascarade.now.winners"
            return t(key, locale, winners=names)
        if view.stage is Stage.TURN:
            key = "mascarade.now.turn_forced" if view.must_swap else "mascarade.now.turn"
            return t(key, locale, player=ctx.name(view.turn), when=when)
        if view.stage is Stage.DECIDE:
            assert view.swap is not None
            return self._swap_line(ctx, view, view.swap) + f" · {when}"
        announcement = view.announcement
        assert announcement is not None
        lines = self._announcement_lines(ctx, view, announcement)
        lines.append(self._stage_line(ctx, view, announcement, when))
        return "\n".join(lines)

    def _swap_line(self, ctx: TableContext, view: MascaradeView, swap: SwapView) -> str:
        places = _places(ctx, view)
        first = (
            places.own(swap.first.slot)
            if swap.first.seat == swap.actor
            else places.ref(swap.first.seat, swap.first.slot)
        )
        return t(
            f"mascarade.now.decide.{swap.cause.value}",
            ctx.locale,
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

        key = "mascarade.now.announced.slot" if hand > 1 else "mascarade.now.announced"
        lines = [
            t(
                key,
                locale,
                claimant=ctx.name(announcement.claimant),
                character=card(announcement.character, locale),
                slot=slot_name(announcement.slot, hand, locale),
            )
        ]
        if announcement.contesters:
            names = ", ".join(who(c.seat, c.slot) for c in announcement.contesters)
            lines.append(t("mascarade.now.contesters", locale, players=names))
        if announcement.silent:
            names = ", ".join(ctx.name(s) for s in announcement.silent)
            lines.append(t("mascarade.now.silent", locale, players=names))
        if announcement.revealed:
            shown = ", ".join(
                f"{who(r.seat, r.slot)} **{card(r.character, locale)}**"
                for r in announcement.revealed
            )
            lines.append(t("mascarade.now.revealed", locale, cards=shown))
        if announcement.fined and view.stage is not Stage.CONTEST:
            names = ", ".join(ctx.name(s) for s in announcement.fined)
            lines.append(t("mascarade.now.fined", locale, players=names))
        return lines

    def _stage_line(
        self, ctx: TableContext, view: MascaradeView, announcement: AnnouncementView, when: str
    ) -> str:
        locale = ctx.locale
        if view.stage is Stage.CONTEST:
            asked = announcement.asked
            text = t(
                "mascarade.now.asking",
                locale,
                player=ctx.name(asked) if asked is not None else "-",
                when=when,
            )
            later = announcement.to_ask[1:]
            if later:
                names = ", ".join(ctx.name(s) for s in later)
                text += "\n" + t("mascarade.now.then", locale, players=names)
            return text
        if view.stage is Stage.GUESS:
            assert announcement.questioned is not None and announcement.user is not None
            return t(
                "mascarade.now.guess",
                locale,
                player=ctx.name(announcement.questioned),
                inquisitor=ctx.name(announcement.user),
                when=when,
            )
        user = ctx.name(announcement.user) if announcement.user is not None else "-"
        text = t(
            f"mascarade.now.{view.stage.value}",
            locale,
            player=user,
            amount=BISHOP_TAKES,
            when=when,
        )
        if view.stage is Stage.FOOL_SECOND and announcement.fool_first is not None:
            first = announcement.fool_first
            text += "\n" + t(
                "mascarade.now.fool_first_card",
                locale,
                place=_places(ctx, view).ref(first.seat, first.slot),
            )
        return text

    def table_items(self, ctx: TableContext) -> list[discord.ui.Item[Any]]:
        state = _state(ctx)
        view = GAME.view(state, None)
        if not view.awaiting:
            return []
        # The choices of a prompt are public (who, which seats, which characters).
        prompt = GAME.prompt_for(state, view.awaiting[0])
        assert prompt is not None
        locale, table, version = ctx.locale, ctx.table_id, ctx.version
        if view.stage is Stage.TURN:
            items: list[discord.ui.Item[Any]] = [
                GameButton(
                    table,
                    version,
                    "ui.panel.swap",
                    label=t("mascarade.button.swap", locale),
                    style=discord.ButtonStyle.primary,
                    emoji="🔀",
                )
            ]
            if view.must_swap:
                return items
            if view.hand_size == 1:
                look: discord.ui.Item[Any] = GameButton(
                    table,
                    version,
                    encode(Look(slot=0)),
                    label=t("mascarade.button.look", locale),
                    emoji="👁️",
                )
            else:
                look = GameButton(
                    table,
                    version,
                    "ui.panel.look",
                    label=t("mascarade.button.look_panel", locale),
                    emoji="👁️",
                )
            announce = GameButton(
                table,
                version,
                "ui.panel.announce",
                label=t("mascarade.button.announce", locale),
                style=discord.ButtonStyle.success,
                emoji="📣",
            )
            return [*items, look, announce]
        if view.stage is Stage.DECIDE:
            return [
                GameButton(
                    table,
                    version,
                    "ui.panel.decide",
                    label=t("mascarade.button.decide", locale),
                    style=discord.ButtonStyle.primary,
                    emoji="🤫",
                )
            ]
        places = Places(ctx, view.hand_size, len(view.centre))
        return [
            GameButton(
                table,
                version,
                encode(choice),
                label=self._button_label(ctx, view, places, choice),
                style=self._button_style(choice),
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
                return t(
                    "mascarade.button.contest_slot",
                    locale,
                    slot=slot_name(choice.slot, hand, locale),
                )
            return t(
                "mascarade.button.contest",
                locale,
                character=card(announcement.character, locale),
            )
        if isinstance(choice, Pass):
            return t("mascarade.button.pass", locale)
        if isinstance(choice, Guess):
            return t("mascarade.button.guess", locale, character=card(choice.character, locale))
        if isinstance(choice, ChooseCard):
            place = places.ref(choice.target, choice.slot, bold=False)
            key = {
                Stage.SPY: "mascarade.button.spy",
                Stage.FOOL_FIRST: "mascarade.button.fool_first",
            }.get(view.stage, "mascarade.button.fool_second")
            return t(key, locale, place=place)
        if isinstance(choice, ChoosePlayer):
            if choice.target is None:
                return t("mascarade.button.keep_fortune", locale)
            name = ctx.name(choice.target)
            key = {
                Stage.BISHOP: "mascarade.button.bishop",
                Stage.WITCH: "mascarade.button.witch",
            }.get(view.stage, "mascarade.button.inquisitor")
            coins = view.players[choice.target].coins
            return t(key, locale, player=name, coins=coins, amount=BISHOP_TAKES)
        return encode(choice)

    @staticmethod
    def _button_style(choice: MascaradeChoice) -> discord.ButtonStyle:
        if isinstance(choice, Contest):
            return discord.ButtonStyle.danger
        if isinstance(choice, Pass) or (isinstance(choice, ChoosePlayer) and choice.target is None):
            return discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    # --- private: hand, panels, answers ------------------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        me = view.players[seat]
        lines: list[str] = []
        for slot, memory in enumerate(me.cards):
            where = slot_name(slot, view.hand_size, locale)
            if where and slot == view.protected_slot:
                where = t("mascarade.slot.protected", locale, slot=where)
            key = "mascarade.hand.card_slot" if where else "mascarade.hand.card"
            lines.append(t(key, locale, slot=where, memory=memory_text(memory, locale)))
        lines.append(t("mascarade.hand.coins", locale, coins=me.coins))
        embed = discord.Embed(
            title=t("mascarade.hand.title", locale, table=ctx.table_id),
            description="\n".join(lines),
            colour=discord.Colour.purple(),
        )
        places = _places(ctx, view, seat)
        remembered = [
            f"{places.ref(other.seat, slot, bold=False)}: {memory_text(memory, locale)}"
            for other in view.players
            if other.seat != seat
            for slot, memory in enumerate(other.cards)
        ]
        remembered.extend(
            f"{places.ref(None, slot, bold=False)}: {memory_text(memory, locale)}"
            for slot, memory in enumerate(view.centre)
        )
        if remembered:
            embed.add_field(
                name=t("mascarade.hand.remembered", locale),
                value="\n".join(remembered)[:1024],
                inline=False,
            )
        embed.set_footer(text=t("mascarade.hand.footer", locale))
        items: list[discord.ui.Item[Any]] = []
        if view.stage is Stage.DECIDE and view.prompt is not None:
            items = self._decide_panel(ctx, view, seat).items
        return Panel(content="", embed=embed, items=items)

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        prompt = view.prompt
        if prompt is None:
            return Panel(content=t("refusal.not_prompted", locale))
        if code == "decide":
            if view.stage is not Stage.DECIDE:
                return Panel(content=t("refusal.stale", locale))
            return self._decide_panel(ctx, view, seat)
        kinds: dict[str, type[MascaradeChoice]] = {
            "swap": Swap,
            "look": Look,
            "announce": Announce,
        }
        kind = kinds.get(code)
        choices = [c for c in prompt.choices if kind is not None and isinstance(c, kind)]
        if not choices:
            return Panel(content=t("refusal.stale", locale))
        places = _places(ctx, view, seat)
        options = [
            discord.SelectOption(
                label=self._option_label(ctx, view, places, c)[:100], value=encode(c)
            )
            for c in choices
        ]
        question = t(f"mascarade.panel.{code}", locale)
        if code == "swap" and view.must_swap:
            question += "\n" + t("mascarade.panel.swap_forced", locale)
        select = GameSelect(
            ctx.table_id,
            ctx.version,
            code,
            options,
            placeholder=t(f"mascarade.panel.{code}_placeholder", locale),
        )
        return Panel(content=question, items=[select])

    def _option_label(
        self, ctx: TableContext, view: MascaradeView, places: Places, choice: MascaradeChoice
    ) -> str:
        locale = ctx.locale
        hand = view.hand_size
        if isinstance(choice, Swap):
            other = places.ref(choice.target, choice.target_slot, bold=False)
            if hand == 1:
                return t("mascarade.option.swap", locale, place=other)
            mine = places.ref(view.viewer, choice.slot, bold=False)
            return t("mascarade.option.swap_slot", locale, mine=mine, place=other)
        if isinstance(choice, Look):
            return t("mascarade.option.look", locale, place=places.ref(view.viewer, choice.slot))
        if isinstance(choice, Announce):
            name = card(choice.character, locale)
            if hand == 1:
                return t("mascarade.option.announce", locale, character=name)
            return t(
                "mascarade.option.announce_slot",
                locale,
                character=name,
                slot=slot_name(choice.slot, hand, locale),
            )
        return encode(choice)

    def _decide_panel(self, ctx: TableContext, view: MascaradeView, seat: Seat) -> Panel:
        """Swap or not, in secret: the two cards and what the swapper remembers of them."""
        locale = ctx.locale
        swap = view.swap
        assert swap is not None
        places = _places(ctx, view, seat)

        def remembered(ref: CardRef) -> str:
            cards = view.centre if ref.seat is None else view.players[ref.seat].cards
            return t(
                "mascarade.panel.decide_memory",
                locale,
                place=places.ref(ref.seat, ref.slot),
                memory=memory_text(cards[ref.slot], locale),
            )

        lines = [
            t(
                f"mascarade.panel.decide.{swap.cause.value}",
                locale,
                first=places.ref(swap.first.seat, swap.first.slot),
                second=places.ref(swap.second.seat, swap.second.slot),
            ),
            remembered(swap.first),
            remembered(swap.second),
        ]
        table, version = ctx.table_id, ctx.version
        items: list[discord.ui.Item[Any]] = [
            GameButton(
                table,
                version,
                encode(Decide(swap=True)),
                label=t("mascarade.button.do_swap", locale),
                style=discord.ButtonStyle.primary,
                emoji="🔀",
            ),
            GameButton(
                table,
                version,
                encode(Decide(swap=False)),
                label=t("mascarade.button.no_swap", locale),
                emoji="✋",
            ),
        ]
        return Panel(content="\n".join(lines), items=items)

    def after_choice(
        self, ctx: TableContext, seat: Seat, choice: Choice, events: list[Event]
    ) -> Panel | None:
        """The ephemeral answer to ``seat``'s own choice: what it just learnt (a look,
        a Spy's cards, its decision), then its next private question (swap or not?)."""
        state = _state(ctx)
        lines = self._private_texts(ctx, seat, events)
        if GAME.result(state) is None:
            view = GAME.view(state, seat)
            if view.stage is Stage.DECIDE and view.prompt is not None:
                decide = self._decide_panel(ctx, view, seat)
                return Panel(content="\n".join([*lines, decide.content]), items=decide.items)
        if lines:
            return Panel(content="\n".join(lines))
        return None

    # --- event lines -------------------------------------------------------------------------

    def event_lines(self, ctx: TableContext, events: list[Event]) -> list[str]:
        hand, centre = self._shape(ctx)
        lines = (event_line(ctx, "log", e, hand, centre) for e in events if e.public)
        return [line for line in lines if line]

    def _private_texts(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        hand, centre = self._shape(ctx)
        lines = (
            event_line(ctx, "dm", e, hand, centre)
            for e in events
            if not e.public and e.visible_to(seat)
        )
        return [line for line in lines if line]

    def private_lines(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        return [f"#{ctx.table_id} · {line}" for line in self._private_texts(ctx, seat, events)]

    @staticmethod
    def _shape(ctx: TableContext) -> tuple[int, int]:
        state = ctx.snapshot.state
        if isinstance(state, MascaradeState):
            return state.hand_size, state.centre_size
        return 1, 0

    def table_image(self, ctx: TableContext) -> bytes | None:
        return None  # Mascarade reads best as text

    def options_summary(self, options_json: str, locale: str | None) -> str:
        options = MascaradeOptions.model_validate_json(options_json)
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


def _fields(lines: list[str], limit: int = 1024) -> list[str]:
    """Lines grouped into embed field values of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks or ["-"]


def fitting_player_counts(characters: tuple[Character, ...]) -> list[int]:
    """The table sizes a custom set is valid for (the engine's own check)."""
    from games.base import InvalidOptions
    from games.mascarade.cards import check_custom_set

    counts = []
    for players in OFFICIAL_SETS:
        try:
            check_custom_set(players, characters)
        except InvalidOptions:
            continue
        counts.append(players)
    return counts
