"""Conspiracy's HARD player (games/conspiracy/hard.py): short simulations, a fitted
estimate of who wins at their end (games/conspiracy/odds.py), and a shortlist of
choices."""

from __future__ import annotations

import gc
import random
from dataclasses import replace

import pytest

from games.ai import Level
from games.conspiracy import GAME, HARD, ConspiracyOptions, ConspiracyState
from games.conspiracy.ai import MEMO_SIZE, POLICIES, remembered, standing, win_share
from games.conspiracy.hard import RoundSearch
from games.conspiracy.models import ConspiracyView, PlaceNext, RevealLords, Stage
from games.conspiracy.odds import win_chance
from games.conspiracy.sampler import SAMPLER

from .helpers import Table, rigged

NORMAL = POLICIES[Level.NORMAL]
FIXED = replace(HARD.settings, budget_seconds=60.0, simulations=12)


def played(players: int, seed: int, steps: int) -> ConspiracyState:
    """A game NORMAL played ``steps`` choices into."""
    state = GAME.setup(players, ConspiracyOptions(), seed)
    for _ in range(steps):
        seat = GAME.awaiting(state)[0]
        choice = NORMAL.choose(GAME.view(state, seat), random.Random(state.step))
        state, _ = GAME.apply(state, seat, choice)
    return state


def recruiting(players: int, seed: int, steps: int) -> ConspiracyState:
    """The first turn start at or after ``steps`` choices."""
    state = played(players, seed, steps)
    while state.stage is not Stage.RECRUIT:
        seat = GAME.awaiting(state)[0]
        choice = NORMAL.choose(GAME.view(state, seat), random.Random(state.step))
        state, _ = GAME.apply(state, seat, choice)
    return state


def test_a_simulation_stops_when_the_seat_s_next_turn_starts() -> None:
    for players in (2, 3, 4):
        real = recruiting(players, seed=players, steps=10)
        seat = real.turn
        view = GAME.view(real, seat)
        sampled = SAMPLER.sample(view, (), random.Random(1))
        value = HARD.simulate(sampled, seat, RevealLords(count=1), random.Random(2))
        assert 0.0 <= value <= 1.0
        assert sampled.turn == seat and sampled.stage is Stage.RECRUIT
        assert sampled.turn_number == real.turn_number + players
        assert value == win_chance(GAME.view(sampled, seat), seat), "the fitted estimate"


def test_on_the_last_round_a_simulation_plays_the_game_out() -> None:
    real = GAME.setup(2, ConspiracyOptions(), 3)
    while real.ender is None:
        real = recruiting(2, seed=3, steps=real.step + 1)
    assert GAME.result(real) is None, "the other player still has its last turn"
    seat = real.turn
    sampled = SAMPLER.sample(GAME.view(real, seat), (), random.Random(1))
    prompt = GAME.prompt_for(real, seat)
    assert prompt is not None
    choice = prompt.choices[0]
    value = HARD.simulate(sampled, seat, choice, random.Random(2))
    assert GAME.result(sampled) is not None
    assert value in (0.0, 0.5, 1.0)


def test_late_in_the_game_a_simulation_plays_the_game_out() -> None:
    real = recruiting(3, seed=4, steps=10)
    seat = real.turn
    sampled = SAMPLER.sample(GAME.view(real, seat), (), random.Random(1))
    late = RoundSearch(
        GAME,
        SAMPLER,
        NORMAL,
        replace(FIXED, horizon=1000),
        guide=NORMAL,
        finish_from=max(len(p.lords) for p in real.players),
    )
    value = late.simulate(sampled, seat, RevealLords(count=1), random.Random(2))
    assert GAME.result(sampled) is not None
    assert value in (0.0, 0.5, 1.0) or abs(value - 1 / 3) < 1e-9


def test_win_shares_add_up_and_favour_the_stronger_chamber() -> None:
    ahead = ["r6", "r4", "r4", "r3", "r3", "r2", "b6"]
    view = GAME.view(Table(rigged([ahead, ["y1"], ["g1"]])).state, 0)
    shares = [win_share(view, seat) for seat in range(3)]
    assert abs(sum(shares) - 1.0) < 1e-9
    assert shares[0] > 0.5 > shares[1]
    assert standing(view, 0) > standing(view, 1)


