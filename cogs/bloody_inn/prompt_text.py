"""What an open prompt of The Bloody Inn says: the "now" line of the table
message, the question of the private panel and its header, and each choice's
words (a button's label, a select option's label and help).

Labels and option help render no markdown: they name players with
``ctx.plain_name``; the "now" line and the questions with ``ctx.name``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.ui.codec import encode
from bot.ui.i18n import t
from games.base import Seat
from games.bloody_inn import ActionKind, Card
from games.bloody_inn.cards import CHEQUE, UNDERTAKER_FEE, WEALTH_CAP, Effect, spec
from games.bloody_inn.models import (
    Act,
    BloodyInnChoice,
    BloodyInnView,
    Cancel,
    Dismiss,
    Done,
    KeyRoom,
    Pass,
    Pay,
    PayUndertaker,
    PendingView,
    Place,
    PlayerView,
    ServiceRoom,
    Stage,
    TargetCard,
    TargetPeasants,
    TargetRoom,
    Welcome,
)

from .text import (
    action_name,
    annex_effect,
    annex_name,
    aptitude,
    card_name,
    card_short,
    cards_list,
    counted,
    hand_words,
    type_name,
)

if TYPE_CHECKING:
    from bot.ui.presenter import TableContext


# --- what the pending action is about ------------------------------------------------------


def nth(view: BloodyInnView, locale: str | None) -> str:
    """Which of the player's two actions this is."""
    return t("bloody_inn.now.second" if view.action_round == 2 else "bloody_inn.now.first", locale)


def cost(pending: PendingView) -> str:
    """How many accomplices the pending action needs: ``3`` or ``1-2``."""
    low, high = pending.min_cards, pending.max_cards
    return str(high) if low == high else f"{low}-{high}"


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


def _dismissing(view: BloodyInnView) -> int:
    return view.dismissing.count if view.dismissing is not None else 1


def _drawn(view: BloodyInnView, locale: str | None) -> str:
    return card_short(view.drawn, locale) if view.drawn is not None else "?"


def _corpse_to_place(pending: PendingView, locale: str | None) -> str:
    return card_short(pending.corpses[len(pending.owners)], locale)


def _annex_amount(player: PlayerView, effect: Effect) -> int:
    """The sum of the ``amount`` of the player's annexes with this effect."""
    return sum(
        spec(a.card).amount
        for a in player.annexes
        if a.card is not None and spec(a.card).effect is effect
    )


def _morning_income(view: BloodyInnView, seat: Seat) -> int:
    """What the seat's occupied rooms and Gardens pay it this Morning."""
    rooms = sum(1 for r in view.rooms if r.owner == seat and r.guest is not None)
    return rooms + _annex_amount(view.players[seat], Effect.ROUND_INCOME)


def _owing_after(ctx: TableContext, view: BloodyInnView) -> str:
    """``; then bob, carol``: who waits to pay the undertaker after the one asked."""
    visit = view.undertaker
    waiting = visit.owing[1:] if visit is not None else []
    if not waiting:
        return ""
    names = ", ".join(ctx.name(s) for s in waiting)
    return t("bloody_inn.now.undertaker_then", ctx.locale, players=names)


# --- the table message's "now" line, the panel's question -------------------------------------


