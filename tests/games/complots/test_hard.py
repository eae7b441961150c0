"""Complots' HARD player (games/complots ``HARD``): from 4 players a simulation still
running at the decision's deadline stops there."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai import RANDOM, Policy, decision_rng
from games.base import Event, Seat
from games.complots import GAME, HARD, STOPS_FROM
from games.complots.engine import Complots
from games.complots.models import ComplotsState
from games.search import SearchPolicy, SearchSettings

STEP = 0.001
"""Seconds of the fake clock one step of the rules takes (nothing else takes any)."""
BUDGET = 3 * STEP
"""The first simulation always starts, and plays up to ``horizon`` (24) choices."""


def short_of_time(search: SearchPolicy[Any, Any]) -> SearchPolicy[Any, Any]:
    """The search with a budget of three steps and all the simulations it may run."""
    return search.with_settings(
        SearchSettings(budget_seconds=BUDGET, simulations=10_000, horizon=24)
    )


def overruns(searcher: Policy[Any, Any], players: int, mp: pytest.MonkeyPatch) -> list[float]:
    """By how much each of the searcher's decisions in a seeded game of RANDOM seats
    overran its budget, on a clock that only the rules' steps move (the searcher's
    ``clock`` is set to it)."""
    clock = [0.0]
    original = Complots.apply_in_place

    def timed(self: Complots, state: ComplotsState, seat: Seat, choice: object) -> list[Event]:
        clock[0] += STEP
        return original(self, state, seat, choice)  # type: ignore[arg-type]

    mp.setattr(searcher, "clock", lambda: clock[0])
    state = GAME.setup(players, GAME.options_model(), 5)
    found: list[float] = []
    while GAME.result(state) is None and len(found) < 10:
        seat = GAME.awaiting(state)[0]
        view = GAME.view(state, seat)
        if view.prompt is not None and len(view.prompt.choices) > 1:
            mp.setattr(Complots, "apply_in_place", timed)
            started = clock[0]
            choice = searcher.choose(view, random.Random(3))
            mp.setattr(Complots, "apply_in_place", original)
            assert choice in view.prompt.choices
            found.append(clock[0] - started - BUDGET)
        state, _ = GAME.apply(state, seat, RANDOM.choose(view, decision_rng(5, state.step, seat)))
    assert len(found) >= 8
    return found


@pytest.mark.parametrize(("players", "cut"), [(3, False), (STOPS_FROM, True), (6, True)])
def test_from_four_players_a_simulation_stops_at_the_decisions_deadline(
    players: int, cut: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From 4 players a simulation stops at the deadline: every decision ends within
    one step of its budget. At 3 players (measured without the stop) a simulation
    ends where it ends, past it."""
    found = overruns(short_of_time(HARD), players, monkeypatch)
    if cut:
        assert max(found) <= STEP + 1e-9
    else:
        assert max(found) > 2 * STEP
