"""The Bloody Inn's HARD player: the estimate of an unfinished game (each player's
expected final score) and the decisions the search thinks over."""

from __future__ import annotations

import math
import random

import pytest

from games.ai import Level
from games.bloody_inn import (
    GAME,
    GUIDE_WEIGHTS,
    HARD,
    SHORTLIST,
    ActionKind,
    BloodyInnState,
    BloodyInnView,
)
from games.bloody_inn.ai import NORMAL_WEIGHTS, POLICIES, Judge, NormalPolicy
from games.bloody_inn.models import Act, Pass, Stage
from games.bloody_inn.sampler import SAMPLER, SCORE_SCALE, standing_view
from games.search import SearchSettings
from tests.games.playouts import play_out

from .helpers import C, annex, rigged

NORMAL = POLICIES[Level.NORMAL]


def standing(state: BloodyInnState, seat: int = 0) -> float:
    return Judge(standing_view(state, seat), NORMAL_WEIGHTS).standing()


def test_the_standing_counts_money_and_cheques() -> None:
    poorer = rigged(money=[10, 10, 10], cheques=[1, 1, 1])
    richer = rigged(money=[15, 10, 10], cheques=[2, 1, 1])
    assert standing(richer) - standing(poorer) == pytest.approx(15.0)


@pytest.mark.parametrize("police", [True, False])
def test_an_unburied_corpse_weighs_the_police_in_the_inn(police: bool) -> None:
    """A corpse with room for it: worth its pocket money later, but most likely the
    undertaker's 10 F when a Police card sleeps in the inn tonight."""
    guest = C.MAJOR if police else C.MONK
    none = rigged(rooms={4: guest}, annexes={0: [annex(C.ABBOT)]})
    one = rigged(rooms={4: guest}, annexes={0: [annex(C.ABBOT)]}, corpses={0: [C.COUNT]})
    change = standing(one) - standing(none)
    assert (change < -5.0) if police else (change > 3.0), change


def test_the_estimate_is_a_share_of_the_win_and_follows_the_standings() -> None:
    state = rigged(money=[30, 10, 10])
    shares = [SAMPLER.estimate(state, seat) for seat in range(3)]
    assert sum(shares) == pytest.approx(1.0)
    lead = math.exp(20 / SCORE_SCALE)  # 20 F ahead, all else equal
    assert shares[0] == pytest.approx(lead / (lead + 2))
    assert shares[1] == pytest.approx(shares[2])


def test_the_view_of_the_estimate_shows_the_seat_its_own_hand_only() -> None:
    state = rigged(hands=[[C.MONK], [C.ABBOT], []])
    view = standing_view(state, 1)
    assert [p.hand for p in view.players] == [None, [C.ABBOT], None]
    assert [p.hand_size for p in view.players] == [1, 1, 0]


def _no_simulation(*args: object) -> float:
    raise AssertionError("simulated")


def _asked(state: BloodyInnState) -> BloodyInnView:
    (prompt,) = GAME.prompts(state)
    return GAME.view(state, prompt.player)


