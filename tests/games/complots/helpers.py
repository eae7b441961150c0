"""A small driver for Complots scenario tests: rigged hands, coins and turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.base import Event, Seat
from games.complots import GAME, Character, ComplotsOptions, ComplotsState, Variant
from games.complots.cards import ActionKind, copies_per_character, deck_characters
from games.complots.models import (
    Act,
    ComplotsChoice,
    Influence,
    InfluenceLost,
    PlayerEliminated,
    Stage,
)
from tests.games.driver import EngineTable

D = Character.DUCHESS
A = Character.ASSASSIN
CO = Character.COUNTESS
CA = Character.CAPTAIN
AM = Character.AMBASSADOR
IN = Character.INQUISITOR

INCOME = Act(action=ActionKind.INCOME)
FOREIGN_AID = Act(action=ActionKind.FOREIGN_AID)
TAX = Act(action=ActionKind.TAX)
EXCHANGE = Act(action=ActionKind.EXCHANGE)


def coup(target: Seat) -> Act:
    return Act(action=ActionKind.COUP, target=target)


def steal(target: Seat) -> Act:
    return Act(action=ActionKind.STEAL, target=target)


def assassinate(target: Seat) -> Act:
    return Act(action=ActionKind.ASSASSINATE, target=target)


def examine(target: Seat) -> Act:
    return Act(action=ActionKind.EXAMINE, target=target)


def history(table: EngineTable[ComplotsState, ComplotsChoice], seat: Seat) -> list[Event]:
    """The events ``seat`` was shown so far, in order (what a policy remembers)."""
    return [event for event in table.events if event.visible_to(seat)]


def rigged(
    hands: Sequence[Sequence[Character]],
    *,
    coins: Sequence[int] | None = None,
    revealed: Sequence[Sequence[Character]] | None = None,
    turn: Seat = 0,
    variant: Variant = Variant.AMBASSADOR,
    seed: int = 7,
) -> ComplotsState:
    """A game at the start of ``turn``'s turn with these face-down hands (and
    face-up cards). The Court holds the rest of the deck, so cards are conserved."""
    players = len(hands)
    state = GAME.setup(max(players, 3), ComplotsOptions(variant=variant, first_player=turn), seed)
    deck = Counter({c: copies_per_character(max(players, 3)) for c in deck_characters(variant)})
    state.seats = players
    state.players = state.players[:players]
    for index, player in enumerate(state.players):
        up = list(revealed[index]) if revealed else []
        player.cards = [Influence(character=c) for c in hands[index]] + [
            Influence(character=c, revealed=True) for c in up
        ]
        player.coins = coins[index] if coins is not None else 2
        deck.subtract(Counter([*hands[index], *up]))
    assert all(n >= 0 for n in deck.values()), "the hands use more copies than the deck has"
    state.court = sorted(deck.elements())
    state.rng.shuffle(state.court)
    state.stage = Stage.ACTION
    return state


class Table(EngineTable[ComplotsState, ComplotsChoice]):
    """Plays choices on a state and keeps every event, like a table would."""

    game = GAME

    def coins(self) -> list[int]:
        return [p.coins for p in self.state.players]

    def hidden(self, seat: Seat) -> list[Character]:
        return self.state.players[seat].hidden()

    def revealed(self, seat: Seat) -> list[Character]:
        return self.state.players[seat].revealed()

    def losses_of(self, seat: Seat) -> list[InfluenceLost]:
        return [e for e in self.events if isinstance(e, InfluenceLost) and e.seat == seat]

    def eliminated(self) -> list[Seat]:
        return [e.seat for e in self.events if isinstance(e, PlayerEliminated)]


def card_total(state: ComplotsState) -> int:
    """Cards in hands (both faces), the Court, exchange draws, packets and set-asides."""
    total = len(state.court) + len(state.third_packet)
    for player in state.players:
        total += len(player.cards) + len(player.packet) + len(player.set_aside)
    if state.pending is not None:
        total += len(state.pending.drawn)
    return total