def test_the_search_weighs_a_shortlist_led_by_normal_s_choice() -> None:
    state = recruiting(3, seed=5, steps=6)
    view = GAME.view(state, state.turn)
    assert view.prompt is not None and len(view.prompt.choices) > 3
    rng = random.Random(4)
    shortlist = HARD.candidates(view, view.prompt, rng)
    assert len(shortlist) == 3
    assert shortlist[0] == NORMAL.choose(view, random.Random(random.Random(4).random()))
    assert all(choice in view.prompt.choices for choice in shortlist)


def test_the_order_of_placing_is_normal_s() -> None:
    view: ConspiracyView | None = None
    for seed in range(40):
        state = played(2, seed, 30)
        if state.stage is Stage.ORDER:
            view = GAME.view(state, state.turn)
            break
    assert view is not None and view.prompt is not None
    choice = HARD.with_settings(FIXED).choose(view, random.Random(1))
    assert isinstance(choice, PlaceNext)
    assert choice == NORMAL.choose(view, random.Random(1))


def test_settings_keep_the_round_search_and_its_shortlist() -> None:
    other = HARD.with_settings(FIXED)
    assert isinstance(other, RoundSearch)
    assert other.shortlist == HARD.shortlist and other.finish_from == HARD.finish_from
    assert other.settings == FIXED and HARD.settings != FIXED


def test_head_to_head_the_search_is_less_cautious() -> None:
    """At 2 players one standard error of gain overrides NORMAL; at 3 and 4 the
    settings' caution (2) stays, and the player itself is used unchanged."""
    player = HARD.with_settings(FIXED)
    assert isinstance(player, RoundSearch)
    two = player.for_players(2)
    assert two.settings.caution == 1.0 < FIXED.caution
    assert replace(two.settings, caution=FIXED.caution) == FIXED
    for players in (3, 4):
        assert player.for_players(players) is player


def test_a_lower_caution_can_change_the_choice() -> None:
    """A mean gain of 0.1 with a standard error of 0.06: over one error, under two."""
    usual = [0.5] * 10
    other = [0.79, 0.41] * 5
    results = [usual, other]
    player = HARD.with_settings(FIXED)
    assert isinstance(player, RoundSearch)
    assert player.for_players(3).best(results, [0, 1]) == 0
    assert player.for_players(2).best(results, [0, 1]) == 1


def test_the_memo_forgets_everything_when_full() -> None:
    memo: dict[object, int] = {}
    assert remembered(memo, "a", lambda: 1) == 1
    assert remembered(memo, "a", lambda: 2) == 1, "remembered, not computed again"
    for key in range(5000):
        remembered(memo, key, lambda: 0)
    assert "a" not in memo and len(memo) <= MEMO_SIZE


def test_the_simulations_plan_on_part_of_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 10 ms each time it is read, a 0.2 s budget stops the
    simulations by 0.9 x 0.2 s (the headroom keeps a tenth of it free)."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    settings = replace(FIXED, budget_seconds=0.2, simulations=10**6)
    policy = HARD.with_settings(settings)
    monkeypatch.setattr(policy, "clock", clock)
    state = recruiting(3, seed=5, steps=6)
    view = GAME.view(state, state.turn)
    assert view.prompt is not None
    assert policy.choose(view, random.Random(1)) in view.prompt.choices
    assert HARD.settings.headroom == 0.1
    assert 0.1 < now[0] <= 0.9 * 0.2 + 0.03


def test_no_automatic_garbage_collection_during_a_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Full collections took most of some 0.2 s decisions: the search pauses the
    collector while it thinks, gives it back as it found it, and freezes what
    lives after it (later collections do not traverse it again)."""
    policy = HARD.with_settings(replace(FIXED, simulations=4))
    seen: list[bool] = []
    simulate = policy.simulate

    def watched(*args: object) -> float:
        seen.append(gc.isenabled())
        return simulate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(policy, "simulate", watched)
    state = recruiting(2, seed=6, steps=4)
    view = GAME.view(state, state.turn)
    for enabled in (True, False):
        gc.unfreeze()
        (gc.enable if enabled else gc.disable)()
        try:
            assert view.prompt is not None
            assert policy.choose(view, random.Random(1)) in view.prompt.choices
            assert gc.isenabled() is enabled
            assert gc.get_freeze_count() > 0
        finally:
            gc.enable()
    assert seen and not any(seen)
