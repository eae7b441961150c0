"""Words of The Bloody Inn: card, type, action and annex names, and the values
of event fields, all through the one translation lookup."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.ui.i18n import t
from games.bloody_inn import ActionKind, Card
from games.bloody_inn.cards import ORDER, GuestType, spec

TIMES = "\u00d7"


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


def describe(value: object, locale: str | None) -> str:
    """An event field's value as text (the formatter of event lines)."""
    if isinstance(value, Card):
        return card_short(value, locale)
    if isinstance(value, ActionKind):
        return action_name(value, locale)
    if isinstance(value, tuple | list):
        if value and all(isinstance(v, Card) for v in value):
            return cards_list(value, locale, detailed=True)
        return ", ".join(describe(v, locale) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
