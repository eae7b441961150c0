"""How The Bloody Inn shows itself on Discord.

Public rendering (the table embed, its buttons, the picture, event lines) reads
only the spectator view ``GAME.view(state, None)``, plus, for the buttons of a
public choice, that prompt's choices (welcome room, Bribe/Kill/Bury targets,
place, key and service rooms): they depend on public things only (rooms,
corpses, annexes, the *size* of a hand). The action prompt (whether Build is
offered reveals the hand), the Build target, paying and dismissing are private:
the table message only shows a "Your turn…" button that opens an ephemeral
panel built from the seat's own view (``panel``). Each choice made in that
panel turns it into the player's next question (``after_choice``), so a whole
action (action, target, accomplices one at a time, Done) is walked in one panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.ui.codec import encode
from bot.ui.components import GameButton, GameSelect
from bot.ui.i18n import has, t
from bot.ui.presenter import Panel, TableContext
from games.base import Choice, Event, Seat
from games.bloody_inn import GAME, ActionKind, BloodyInnOptions, BloodyInnState, Card
from games.bloody_inn.cards import CHEQUE, DEPOT_CAPACITY, Effect, solo_rank, spec
from games.bloody_inn.models import (
    AccomplicesPlayed,
    Act,
    BloodyInnChoice,
    BloodyInnView,
    Bribed,
    Built,
    Buried,
    Cancel,
    Dismiss,
    Done,
    EffectWasted,
    EndBonus,
    GameWon,
    HandChanged,
    KeyRoom,
    Killed,
    Length,
    Pass,
    Passed,
    Pay,
    PendingView,
    Place,
    PlayerView,
    PoliceInvestigation,
    RoomIncome,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    TravellersLeft,
    UndertakerPaid,
    WagesPaid,
    Welcome,
)

from . import picture
from .text import (
    TIMES,
    action_name,
    annex_effect,
    annex_name,
    aptitude,
    card_name,
    card_short,
    cards_list,
    colour_name,
    describe,
    type_name,
)

PANEL_CODE = "turn"
"""The code of the "Your turn…" button (``ui.panel.turn``) and of the panel select."""
MAX_PUBLIC_BUTTONS = 23
"""Choice buttons on the table message, besides "Your turn…" and "My hand" (25 in all)."""
MAX_OPTIONS = 25
MAX_CONTENT = 2000
SEAT_FIELDS = frozenset({"seat", "actor", "owner", "winner"})
MORNING = (PoliceInvestigation, RoomIncome, TravellersLeft, WagesPaid)
TABLE_CHOICES = (Welcome, TargetRoom, TargetPeasants, TargetCard, Place, KeyRoom, ServiceRoom)
"""Choices that are buttons of the table message (also offered in the panel)."""


def _state(ctx: TableContext) -> BloodyInnState:
    state = ctx.snapshot.state
    assert isinstance(state, BloodyInnState)
    return state


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_private(view: BloodyInnView) -> bool:
    """Whether the open prompt's choices depend on a hand (then only in a panel)."""
    stage = view.stage
    if stage in (Stage.ACTION, Stage.PAY, Stage.DISMISS):
        return True
    return (
        stage is Stage.TARGET
        and view.pending is not None
        and view.pending.action is ActionKind.BUILD
    )


