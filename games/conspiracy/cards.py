"""Conspiracy card data: the 60 Lords, the 24 Locations and the chamber's geometry.

Everything else (the deck, the scoring, the prompts) is derived from the two
tables below, ``LORD_TABLE`` and ``LOCATION_TABLE``; nothing repeats them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Colour(StrEnum):
    """The five guilds, by the colour of their cards."""

    YELLOW = "yellow"
    """Farmers."""
    RED = "red"
    """Military."""
    GREEN = "green"
    """Merchants."""
    BLUE = "blue"
    """Politicians."""
    PURPLE = "purple"
    """Mages."""


COLOURS: tuple[Colour, ...] = tuple(Colour)
GUILDS: dict[Colour, str] = {
    Colour.YELLOW: "Farmers",
    Colour.RED: "Military",
    Colour.GREEN: "Merchants",
    Colour.BLUE: "Politicians",
    Colour.PURPLE: "Mages",
}


class Power(StrEnum):
    """What a Lord does when it is placed in a chamber."""

    SWAP = "swap"
    """Influence 0: swap two Lords of one's chamber (not Lords carrying keys)."""
    KEY = "key"
    """Influence 1 / 2: a silver / gold key."""
    PEARLS = "pearls"
    """Influence 3 / 4: +2 / +1 pearls."""
    DISCARD_TOP = "discard_top"
    """Influence 6: the top Lord of the deck goes face up to its discard pile."""


class Key(StrEnum):
    SILVER = "silver"
    GOLD = "gold"


@dataclass(frozen=True)
class LordKind:
    """One line of the Lord table: the same in every colour."""

    influence: int
    copies: int
    power: Power
    key: Key | None = None
    pearls: int = 0


LORD_TABLE: tuple[LordKind, ...] = (
    LordKind(influence=0, copies=1, power=Power.SWAP),
    LordKind(influence=1, copies=4, power=Power.KEY, key=Key.SILVER),
    LordKind(influence=2, copies=2, power=Power.KEY, key=Key.GOLD),
    LordKind(influence=3, copies=2, power=Power.PEARLS, pearls=2),
    LordKind(influence=4, copies=2, power=Power.PEARLS, pearls=1),
    LordKind(influence=6, copies=1, power=Power.DISCARD_TOP),
)
"""Per colour: 12 Lords (1 + 4 + 2 + 2 + 2 + 1)."""


@dataclass(frozen=True)
class Lord:
    """One physical Lord card; ``id`` is its index in ``LORDS``."""

    id: int
    colour: Colour
    kind: LordKind

    @property
    def influence(self) -> int:
        return self.kind.influence

    @property
    def power(self) -> Power:
        return self.kind.power

    @property
    def key(self) -> Key | None:
        return self.kind.key


def _build_lords() -> tuple[Lord, ...]:
    kinds = [
        (colour, kind) for colour in COLOURS for kind in LORD_TABLE for _ in range(kind.copies)
    ]
    return tuple(Lord(id=i, colour=colour, kind=kind) for i, (colour, kind) in enumerate(kinds))


LORDS: tuple[Lord, ...] = _build_lords()
LORD_COUNT = len(LORDS)
INFLUENCES: tuple[int, ...] = tuple(kind.influence for kind in LORD_TABLE)
_KIND_BY_INFLUENCE = {kind.influence: kind for kind in LORD_TABLE}


def lord_kind(influence: int) -> LordKind:
    return _KIND_BY_INFLUENCE[influence]


# --- Locations -----------------------------------------------------------------


class LocationId(StrEnum):
    """The 24 Locations, named by their effect (official names are unknown)."""

    POINTS_7 = "points7"
    PEARL_1 = "pearl1"
    PEARLS_2 = "pearls2"
    PEARLS_3 = "pearls3"
    SILVER_KEYS = "silver_keys"
    GOLD_KEYS = "gold_keys"
    PEARL_PAIRS = "pearl_pairs"
    LOCATIONS = "locations"
    TOP_LORD = "top_lord"
    REVEAL_TWO = "reveal_two"
    RECALL_LORDS = "recall_lords"
    RECALL_LOCATIONS = "recall_locations"
    ANY_TWO_KEYS = "any_two_keys"
    WHOLE_DECK = "whole_deck"
    BEST_YELLOW = "best_yellow"
    BEST_RED = "best_red"
    BEST_GREEN = "best_green"
    BEST_BLUE = "best_blue"
    BEST_PURPLE = "best_purple"
    COUNT_YELLOW = "count_yellow"
    COUNT_RED = "count_red"
    COUNT_GREEN = "count_green"
    COUNT_BLUE = "count_blue"
    COUNT_PURPLE = "count_purple"


