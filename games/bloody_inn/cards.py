"""The Bloody Inn card data: the 78 guest cards, built from one literal table.

``DECK_TABLE`` has one row per card kind: its guest type (colour), rank, pocket
money, aptitude (the action for which it comes back to the hand when played),
number of copies, the annex it builds and that annex's effect. Everything else
in the engine reads the card data through ``spec(card)``.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class GuestType(StrEnum):
    """The guest's type, i.e. the colour of its card."""

    MERCHANT = "merchant"
    """Blue."""
    ARTISAN = "artisan"
    """Red."""
    RELIGIOUS = "religious"
    """Purple."""
    NOBLE = "noble"
    """Green."""
    POLICE = "police"
    """Grey."""
    PEASANT = "peasant"
    """Yellow."""


class ActionKind(StrEnum):
    """The four night actions paid with accomplices (Pass is a choice of its own)."""

    BRIBE = "bribe"
    BUILD = "build"
    KILL = "kill"
    BURY = "bury"


class Effect(StrEnum):
    """What an annex does (``amount`` and ``action`` of its row qualify it)."""

    NONE = "none"
    COLOUR_COUNT = "colour_count"
    """When built: +amount F per annex of its colour you have, this one included."""
    DISCOUNT = "discount"
    """From now on ``action`` costs you ``amount`` accomplice fewer (optional)."""
    FREE_WAGE = "free_wage"
    """At each end of round, ``amount`` accomplice works for free."""
    ROUND_INCOME = "round_income"
    """At each end of round, +amount F when the travellers leave."""
    EXIT_BONUS = "exit_bonus"
    """At game end, +amount F per card of its colour in the Exit stack."""
    MULTI_TARGET = "multi_target"
    """From now on one ``action`` may take any number of targets (sum of ranks)."""
    MORE_PEASANTS = "more_peasants"
    """From now on one Bribe may take up to ``amount`` peasants at once."""
    ROOM_SERVICE = "room_service"
    """When built: your room-service token on a room with a key; guests placed
    there later pay you their rank in F."""
    ROOM_KEY = "room_key"
    """When built: one white key is replaced by a key of your colour."""
    ALL_RETURN = "all_return"
    """From now on every accomplice played for ``action`` comes back to your hand."""
    CHEQUE_BONUS = "cheque_bonus"
    """At game end, +amount F per 10 F cheque you hold."""


class Card(StrEnum):
    """One kind of guest card (several copies of a kind are interchangeable)."""

    CULTIVATOR = "cultivator"
    MECHANIC = "mechanic"
    DISTILLER = "distiller"
    GARDENER = "gardener"
    LANDSCAPER = "landscaper"
    BUTCHER = "butcher"
    NEWSBOY = "newsboy"
    REPRESENTATIVE = "representative"
    CONCIERGE = "concierge"
    GROCER = "grocer"
    SHOPKEEPER = "shopkeeper"
    BREWER = "brewer"
    NOVICE = "novice"
    MONK = "monk"
    ABBOT = "abbot"
    PRIEST = "priest"
    ARCHBISHOP = "archbishop"
    BISHOP = "bishop"
    BARON = "baron"
    VISCOUNT = "viscount"
    COUNT = "count"
    DUKE = "duke"
    PRINCE = "prince"
    MARQUIS = "marquis"
    PEACEKEEPER = "peacekeeper"
    BRIGADIER = "brigadier"
    BRIGADIER_CHIEF = "brigadier_chief"
    MAJOR = "major"
    PEASANT = "peasant"


class CardSpec(BaseModel):
    """One row of the deck table."""

    model_config = ConfigDict(frozen=True)

    card: Card
    type: GuestType
    rank: int
    pocket: int
    """Pocket money: gained when its corpse is buried."""
    aptitude: ActionKind | None
    copies: int
    annex: str | None
    """The annex it builds (None: Police and Peasant cannot be built)."""
    build_gain: int
    """F gained at once when it is built."""
    effect: Effect
    amount: int
    action: ActionKind | None
    """The action a DISCOUNT, MULTI_TARGET or ALL_RETURN effect applies to."""

    @property
    def buildable(self) -> bool:
        return self.annex is not None

    @property
    def capacity(self) -> int:
        """How many corpses the annex holds: its rank."""
        return self.rank


_M, _A, _R, _N, _P, _Y = (
    GuestType.MERCHANT,
    GuestType.ARTISAN,
    GuestType.RELIGIOUS,
    GuestType.NOBLE,
    GuestType.POLICE,
    GuestType.PEASANT,
)
_BRIBE, _BUILD, _KILL, _BURY = ActionKind.BRIBE, ActionKind.BUILD, ActionKind.KILL, ActionKind.BURY
_C = Card
_E = Effect

