"""Words of The Bloody Inn, all through the one translation lookup: card, type,
action and annex names, the values of event fields, the variants of event
texts and their computed arguments, the lines of the table message (innkeepers,
rooms, standings, the result) and of My hand, and the options in words.

What an open prompt says (the "now" line, the panel's question, the labels of
its buttons and options) is in ``prompt_text``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.ui.i18n import t
from games.base import Event, Seat
from games.bloody_inn import ActionKind, BloodyInnOptions, Card
from games.bloody_inn.cards import CHEQUE, DEPOT_CAPACITY, ORDER, GuestType, solo_rank, spec
from games.bloody_inn.models import (
    AccomplicesPlayed,
    BloodyInnView,
    Bribed,
    Built,
    Buried,
    EffectWasted,
    EndBonus,
    FinalRound,
    FinalRoundSkipped,
    FinalScore,
    GameWon,
    HandChanged,
    Killed,
    Length,
    Passed,
    PlayerView,
    RoomIncome,
    SeasonChanged,
    SoloLost,
    UndertakerPaid,
    WagesPaid,
)

if TYPE_CHECKING:
    from bot.ui.presenter import TableContext

TIMES = "\u00d7"


# --- names of things -------------------------------------------------------------------


def counted(noun: str, count: int, locale: str | None) -> str:
    """``count`` things, the noun agreeing with it: "1 cheque", "0 chèque", "2 assegni"."""
    return t(f"bloody_inn.count.{noun}", locale, count=count)


def card_name(card: Card, locale: str | None) -> str:
    return t(f"bloody_inn.card.{card.value}", locale)


def type_name(kind: GuestType, locale: str | None) -> str:
    return t(f"bloody_inn.type.{kind.value}", locale)


def colour_name(kind: GuestType, locale: str | None) -> str:
    return t(f"bloody_inn.colour.{kind.value}", locale)


def action_name(action: ActionKind, locale: str | None) -> str:
    return t(f"bloody_inn.action.{action.value}", locale)


def annex_name(card: Card | None, locale: str | None) -> str:
    """The annex a card builds (None: the player aid, the Depot)."""
    if card is None:
        return t("bloody_inn.annex.depot", locale)
    annex = spec(card).annex
    return t(f"bloody_inn.annex.{annex}", locale) if annex else card_name(card, locale)


def annex_effect(card: Card, locale: str | None) -> str:
    annex = spec(card).annex
    return t(f"bloody_inn.effect.{annex or 'none'}", locale)


def card_short(card: Card, locale: str | None) -> str:
    """``Count (Noble, rank 2)``."""
    data = spec(card)
    return t(
        "bloody_inn.card_short",
        locale,
        card=card_name(card, locale),
        type=type_name(data.type, locale),
        rank=data.rank,
    )


def aptitude(card: Card, locale: str | None) -> str:
    action = spec(card).aptitude
    if action is None:
        return t("bloody_inn.no_aptitude", locale)
    return t("bloody_inn.aptitude", locale, action=action_name(action, locale))


def cards_list(cards: Iterable[Card], locale: str | None, *, detailed: bool = False) -> str:
    """Cards grouped by kind in table order: ``Peasant x2, Count``."""
    counts = Counter(cards)
    parts = []
    for card in sorted(counts, key=ORDER.__getitem__):
        name = card_short(card, locale) if detailed else card_name(card, locale)
        parts.append(f"{name} {TIMES}{counts[card]}" if counts[card] > 1 else name)
    return ", ".join(parts)


def hand_words(cards: Iterable[Card], locale: str | None, *, detailed: bool = False) -> str:
    """A hand in words, "empty" when it is."""
    return cards_list(cards, locale, detailed=detailed) or t("bloody_inn.panel.empty_hand", locale)


def value_words(value: object, locale: str | None) -> str | None:
    """An event field's value in words when it is a card, cards or an action (None:
    not one of this game's values)."""
    if isinstance(value, Card):
        return card_short(value, locale)
    if isinstance(value, ActionKind):
        return action_name(value, locale)
    if isinstance(value, tuple | list) and value and all(isinstance(v, Card) for v in value):
        return cards_list(value, locale, detailed=True)
    return None