class LocationEffect(StrEnum):
    NONE = "none"
    PEARLS = "pearls"
    """+``pearls`` pearls when taken."""
    PER_SILVER_KEY = "per_silver_key"
    """+1 per Lord with a silver key in one's chamber."""
    PER_GOLD_KEY = "per_gold_key"
    """+2 per Lord with a gold key in one's chamber."""
    PER_PEARL_PAIR = "per_pearl_pair"
    """+1 per 2 pearls."""
    PER_LOCATION = "per_location"
    """+2 per Location owned (this one included)."""
    TOP_LORD_ONLY = "top_lord_only"
    """Until the owner's next turn, opponents may only recruit the deck's top Lord."""
    REVEAL_TWO = "reveal_two"
    """Until the owner's next turn, opponents reveal exactly 2 Lords and keep 1."""
    RECALL_LORDS = "recall_lords"
    """When taken, all discarded Lords are shuffled back into the deck."""
    RECALL_LOCATIONS = "recall_locations"
    """When taken, the face-up Locations are shuffled back into the Location deck."""
    ANY_TWO_KEYS = "any_two_keys"
    """For the rest of the game, any 2 keys take a Location."""
    WHOLE_DECK = "whole_deck"
    """For the rest of the game, Locations are chosen from the whole Location deck."""
    BEST_OF_COLOUR = "best_of_colour"
    """Worth the owner's most influential Lord of ``colour``."""
    PER_LORD_OF_COLOUR = "per_lord_of_colour"
    """+1 per Lord of ``colour`` in the owner's chamber."""


@dataclass(frozen=True)
class Location:
    number: int
    """The number of the rules doc's table (1-24)."""
    id: LocationId
    points: int
    effect: LocationEffect
    pearls: int = 0
    colour: Colour | None = None


_E = LocationEffect
_L = LocationId

LOCATION_TABLE: tuple[Location, ...] = (
    Location(1, _L.POINTS_7, 7, _E.NONE),
    Location(2, _L.PEARL_1, 5, _E.PEARLS, pearls=1),
    Location(3, _L.PEARLS_2, 4, _E.PEARLS, pearls=2),
    Location(4, _L.PEARLS_3, 3, _E.PEARLS, pearls=3),
    Location(5, _L.SILVER_KEYS, 0, _E.PER_SILVER_KEY),
    Location(6, _L.GOLD_KEYS, 0, _E.PER_GOLD_KEY),
    Location(7, _L.PEARL_PAIRS, 0, _E.PER_PEARL_PAIR),
    Location(8, _L.LOCATIONS, 0, _E.PER_LOCATION),
    Location(9, _L.TOP_LORD, 3, _E.TOP_LORD_ONLY),
    Location(10, _L.REVEAL_TWO, 3, _E.REVEAL_TWO),
    Location(11, _L.RECALL_LORDS, 3, _E.RECALL_LORDS),
    Location(12, _L.RECALL_LOCATIONS, 3, _E.RECALL_LOCATIONS),
    Location(13, _L.ANY_TWO_KEYS, 3, _E.ANY_TWO_KEYS),
    Location(14, _L.WHOLE_DECK, 3, _E.WHOLE_DECK),
    *(
        Location(15 + i, _L(f"best_{colour}"), 0, _E.BEST_OF_COLOUR, colour=colour)
        for i, colour in enumerate(COLOURS)
    ),
    *(
        Location(20 + i, _L(f"count_{colour}"), 1, _E.PER_LORD_OF_COLOUR, colour=colour)
        for i, colour in enumerate(COLOURS)
    ),
)

LOCATIONS: dict[LocationId, Location] = {location.id: location for location in LOCATION_TABLE}
LOCATION_COUNT = len(LOCATION_TABLE)
LOCATION_ORDER: dict[LocationId, int] = {
    location.id: location.number for location in LOCATION_TABLE
}

# --- the chamber ------------------------------------------------------------------

CHAMBER_SIZE = 15
ROW_LENGTHS: tuple[int, ...] = (5, 4, 3, 2, 1)


def _build_positions() -> tuple[tuple[int, int], ...]:
    """(row, x) of each place, x in half-card widths: each row sits between two
    cards of the row before (bricks)."""
    positions: list[tuple[int, int]] = []
    for row, length in enumerate(ROW_LENGTHS):
        positions.extend((row, row + 2 * column) for column in range(length))
    return tuple(positions)


POSITIONS: tuple[tuple[int, int], ...] = _build_positions()
"""Index i is place i + 1: (row from the first row, x in half-card widths)."""


def _touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    (row_a, x_a), (row_b, x_b) = a, b
    if row_a == row_b:
        return abs(x_a - x_b) == 2
    return abs(row_a - row_b) == 1 and abs(x_a - x_b) == 1


ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j, other in enumerate(POSITIONS) if j != i and _touching(here, other))
    for i, here in enumerate(POSITIONS)
)
"""0-based: the indexes of the places adjacent to place index i (place = index + 1)."""
