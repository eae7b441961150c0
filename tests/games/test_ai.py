"""The computer-player framework (games/ai.py): levels, the legality guard,
reproducible decisions and the all-computer runner."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai import RANDOM, IllegalDecision, Level, NotAsked, Policy, decision_rng
from games.base import Event, GameState, Prompt
from games.complots import GAME as COMPLOTS
from games.complots import ActionKind
from games.complots.models import Act
from games.registry import GAMES, policy_for
from tests.games.playouts import TooLong, play_out


class Cheater(Policy[Any, Any]):
    """Always takes 3 coins of tax, asked or not."""

    level = Level.EASY

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return Act(action=ActionKind.TAX)


def test_every_game_has_every_level() -> None:
    for name in GAMES:
        for level in Level:
            policy = policy_for(name, level)
            assert policy.level is level
    assert policy_for("complots", Level.RANDOM) is RANDOM


def test_a_policy_must_be_asked_and_must_answer_legally() -> None:
    state = COMPLOTS.setup(3, COMPLOTS.options_model(first_player=0), seed=1)
    with pytest.raises(NotAsked):
        Cheater().choose(COMPLOTS.view(state, 1), random.Random(0))
    legal = COMPLOTS.view(state, 0)
    assert legal.prompt is not None and Act(action=ActionKind.TAX) in legal.prompt.choices
    assert Cheater().choose(legal, random.Random(0)) == Act(action=ActionKind.TAX)


def test_must_coup_at_ten_coins_is_enforced_on_a_cheating_policy() -> None:
    state = COMPLOTS.setup(2, COMPLOTS.options_model(first_player=0), seed=3)
    while COMPLOTS.view(state, 0).players[0].coins < 10 or COMPLOTS.awaiting(state) != [0]:
        seat = COMPLOTS.awaiting(state)[0]
        prompt = COMPLOTS.prompt_for(state, seat)
        assert prompt is not None
        income = Act(action=ActionKind.INCOME)
        state, _ = COMPLOTS.apply(
            state, seat, income if income in prompt.choices else prompt.default
        )
    view = COMPLOTS.view(state, 0)
    assert view.players[0].coins >= 10 and view.prompt is not None
    with pytest.raises(IllegalDecision):
        Cheater().choose(view, random.Random(0))


def test_decisions_are_reproducible_from_table_step_and_seat() -> None:
    assert decision_rng(7, 3, 1).random() == decision_rng(7, 3, 1).random()
    assert decision_rng(7, 3, 1).random() != decision_rng(7, 3, 2).random()
    assert decision_rng(7, 3, 1).random() != decision_rng(7, 4, 1).random()


def test_play_out_replays_exactly_and_stops_runaway_games() -> None:
    policies = [
        policy_for("mascarade", level) for level in (Level.NORMAL, Level.EASY, Level.RANDOM)
    ]
    first = play_out(GAMES["mascarade"], policies, seed=12)
    again = play_out(GAMES["mascarade"], policies, seed=12)
    assert first.result == again.result and first.decisions == again.decisions
    assert sum(first.per_seat_decisions) == first.decisions
    with pytest.raises(TooLong):
        play_out(GAMES["mascarade"], policies, seed=12, max_steps=3)


def test_play_out_tells_its_watcher_of_every_step_without_changing_the_game() -> None:
    policies = [policy_for("complots", level) for level in (Level.NORMAL, Level.EASY)]
    steps: list[tuple[int, int, Any, int]] = []

    def watch(
        before: GameState, seat: int, choice: Any, events: list[Event], after: GameState
    ) -> None:
        assert after.step > before.step
        steps.append((before.step, seat, choice, len(events)))

    watched = play_out(COMPLOTS, policies, seed=5, watch=watch)
    plain = play_out(COMPLOTS, policies, seed=5)
    assert watched.result == plain.result and watched.decisions == plain.decisions
    assert len(steps) == watched.decisions
    assert [step for step, *_ in steps] == sorted(step for step, *_ in steps)
    assert steps[0][0] == 0 and all(count > 0 for *_, count in steps)
    assert [seat for _, seat, *_ in steps].count(0) == watched.per_seat_decisions[0]
