"""The first-order tracker of bench.mascarade_beliefs: its chances stay chances, swaps
mix them, sights fix them, and the bench scores both trackers on the same places."""

from __future__ import annotations

import random

import pytest

from bench.mascarade_beliefs import Marginals, measure
from bench.mascarade_oracle import spread
from games.ai import Level, decision_rng
from games.base import Event
from games.mascarade import FREE_SWAP_ODDS, GAME
from games.mascarade.ai import POLICIES
from games.mascarade.models import MascaradeState, MascaradeView
from games.mascarade.sampler import flat


def moment(
    players: int, seed: int, steps: int
) -> tuple[MascaradeState, MascaradeView, list[Event]]:
    """Seat 0's view and history after ``steps`` decisions of remembering NORMALs (or
    at the game's end)."""
    histories: list[list[Event]] = [[] for _ in range(players)]
    state = GAME.setup(players, GAME.options_model(), seed)
    order = random.Random(seed)
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        seat = order.choice(GAME.awaiting(state))
        view = GAME.view(state, seat)
        choice = POLICIES[Level.NORMAL].choose(
            view, decision_rng(seed, state.step, seat), histories[seat]
        )
        state, events = GAME.apply(state, seat, choice)
        spread(histories, events)
    return state, GAME.view(state, 0), histories[0]


def assert_chances(tracker: Marginals) -> None:
    """Every row sums to 1 (Sinkhorn's last step), every column to its character's
    number within the rounds' convergence."""
    for row in tracker.rows:
        assert sum(row) == pytest.approx(1.0)
        assert min(row) >= 0.0
    for column, count in enumerate(tracker.counts):
        assert sum(row[column] for row in tracker.rows) == pytest.approx(count, abs=0.01)


def test_the_chances_stay_chances_through_a_long_history() -> None:
    state, view, history = moment(10, seed=3, steps=120)
    assert len(history) > 100
    tracker = Marginals.of_history(view, history, FREE_SWAP_ODDS)
    assert any(0.05 < v < 0.95 for row in tracker.rows for v in row), "some doubt by now"
    beliefs = tracker.beliefs(flat(view))
    assert_chances(tracker)
    for place, memory in enumerate(flat(view)):
        if memory is not None and not memory.stale:
            assert beliefs[place][memory.character] == pytest.approx(1.0)
    assert len(beliefs) == len(state.cards)


def test_a_swap_mixes_two_rows_and_a_sight_fixes_one() -> None:
    _, view, _ = moment(6, seed=1, steps=0)
    tracker = Marginals.of_history(view, [], FREE_SWAP_ODDS)
    first, second = tracker.rows[0], tracker.rows[1]
    assert max(first) == max(second) == 1.0, "the opening deal is face up"
    tracker.swap(0, 1, 0.25)
    assert tracker.rows[0] == pytest.approx(
        [0.75 * a + 0.25 * b for a, b in zip(first, second, strict=True)]
    )
    assert tracker.rows[1] == pytest.approx(
        [0.75 * b + 0.25 * a for a, b in zip(first, second, strict=True)]
    )
    seen = tracker.characters[second.index(1.0)]
    tracker.sight(0, seen)
    assert tracker.rows[0] == [float(c is seen) for c in tracker.characters]
    assert tracker.rows[1] == pytest.approx(first), "the other card went back"
    assert_chances(tracker)


def test_both_trackers_are_scored_on_the_same_places() -> None:
    scores = measure(players=10, games=2, seed=6001, odds=FREE_SWAP_ODDS)
    for name in ("deals", "marginals"):
        own, others = scores[name]["own"], scores[name]["others"]
        assert own.count > 10 and others.count == 9 * own.count
        assert own.log <= 0.0 and 0 <= own.right <= own.count
    assert scores["deals"]["own"].count == scores["marginals"]["own"].count