class BloodyInnPresenter:
    game = "bloody_inn"
    title_key = "bloody_inn.title"
    draws = True

    # --- the public table message ------------------------------------------------------

    def table_embed(self, ctx: TableContext) -> discord.Embed:
        view = GAME.view(_state(ctx), None)
        locale = ctx.locale
        over = view.stage is Stage.OVER
        embed = discord.Embed(
            title=t("bloody_inn.table_title", locale, table=ctx.table_id),
            colour=discord.Colour.gold() if over else discord.Colour.dark_red(),
        )
        head = t("bloody_inn.round", locale, round=view.round, season=view.season)
        if view.final_round and not over:
            head += " · " + t("bloody_inn.final_round", locale)
        now = self._result(ctx, view) if over else self._now(ctx, view)
        embed.description = f"{head}\n{now}"
        if over:
            embed.add_field(
                name=t("bloody_inn.result", locale),
                value=_cut(self._scores(ctx, view), 1024),
                inline=False,
            )
        else:
            embed.add_field(
                name=t("bloody_inn.innkeepers", locale),
                value=_cut("\n".join(self._player_line(ctx, view, p) for p in view.players), 1024),
                inline=False,
            )
            embed.add_field(
                name=t("bloody_inn.rooms", locale),
                value=_cut(self._rooms(ctx, view), 1024),
                inline=False,
            )
            top = ""
            if view.entrance_top is not None:
                top = t(
                    "bloody_inn.entrance_top", locale, card=card_short(view.entrance_top, locale)
                )
            embed.add_field(
                name=t("bloody_inn.inn", locale),
                value=t(
                    "bloody_inn.inn_value",
                    locale,
                    entrance=view.entrance_size,
                    top=top,
                    exit=len(view.exit),
                    bistro=view.bistro,
                ),
                inline=False,
            )
        embed.set_footer(
            text=_cut(
                t(
                    "bloody_inn.footer",
                    locale,
                    standings=self._standings(ctx, view),
                    table=ctx.table_id,
                ),
                2048,
            )
        )
        return embed

    def _player_line(self, ctx: TableContext, view: BloodyInnView, player: PlayerView) -> str:
        seat = player.seat
        marker = "▶" if seat in view.awaiting else "▪"
        status = ""
        if not player.active:
            status = t("bloody_inn.removed", ctx.locale)
        elif ctx.away(seat):
            status = " · 💤 " + t("table.away", ctx.locale)
        return t(
            "bloody_inn.player_line",
            ctx.locale,
            marker=marker,
            name=ctx.name(seat),
            money=player.money,
            cheques=player.cheques,
            hand=player.hand_size,
            annexes=len(player.annexes) - 1,
            buried=sum(len(a.corpses) for a in player.annexes),
            corpses=len(player.corpses),
            first=t("bloody_inn.first_player", ctx.locale) if seat == view.first_player else "",
            status=status,
        )

    def _rooms(self, ctx: TableContext, view: BloodyInnView) -> str:
        locale = ctx.locale
        lines = []
        for number, room in enumerate(view.rooms, start=1):
            if not room.open:
                continue
            key = (
                t("bloody_inn.room_white", locale)
                if room.owner is None
                else t("bloody_inn.room_key", locale, owner=ctx.name(room.owner))
            )
            service = (
                ""
                if room.service is None
                else t("bloody_inn.room_service_token", locale, owner=ctx.name(room.service))
            )
            guest = (
                t("bloody_inn.room_empty", locale)
                if room.guest is None
                else f"**{card_short(room.guest, locale)}**"
            )
            lines.append(
                t(
                    "bloody_inn.room_line",
                    locale,
                    room=number,
                    key=key,
                    service=service,
                    guest=guest,
                )
            )
        return "\n".join(lines) or "-"

    @staticmethod
    def _standings(ctx: TableContext, view: BloodyInnView) -> str:
        if view.standings:
            totals = [(s.score, s.seat) for s in view.standings]
        else:
            totals = [(p.money + CHEQUE * p.cheques, p.seat) for p in view.players if p.active]
        totals.sort(key=lambda item: (-item[0], item[1]))
        return " · ".join(f"{ctx.name(seat)} {score} F" for score, seat in totals)

    def _now(self, ctx: TableContext, view: BloodyInnView) -> str:
        locale = ctx.locale
        when = ctx.countdown()
        if not view.awaiting:
            return ""
        player = ctx.name(view.awaiting[0])
        stage = view.stage
        pending = view.pending
        if stage is Stage.WELCOME:
            card = card_short(view.drawn, locale) if view.drawn is not None else "?"
            return t("bloody_inn.now.welcome", locale, player=player, card=card, when=when)
        if stage is Stage.ACTION:
            return t(
                "bloody_inn.now.action",
                locale,
                player=player,
                nth=self._nth(view, locale),
                when=when,
            )
        if stage is Stage.DISMISS:
            count = view.dismissing.count if view.dismissing is not None else 1
            return t("bloody_inn.now.dismiss", locale, player=player, count=count, when=when)
        if stage is Stage.KEY:
            return t("bloody_inn.now.key", locale, player=player, when=when)
        if stage is Stage.SERVICE:
            return t("bloody_inn.now.service", locale, player=player, when=when)
        assert pending is not None
        action = action_name(pending.action, locale)
        chosen = self.chosen(ctx, view, pending)
        if stage is Stage.PLACE:
            corpse = pending.corpses[len(pending.owners)]
            return t(
                "bloody_inn.now.place",
                locale,
                player=player,
                chosen=card_short(corpse, locale),
                when=when,
            )
        if stage is Stage.PAY:
            return t(
                "bloody_inn.now.pay",
                locale,
                player=player,
                action=action,
                chosen=chosen,
                paid=pending.paid_count,
                cost=self.cost(pending),
                when=when,
            )
        if pending.action is ActionKind.BUILD:
            key = "bloody_inn.now.target_build"
        elif pending.rooms or pending.corpses:
            key = "bloody_inn.now.target_more"
        else:
            key = "bloody_inn.now.target"
        return t(key, locale, player=player, action=action, chosen=chosen, when=when)

    @staticmethod
    def _nth(view: BloodyInnView, locale: str | None) -> str:
        return t(
            "bloody_inn.now.second" if view.action_round == 2 else "bloody_inn.now.first", locale
        )

    @staticmethod
    def cost(pending: PendingView) -> str:
        low, high = pending.min_cards, pending.max_cards
        return str(high) if low == high else f"{low}-{high}"

    @staticmethod
    def chosen(ctx: TableContext, view: BloodyInnView, pending: PendingView) -> str:
        """What the pending action targets so far (all public once chosen)."""
        locale = ctx.locale
        if pending.action is ActionKind.BUILD and pending.card is not None:
            return t(
                "bloody_inn.chosen.build",
                locale,
                annex=annex_name(pending.card, locale),
                card=card_name(pending.card, locale),
            )
        if pending.rooms:
            guests = [view.rooms[r - 1].guest for r in pending.rooms]
            return t(
                "bloody_inn.chosen.rooms",
                locale,
                cards=", ".join(card_short(g, locale) for g in guests if g is not None),
                rooms=", ".join(str(r) for r in pending.rooms),
            )
        if pending.peasants:
            return t("bloody_inn.chosen.peasants", locale, count=pending.peasants)
        if pending.corpses:
            return t(
                "bloody_inn.chosen.corpses",
                locale,
                cards=", ".join(card_short(c, locale) for c in pending.corpses),
            )
        return ""

    def _result(self, ctx: TableContext, view: BloodyInnView) -> str:
        locale = ctx.locale
        if view.solo_lost:
            return t("bloody_inn.result.solo_lost", locale)
        winners = view.winners or []
        if not winners:
            return t("bloody_inn.result.nobody", locale)
        names = " & ".join(ctx.name(s) for s in winners)
        score = next((s.score for s in view.standings if s.seat == winners[0]), 0)
        if len(view.players) == 1:
            rank = solo_rank(score) if view.options.length is Length.LONG else None
            if rank is not None:
                return t(
                    "bloody_inn.result.solo_rank",
                    locale,
                    names=names,
                    score=score,
                    rank=t(f"bloody_inn.solo_rank.{rank}", locale),
                )
            return t("bloody_inn.result.solo", locale, names=names, score=score)
        key = "bloody_inn.result.draw" if len(winners) > 1 else "bloody_inn.result.winner"
        return t(key, locale, names=names, score=score)

    def _scores(self, ctx: TableContext, view: BloodyInnView) -> str:
        winners = set(view.winners or [])
        lines = []
        for standing in sorted(view.standings, key=lambda s: (-s.score, s.seat)):
            lines.append(
                t(
                    "bloody_inn.result.line",
                    ctx.locale,
                    marker="🏆" if standing.seat in winners else "▪",
                    name=ctx.name(standing.seat),
                    money=standing.money,
                    cheques=standing.cheques,
                    score=standing.score,
                    buried=standing.buried_own,
                )
            )
        return "\n".join(lines) or "-"

    def table_items(self, ctx: TableContext) -> list[discord.ui.Item[Any]]:
        state = _state(ctx)
        view = GAME.view(state, None)
        if view.stage is Stage.OVER or not view.awaiting:
            return []
        private = is_private(view)
        items: list[discord.ui.Item[Any]] = [
            GameButton(
                ctx.table_id,
                ctx.version,
                f"ui.panel.{PANEL_CODE}",
                label=t("bloody_inn.button.turn", ctx.locale),
                style=discord.ButtonStyle.primary if private else discord.ButtonStyle.secondary,
                emoji="🕯️",
            )
        ]
        prompt = GAME.prompt_for(state, view.awaiting[0])
        if prompt is None:
            return items
        if private:
            # Only Cancel is public while paying or choosing what to build.
            shown: Sequence[BloodyInnChoice] = [c for c in prompt.choices if isinstance(c, Cancel)]
        else:
            shown = prompt.choices
        if len(shown) > MAX_PUBLIC_BUTTONS:
            return items  # the panel's select holds them all
        for choice in shown:
            label, style = self._button(ctx, view, choice)
            items.append(
                GameButton(ctx.table_id, ctx.version, _code(choice), label=label, style=style)
            )
        return items

    def _button(
        self, ctx: TableContext, view: BloodyInnView, choice: BloodyInnChoice
    ) -> tuple[str, discord.ButtonStyle]:
        locale = ctx.locale
        grey, blue, red, green = (
            discord.ButtonStyle.secondary,
            discord.ButtonStyle.primary,
            discord.ButtonStyle.danger,
            discord.ButtonStyle.success,
        )
        if isinstance(choice, Welcome):
            return t(
                "bloody_inn.button.welcome",
                locale,
                room=choice.room,
                key=self._key(ctx, view, choice.room),
            ), blue
        if isinstance(choice, TargetRoom):
            guest = view.rooms[choice.room - 1].guest
            assert guest is not None
            label = t(
                "bloody_inn.button.room",
                locale,
                room=choice.room,
                card=card_name(guest, locale),
                rank=spec(guest).rank,
            )
            return label, blue
        if isinstance(choice, TargetPeasants):
            return t("bloody_inn.button.peasants", locale, count=choice.count), blue
        if isinstance(choice, TargetCard):
            label = t(
                "bloody_inn.button.corpse",
                locale,
                card=card_name(choice.card, locale),
                rank=spec(choice.card).rank,
            )
            return label, blue
        if isinstance(choice, Place):
            return t("bloody_inn.button.place", locale, owner=ctx.name(choice.owner)), blue
        if isinstance(choice, KeyRoom):
            return t("bloody_inn.button.key", locale, room=choice.room), blue
        if isinstance(choice, ServiceRoom):
            return t(
                "bloody_inn.button.service",
                locale,
                room=choice.room,
                key=self._key(ctx, view, choice.room),
            ), blue
        if isinstance(choice, Done):
            key = (
                "bloody_inn.button.done_pay"
                if view.stage is Stage.PAY
                else "bloody_inn.button.done_targets"
            )
            return t(key, locale), green
        if isinstance(choice, Cancel):
            action = action_name(view.pending.action, locale) if view.pending is not None else ""
            return t("bloody_inn.button.cancel", locale, action=action), red
        return _code(choice), grey

    @staticmethod
    def _key(ctx: TableContext, view: BloodyInnView, room: int) -> str:
        owner = view.rooms[room - 1].owner
        return t("bloody_inn.button.white", ctx.locale) if owner is None else ctx.name(owner)

    # --- the picture -------------------------------------------------------------------

    def table_image(self, ctx: TableContext) -> bytes | None:
        view = GAME.view(_state(ctx), None)
        names = [ctx.name(seat) for seat in range(len(view.players))]
        return picture.draw(view, names, ctx.locale)

    # --- private: the action panel and My hand -------------------------------------------

    def hand(self, ctx: TableContext, seat: Seat) -> Panel:
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        me = view.players[seat]
        lines = []
        hand = me.hand or []
        if not hand:
            lines.append(t("bloody_inn.hand.empty", locale))
        for card in sorted(set(hand), key=hand.index):
            lines.extend(self._card_lines(card, hand.count(card), locale))
        if view.paying and view.pending is not None:
            lines.append("")
            lines.append(
                t(
                    "bloody_inn.hand.paying",
                    locale,
                    action=action_name(view.pending.action, locale),
                    cards=cards_list(view.paying, locale),
                )
            )
        lines.append("")
        lines.append(t("bloody_inn.hand.wealth", locale, money=me.money, cheques=me.cheques))
        if me.corpses:
            lines.append(
                t(
                    "bloody_inn.hand.corpses",
                    locale,
                    cards=cards_list(me.corpses, locale, detailed=True),
                )
            )
        annexes = ", ".join(self._annex_text(a.card, len(a.corpses), locale) for a in me.annexes)
        lines.append(t("bloody_inn.hand.annexes", locale, annexes=annexes))
        embed = discord.Embed(
            title=t("bloody_inn.hand.title", locale, table=ctx.table_id),
            description=_cut("\n".join(lines), 4000),
            colour=discord.Colour.dark_red(),
        )
        items: list[discord.ui.Item[Any]] = []
        if view.prompt is not None:
            items = self.panel(ctx, seat, PANEL_CODE).items
        return Panel(content="", embed=embed, items=items)

    @staticmethod
    def _annex_text(card: Card | None, corpses: int, locale: str | None) -> str:
        capacity = DEPOT_CAPACITY if card is None else spec(card).capacity
        return f"{annex_name(card, locale)} ({corpses}/{capacity} ☠️)"

    @staticmethod
    def _card_lines(card: Card, copies: int, locale: str | None) -> list[str]:
        data = spec(card)
        lines = [
            t(
                "bloody_inn.hand.card",
                locale,
                card=card_name(card, locale),
                copies=f" {TIMES}{copies}" if copies > 1 else "",
                type=type_name(data.type, locale),
                colour=colour_name(data.type, locale),
                rank=data.rank,
                aptitude=aptitude(card, locale),
            )
        ]
        if data.buildable:
            lines.append(
                t(
                    "bloody_inn.hand.annex",
                    locale,
                    annex=annex_name(card, locale),
                    effect=annex_effect(card, locale),
                )
            )
        else:
            lines.append(t("bloody_inn.hand.no_annex", locale))
        return lines

    def panel(self, ctx: TableContext, seat: Seat, code: str) -> Panel:
        """The seat's private panel for its open prompt, whatever the stage."""
        state = _state(ctx)
        view = GAME.view(state, seat)
        locale = ctx.locale
        prompt = view.prompt
        if prompt is None:
            return Panel(content=t("bloody_inn.panel.not_prompted", locale))
        me = view.players[seat]
        header = t(
            "bloody_inn.panel.header",
            locale,
            money=me.money,
            cheques=me.cheques,
            hand=cards_list(me.hand or [], locale) or t("bloody_inn.panel.empty_hand", locale),
        )
        question = self._question(ctx, view)
        main = [c for c in prompt.choices if not isinstance(c, Done | Cancel)]
        items: list[discord.ui.Item[Any]] = []
        if main:
            options = [
                discord.SelectOption(
                    label=_cut(label, 100),
                    value=_code(choice),
                    description=_cut(help_, 100) or None,
                )
                for choice in main[:MAX_OPTIONS]
                for label, help_ in [self._option(ctx, view, seat, choice)]
            ]
            items.append(
                GameSelect(
                    ctx.table_id,
                    ctx.version,
                    PANEL_CODE,
                    options,
                    placeholder=t("bloody_inn.panel.placeholder", locale),
                )
            )
        for choice in prompt.choices:
            if isinstance(choice, Done | Cancel):
                label, style = self._button(ctx, view, choice)
                items.append(
                    GameButton(ctx.table_id, ctx.version, _code(choice), label=label, style=style)
                )
        return Panel(content=_cut(f"{question}\n{header}", MAX_CONTENT), items=items)

    def _question(self, ctx: TableContext, view: BloodyInnView) -> str:
        locale = ctx.locale
        stage = view.stage
        pending = view.pending
        if stage is Stage.WELCOME:
            card = card_short(view.drawn, locale) if view.drawn is not None else "?"
            return t("bloody_inn.panel.welcome", locale, card=card)
        if stage is Stage.ACTION:
            return t("bloody_inn.panel.action", locale, nth=self._nth(view, locale))
        if stage is Stage.KEY:
            return t("bloody_inn.panel.key", locale)
        if stage is Stage.SERVICE:
            return t("bloody_inn.panel.service", locale)
        if stage is Stage.DISMISS:
            count = view.dismissing.count if view.dismissing is not None else 1
            return t("bloody_inn.panel.dismiss", locale, count=count)
        assert pending is not None
        action = action_name(pending.action, locale)
        chosen = self.chosen(ctx, view, pending)
        if stage is Stage.PLACE:
            corpse = pending.corpses[len(pending.owners)]
            return t("bloody_inn.panel.place", locale, chosen=card_short(corpse, locale))
        if stage is Stage.PAY:
            paid = cards_list(view.paying or [], locale) or t("bloody_inn.panel.nothing", locale)
            text = t(
                "bloody_inn.panel.pay",
                locale,
                action=action,
                chosen=chosen,
                paid=paid,
                cost=self.cost(pending),
            )
            if pending.paid_count >= pending.min_cards:
                text += "\n" + t("bloody_inn.panel.pay_done", locale)
            return text
        if pending.action is ActionKind.BUILD:
            return t("bloody_inn.panel.build", locale)
        key = (
            "bloody_inn.panel.target_more"
            if pending.rooms or pending.corpses
            else "bloody_inn.panel.target"
        )
        return t(key, locale, action=action, chosen=chosen)

    def _option(
        self, ctx: TableContext, view: BloodyInnView, seat: Seat, choice: BloodyInnChoice
    ) -> tuple[str, str]:
        """A select option's label and description for one choice."""
        locale = ctx.locale
        if isinstance(choice, Act):
            return (
                t(f"bloody_inn.choice.act.{choice.action.value}", locale),
                t(f"bloody_inn.choice.act_help.{choice.action.value}", locale),
            )
        if isinstance(choice, Pass):
            if choice.launder > 0:
                return (
                    t(
                        "bloody_inn.choice.launder",
                        locale,
                        count=choice.launder,
                        money=CHEQUE * choice.launder,
                    ),
                    t("bloody_inn.choice.launder_help", locale),
                )
            if choice.launder < 0:
                return (
                    t(
                        "bloody_inn.choice.cash",
                        locale,
                        count=-choice.launder,
                        money=-CHEQUE * choice.launder,
                    ),
                    t("bloody_inn.choice.cash_help", locale),
                )
            return t("bloody_inn.choice.pass", locale), t("bloody_inn.choice.pass_help", locale)
        if isinstance(choice, Welcome):
            return (
                t(
                    "bloody_inn.choice.welcome",
                    locale,
                    room=choice.room,
                    key=self._key(ctx, view, choice.room),
                ),
                t("bloody_inn.choice.welcome_help", locale),
            )
        if isinstance(choice, TargetRoom):
            guest = view.rooms[choice.room - 1].guest
            assert guest is not None
            data = spec(guest)
            return (
                t(
                    "bloody_inn.choice.room",
                    locale,
                    room=choice.room,
                    card=card_name(guest, locale),
                ),
                t(
                    "bloody_inn.choice.room_help",
                    locale,
                    type=type_name(data.type, locale),
                    rank=data.rank,
                    aptitude=aptitude(guest, locale),
                ),
            )
        if isinstance(choice, TargetPeasants):
            return (
                t("bloody_inn.choice.peasants", locale, count=choice.count),
                t("bloody_inn.choice.peasants_help", locale),
            )
        if isinstance(choice, TargetCard):
            data = spec(choice.card)
            if (
                view.stage is Stage.TARGET
                and view.pending is not None
                and view.pending.action is ActionKind.BUILD
            ):
                return (
                    t(
                        "bloody_inn.choice.build",
                        locale,
                        card=card_short(choice.card, locale),
                        annex=annex_name(choice.card, locale),
                    ),
                    annex_effect(choice.card, locale),
                )
            return (
                t("bloody_inn.choice.corpse", locale, card=card_name(choice.card, locale)),
                t(
                    "bloody_inn.choice.corpse_help",
                    locale,
                    type=type_name(data.type, locale),
                    rank=data.rank,
                    pocket=data.pocket,
                ),
            )
        if isinstance(choice, Place):
            if choice.owner == seat:
                return t("bloody_inn.choice.place_own", locale), t(
                    "bloody_inn.choice.place_own_help", locale
                )
            owner = ctx.name(choice.owner)
            return (
                t("bloody_inn.choice.place", locale, owner=owner),
                t("bloody_inn.choice.place_help", locale, owner=owner),
            )
        if isinstance(choice, Pay):
            data = spec(choice.card)
            label = t(
                "bloody_inn.choice.pay",
                locale,
                card=card_name(choice.card, locale),
                type=type_name(data.type, locale),
                rank=data.rank,
            )
            action = view.pending.action if view.pending is not None else None
            return label, self._destination(view.players[seat], choice.card, action, locale)
        if isinstance(choice, KeyRoom):
            return t("bloody_inn.choice.key", locale, room=choice.room), t(
                "bloody_inn.choice.key_help", locale
            )
        if isinstance(choice, ServiceRoom):
            return (
                t(
                    "bloody_inn.choice.service",
                    locale,
                    room=choice.room,
                    key=self._key(ctx, view, choice.room),
                ),
                t("bloody_inn.choice.service_help", locale),
            )
        if isinstance(choice, Dismiss):
            data = spec(choice.card)
            return (
                t(
                    "bloody_inn.choice.dismiss",
                    locale,
                    card=card_name(choice.card, locale),
                    type=type_name(data.type, locale),
                    rank=data.rank,
                ),
                t("bloody_inn.choice.dismiss_help", locale),
            )
        return _code(choice), ""

    @staticmethod
    def _destination(
        player: PlayerView, card: Card, action: ActionKind | None, locale: str | None
    ) -> str:
        """Where an accomplice played for ``action`` goes: back to the hand (its
        aptitude, or a Chapel for Bury), the bistro (peasants) or the Exit."""
        everyone_back = action is not None and any(
            a.card is not None
            and spec(a.card).effect is Effect.ALL_RETURN
            and spec(a.card).action is action
            for a in player.annexes
        )
        if everyone_back or (action is not None and spec(card).aptitude is action):
            return t("bloody_inn.choice.pay_back", locale, aptitude=aptitude(card, locale))
        if card is Card.PEASANT:
            return t("bloody_inn.choice.pay_bistro", locale)
        return t("bloody_inn.choice.pay_exit", locale, aptitude=aptitude(card, locale))

    # --- event lines -------------------------------------------------------------------

    def event_lines(self, ctx: TableContext, events: list[Event]) -> list[str]:
        lines: list[str] = []
        morning = False
        for event in events:
            if not event.public:
                continue
            if isinstance(event, MORNING) and not morning:
                morning = True
                lines.append(t("bloody_inn.log.morning", ctx.locale))
            line = self.event_line(ctx, event, "log")
            if line:
                lines.append(line)
        return lines

    def private_lines(self, ctx: TableContext, seat: Seat, events: list[Event]) -> list[str]:
        lines = []
        for event in events:
            if event.public or not event.visible_to(seat):
                continue
            line = self.event_line(ctx, event, "dm")
            if line:
                lines.append(line)
        return lines

    def event_line(self, ctx: TableContext, event: Event, kind: str) -> str | None:
        """``bloody_inn.<kind>.<type>[.<variant>]`` with the event's fields (seats as
        names, cards and actions by name) and a few computed arguments."""
        locale = ctx.locale
        variant, extra = self._variant(ctx, event)
        key = f"bloody_inn.{kind}.{vars(event)['type']}{variant}"
        if not has(key):
            return None
        args: dict[str, object] = {}
        for name in type(event).model_fields:
            if name in ("audience", "type"):
                continue
            value = getattr(event, name)
            if name in SEAT_FIELDS and isinstance(value, int):
                args[name] = ctx.name(value)
            elif value is None:
                args[name] = ""
            else:
                args[name] = describe(value, locale)
        args.update(extra)
        return t(key, locale, **args)

    def _variant(self, ctx: TableContext, event: Event) -> tuple[str, dict[str, object]]:
        """The text key's refinement and computed arguments of one event."""
        locale = ctx.locale
        if isinstance(event, Passed):
            count = abs(event.launder)
            extra: dict[str, object] = {"count": count, "money": CHEQUE * count}
            if event.launder > 0:
                return ".buy", extra
            if event.launder < 0:
                return ".cash", extra
            return "", extra
        if isinstance(event, AccomplicesPlayed):
            return (".returned" if event.returned else ""), {}
        if isinstance(event, Bribed | Killed):
            return (".rooms" if event.rooms else ".peasants"), {}
        if isinstance(event, Built):
            return ("" if event.gained else ".nothing"), {"annex": annex_name(event.card, locale)}
        if isinstance(event, Buried):
            variant = "" if event.owner == event.actor else ".shared"
            return variant, {"annex": annex_name(event.annex, locale)}
        if isinstance(event, EffectWasted | EndBonus):
            return "", {"annex": annex_name(event.card, locale)}
        if isinstance(event, UndertakerPaid):
            return (".short" if event.unpaid else ""), {}
        if isinstance(event, RoomIncome):
            return (".gardens" if event.gardens else ""), {
                "total": event.rooms + event.gardens - event.lost
            }
        if isinstance(event, WagesPaid):
            free = t("bloody_inn.log.wages_free", locale, free=event.free) if event.free else ""
            return (".unpaid" if event.unpaid else ""), {"free": free}
        if isinstance(event, GameWon):
            if event.solo_rank is not None:
                return ".solo_rank", {"rank": t(f"bloody_inn.solo_rank.{event.solo_rank}", locale)}
            if len(ctx.snapshot.seats) == 1:
                return ".solo", {}
            return (".shared" if event.shared else ""), {}
        if isinstance(event, HandChanged):
            hand = cards_list(event.hand, locale, detailed=True) or t(
                "bloody_inn.panel.empty_hand", locale
            )
            return "", {"hand": hand, "table": ctx.table_id}
        return "", {}

    # --- after a choice --------------------------------------------------------------------

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
        state = _state(ctx)
        if GAME.prompt_for(state, seat) is None:
            if isinstance(choice, (*TABLE_CHOICES, Cancel)):
                return None
            return self.next_panel(ctx, seat, events)
        if isinstance(choice, TABLE_CHOICES) and not is_private(GAME.view(state, None)):
            return None
        return self.next_panel(ctx, seat, events)

    def next_panel(self, ctx: TableContext, seat: Seat, events: list[Event]) -> Panel:
        """The seat's next question after a step (with what the step did), or, when
        it has nothing more to decide, what the step did."""
        lines = [*self.event_lines(ctx, events), *self.private_lines(ctx, seat, events)]
        news = "\n".join(lines)
        if GAME.prompt_for(_state(ctx), seat) is not None:
            panel = self.panel(ctx, seat, PANEL_CODE)
            room = MAX_CONTENT - len(panel.content) - 2
            if news and room > 50:
                panel.content = f"{_tail(news, room)}\n\n{panel.content}"
            return panel
        done = t("bloody_inn.panel.done", ctx.locale)
        return Panel(content=_tail(f"{done}\n{news}" if news else done, MAX_CONTENT))

    # --- options -------------------------------------------------------------------------

    def options_summary(self, options_json: str, locale: str | None) -> str:
        options = BloodyInnOptions.model_validate_json(options_json)
        parts = [t(f"bloody_inn.options.{options.length.value}", locale)]
        if options.first_come_first_served:
            parts.append(t("bloody_inn.options.first_come", locale))
        if options.unlimited_wealth:
            parts.append(t("bloody_inn.options.unlimited", locale))
        return " · ".join(parts)


def _tail(text: str, limit: int) -> str:
    """The end of ``text`` within ``limit`` characters (the latest lines matter most)."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :]


def _code(choice: BloodyInnChoice) -> str:
    return encode(choice)
