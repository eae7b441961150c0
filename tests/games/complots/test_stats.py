"""Bluff statistics: claims, bluffs, bluffs caught, challenges won and lost."""

from __future__ import annotations

import pytest

from games.base import Event, Seat
from games.complots import ActionKind, ComplotsState
from games.complots.models import Act, Block, Challenge, ComplotsChoice, Pass, Reveal
from games.complots.stats import STATS, bluff_stats
from games.entry import SeatStats, Step
from games.registry import GAMES

from .helpers import AM, CA, CO, A, D, Table, rigged


class Recorded(Table):
    """Keeps each step as the stats read it: the state before, and its events."""

    def __init__(self, state: ComplotsState) -> None:
        super().__init__(state)
        self.steps: list[Step] = []

    def do(self, seat: Seat, choice: ComplotsChoice) -> list[Event]:
        before = self.current()
        events = super().do(seat, choice)
        self.steps.append((before, events))
        return events

    def stats(self) -> list[SeatStats]:
        return bluff_stats(self.steps, len(self.state.players))


def three() -> Recorded:
    """P0 holds Duchess+Captain, P1 Countess+Ambassador, P2 Assassin+Duchess."""
    return Recorded(rigged([[D, CA], [CO, AM], [A, D]], coins=[2, 2, 2]))


def counts(**nonzero: int) -> SeatStats:
    return {name: nonzero.get(name, 0) for name in STATS}


def test_honest_tax_is_a_claim_and_no_bluff() -> None:
    table = three()
    table.do(0, Act(action=ActionKind.TAX))
    assert table.stats() == [counts(claims=1), counts(), counts()]


def test_a_block_without_the_card_is_a_bluff_even_unchallenged() -> None:
    table = three()
    table.do(0, Act(action=ActionKind.FOREIGN_AID))
    table.do(1, Block(character=D))  # P1 holds no Duchess
    table.do(0, Pass())
    table.do(2, Pass())
    assert table.stats() == [counts(), counts(claims=1, bluffs=1), counts()]


def test_a_caught_bluff_is_a_challenge_won_by_the_challenger() -> None:
    table = three()
    table.do(0, Act(action=ActionKind.FOREIGN_AID))
    table.do(1, Block(character=D))
    table.do(2, Challenge())
    table.do(1, Reveal(slot=0))
    assert table.stats() == [
        counts(),
        counts(claims=1, bluffs=1, bluffs_caught=1),
        counts(challenges_won=1),
    ]


def test_a_proved_claim_is_a_challenge_lost_by_the_challenger() -> None:
    table = three()
    table.do(0, Act(action=ActionKind.STEAL, target=1))  # P0 holds the Captain
    table.do(1, Challenge())
    assert table.stats() == [counts(claims=1), counts(challenges_lost=1), counts()]


def test_an_action_without_a_character_claims_nothing() -> None:
    table = three()
    table.do(0, Act(action=ActionKind.INCOME))
    table.do(1, Act(action=ActionKind.FOREIGN_AID))
    assert table.stats() == [counts(), counts(), counts()]


def test_complots_registers_its_statistics_and_other_games_none() -> None:
    assert GAMES.entry("complots").stats is bluff_stats
    assert all(GAMES.entry(name).stats is None for name in GAMES if name != "complots")


def test_a_state_of_another_game_is_refused() -> None:
    other = GAMES["mascarade"]
    state = other.setup(4, other.options_model(), 1)
    with pytest.raises(TypeError):
        bluff_stats([(state, [])], 4)