def options_words(options: BloodyInnOptions, locale: str | None) -> str:
    parts = [t(f"bloody_inn.options.{options.length.value}", locale)]
    if options.first_come_first_served:
        parts.append(t("bloody_inn.options.first_come", locale))
    if options.unlimited_wealth:
        parts.append(t("bloody_inn.options.unlimited", locale))
    return " · ".join(parts)


# --- event texts -------------------------------------------------------------------------


def event_variant(ctx: TableContext, event: Event) -> str:
    """The refinement of an event's text key (``.shared``), or ""."""
    if isinstance(event, Passed):
        return ".buy" if event.launder > 0 else ".cash" if event.launder < 0 else ""
    if isinstance(event, AccomplicesPlayed):
        return ".returned" if event.returned else ""
    if isinstance(event, Bribed | Killed):
        return ".rooms" if event.rooms else ".peasants"
    if isinstance(event, Built):
        return "" if event.gained else ".nothing"
    if isinstance(event, Buried):
        return "" if event.owner == event.actor else ".shared"
    if isinstance(event, UndertakerPaid):
        return ".short" if event.unpaid else ""
    if isinstance(event, RoomIncome):
        return ".gardens" if event.gardens else ""
    if isinstance(event, WagesPaid):
        return ".unpaid" if event.unpaid else ""
    if isinstance(event, GameWon):
        if event.solo_rank is not None:
            return ".solo_rank"
        if len(ctx.snapshot.seats) == 1:
            return ".solo"
        return ".shared" if event.shared else ""
    return ""


def event_args(ctx: TableContext, event: Event) -> dict[str, object]:
    """An event text's computed arguments, besides the event's fields."""
    locale = ctx.locale
    if isinstance(event, Passed):
        count = abs(event.launder)
        return {"count": count, "money": CHEQUE * count}
    if isinstance(event, Bribed | Killed):
        return {"peasants": counted("peasants", event.peasants, locale)}
    if isinstance(event, SeasonChanged):
        return {"entrance": counted("cards", event.entrance, locale)}
    if isinstance(event, FinalRound):
        return {"travellers": counted("travellers", event.travellers, locale)}
    if isinstance(event, FinalRoundSkipped):
        return {"count": len(event.cards)}
    if isinstance(event, UndertakerPaid):
        return {"cheques": counted("cheques", event.cheques, locale)}
    if isinstance(event, FinalScore):
        return {
            "cheques": counted("cheques", event.cheques, locale),
            "buried_own": counted("buried_home", event.buried_own, locale),
        }
    if isinstance(event, SoloLost):
        return {"corpses": counted("unburied", event.corpses, locale)}
    if isinstance(event, Built | EffectWasted | EndBonus):
        return {"annex": annex_name(event.card, locale)}
    if isinstance(event, Buried):
        return {"annex": annex_name(event.annex, locale)}
    if isinstance(event, RoomIncome):
        return {"total": event.rooms + event.gardens - event.lost}
    if isinstance(event, WagesPaid):
        free = t("bloody_inn.log.wages_free", locale, count=event.free) if event.free else ""
        return {"free": free, "accomplices": counted("accomplices", event.accomplices, locale)}
    if isinstance(event, GameWon) and event.solo_rank is not None:
        return {"rank": t(f"bloody_inn.solo_rank.{event.solo_rank}", locale)}
    if isinstance(event, HandChanged):
        return {"hand": hand_words(event.hand, locale, detailed=True)}
    return {}


# --- the table message ---------------------------------------------------------------------


def heading(ctx: TableContext, view: BloodyInnView, over: bool) -> str:
    head = t("bloody_inn.round", ctx.locale, round=view.round, season=view.season)
    if view.final_round and not over:
        head += " · " + t("bloody_inn.final_round", ctx.locale)
    return head


def player_line(ctx: TableContext, view: BloodyInnView, player: PlayerView) -> str:
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
        cheques=counted("cheques", player.cheques, ctx.locale),
        hand=player.hand_size,
        annexes=counted("annexes", len(player.annexes) - 1, ctx.locale),
        buried=counted("buried", sum(len(a.corpses) for a in player.annexes), ctx.locale),
        corpses=counted("unburied", len(player.corpses), ctx.locale),
        first=t("bloody_inn.first_player", ctx.locale) if seat == view.first_player else "",
        status=status,
    )