# fmt: off
DECK_TABLE: tuple[
    tuple[Card, GuestType, int, int, ActionKind | None, int, str | None, int, Effect, int,
          ActionKind | None],
    ...,
] = (
    # card              type rank pocket aptitude copies annex          gain effect   amount action
    (_C.CULTIVATOR,      _A, 0,  8, _BUILD, 4, "vegetable_garden",  0, _E.COLOUR_COUNT,  1, None),
    (_C.MECHANIC,        _A, 1, 12, _BUILD, 4, "workshop",          0, _E.DISCOUNT,      1, _BUILD),
    (_C.DISTILLER,       _A, 2, 18, _BUILD, 3, "distillery",        0, _E.FREE_WAGE,     1, None),
    (_C.GARDENER,        _A, 3, 26, _BUILD, 1, "gardens",           0, _E.ROUND_INCOME,  2, None),
    (_C.LANDSCAPER,      _A, 3, 26, _BUILD, 1, "park",              4, _E.EXIT_BONUS,    4, None),
    (_C.BUTCHER,         _A, 3, 26, _BUILD, 1, "butchers_shop",     0, _E.MULTI_TARGET,  0, _KILL),
    (_C.NEWSBOY,         _M, 0,  8, _BRIBE, 4, "kiosk",             0, _E.COLOUR_COUNT,  1, None),
    (_C.REPRESENTATIVE,  _M, 1, 12, _BRIBE, 4, "parlor",            0, _E.DISCOUNT,      1, _BRIBE),
    (_C.CONCIERGE,       _M, 2, 18, _BRIBE, 3, "room_service",      0, _E.ROOM_SERVICE,  0, None),
    (_C.GROCER,          _M, 3, 26, _BRIBE, 1, "grocery",           4, _E.EXIT_BONUS,    4, None),
    (_C.SHOPKEEPER,      _M, 3, 26, _BRIBE, 1, "store",             0, _E.MULTI_TARGET,  0, _BRIBE),
    (_C.BREWER,          _M, 3, 26, _BRIBE, 1, "brewery",           0, _E.MORE_PEASANTS, 4, None),
    (_C.NOVICE,          _R, 0,  8, _BURY,  4, "altar",             0, _E.COLOUR_COUNT,  1, None),
    (_C.MONK,            _R, 1, 12, _BURY,  4, "room",              0, _E.ROOM_KEY,      0, None),
    (_C.ABBOT,           _R, 2, 18, _BURY,  3, "cellar",            0, _E.DISCOUNT,      1, _BURY),
    (_C.PRIEST,          _R, 3, 26, _BURY,  1, "chapel",            0, _E.ALL_RETURN,    0, _BURY),
    (_C.ARCHBISHOP,      _R, 3, 26, _BURY,  1, "crypt",             0, _E.MULTI_TARGET,  0, _BURY),
    (_C.BISHOP,          _R, 3, 26, _BURY,  1, "bishopric",         4, _E.EXIT_BONUS,    4, None),
    (_C.BARON,           _N, 0,  8, None,   4, "large_chandelier",  4, _E.NONE,          0, None),
    (_C.VISCOUNT,        _N, 1, 12, None,   4, "king_size_bed",     6, _E.NONE,          0, None),
    (_C.COUNT,           _N, 2, 18, None,   3, "dining_room",       9, _E.NONE,          0, None),
    (_C.DUKE,            _N, 3, 26, None,   1, "stables",           4, _E.EXIT_BONUS,    4, None),
    (_C.PRINCE,          _N, 3, 26, None,   1, "greenhouse",        0, _E.CHEQUE_BONUS,  3, None),
    (_C.MARQUIS,         _N, 3, 26, None,   1, "pavilion",         18, _E.NONE,          0, None),
    (_C.PEACEKEEPER,     _P, 0,  8, _KILL,  4, None,                0, _E.NONE,          0, None),
    (_C.BRIGADIER,       _P, 1, 12, _KILL,  4, None,                0, _E.NONE,          0, None),
    (_C.BRIGADIER_CHIEF, _P, 2, 18, _KILL,  3, None,                0, _E.NONE,          0, None),
    (_C.MAJOR,           _P, 3, 26, _KILL,  3, None,                0, _E.NONE,          0, None),
    (_C.PEASANT,         _Y, 0,  4, None,   8, None,                0, _E.NONE,          0, None),
)
# fmt: on

SPECS: dict[Card, CardSpec] = {
    row[0]: CardSpec(
        card=row[0],
        type=row[1],
        rank=row[2],
        pocket=row[3],
        aptitude=row[4],
        copies=row[5],
        annex=row[6],
        build_gain=row[7],
        effect=row[8],
        amount=row[9],
        action=row[10],
    )
    for row in DECK_TABLE
}

ORDER: dict[Card, int] = {card: index for index, card in enumerate(Card)}
"""Each kind's position in the table: a stable order for prompts and views."""


def spec(card: Card) -> CardSpec:
    return SPECS[card]


def rank(card: Card) -> int:
    return SPECS[card].rank


def travellers() -> list[Card]:
    """The 70 travellers (every copy), in table order."""
    return [
        s.card for s in SPECS.values() if s.type is not GuestType.PEASANT for _ in range(s.copies)
    ]


DECK_SIZE = 78
PEASANTS = SPECS[Card.PEASANT].copies
WEALTH_CAP = 40
CHEQUE = 10
START_MONEY = 5
START_CHEQUES = 1
UNDERTAKER_FEE = 10
"""Paid per unburied corpse at a police investigation and at the end."""
DEPOT_CAPACITY = 1
ROOMS = 8
PEASANTS_PER_BRIBE = 2

REMOVED: dict[tuple[int, bool], int] = {
    # (players, long game): travellers removed unseen before the game
    (1, False): 34,
    (1, True): 26,
    (2, False): 35,
    (2, True): 25,
    (3, False): 28,
    (3, True): 16,
    (4, False): 22,
    (4, True): 6,
}


def white_keys(players: int) -> int:
    """White keys on rooms at setup: 3 for 1-3 players, 4 for 4 players."""
    return 4 if players == 4 else 3


SOLO_BISTRO = 2
"""Solo: two more peasants go to the bistro at setup."""

SOLO_RANKS: tuple[tuple[int, str], ...] = (
    (170, "demonic"),
    (150, "wicked"),
    (130, "dangerous"),
    (110, "worrying"),
)
"""Long solo game: the innkeeper's rank by final score (at least that many F)."""


def solo_rank(score: int) -> str | None:
    return next((name for floor, name in SOLO_RANKS if score >= floor), None)
