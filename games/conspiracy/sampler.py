"""Conspiracy states consistent with a seat's view, for the HARD search.

Nothing is secret in Conspiracy but the order of the two decks: chambers, piles,
Locations and the Lords being recruited are all face up. A sampled state gives
each face shown a Lord of that colour and influence (copies are alike), and
shuffles the Lords and Locations not shown into the decks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.base import Event, Rng, Seat, copy_state
from games.search import Draw, Sampler, softmax_share

from .cards import COLOURS, LOCATION_TABLE, LORDS, Colour, LocationId
from .models import (
    ConspiracyOptions,
    ConspiracyState,
    ConspiracyView,
    PlacedLocation,
    PlayerState,
    PlayerView,
)
from .scoring import score_all

SCORE_SCALE = 6.0
"""Points of lead that make a player e (2.7) times likelier to win, at a cut-off."""

Face = tuple[Colour, int]


def moment_of(view: ConspiracyView) -> int:
    """The decision moment, read from the viewer's prompt window (turn.moment)."""
    if view.prompt is None:
        return 0
    return int(view.prompt.window.rsplit(".", 1)[-1])


class Lords:
    """Hands out Lord ids by face, each id once."""

    def __init__(self) -> None:
        self.free: dict[Face, list[int]] = {}
        for lord in LORDS:
            self.free.setdefault((lord.colour, lord.influence), []).append(lord.id)

    def take(self, colour: Colour, influence: int) -> int:
        return self.free[(colour, influence)].pop()

    def rest(self) -> list[int]:
        return sorted(i for ids in self.free.values() for i in ids)


def player_state(player: PlayerView, lords: Lords) -> PlayerState:
    places = {place.location: place.place for place in player.chamber if place.location}
    return PlayerState(
        lords=[lords.take(place.colour, place.influence) for place in player.chamber],
        locations=[PlacedLocation(location=loc, place=places[loc]) for loc in player.locations],
        pearls=player.pearls,
        silver=player.silver,
        gold=player.gold,
        removed=player.removed,
    )


class ConspiracySampler(Sampler[ConspiracyView, ConspiracyState]):
    def prepare(self, view: ConspiracyView, history: Sequence[Event]) -> Draw[ConspiracyState]:
        lords = Lords()
        players = [player_state(p, lords) for p in view.players]
        piles = {c: [lords.take(f.colour, f.influence) for f in view.piles[c]] for c in COLOURS}
        revealed = [lords.take(f.colour, f.influence) for f in view.revealed]
        pending = [lords.take(f.colour, f.influence) for f in view.pending]
        unseen_lords = lords.rest()
        shown = {*view.face_up, *view.revealed_locations}
        shown.update(loc for p in view.players for loc in p.locations)
        unseen_places = [loc.id for loc in LOCATION_TABLE if loc.id not in shown]
        base = ConspiracyState(
            seats=len(view.players),
            rng=Rng.from_seed(0),
            options=ConspiracyOptions(),
            players=players,
            deck=[],
            piles=piles,
            location_deck=[],
            face_up=list(view.face_up),
            stage=view.stage,
            turn=view.turn,
            turn_number=view.turn_number,
            moment=moment_of(view),
            revealed=revealed,
            pending=pending,
            revealed_locations=list(view.revealed_locations),
            location_place=view.location_place,
            swap_first=view.swap_first,
            restrictions=[r.model_copy() for r in view.restrictions],
            pearl_master=view.pearl_master,
            ender=view.ender,
            last_turns=list(view.last_turns),
            winners=list(view.winners),
        )
        deck_size, location_size = view.deck_size, view.location_deck_size

        def draw(rng: random.Random) -> ConspiracyState:
            state = copy_state(base)
            state.rng = Rng.from_seed(rng.getrandbits(64))
            deck = list(unseen_lords)
            rng.shuffle(deck)
            state.deck = deck[:deck_size]
            places: list[LocationId] = list(unseen_places)
            rng.shuffle(places)
            state.location_deck = places[:location_size]
            return state

        return draw

    def estimate(self, state: ConspiracyState, seat: Seat) -> float:
        totals = [
            float(score.total) if not state.players[score.seat].removed else -1e3
            for score in score_all(state)
        ]
        return softmax_share(totals, seat, SCORE_SCALE)


SAMPLER = ConspiracySampler()