def room_lines(ctx: TableContext, view: BloodyInnView) -> str:
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
            t("bloody_inn.room_line", locale, room=number, key=key, service=service, guest=guest)
        )
    return "\n".join(lines) or "-"


def inn_value(ctx: TableContext, view: BloodyInnView) -> str:
    top = ""
    if view.entrance_top is not None:
        top = t(
            "bloody_inn.entrance_top", ctx.locale, card=card_short(view.entrance_top, ctx.locale)
        )
    return t(
        "bloody_inn.inn_value",
        ctx.locale,
        entrance=counted("cards", view.entrance_size, ctx.locale),
        top=top,
        exit=len(view.exit),
        bistro=counted("peasants", view.bistro, ctx.locale),
    )


def footer(ctx: TableContext, view: BloodyInnView) -> str:
    """The standings (scores once known, else money and cheques) and the table."""
    if view.standings:
        totals = [(s.score, s.seat) for s in view.standings]
    else:
        totals = [(p.money + CHEQUE * p.cheques, p.seat) for p in view.players if p.active]
    totals.sort(key=lambda item: (-item[0], item[1]))
    standings = " · ".join(f"{ctx.name(seat)} {score} F" for score, seat in totals)
    return t("bloody_inn.footer", ctx.locale, standings=standings, table=ctx.table_id)


def result(ctx: TableContext, view: BloodyInnView) -> str:
    """Who won (or how the game was lost), with the winning score."""
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


def score_lines(ctx: TableContext, view: BloodyInnView) -> str:
    winners = set(view.winners or [])
    lines = [
        t(
            "bloody_inn.result.line",
            ctx.locale,
            marker="🏆" if standing.seat in winners else "▪",
            name=ctx.name(standing.seat),
            money=standing.money,
            cheques=counted("cheques", standing.cheques, ctx.locale),
            score=standing.score,
            buried=counted("buried_home", standing.buried_own, ctx.locale),
        )
        for standing in sorted(view.standings, key=lambda s: (-s.score, s.seat))
    ]
    return "\n".join(lines) or "-"


# --- My hand -------------------------------------------------------------------------------


def hand_lines(view: BloodyInnView, seat: Seat, locale: str | None) -> list[str]:
    """The seat's accomplices (rank, aptitude, annex), what it is paying with, its
    wealth, unburied corpses and annexes."""
    me = view.players[seat]
    hand = me.hand or []
    lines = [] if hand else [t("bloody_inn.hand.empty", locale)]
    for card in sorted(set(hand), key=hand.index):
        lines.extend(card_lines(card, hand.count(card), locale))
    if view.paying and view.pending is not None:
        action = action_name(view.pending.action, locale)
        cards = cards_list(view.paying, locale)
        lines += ["", t("bloody_inn.hand.paying", locale, action=action, cards=cards)]
    cheques = counted("cheques", me.cheques, locale)
    lines += ["", t("bloody_inn.hand.wealth", locale, money=me.money, cheques=cheques)]
    if me.corpses:
        corpses = cards_list(me.corpses, locale, detailed=True)
        lines.append(t("bloody_inn.hand.corpses", locale, cards=corpses))
    annexes = ", ".join(annex_text(a.card, len(a.corpses), locale) for a in me.annexes)
    lines.append(t("bloody_inn.hand.annexes", locale, annexes=annexes))
    return lines


def annex_text(card: Card | None, corpses: int, locale: str | None) -> str:
    capacity = DEPOT_CAPACITY if card is None else spec(card).capacity
    return f"{annex_name(card, locale)} ({corpses}/{capacity} ☠️)"


def card_lines(card: Card, copies: int, locale: str | None) -> list[str]:
    data = spec(card)
    line = t(
        "bloody_inn.hand.card",
        locale,
        card=card_name(card, locale),
        copies=f" {TIMES}{copies}" if copies > 1 else "",
        type=type_name(data.type, locale),
        colour=colour_name(data.type, locale),
        rank=data.rank,
        aptitude=aptitude(card, locale),
    )
    if not data.buildable:
        return [line, t("bloody_inn.hand.no_annex", locale)]
    effect = annex_effect(card, locale)
    return [line, t("bloody_inn.hand.annex", locale, annex=annex_name(card, locale), effect=effect)]