def now_line(ctx: TableContext, view: BloodyInnView) -> str:
    """Who is asked what, in public words (nothing of a hand)."""
    locale = ctx.locale
    if not view.awaiting:
        return ""
    when = ctx.countdown()
    player = ctx.name(view.awaiting[0])
    stage = view.stage
    if stage is Stage.WELCOME:
        card = _drawn(view, locale)
        return t("bloody_inn.now.welcome", locale, player=player, card=card, when=when)
    if stage is Stage.ACTION:
        return t("bloody_inn.now.action", locale, player=player, nth=nth(view, locale), when=when)
    if stage is Stage.DISMISS:
        count = _dismissing(view)
        return t("bloody_inn.now.dismiss", locale, player=player, count=count, when=when)
    if stage is Stage.UNDERTAKER:
        fee = UNDERTAKER_FEE * len(view.players[view.awaiting[0]].corpses)
        then = _owing_after(ctx, view)
        return t("bloody_inn.now.undertaker", locale, player=player, fee=fee, then=then, when=when)
    if stage is Stage.KEY:
        return t("bloody_inn.now.key", locale, player=player, when=when)
    if stage is Stage.SERVICE:
        return t("bloody_inn.now.service", locale, player=player, when=when)
    pending = view.pending
    assert pending is not None
    if stage is Stage.PLACE:
        corpse = _corpse_to_place(pending, locale)
        return t("bloody_inn.now.place", locale, player=player, chosen=corpse, when=when)
    action = action_name(pending.action, locale)
    what = chosen(ctx, view, pending)
    if stage is Stage.PAY:
        return t(
            "bloody_inn.now.pay",
            locale,
            player=player,
            action=action,
            chosen=what,
            paid=pending.paid_count,
            cost=cost(pending),
            when=when,
        )
    if pending.action is ActionKind.BUILD:
        key = "bloody_inn.now.target_build"
    elif pending.rooms or pending.corpses:
        key = "bloody_inn.now.target_more"
    else:
        key = "bloody_inn.now.target"
    return t(key, locale, player=player, action=action, chosen=what, when=when)


