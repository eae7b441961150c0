"""A small driver for Conspiracy scenario tests: rigged chambers, deck, piles and Locations.

Lords are written short: ``"r3"`` is a red Lord of influence 3 (y r g b p for
yellow, red, green, blue, purple). Every rigged state still holds exactly the
60 Lords and 24 Locations: what is not placed somewhere goes to the decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.base import Event, Seat
from games.conspiracy import GAME, Colour, ConspiracyOptions, ConspiracyState, LocationId
from games.conspiracy.cards import LOCATION_COUNT, LOCATION_TABLE, LORD_COUNT, LORDS
from games.conspiracy.models import (
    ConspiracyChoice,
    PlacedLocation,
    Restriction,
    Stage,
)
from games.conspiracy.scoring import colour_groups
from tests.games.driver import EngineTable

_LETTERS = {
    "y": Colour.YELLOW,
    "r": Colour.RED,
    "g": Colour.GREEN,
    "b": Colour.BLUE,
    "p": Colour.PURPLE,
}


def largest_coalition(colours: tuple[Colour, ...]) -> int:
    """The largest group of touching Lords of one colour (the AI's own flood fill)."""
    return max((size for _, size, _ in colour_groups(colours)), default=0)


def spec(code: str) -> tuple[Colour, int]:
    return _LETTERS[code[0]], int(code[1:])


def code_of(lord_id: int) -> str:
    lord = LORDS[lord_id]
    return f"{lord.colour.value[0]}{lord.influence}"


def codes(lord_ids: Iterable[int]) -> list[str]:
    return [code_of(lord) for lord in lord_ids]


class LordPool:
    """Hands out distinct Lord ids by code; fails when a code runs out of copies."""

    def __init__(self) -> None:
        self.free = list(range(LORD_COUNT))

    def take(self, code: str) -> int:
        colour, influence = spec(code)
        for lord in self.free:
            if LORDS[lord].colour is colour and LORDS[lord].influence == influence:
                self.free.remove(lord)
                return lord
        raise AssertionError(f"no {code} left in the pool")

    def take_all(self, codes_: Sequence[str]) -> list[int]:
        return [self.take(code) for code in codes_]


def rigged(
    chambers: Sequence[Sequence[str]] = ((), ()),
    *,
    deck_top: Sequence[str] = (),
    deck_rest: bool = True,
    piles: Mapping[Colour, Sequence[str]] | None = None,
    face_up: Sequence[LocationId] = (),
    location_top: Sequence[LocationId] = (),
    owned: Sequence[Sequence[tuple[LocationId, int]]] | None = None,
    pearls: Sequence[int] | None = None,
    pearl_master: Seat | None = None,
    keys: Sequence[tuple[int, int]] | None = None,
    restrictions: Sequence[tuple[Seat, LocationId]] = (),
    turn: Seat = 0,
    seed: int = 7,
) -> ConspiracyState:
    """A game at the start of ``turn``'s turn. ``deck_top`` lists the deck from its
    top down; the other Lords lie under them (or, with ``deck_rest=False``, in
    their colour's discard pile). ``location_top`` lists the Location
    deck from the top down; other Locations not face up or owned lie under them."""
    players = len(chambers)
    state = GAME.setup(players, ConspiracyOptions(first_player=turn), seed)
    pool = LordPool()
    for seat, chamber in enumerate(chambers):
        state.players[seat].lords = pool.take_all(chamber)
    state.piles = {colour: [] for colour in Colour}
    for colour, pile in (piles or {}).items():
        state.piles[colour] = pool.take_all(pile)
    top = pool.take_all(deck_top)
    rest = list(pool.free)
    if deck_rest:
        state.rng.shuffle(rest)
        state.deck = rest + top[::-1]
    else:
        for lord in rest:
            state.piles[LORDS[lord].colour].append(lord)
        state.deck = top[::-1]
    locations_left = [loc.id for loc in LOCATION_TABLE]
    for seat, placed in enumerate(owned or [[] for _ in chambers]):
        state.players[seat].locations = [
            PlacedLocation(location=loc, place=place) for loc, place in placed
        ]
        for loc, _ in placed:
            locations_left.remove(loc)
    state.face_up = list(face_up)
    for loc in [*face_up, *location_top]:
        locations_left.remove(loc)
    state.rng.shuffle(locations_left)
    state.location_deck = locations_left + list(location_top)[::-1]
    for seat in range(players):
        state.players[seat].pearls = pearls[seat] if pearls else 0
        if keys:
            state.players[seat].silver, state.players[seat].gold = keys[seat]
    state.pearl_master = pearl_master
    state.restrictions = [Restriction(owner=o, location=loc) for o, loc in restrictions]
    state.stage = Stage.RECRUIT
    check_conservation(state)
    return state


class Table(EngineTable[ConspiracyState, ConspiracyChoice]):
    """Plays choices on a state and keeps every event, like a table would."""

    game = GAME

    def do(self, seat: Seat, choice: ConspiracyChoice) -> list[Event]:
        events = super().do(seat, choice)
        check_conservation(self.state)
        return events

    def choices(self, seat: Seat | None = None) -> tuple[ConspiracyChoice, ...]:
        """The active player's choices unless another seat is named."""
        return super().choices(self.state.turn if seat is None else seat)

    def default(self) -> ConspiracyChoice:
        return self.prompt(self.state.turn).default

    def chamber(self, seat: Seat) -> list[str]:
        return codes(self.state.players[seat].lords)

    def pile(self, colour: Colour) -> list[str]:
        return codes(self.state.piles[colour])


_ALL_LOCATIONS = frozenset(LocationId)


def all_lords(state: ConspiracyState) -> list[int]:
    """Every Lord id wherever it is: chambers, deck, piles, revealed, pending."""
    lords = [*state.deck, *state.revealed, *state.pending]
    for player in state.players:
        lords.extend(player.lords)
    for pile in state.piles.values():
        lords.extend(pile)
    return lords


def all_locations(state: ConspiracyState) -> list[LocationId]:
    locations = [*state.location_deck, *state.face_up, *state.revealed_locations]
    for player in state.players:
        locations.extend(placed.location for placed in player.locations)
    return locations


def check_conservation(state: ConspiracyState) -> None:
    assert sorted(all_lords(state)) == list(range(LORD_COUNT)), "the 60 Lords are not all there"
    locations = all_locations(state)
    assert len(locations) == LOCATION_COUNT
    assert set(locations) == _ALL_LOCATIONS, "the 24 Locations are not all there"


FOURTEEN_LORDS = [
    "r1",
    "r1",
    "r2",
    "r2",
    "r3",
    "r3",
    "r4",
    "y1",
    "y1",
    "y2",
    "y3",
    "y3",
    "y4",
    "y4",
]
"""A chamber one Lord short of full (no yellow or red 0 / 6, so no power to resolve)."""
