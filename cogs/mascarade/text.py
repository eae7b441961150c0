"""Mascarade words: card names, places ("bob's left card"), memories, event lines.

Everything here formats values the caller already may show; it never reads a
state's cards itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.ui.i18n import has, t
from bot.ui.presenter import TableContext
from games.base import Event, Seat
from games.mascarade import Character
from games.mascarade.models import (
    Announced,
    CardRevealed,
    CardSeen,
    Contested,
    GameWon,
    Guessed,
    Looked,
    Memory,
    PowerUsed,
    SwapCause,
    SwapDecided,
    SwapPrepared,
    TurnStarted,
    WinReason,
)

HIDDEN = "🂠"
COIN = "🪙"
SEAT_FIELDS = frozenset(
    {"seat", "actor", "target", "claimant", "challenger", "victim", "inquisitor"}
)


def card(character: Character, locale: str | None) -> str:
    return t(f"mascarade.card.{character.value}", locale)


def card_set(characters: Sequence[Character], locale: str | None) -> str:
    """The set in play, each character once ("Peasant (2)")."""
    counts = Counter(characters)
    return ", ".join(card(c, locale) + (f" ({n})" if n > 1 else "") for c, n in counts.items())


def slot_name(slot: int, hand_size: int, locale: str | None) -> str:
    """left / right / middle (protected); empty with one card each."""
    if hand_size <= 1:
        return ""
    return t(f"mascarade.slot.{slot}", locale)


class Places:
    """Names of the places of one table: a seat's card by slot, or a centre card."""

    def __init__(
        self, ctx: TableContext, hand_size: int, centre_size: int, viewer: Seat | None = None
    ) -> None:
        self.ctx = ctx
        self.hand = hand_size
        self.centre = centre_size
        self.viewer = viewer

    def ref(self, seat: Seat | None, slot: int, *, bold: bool = True) -> str:
        locale = self.ctx.locale
        if seat is None:
            if self.centre <= 1:
                return t("mascarade.ref.centre_one", locale)
            return t("mascarade.ref.centre", locale, number=slot + 1)
        where = slot_name(slot, self.hand, locale)
        if seat == self.viewer:
            key = "mascarade.ref.mine_slot" if where else "mascarade.ref.mine"
            return t(key, locale, slot=where)
        name = self.ctx.name(seat)
        if bold:
            name = f"**{name}**"
        key = "mascarade.ref.slot" if where else "mascarade.ref.card"
        return t(key, locale, name=name, slot=where)

    def own(self, slot: int) -> str:
        """The actor's own card, in the third person ("their left card")."""
        where = slot_name(slot, self.hand, self.ctx.locale)
        key = "mascarade.ref.own_slot" if where else "mascarade.ref.own"
        return t(key, self.ctx.locale, slot=where)


def memory_text(memory: Memory | None, locale: str | None) -> str:
    """A remembered card: the name, "name? (maybe moved)", or "unknown"."""
    if memory is None:
        return t("mascarade.memory.unknown", locale)
    if memory.stale:
        return t("mascarade.memory.stale", locale, card=card(memory.character, locale))
    return t("mascarade.memory.fresh", locale, card=card(memory.character, locale))


# --- event lines --------------------------------------------------------------------


def describe(value: object, locale: str | None) -> str:
    if isinstance(value, Character):
        return card(value, locale)
    if isinstance(value, WinReason | SwapCause):
        return t(f"mascarade.{type(value).__name__.lower()}.{value.value}", locale)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _variant(event: Event, hand_size: int) -> str:
    kind = str(vars(event)["type"])
    if isinstance(event, TurnStarted) and event.must_swap:
        return f"{kind}.forced"
    if isinstance(event, PowerUsed):
        return f"{kind}.revealed" if event.revealed else f"{kind}.unrevealed"
    if isinstance(event, Guessed):
        return f"{kind}.right" if event.right else f"{kind}.wrong"
    if isinstance(event, SwapDecided):
        return f"{kind}.swapped" if event.swapped else f"{kind}.kept"
    if isinstance(event, SwapPrepared) and event.cause is not SwapCause.TURN:
        return f"{kind}.{event.cause.value}"
    if isinstance(event, CardSeen) and event.target == event.seat:
        return f"{kind}.own"
    if isinstance(event, GameWon):
        return f"{kind}.one" if len(event.winners) == 1 else f"{kind}.many"
    if isinstance(event, Looked | Announced | Contested | CardRevealed) and hand_size > 1:
        return f"{kind}.slot"
    return kind


def event_line(
    ctx: TableContext, kind: str, event: Event, hand_size: int, centre_size: int
) -> str | None:
    """The text of ``mascarade.<kind>.<variant>`` for this event (``kind``: "log" for
    the channel, "dm" for its owner; None: no such text)."""
    key = f"mascarade.{kind}.{_variant(event, hand_size)}"
    if not has(key):
        return None
    locale = ctx.locale
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
    places = Places(ctx, hand_size, centre_size, viewer=getattr(event, "seat", None))
    if isinstance(event, SwapPrepared):
        public = Places(ctx, hand_size, centre_size)
        args["first"] = (
            public.own(event.slot)
            if event.seat == event.actor
            else public.ref(event.seat, event.slot)
        )
        args["second"] = public.ref(event.target, event.target_slot)
    elif isinstance(event, CardSeen):
        args["place"] = places.ref(event.target, event.slot)
    elif isinstance(event, GameWon):
        args["winners"] = ", ".join(f"**{ctx.name(s)}**" for s in event.winners)
    if "slot" in args:
        args["slot"] = slot_name(int(getattr(event, "slot", 0)), hand_size, locale)
    return t(key, locale, **args)
