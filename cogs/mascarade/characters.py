"""Character names typed by people: the custom set of ``/mascarade characters``.

A name is recognised in English or in the user's language, whatever its case,
accents and article: "la Reine", "Évêque", "eveque", "l'Inquisitore", "the King".
"""

from __future__ import annotations

import re
import unicodedata

from bot.tables import Refusal
from bot.ui.i18n import t
from bot.ui.names import markdown_name
from games.base import InvalidOptions
from games.mascarade import Character
from games.mascarade.cards import OFFICIAL_SETS, check_custom_set

from .presenter import fitting_player_counts

SEPARATORS = re.compile(r"[,;\n]+")
APOSTROPHES = "'\u2019\u02bc`"
"""The apostrophes people type: straight, typographic, modifier letter, backtick."""
ARTICLE = re.compile(rf"^(?:l[{APOSTROPHES}]\s*|(?:the|il|lo|la|le|les|i|gli)\s+)")
"""A definite article in front of a name (English, Italian, French)."""


def name_key(text: str) -> str:
    """A name as it is compared: lower case, without accents, article or extra spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return ARTICLE.sub("", " ".join(bare.split()))


def character_names(locale: str | None) -> dict[str, Character]:
    """Every way to name a character in English or ``locale``, by ``name_key``."""
    names: dict[str, Character] = {}
    for character in Character:
        names[name_key(character.value)] = character
        for lang in (None, locale):
            names[name_key(t(f"mascarade.card.{character.value}", lang))] = character
    return names


def parse_characters(text: str, locale: str | None) -> tuple[Character, ...]:
    """A comma-separated list of character names as a custom set, checked by the
    engine's rules for at least one table size. Raises Refusal("invalid_options")
    with the reason."""
    names = character_names(locale)
    cards: list[Character] = []
    unknown: list[str] = []
    for raw in SEPARATORS.split(text):
        if not raw.strip():
            continue
        found = names.get(name_key(raw))
        if found is None:
            unknown.append(markdown_name(raw, limit=40))  # typed text: shown escaped
        else:
            cards.append(found)
    if unknown:
        known = ", ".join(t(f"mascarade.card.{c.value}", locale) for c in Character)
        reason = t(
            "mascarade.options.unknown",
            locale,
            count=len(unknown),
            names=", ".join(unknown),
            known=known,
        )
        raise Refusal("invalid_options", reason=reason)
    if not cards:
        raise Refusal("invalid_options", reason=t("mascarade.options.empty", locale))
    order = list(Character)
    chosen = tuple(sorted(cards, key=order.index))
    if not fitting_player_counts(chosen):
        # No table size fits: say why for the size nearest to the number of cards.
        players = min(max(len(chosen), 4), max(OFFICIAL_SETS))
        try:
            check_custom_set(players, chosen)
        except InvalidOptions as error:
            reason = t("mascarade.options.no_size", locale, players=players, reason=error.phrase)
            raise Refusal("invalid_options", reason=reason) from None
    return chosen
