"""Where computers think: quick levels at once, HARD in a worker process while the
event loop goes on, each from the seat's view and visible history only."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.thinking import Question, Thinker, answer, decide, searches
from games.ai import QUICK_LEVELS, Level, decision_rng
from games.base import Choice, Event, Seat, View
from games.registry import GAMES, policy_for
from games.search import SearchPolicy


@pytest.fixture
def thinker() -> Iterator[Thinker]:
    thinking = Thinker(workers=1, budget=0.2)
    yield thinking
    thinking.close()


def asked(game_name: str, seed: int) -> tuple[View, int, list[Event]]:
    """A mid-game view of a random game of ``game_name`` whose seat is asked, with
    that seat's visible history."""
    game = GAMES[game_name]
    rng = random.Random(seed)
    state = game.setup(game.min_players + 1, game.options_model(), seed)
    history: list[Event] = []
    for _ in range(rng.randint(3, 12)):
        prompt = rng.choice(game.prompts(state))
        after, events = game.apply(state, prompt.player, rng.choice(prompt.choices))
        if not game.prompts(after):
            break  # stop before the end: someone must be asked
        state, history = after, history + events
    seat = game.prompts(state)[0].player
    view: View = game.view(state, seat)
    return view, seat, [e for e in history if e.visible_to(seat)]


def test_levels_that_search_are_those_beyond_the_rules_of_thumb() -> None:
    assert [level for level in Level if searches(level)] == [Level.HARD]
    assert not any(searches(level) for level in QUICK_LEVELS)


@pytest.mark.parametrize("level", QUICK_LEVELS)
async def test_a_quick_level_answers_at_once_as_its_policy(thinker: Thinker, level: Level) -> None:
    view, seat, history = asked("complots", 3)
    chosen = await thinker.choose("complots", level, view, decision_rng(3, 9, seat), history)
    expected = policy_for("complots", level).choose(view, decision_rng(3, 9, seat), history)
    assert chosen == expected
    assert thinker._pool is None, "no worker process for a rule of thumb"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_hard_thinks_in_a_worker_while_the_loop_goes_on(thinker: Thinker, game: str) -> None:
    view, seat, history = asked(game, 5)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        chosen = await thinker.choose(game, Level.HARD, view, decision_rng(5, 1, seat), history)
    finally:
        ticker.cancel()
    assert view.prompt is not None and chosen in view.prompt.choices
    assert thinker._pool is not None, "it thought in a worker process"
    assert ticks >= 5, "the event loop kept running while the computer thought"


async def test_workers_that_died_are_replaced(thinker: Thinker) -> None:
    view, seat, history = asked("complots", 6)
    first = await thinker.choose("complots", Level.HARD, view, decision_rng(6, 1, seat), history)
    assert thinker._pool is not None
    for process in list(thinker._pool._processes.values()):
        process.kill()
        process.join()
    again = await thinker.choose("complots", Level.HARD, view, decision_rng(6, 1, seat), history)
    assert view.prompt is not None and again in view.prompt.choices
    assert thinker._pool is not None and all(
        p.is_alive() for p in thinker._pool._processes.values()
    ), "new workers answered"
    assert first in view.prompt.choices


def test_warming_starts_the_workers_and_loads_the_player_before_any_question() -> None:
    thinking = Thinker(workers=2, budget=0.2)
    try:
        assert thinking.warm("mascarade", Level.NORMAL) == []
        assert thinking._pool is None, "a rule of thumb needs no worker"
        warmed = thinking.warm("mascarade", Level.HARD)
        pids = {future.result(timeout=120) for future in warmed}
        assert len(warmed) == 2 and pids and os.getpid() not in pids
        assert thinking._pool is not None and pids <= set(thinking._pool._processes)
        assert thinking.warm("mascarade", Level.HARD) == [], "loaded once"
        thinking.close()
        again = thinking.warm("mascarade", Level.HARD)
        assert len(again) == 2, "new workers load it afresh"
        assert {future.result(timeout=120) for future in again}.isdisjoint(pids)
    finally:
        thinking.close()


