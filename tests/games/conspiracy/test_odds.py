"""Conspiracy's fitted estimate of who wins an unfinished game (games/conspiracy/odds.py),
and the script that fits it (bench/conspiracy_fit.py)."""

from __future__ import annotations

import math
import random

import pytest

from bench.conspiracy_fit import Snapshot, dataset, fit, fitted_chances, log_loss
from games.ai import Level
from games.conspiracy import GAME, ConspiracyOptions
from games.conspiracy.ai import POLICIES
from games.conspiracy.models import Stage
from games.conspiracy.odds import (
    COEFFICIENTS,
    FEATURES,
    features,
    turns_taken,
    win_chance,
    win_chances,
)
from tests.games.ai_imports import assert_view_only

from .helpers import Table, rigged

NORMAL = POLICIES[Level.NORMAL]

STRONG = ["r6", "r4", "r4", "r3", "r3", "r2", "r1", "b6"]
"""A red coalition of seven and two sixes."""


def weak_chambers(count: int) -> list[list[str]]:
    """``count`` chambers of eight low Lords in rotating colours (no large group)."""
    used: dict[str, int] = {}
    chambers = []
    for offset in range(count):
        chamber = []
        for place in range(8):
            colour = "ygbp"[(place + offset) % 4]
            used[colour] = used.get(colour, 0) + 1
            chamber.append(f"{colour}{1 if used[colour] <= 4 else 2}")
        chambers.append(chamber)
    return chambers


def test_the_estimate_reads_the_view_only() -> None:
    assert_view_only("conspiracy", {"ConspiracyState", "GAME", "Conspiracy"}, module="odds")


def test_every_player_count_has_one_coefficient_per_feature() -> None:
    assert set(COEFFICIENTS) == {2, 3, 4}
    assert all(len(c) == len(FEATURES) for c in COEFFICIENTS.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chances_add_up_and_favour_the_strong_chamber(players: int) -> None:
    for turn in range(players):
        chambers = [STRONG, *weak_chambers(players - 1)]
        view = GAME.view(Table(rigged(chambers, turn=turn)).state, 0)
        chances = win_chances(view)
        assert abs(sum(chances) - 1.0) < 1e-9
        assert chances[0] > 0.5 > max(chances[1:])
        assert chances[0] == win_chance(view, 0)


def test_early_on_the_estimate_is_less_sure_than_late() -> None:
    """The same lead of a few Lords' worth: less decisive with the game ahead."""
    early = GAME.view(Table(rigged([["r6", "r4"], ["y0", "g1"]])).state, 0)
    weak, other = weak_chambers(2)
    late = GAME.view(Table(rigged([["r6", "r4", *weak[2:]], other])).state, 0)
    assert 0.5 < win_chance(early, 0) < win_chance(late, 0)


def test_turns_taken_count_the_turns_started_in_seat_order() -> None:
    state = GAME.setup(3, ConspiracyOptions(first_player=1), 5)
    rng = random.Random(1)
    while state.turn_number < 6:
        seat = GAME.awaiting(state)[0]
        state, _ = GAME.apply(state, seat, NORMAL.choose(GAME.view(state, seat), rng))
    assert state.stage is Stage.RECRUIT and state.turn == 0, "turns 1-5: seats 1 2 0 1 2"
    view = GAME.view(state, 0)
    assert [turns_taken(view, seat) for seat in range(3)] == [1, 2, 2]
    turns_ahead = [features(view, seat)[FEATURES.index("turns_ahead")] for seat in range(3)]
    assert turns_ahead == [0.0, 1.0, 1.0]


def test_a_fit_on_a_few_games_beats_a_coin_on_them() -> None:
    data = dataset(2, range(1, 9))
    assert data and all(isinstance(s, Snapshot) and sum(s.won) == 1.0 for s in data)
    coefficients = fit(data, iterations=4)
    assert all(math.isfinite(c) for c in coefficients)
    fitted = sum(log_loss(fitted_chances(s, coefficients), s.won) for s in data)
    coin = sum(log_loss([0.5, 0.5], s.won) for s in data)
    assert fitted < coin
