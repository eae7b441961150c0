"""A small driver for Mascarade scenario tests: rigged cards, coins and turn; seeded
games of remembering NORMALs with every seat's history."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.ai import Level, decision_rng
from games.base import Event, Seat
from games.mascarade import GAME, Character, MascaradeOptions, MascaradeState
from games.mascarade.ai import POLICIES
from games.mascarade.models import (
    Contest,
    Knowledge,
    MascaradeChoice,
    Memory,
    Pass,
    Stage,
    SwapDecided,
)
from tests.games.driver import EngineTable

PASS = Pass()

JUDGE = Character.JUDGE
BISHOP = Character.BISHOP
KING = Character.KING
QUEEN = Character.QUEEN
FOOL = Character.FOOL
THIEF = Character.THIEF
WITCH = Character.WITCH
SPY = Character.SPY
PEASANT = Character.PEASANT
CHEAT = Character.CHEAT
INQUISITOR = Character.INQUISITOR
WIDOW = Character.WIDOW


def rigged(
    hands: Sequence[Character | Sequence[Character]],
    *,
    centre: Sequence[Character] = (),
    coins: Sequence[int] | None = None,
    turn: Seat = 0,
    turn_number: int = 10,
    courthouse: int = 0,
    seed: int = 7,
) -> MascaradeState:
    """A game at the start of ``turn``'s turn (past the four forced swaps) with these
    cards face down (one character per seat, or a hand per seat) and nobody knowing
    any card. The set in play is exactly the cards given."""
    seat_hands = [[h] if isinstance(h, Character) else list(h) for h in hands]
    players = len(seat_hands)
    state = GAME.setup(players, MascaradeOptions(first_player=turn), seed)
    cards = [c for hand in seat_hands for c in hand] + list(centre)
    order = list(Character)
    state.characters = sorted(cards, key=order.index)
    state.hand_size = len(seat_hands[0])
    state.centre_size = len(centre)
    state.cards = cards
    state.coins = list(coins) if coins is not None else [6] * players
    state.courthouse = courthouse
    state.knowledge = [unknowing(len(cards)) for _ in range(players)]
    state.public = unknowing(len(cards))
    state.turn_number = turn_number
    state.must_swap = False
    state.stage = Stage.TURN
    return state


def unknowing(places: int) -> Knowledge:
    return Knowledge(seen=[None] * places, stale=[False] * places)


class Table(EngineTable[MascaradeState, MascaradeChoice]):
    """Plays choices on a state and keeps every event, like a table would."""

    game = GAME

    def remove(self, seat: Seat) -> list[Event]:
        self.state, events = GAME.forfeit(self.state, seat)
        self.events.extend(events)
        return events

    def stage(self) -> Stage:
        return self.state.stage

    def coins(self) -> list[int]:
        return list(self.state.coins)

    def card(self, seat: Seat | None, slot: int = 0) -> Character:
        return self.state.cards[GAME.place(self.state, seat, slot)]

    def memory(self, viewer: Seat | None, seat: Seat | None, slot: int = 0) -> Memory | None:
        """What ``viewer`` (None: a spectator) shows of a card in its own view."""
        view = GAME.view(self.current(), viewer)
        cards = view.centre if seat is None else view.players[seat].cards
        return cards[slot]

    def pass_all(self) -> None:
        """Everybody still to be asked stays silent."""
        self.contest_round()

    def contest_round(self, contesters: dict[Seat, int] | Sequence[Seat] = ()) -> None:
        """Answer the whole contest round in its order: the given seats contest (with
        the given slot, default 0), everyone else stays silent."""
        slots = contesters if isinstance(contesters, dict) else dict.fromkeys(contesters, 0)
        while self.state.stage is Stage.CONTEST:
            (seat,) = self.prompted()
            self.do(seat, Contest(slot=slots[seat]) if seat in slots else PASS)


def card_counts(state: MascaradeState) -> Counter[Character]:
    return Counter(state.cards)


@dataclass
class Game:
    """A seeded game of remembering NORMALs, every seat's history at every step."""

    opening: tuple[object, ...]
    moments: list[tuple[MascaradeState, list[list[Event]], list[bool]]] = field(
        default_factory=list
    )
    """After each step: the state, each seat's history, every swap's outcome so far."""


def played(players: int, seed: int) -> Game:
    """The game of this seed (seat order and decisions seeded as tests.games.playouts)."""
    normal = POLICIES[Level.NORMAL]
    state = GAME.setup(players, GAME.options_model(), seed)
    game = Game(tuple(state.cards))
    histories: list[list[Event]] = [[] for _ in range(players)]
    outcomes: list[bool] = []
    order = random.Random(seed)
    while GAME.result(state) is None:
        seat = order.choice(GAME.awaiting(state))
        view = GAME.view(state, seat)
        choice = normal.choose(view, decision_rng(seed, state.step, seat), histories[seat])
        state, events = GAME.apply(state, seat, choice)
        for event in events:
            if isinstance(event, SwapDecided):
                outcomes.append(event.swapped)
            for each in range(players):
                if event.visible_to(each):
                    histories[each].append(event)
        game.moments.append((state, [list(h) for h in histories], list(outcomes)))
    return game