def question(ctx: TableContext, view: BloodyInnView) -> str:
    """What the private panel asks the seat whose view this is."""
    locale = ctx.locale
    stage = view.stage
    if stage is Stage.WELCOME:
        return t("bloody_inn.panel.welcome", locale, card=_drawn(view, locale))
    if stage is Stage.ACTION:
        return t("bloody_inn.panel.action", locale, nth=nth(view, locale))
    if stage is Stage.KEY:
        return t("bloody_inn.panel.key", locale)
    if stage is Stage.SERVICE:
        return t("bloody_inn.panel.service", locale)
    if stage is Stage.DISMISS:
        return t("bloody_inn.panel.dismiss", locale, count=_dismissing(view))
    if stage is Stage.UNDERTAKER:
        return _undertaker_question(ctx, view)
    pending = view.pending
    assert pending is not None
    if stage is Stage.PLACE:
        return t("bloody_inn.panel.place", locale, chosen=_corpse_to_place(pending, locale))
    action = action_name(pending.action, locale)
    what = chosen(ctx, view, pending)
    if stage is Stage.PAY:
        paid = cards_list(view.paying or [], locale) or t("bloody_inn.panel.nothing", locale)
        text = t(
            "bloody_inn.panel.pay",
            locale,
            action=action,
            chosen=what,
            paid=paid,
            cost=cost(pending),
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
    return t(key, locale, action=action, chosen=what)


def _undertaker_question(ctx: TableContext, view: BloodyInnView) -> str:
    """What the police's undertaker wants, and what cash and cheques do next: the
    Morning's income on a track capped at 40 F, wages in cash, a Greenhouse."""
    locale = ctx.locale
    assert view.viewer is not None
    me = view.players[view.viewer]
    lines = [
        t(
            "bloody_inn.panel.undertaker",
            locale,
            fee=UNDERTAKER_FEE * len(me.corpses),
            corpses=cards_list(me.corpses, locale, detailed=True),
            count=len(me.corpses),
        ),
        t(
            "bloody_inn.panel.undertaker_morning_unlimited"
            if view.options.unlimited_wealth
            else "bloody_inn.panel.undertaker_morning",
            locale,
            income=_morning_income(view, view.viewer),
            wages=max(0, me.hand_size - _annex_amount(me, Effect.FREE_WAGE)),
        ),
    ]
    greenhouse = _annex_amount(me, Effect.CHEQUE_BONUS)
    if greenhouse:
        lines.append(t("bloody_inn.panel.undertaker_greenhouse", locale, amount=greenhouse))
    lines.append(t("bloody_inn.panel.undertaker_timeout", locale))
    return "\n".join(lines)


def panel_header(ctx: TableContext, view: BloodyInnView, seat: Seat) -> str:
    """The seat's wealth and hand, under the panel's question."""
    me = view.players[seat]
    hand = hand_words(me.hand or [], ctx.locale)
    cheques = counted("cheques", me.cheques, ctx.locale)
    return t("bloody_inn.panel.header", ctx.locale, money=me.money, cheques=cheques, hand=hand)


# --- the words of one choice -------------------------------------------------------------------


def _key_holder(ctx: TableContext, view: BloodyInnView, room: int) -> str:
    """Whose key a room has, for a label."""
    owner = view.rooms[room - 1].owner
    return t("bloody_inn.button.white", ctx.locale) if owner is None else ctx.plain_name(owner)


def _building(view: BloodyInnView) -> bool:
    pending = view.pending
    return view.stage is Stage.TARGET and pending is not None and pending.action is ActionKind.BUILD


def button_label(ctx: TableContext, view: BloodyInnView, choice: BloodyInnChoice) -> str:
    """A choice as a button of the table message (or Done / Cancel in the panel)."""
    locale = ctx.locale
    if isinstance(choice, Welcome | ServiceRoom):
        text_key = (
            "bloody_inn.button.welcome"
            if isinstance(choice, Welcome)
            else "bloody_inn.button.service"
        )
        return t(text_key, locale, room=choice.room, key=_key_holder(ctx, view, choice.room))
    if isinstance(choice, TargetRoom):
        guest = view.rooms[choice.room - 1].guest
        assert guest is not None
        name = card_name(guest, locale)
        return t(
            "bloody_inn.button.room", locale, room=choice.room, card=name, rank=spec(guest).rank
        )
    if isinstance(choice, TargetPeasants):
        return t("bloody_inn.button.peasants", locale, count=choice.count)
    if isinstance(choice, TargetCard):
        name, rank = card_name(choice.card, locale), spec(choice.card).rank
        return t("bloody_inn.button.corpse", locale, card=name, rank=rank)
    if isinstance(choice, Place):
        return t("bloody_inn.button.place", locale, owner=ctx.plain_name(choice.owner))
    if isinstance(choice, KeyRoom):
        return t("bloody_inn.button.key", locale, room=choice.room)
    if isinstance(choice, Done):
        paying = view.stage is Stage.PAY
        return t(
            "bloody_inn.button.done_pay" if paying else "bloody_inn.button.done_targets", locale
        )
    if isinstance(choice, Cancel):
        action = action_name(view.pending.action, locale) if view.pending is not None else ""
        return t("bloody_inn.button.cancel", locale, action=action)
    return encode(choice)


def option_words(
    ctx: TableContext, view: BloodyInnView, seat: Seat, choice: BloodyInnChoice
) -> tuple[str, str]:
    """A choice as an option of the panel's select: its label and its help."""
    locale = ctx.locale
    if isinstance(choice, Act):
        return (
            t(f"bloody_inn.choice.act.{choice.action.value}", locale),
            t(f"bloody_inn.choice.act_help.{choice.action.value}", locale),
        )
    if isinstance(choice, Pass):
        return _pass_words(choice, locale)
    if isinstance(choice, Welcome | ServiceRoom):
        key = _key_holder(ctx, view, choice.room)
        label, help_ = (
            ("bloody_inn.choice.welcome", "bloody_inn.choice.welcome_help")
            if isinstance(choice, Welcome)
            else ("bloody_inn.choice.service", "bloody_inn.choice.service_help")
        )
        return t(label, locale, room=choice.room, key=key), t(help_, locale)
    if isinstance(choice, TargetRoom):
        guest = view.rooms[choice.room - 1].guest
        assert guest is not None
        data = spec(guest)
        return (
            t("bloody_inn.choice.room", locale, room=choice.room, card=card_name(guest, locale)),
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
        return _card_target_words(view, choice.card, locale)
    if isinstance(choice, Place):
        if choice.owner == seat:
            return (
                t("bloody_inn.choice.place_own", locale),
                t("bloody_inn.choice.place_own_help", locale),
            )
        owner = ctx.plain_name(choice.owner)
        return (
            t("bloody_inn.choice.place", locale, owner=owner),
            t("bloody_inn.choice.place_help", locale, owner=owner),
        )
    if isinstance(choice, Pay):
        action = view.pending.action if view.pending is not None else None
        return (
            _card_words("bloody_inn.choice.pay", choice.card, locale),
            _destination(view.players[seat], choice.card, action, locale),
        )
    if isinstance(choice, KeyRoom):
        return (
            t("bloody_inn.choice.key", locale, room=choice.room),
            t("bloody_inn.choice.key_help", locale),
        )
    if isinstance(choice, Dismiss):
        return (
            _card_words("bloody_inn.choice.dismiss", choice.card, locale),
            t("bloody_inn.choice.dismiss_help", locale),
        )
    if isinstance(choice, PayUndertaker):
        return _undertaker_words(view, seat, choice, locale)
    return encode(choice), ""


def _pass_words(choice: Pass, locale: str | None) -> tuple[str, str]:
    """Pass, alone or while laundering money into cheques (or cashing them)."""
    if choice.launder > 0:
        count = choice.launder
        return (
            t("bloody_inn.choice.launder", locale, count=count, money=CHEQUE * count),
            t("bloody_inn.choice.launder_help", locale),
        )
    if choice.launder < 0:
        count = -choice.launder
        return (
            t("bloody_inn.choice.cash", locale, count=count, money=CHEQUE * count),
            t("bloody_inn.choice.cash_help", locale),
        )
    return t("bloody_inn.choice.pass", locale), t("bloody_inn.choice.pass_help", locale)


def _undertaker_words(
    view: BloodyInnView, seat: Seat, choice: PayUndertaker, locale: str | None
) -> tuple[str, str]:
    """A way to pay the undertaker: how much from the track and how many cheques;
    what it leaves, and the Morning's income it would lose over 40 F."""
    me = view.players[seat]
    cash = min(me.money, UNDERTAKER_FEE * len(me.corpses) - CHEQUE * choice.cheques)
    paid = counted("cheques", choice.cheques, locale)
    if not choice.cheques:
        label = t("bloody_inn.choice.undertaker.cash", locale, cash=cash)
    elif not cash:
        label = t("bloody_inn.choice.undertaker.cheques", locale, cheques=paid)
    else:
        label = t("bloody_inn.choice.undertaker.both", locale, cash=cash, cheques=paid)
    money = me.money - cash
    cheques = counted("cheques", me.cheques - choice.cheques, locale)
    lost = 0
    if not view.options.unlimited_wealth:
        lost = max(0, money + _morning_income(view, seat) - WEALTH_CAP)
    if lost:
        return label, t(
            "bloody_inn.choice.undertaker_lost", locale, money=money, cheques=cheques, lost=lost
        )
    return label, t("bloody_inn.choice.undertaker_help", locale, money=money, cheques=cheques)


def _card_target_words(view: BloodyInnView, card: Card, locale: str | None) -> tuple[str, str]:
    """A card of the hand to build, or a corpse to bury."""
    if _building(view):
        return (
            t(
                "bloody_inn.choice.build",
                locale,
                card=card_short(card, locale),
                annex=annex_name(card, locale),
            ),
            annex_effect(card, locale),
        )
    data = spec(card)
    return (
        t("bloody_inn.choice.corpse", locale, card=card_name(card, locale)),
        t(
            "bloody_inn.choice.corpse_help",
            locale,
            type=type_name(data.type, locale),
            rank=data.rank,
            pocket=data.pocket,
        ),
    )


def _card_words(key: str, card: Card, locale: str | None) -> str:
    """``key`` about one accomplice: its name, type and rank."""
    data = spec(card)
    name, kind = card_name(card, locale), type_name(data.type, locale)
    return t(key, locale, card=name, type=kind, rank=data.rank)


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