def test_a_question_is_answered_alike_in_any_process() -> None:
    """What the worker runs, on a question that crossed a process boundary."""
    view, seat, history = asked("mascarade", 8)
    for level in (Level.NORMAL, Level.EASY):
        question = Question.of("mascarade", level, view, history, decision_rng(8, 2, seat), 0.1)
        crossed = pickle.loads(pickle.dumps(question))
        assert answer(crossed).choice == decide(
            "mascarade", level, view, decision_rng(8, 2, seat), history, 0.1
        )


def test_a_question_carries_the_table_s_computers_to_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker's search plays the other computer seats at their levels: here the
    EASY seat is simulated by EASY's own player, and no other seat is."""
    view, seat, history = asked("complots", 4)
    other = (seat + 1) % len(view.players)  # type: ignore[attr-defined]
    played: list[tuple[Seat, Level]] = []
    simulated = SearchPolicy.simulated

    def recording(self: SearchPolicy[Any, Any], actor: Seat, mine: Seat) -> Any:
        policy = simulated(self, actor, mine)
        played.append((actor, policy.level))
        return policy

    monkeypatch.setattr(SearchPolicy, "simulated", recording)
    rng = decision_rng(4, 1, seat)
    question = Question.of(
        "complots", Level.HARD, view, history, rng, 0.05, computers={other: Level.EASY}
    )
    crossed = pickle.loads(pickle.dumps(question))
    assert crossed.computers == ((other, Level.EASY),)
    answer(crossed)
    assert played and {(other, Level.EASY)} == {p for p in played if p[0] == other}
    assert {level for actor, level in played if actor == seat} == {Level.NORMAL}
    played.clear()
    decide("complots", Level.HARD, view, decision_rng(4, 1, seat), history, 0.05)
    assert played and {level for _, level in played} == {Level.NORMAL}, "no table: NORMAL"


def test_a_question_takes_the_history_s_json_as_stored_when_it_is_given() -> None:
    view, seat, history = asked("mascarade", 8)
    stored = [event.model_dump_json() for event in history]
    question = Question.of(
        "mascarade", Level.HARD, view, history, decision_rng(8, 2, seat), 0.1, stored
    )
    assert all(a is b for a, b in zip(question.history_json, stored, strict=True)), "not rewritten"
    unsure = Question.of(
        "mascarade", Level.HARD, view, history, decision_rng(8, 2, seat), 0.1, stored[:-1]
    )
    assert list(unsure.history_json) == stored, "a history and JSON that differ: written anew"


def test_the_budget_runs_from_when_the_computer_was_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A question that waited for a worker thinks for what is left of its budget."""
    given: list[float] = []

    def deciding(
        game: str,
        level: Level,
        view: View,
        rng: random.Random,
        history: Sequence[Event],
        budget: float,
        computers: Mapping[Seat, Level] | None = None,
    ) -> Choice:
        given.append(budget)
        return decide(game, level, view, rng, history, budget, computers)

    monkeypatch.setattr("bot.thinking.decide", deciding)
    view, seat, history = asked("complots", 4)
    question = Question.of("complots", Level.HARD, view, history, decision_rng(4, 1, seat), 100.0)
    waited = replace(question, asked_at=question.asked_at - 30, budget=100.0)
    answered = answer(waited)
    assert 60 < given[-1] <= 70 and answered.waited >= 30
    late = replace(question, asked_at=question.asked_at - 200)
    assert view.prompt is not None and answer(late).choice in view.prompt.choices
    assert given[-1] == 0.0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_with_nothing_left_of_its_budget_a_search_plays_one_simulation(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    policy = policy_for(game, Level.HARD)
    assert isinstance(policy, SearchPolicy)
    played = 0
    simulate = type(policy).simulate

    def counting(self: SearchPolicy[Any, Any], *args: Any) -> float:
        nonlocal played
        played += 1
        value: float = simulate(self, *args)
        return value

    monkeypatch.setattr(type(policy), "simulate", counting)
    for seed in range(6):
        view, seat, history = asked(game, seed)
        before = played
        chosen = decide(game, Level.HARD, view, decision_rng(seed, 1, seat), history, 0.0)
        assert view.prompt is not None and chosen in view.prompt.choices
        assert played - before <= 1
    assert played, "some of these decisions had choices to weigh"
