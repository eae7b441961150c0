"""Mascarade (2013 edition) card data: characters, official sets, custom-set rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from games.base import InvalidOptions, Phrase


class Character(StrEnum):
    JUDGE = "judge"
    BISHOP = "bishop"
    KING = "king"
    QUEEN = "queen"
    FOOL = "fool"
    THIEF = "thief"
    WITCH = "witch"
    SPY = "spy"
    PEASANT = "peasant"
    CHEAT = "cheat"
    INQUISITOR = "inquisitor"
    WIDOW = "widow"


START_COINS = 6
WINNING_COINS = 13
CHEAT_COINS = 10
WIDOW_TARGET = 10
FINE = 1
FORCED_SWAP_TURNS = 4
"""The first four turns of the game must be swaps (or pretended swaps)."""

BANK_GAINS: dict[Character, int] = {
    Character.KING: 3,
    Character.QUEEN: 2,
    Character.FOOL: 1,
    Character.PEASANT: 1,
}
"""Fixed gains from the bank (the Widow's depends on her fortune)."""
PEASANT_PAIR_GAIN = 2
"""Each Peasant's gain when both are revealed as Peasants in one announcement."""
BISHOP_TAKES = 2
THIEF_TAKES = 1
INQUISITOR_FINE = 4

MONEY_MAKERS = frozenset(
    {Character.KING, Character.QUEEN, Character.WIDOW, Character.FOOL, Character.PEASANT}
)
"""Characters that bring money from the bank (custom sets need a third of these)."""
EIGHT_PLUS = frozenset({Character.PEASANT, Character.INQUISITOR})
"""Characters allowed only with 8 or more players."""

_J, _B, _K, _Q = Character.JUDGE, Character.BISHOP, Character.KING, Character.QUEEN
_SMALL = (Character.BISHOP, Character.FOOL, Character.JUDGE, _Q, _K, Character.WITCH)
_EIGHT = (_J, _B, _K, _Q, Character.FOOL, Character.WITCH, Character.PEASANT, Character.PEASANT)
OFFICIAL_SETS: dict[int, tuple[Character, ...]] = {
    2: _SMALL,
    3: _SMALL,
    4: (_J, _B, _K, _Q, Character.THIEF, Character.CHEAT),
    5: (_J, _B, _K, _Q, Character.WITCH, Character.CHEAT),
    6: (_J, _B, _K, _Q, Character.WITCH, Character.CHEAT),
    7: (_J, _B, _K, _Q, Character.FOOL, Character.THIEF, Character.WITCH),
    8: _EIGHT,
    9: (*_EIGHT, Character.CHEAT),
    10: (*_EIGHT, Character.CHEAT, Character.SPY),
    11: (*_EIGHT, Character.CHEAT, Character.SPY, Character.INQUISITOR),
    12: (*_EIGHT, Character.CHEAT, Character.SPY, Character.INQUISITOR, Character.WIDOW),
    13: (
        *_EIGHT,
        Character.CHEAT,
        Character.SPY,
        Character.INQUISITOR,
        Character.WIDOW,
        Character.THIEF,
    ),
}
"""The 2013 rulebook's set for each player count (2 and 3: the expert variants)."""

MIN_PLAYERS = 2
MAX_PLAYERS = 13


def hand_size(players: int) -> int:
    """Cards in front of each player: 3 with two players, 2 with three, else 1."""
    return {2: 3, 3: 2}.get(players, 1)


def character_set(players: int, custom: Sequence[Character] | None) -> tuple[Character, ...]:
    """The cards of a game (sorted by the enum order), or InvalidOptions saying why not."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(
            f"Mascarade needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.",
            "options.player_count",
            game=Phrase("mascarade.title"),
            minimum=MIN_PLAYERS,
            maximum=MAX_PLAYERS,
            players=players,
        )
    if custom is None:
        return _sorted(OFFICIAL_SETS[players])
    check_custom_set(players, custom)
    return _sorted(custom)


def _names(characters: Sequence[Character]) -> list[Phrase]:
    return [Phrase(f"mascarade.card.{c.value}") for c in characters]


def check_custom_set(players: int, cards: Sequence[Character]) -> None:
    """The seed's rules for choosing other characters (raises InvalidOptions)."""
    if players < 4:
        raise InvalidOptions(
            "Custom character sets are for 4 to 13 players; "
            "the 2- and 3-player games always use Bishop, Fool, Judge, Queen, King and Witch.",
            "mascarade.invalid.custom_small",
        )
    counts = Counter(cards)
    if Character.JUDGE not in counts:
        raise InvalidOptions("The Judge must always be in the game.", "mascarade.invalid.judge")
    doubles = sorted(c for c, n in counts.items() if n > 1 and c is not Character.PEASANT)
    if doubles:
        raise InvalidOptions(
            f"Each character exists only once: {', '.join(doubles)} repeated.",
            "mascarade.invalid.doubles",
            names=_names(doubles),
        )
    if counts[Character.PEASANT] not in (0, 2):
        raise InvalidOptions(
            "The Peasants always come as a pair: take both or none.", "mascarade.invalid.peasants"
        )
    if players < 8:
        banned = sorted(c for c in EIGHT_PLUS if c in counts)
        if banned:
            raise InvalidOptions(
                f"{' and '.join(banned).capitalize()} need at least 8 players "
                f"(this table has {players}).",
                "mascarade.invalid.eight_plus",
                names=_names(banned),
                players=players,
            )
    low, high = allowed_card_counts(players)
    if not low <= len(cards) <= high:
        wanted = f"{low}" if low == high else f"{low} to {high}"
        raise InvalidOptions(
            f"With {players} players the game uses {wanted} cards "
            f"(one each, the rest in the centre), not {len(cards)}.",
            "mascarade.invalid.card_count" if low == high else "mascarade.invalid.card_range",
            players=players,
            low=low,
            high=high,
            count=len(cards),
        )
    makers = sum(n for c, n in counts.items() if c in MONEY_MAKERS)
    if makers * 3 < len(cards):
        raise InvalidOptions(
            "At least a third of the cards must bring money from the bank "
            f"(King, Queen, Widow, Fool, Peasants): {makers} of {len(cards)} is too few.",
            "mascarade.invalid.money",
            makers=makers,
            count=len(cards),
        )


def allowed_card_counts(players: int) -> tuple[int, int]:
    """4 or 5 players: 6 cards; more: one each plus 0 to 2 centre cards (13 at most)."""
    if players <= 5:
        return 6, 6
    return players, min(players + 2, 13)


def _sorted(cards: Sequence[Character]) -> tuple[Character, ...]:
    order = list(Character)
    return tuple(sorted(cards, key=order.index))


def distinct(cards: Sequence[Character]) -> tuple[Character, ...]:
    """The characters of a set, each once, in the enum order."""
    return tuple(dict.fromkeys(_sorted(cards)))
