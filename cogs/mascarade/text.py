"""Mascarade words: card names, places ("bob's left card"), memories.

Everything here formats values the caller already may show; it never reads a
state's cards itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.ui.i18n import t
from bot.ui.presenter import TableContext
from games.base import Seat
from games.mascarade import Character
from games.mascarade.models import Memory

HIDDEN = "🂠"
COIN = "🪙"


def card(character: Character, locale: str | None) -> str:
    return t(f"mascarade.card.{character.value}", locale)


def card_the(character: Character, locale: str | None) -> str:
    """The name with its article: "the King", "il Re", "l'Évêque"."""
    return t(f"mascarade.card_the.{character.value}", locale)


def card_of(character: Character, locale: str | None) -> str:
    """The name after "of": "of the King", "del Re", "de l'Évêque"."""
    return t(f"mascarade.card_of.{character.value}", locale)


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

    def ref(self, seat: Seat | None, slot: int, *, bold: bool = True, label: bool = False) -> str:
        """A place in message text (the name in bold unless not ``bold``), or in a
        button or select ``label`` (the plain name)."""
        locale = self.ctx.locale
        if seat is None:
            if self.centre <= 1:
                return t("mascarade.ref.centre_one", locale)
            return t("mascarade.ref.centre", locale, number=slot + 1)
        where = slot_name(slot, self.hand, locale)
        if seat == self.viewer:
            key = "mascarade.ref.mine_slot" if where else "mascarade.ref.mine"
            return t(key, locale, slot=where)
        if label:
            name = self.ctx.plain_name(seat)
        else:
            name = f"**{self.ctx.name(seat)}**" if bold else self.ctx.name(seat)
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