@pytest.mark.parametrize("welcome", [True, False])
def test_the_search_thinks_over_the_actions_and_leaves_the_small_steps_to_normal(
    welcome: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Night's action: every action is a candidate, NORMAL's choice first, and one
    Pass (how much to launder is NORMAL's call). The Evening's room for a guest:
    NORMAL's choice alone, decided without a simulation."""
    state = rigged(
        hands=[[C.PEASANT, C.PEASANT], [], []],
        rooms={4: C.BARON},
        money=[25, 5, 5],
        cheques=[1, 1, 1],
        welcome=welcome,
    )
    view = _asked(state)
    assert view.stage is (Stage.WELCOME if welcome else Stage.ACTION)
    prompt = view.prompt
    assert prompt is not None
    rng = random.Random(4)
    candidates = HARD.candidates(view, prompt, rng)
    usual = NORMAL.choose(view, random.Random(random.Random(4).random()))
    assert candidates[0] == usual
    if welcome:
        assert candidates == [usual]
        policy = HARD.with_settings(SearchSettings(budget_seconds=60.0, simulations=100))
        monkeypatch.setattr(policy, "simulate", _no_simulation)
        assert policy.choose(view, random.Random(4)) == usual
        return
    passes = [c for c in prompt.choices if isinstance(c, Pass)]
    assert len(passes) == 4, "launder 0, 1 or 2 cheques, or cash one"
    acts = [c for c in prompt.choices if isinstance(c, Act)]
    assert {*candidates} == {*acts, usual if isinstance(usual, Pass) else Pass(launder=0)}


@pytest.mark.parametrize("headroom", [0.0, 0.5])
def test_the_headroom_keeps_part_of_the_budget_free(
    headroom: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a clock that moves 10 ms each time it is read, a 0.2 s budget: the search
    stops once one more simulation would pass the budget less its headroom."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    settings = SearchSettings(budget_seconds=0.2, simulations=10**6, headroom=headroom)
    policy = HARD.with_settings(settings)
    monkeypatch.setattr(policy, "clock", clock)
    view = _asked(rigged(hands=[[C.PEASANT, C.PEASANT], [], []], rooms={4: C.BARON, 5: C.MONK}))
    assert view.prompt is not None
    choice = policy.choose(view, random.Random(1))
    assert choice in view.prompt.choices
    kept = 0.2 * (1 - headroom)
    assert kept - 0.03 <= now[0] <= kept + 0.03


def test_the_search_weighs_only_the_targets_normal_values_most() -> None:
    """Six guests to bribe: NORMAL's choice and the next best by NORMAL's values
    (SHORTLIST in all) are searched, not every room."""
    state = rigged(
        hands=[[C.PEASANT] * 4, [], []],
        rooms={1: C.BARON, 2: C.MONK, 3: C.ABBOT, 4: C.MAJOR, 5: C.COUNT, 6: C.PEASANT},
        bistro=2,
    )
    view = _asked(state)
    assert view.prompt is not None
    bribe = Act(action=ActionKind.BRIBE)
    assert bribe in view.prompt.choices
    state, _ = GAME.apply(state, 0, bribe)
    view = _asked(state)
    assert view.stage is Stage.TARGET and view.prompt is not None
    assert len(view.prompt.choices) > SHORTLIST
    candidates = HARD.candidates(view, view.prompt, random.Random(4))
    assert len(candidates) == SHORTLIST
    assert candidates[0] == NORMAL.choose(view, random.Random(random.Random(4).random()))
    judge = Judge(view, NORMAL_WEIGHTS)
    worth = {c: judge.target_value(ActionKind.BRIBE, c) for c in view.prompt.choices}
    left_out = [worth[c] for c in view.prompt.choices if c not in candidates]
    assert left_out and min(worth[c] for c in candidates[1:]) >= max(left_out)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_guide_plays_its_own_weights_where_they_were_measured(players: int) -> None:
    """HARD's guide decides as NORMAL but with GUIDE_WEIGHTS at the table sizes they
    name (3 and 4 players), and exactly as NORMAL elsewhere: at every decision of three
    NORMAL games, the guide's choice is the choice of the weights of its table."""
    own = NormalPolicy(GUIDE_WEIGHTS[players]) if players in GUIDE_WEIGHTS else NORMAL
    decisions: list[tuple[BloodyInnView, int]] = []

    def watch(before: object, seat: int, *_: object) -> None:
        assert isinstance(before, BloodyInnState)
        decisions.append((GAME.view(before, seat), before.step))

    for seed in range(3):
        play_out(GAME, [NORMAL] * players, seed, watch=watch)
    differ = 0
    for view, step in decisions:
        chosen = HARD.guide.choose(view, random.Random(step))
        assert chosen == own.choose(view, random.Random(step))
        differ += chosen != NORMAL.choose(view, random.Random(step))
    assert (differ > 0) is (players in GUIDE_WEIGHTS), differ


def test_its_simulations_play_its_own_seat_by_its_guide_and_the_others_by_normal() -> None:
    assert HARD.simulated(1, 1) is HARD.guide
    assert HARD.simulated(0, 1) is NORMAL
    facing = HARD.facing({0: POLICIES[Level.EASY], 1: NORMAL, 2: NORMAL})
    assert facing.simulated(0, 1) is POLICIES[Level.EASY]
    assert facing.simulated(1, 1) is HARD.guide
