"""Small reads and writes of the table that the engine, the targets and the scoring
share: who is still playing and in which order, the money track, cards leaving a
hand or a room, the rooms open to a choice and the places left under an annex.
"""

from __future__ import annotations

from games.base import Seat

from .cards import CHEQUE, DEPOT_CAPACITY, WEALTH_CAP, Card, spec
from .models import Annex, BloodyInnState

# --- seats -----------------------------------------------------------------------------


def order(state: BloodyInnState) -> list[Seat]:
    """Players still in the game, clockwise from the first player."""
    return [
        (state.first_player + i) % state.seats
        for i in range(state.seats)
        if state.players[(state.first_player + i) % state.seats].active
    ]


def next_active(state: BloodyInnState, seat: Seat) -> Seat:
    """The next player clockwise still in the game (``seat`` itself if nobody else)."""
    for step in range(1, state.seats + 1):
        candidate = (seat + step) % state.seats
        if state.players[candidate].active:
            return candidate
    return seat


# --- money -----------------------------------------------------------------------------


def gain(state: BloodyInnState, seat: Seat, amount: int) -> int:
    """Add money to the track; returns the F lost over the 40 F cap. With
    unlimited wealth, each time the track passes 40 F, 40 F become 4 cheques."""
    player = state.players[seat]
    player.money += amount
    if state.options.unlimited_wealth:
        while player.money > WEALTH_CAP:
            player.money -= WEALTH_CAP
            player.cheques += WEALTH_CAP // CHEQUE
        return 0
    lost = max(0, player.money - WEALTH_CAP)
    player.money -= lost
    return lost


# --- cards leaving a hand or a room ----------------------------------------------------


def discard(state: BloodyInnState, card: Card) -> None:
    """A card leaving a hand: peasants to the bistro, travellers to the Exit."""
    if card is Card.PEASANT:
        state.bistro += 1
    else:
        state.exit.append(card)


def clear_rooms(state: BloodyInnState) -> list[Card]:
    """All travellers in rooms go to the Exit stack, living side up."""
    left = [room.guest for room in state.rooms if room.guest is not None]
    for room in state.rooms:
        room.guest = None
    state.exit.extend(left)
    return left


# --- rooms and annexes -----------------------------------------------------------------


def guest(state: BloodyInnState, room: int) -> Card:
    """The traveller in room ``room`` (numbered from 1), which must not be empty."""
    card = state.rooms[room - 1].guest
    assert card is not None
    return card


def free_rooms(state: BloodyInnState) -> list[int]:
    """Open rooms with no traveller: where the Evening can put one."""
    return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.guest is None]


def white_rooms(state: BloodyInnState) -> list[int]:
    """Open rooms with nobody's key: where a new key can go."""
    return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.owner is None]


def service_rooms(state: BloodyInnState) -> list[int]:
    """Open rooms with no room-service token: where a new token can go."""
    return [i + 1 for i, room in enumerate(state.rooms) if room.open and room.service is None]


def space_left(annex: Annex) -> int:
    """How many more corpses the annex (or the starting depot) can take."""
    capacity = DEPOT_CAPACITY if annex.card is None else spec(annex.card).capacity
    return capacity - len(annex.corpses)
