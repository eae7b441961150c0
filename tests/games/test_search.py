"""The HARD computer players (games/search.py and each game's sampler): sampled
states agree with what the seat saw, decisions are reproducible and keep to their
budget, and a HARD seat beats random ones."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.ai import RANDOM, Level, decision_rng
from games.base import Event, Seat, View
from games.bloody_inn.models import Cancel
from games.bloody_inn.sampler import SAMPLER as INN_SAMPLER
from games.complots import ActionKind, Character
from games.complots.models import (
    ActionDeclared,
    ClaimFailed,
    ComplotsOptions,
    ComplotsView,
    Stage,
)
from games.complots.sampler import SAMPLER as COMPLOTS_SAMPLER
from games.registry import GAMES, policy_for
from games.search import SearchPolicy, SearchSettings, spread
from tests.games.playouts import hero_share

from .ai_imports import assert_view_only
from .conformance.support import hooks_of

PLAYER_COUNTS = {
    "complots": (2, 3, 4, 6),
    "mascarade": (2, 3, 4, 6, 10),
    "bloody_inn": (1, 2, 4),
    "conspiracy": (2, 3, 4),
}
TINY = SearchSettings(budget_seconds=60.0, simulations=12, horizon=12)
"""A budget the clock never cuts: decisions depend on the seed alone."""


def hard(name: str, settings: SearchSettings = TINY) -> SearchPolicy[Any, Any]:
    policy = policy_for(name, Level.HARD)
    assert isinstance(policy, SearchPolicy)
    return policy.with_settings(settings)


@dataclass
class Moment:
    """A seat asked something in a game: its view, its history, the real state."""

    seat: Seat
    view: Any
    history: list[Event]
    state: Any = field(repr=False)


def moments(name: str, players: int, games: int, share: float) -> list[Moment]:
    """Prompted moments of seeded all-computer games (mixed quick levels)."""
    game = GAMES[name]
    found: list[Moment] = []
    for seed in range(games):
        rng = random.Random(seed * 7 + players)
        levels = [rng.choice((Level.RANDOM, Level.EASY, Level.NORMAL)) for _ in range(players)]
        state = game.setup(players, game.options_model(), seed)
        histories: list[list[Event]] = [[] for _ in range(players)]
        while game.result(state) is None:
            seat = rng.choice(game.awaiting(state))
            view = game.view(state, seat)
            if rng.random() < share:
                found.append(Moment(seat, view, list(histories[seat]), state))
            choice = policy_for(name, levels[seat]).choose(
                view, decision_rng(seed, state.step, seat)
            )
            state, events = game.apply(state, seat, choice)
            for event in events:
                for each in range(players):
                    if event.visible_to(each):
                        histories[each].append(event)
    return found


def seen(view: View) -> tuple[object, ...]:
    """Everything the seat sees: the view, its prompt but for the timeout default (which
    the engine draws from the hidden random generator)."""
    prompt = view.prompt
    asked = None if prompt is None else (prompt.player, prompt.kind, prompt.window, prompt.choices)
    return (view.model_copy(update={"prompt": None}), asked)


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_samplers_read_the_view_only(name: str) -> None:
    engine_class = type(GAMES[name]).__name__
    assert_view_only(name, {"GAME", engine_class}, module="sampler")


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_sampled_states_never_contradict_the_view(name: str) -> None:
    """Hundreds of mid-game moments per game: each sampled state shows the seat exactly
    its view and plays on by the game's rules (its conformance checks)."""
    game, hooks = GAMES[name], hooks_of(name)
    sampler = hard(name).sampler
    checked = 0
    for players in PLAYER_COUNTS[name]:
        for index, moment in enumerate(moments(name, players, games=5, share=0.3)):
            draw = sampler.prepare(moment.view, moment.history)
            sampled = draw(random.Random(index))
            assert seen(game.view(sampled, moment.seat)) == seen(moment.view), (players, index)
            prompt = game.prompt_for(sampled, moment.seat)
            assert prompt is not None
            after, events = game.apply(sampled, moment.seat, prompt.choices[-1])
            hooks.check_rules(after, sampled, events)
            checked += 1
    assert checked >= 200


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_sampling_is_reproducible_from_its_seed(name: str) -> None:
    sampler = hard(name).sampler
    for moment in moments(name, 3 if name != "bloody_inn" else 2, games=1, share=0.1)[:10]:
        first = sampler.sample(moment.view, moment.history, random.Random(5))
        again = sampler.sample(moment.view, moment.history, random.Random(5))
        assert first == again


def test_the_inn_history_rebuilds_every_hand() -> None:
    """Every card joining or leaving a hand is shown: with the history, the others'
    hands are the real ones."""
    compared = 0
    for moment in moments("bloody_inn", 3, games=2, share=0.2):
        sampled = INN_SAMPLER.sample(moment.view, moment.history, random.Random(1))
        for seat in range(3):
            real = moment.state.players[seat].hand + (
                moment.state.pending.paid
                if moment.state.pending is not None and moment.state.queue[0] == seat
                else []
            )
            mine = sampled.players[seat].hand + (
                sampled.pending.paid
                if sampled.pending is not None and sampled.queue[0] == seat
                else []
            )
            assert Counter(mine) == Counter(real)
            compared += 1
    assert compared > 100


def test_complots_claims_weigh_on_the_deal() -> None:
    """An unchallenged claim makes the claimed character likelier in the claimant's
    hand than a plain deal does; a failed claim makes it very unlikely."""
    game = GAMES["complots"]
    state = game.setup(4, ComplotsOptions(first_player=0), seed=3)
    view = game.view(state, 1)
    assert isinstance(view, ComplotsView) and view.stage is Stage.ACTION
    claim = ActionDeclared(
        actor=0, action=ActionKind.TAX, target=None, claim=Character.DUCHESS, paid=0
    )
    failed = ClaimFailed(claimant=0, character=Character.DUCHESS)

    def duchess_share(history: list[Event]) -> float:
        draw = COMPLOTS_SAMPLER.prepare(view, history)
        rng = random.Random(0)
        hands = [draw(rng).players[0].hidden() for _ in range(300)]
        return sum(Character.DUCHESS in hand for hand in hands) / len(hands)

    plain, claimed, exposed = (
        duchess_share([]),
        duchess_share([claim]),
        duchess_share([claim, failed]),
    )
    assert claimed > plain + 0.2
    assert exposed < 0.1


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_hard_decisions_are_reproducible_from_the_seed(name: str) -> None:
    policy = hard(name)
    found = moments(name, 2 if name != "mascarade" else 4, games=1, share=0.2)
    asked = [m for m in found if m.view.prompt is not None and len(m.view.prompt.choices) > 1]
    for moment in asked[:4]:
        first = policy.choose(moment.view, random.Random(9), moment.history)
        again = policy.choose(moment.view, random.Random(9), moment.history)
        assert first == again
        assert first in moment.view.prompt.choices


def test_hard_never_takes_back_a_choice_of_its_own_accord() -> None:
    """The Bloody Inn's Cancel returns to the choice of an action: searched, it could
    undo the guide's action forever. The search tries it only when the guide does."""
    policy = hard("bloody_inn")
    offered = 0
    for moment in moments("bloody_inn", 2, games=3, share=1.0):
        prompt = moment.view.prompt
        if prompt is None or Cancel() not in prompt.choices:
            continue
        offered += 1
        candidates = policy.candidates(moment.view, prompt, random.Random(3))
        guide = candidates[0]
        assert guide == policy.guide.choose(moment.view, random.Random(random.Random(3).random()))
        assert (Cancel() in candidates) == (guide == Cancel())
    assert offered > 10


def test_the_time_budget_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget far below what the simulations would take stops the search: on a
    clock that moves 10 ms each time it is read, a 0.1 s budget allows about ten
    simulations out of the million asked (the wall clock is for bench.ai)."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    policy = hard("bloody_inn", SearchSettings(budget_seconds=0.1, simulations=10**6))
    monkeypatch.setattr(policy, "clock", clock)
    asked = [
        m for m in moments("bloody_inn", 4, games=1, share=0.3) if len(m.view.prompt.choices) > 3
    ]
    assert asked
    for moment in asked[:3]:
        now[0] = 0.0
        choice = policy.choose(moment.view, random.Random(1), moment.history)
        assert choice in moment.view.prompt.choices
        assert now[0] <= 0.1 + 0.03, "it stopped at the first clock reading past its budget"


STEP = 0.001
"""Seconds of the fake clock one step of the rules takes (nothing else takes any)."""


def asked_moments(name: str, count: int) -> list[Moment]:
    """Moments of seeded games (3 players, The Bloody Inn 2) with a choice to make."""
    players = 2 if name == "bloody_inn" else 3
    return [
        m
        for m in moments(name, players, games=2, share=0.3)
        if m.view.prompt is not None and len(m.view.prompt.choices) > 1
    ][:count]


def hard_on_step_clock(
    name: str, budget_steps: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[SearchPolicy[Any, Any], list[float]]:
    """The game's HARD with a budget of ``budget_steps`` rules steps, on a clock
    (returned, to read) that only the rules' steps move."""
    clock = [0.0]
    game_class = type(GAMES[name])
    original = game_class.apply_in_place

    def timed(self: Any, state: Any, seat: Seat, choice: Any) -> list[Event]:
        clock[0] += STEP
        return original(self, state, seat, choice)

    monkeypatch.setattr(game_class, "apply_in_place", timed)
    policy = hard(name, SearchSettings(budget_seconds=budget_steps * STEP, simulations=10_000))
    monkeypatch.setattr(policy, "clock", lambda: clock[0])
    return policy, clock


@pytest.mark.parametrize("stops", [True, False])
@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_a_simulation_stops_at_the_deadline_where_the_game_asks(
    name: str, stops: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a clock that only the rules' steps move, a budget of three steps: the first
    simulation always starts, and plays many more. Where the search stops at the
    deadline (``stops_at_deadline``, each game's own simulations included), every
    decision ends within one step of its budget; where it does not, a simulation
    ends where it ends, past it."""
    asked = asked_moments(name, 8)
    assert len(asked) >= 5
    policy, clock = hard_on_step_clock(name, 3, monkeypatch)
    monkeypatch.setattr(policy, "stops_at_deadline", lambda view: stops)
    overruns = []
    for moment in asked:
        started = clock[0]
        choice = policy.choose(moment.view, random.Random(5), moment.history)
        assert choice in moment.view.prompt.choices
        overruns.append(clock[0] - started - 3 * STEP)
    if stops:
        assert max(overruns) <= STEP + 1e-9
    else:
        assert max(overruns) > 2 * STEP


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_no_state_is_drawn_only_to_stop(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's time is checked before its state is drawn: when the budget ends
    between rounds, the search stops without drawing one more (on a clock that only
    the rules' steps move, a budget of 400 steps: several rounds a decision)."""
    asked = asked_moments(name, 10)
    policy, _ = hard_on_step_clock(name, 400, monkeypatch)
    simulated_on: list[int] = []
    """Per state drawn, the simulations played on it."""
    sampler = type(policy.sampler)
    prepare, simulate = sampler.prepare, type(policy).simulate

    def counted_prepare(self: Any, view: Any, history: Any) -> Any:
        draw = prepare(self, view, history)

        def counted(rng: random.Random) -> Any:
            simulated_on.append(0)
            return draw(rng)

        return counted

    def counted_simulate(self: Any, *args: Any) -> float:
        simulated_on[-1] += 1
        return simulate(self, *args)

    monkeypatch.setattr(sampler, "prepare", counted_prepare)
    monkeypatch.setattr(type(policy), "simulate", counted_simulate)
    for moment in asked:
        policy.choose(moment.view, random.Random(5), moment.history)
    assert len(simulated_on) >= 10
    assert 0 not in simulated_on


def test_the_spread_is_the_population_deviation() -> None:
    """``best``'s deviation in floats is ``statistics.pstdev``'s (in fractions)."""
    rng = random.Random(4)
    for size in (1, 3, 17, 60):
        gains = [rng.choice((0.0, 0.25, 1 / 3, 0.5, 1.0)) - rng.random() for _ in range(size)]
        mean = statistics.fmean(gains)
        assert spread(gains, mean) == pytest.approx(statistics.pstdev(gains), abs=1e-12)


@pytest.mark.parametrize(
    ("name", "players", "games", "least"),
    [
        ("complots", 2, 20, 0.75),
        ("mascarade", 4, 8, 0.6),
        ("conspiracy", 2, 6, 0.8),
        ("bloody_inn", 2, 4, 0.75),
    ],
)
def test_hard_beats_random_seats(name: str, players: int, games: int, least: float) -> None:
    """Seeded games with a budget the clock never cuts: the result is fixed, far above
    the fair share."""
    share = hero_share(GAMES[name], hard(name), RANDOM, players, games, seed=100)
    assert share >= least, share


@dataclass
class Asked:
    """A view-only player that notes which seats it was asked to play."""

    inner: Any
    seats: Counter[Seat] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.level = self.inner.level
        self.remembers = False

    def choose(self, view: Any, rng: random.Random, history: Any = ()) -> Any:
        self.seats[view.viewer] += 1
        return self.inner.choose(view, rng, history)


@pytest.mark.parametrize("name", list(PLAYER_COUNTS))
def test_simulations_play_the_known_computers_as_they_play(name: str) -> None:
    """Facing computers whose level it knows, a search's simulations play each of
    them as that very player (when it decides from its view alone), never the
    searching seat itself; a player that remembers is not one the simulations can
    play (they have no history to give it)."""
    players = 4 if name == "mascarade" else 2
    asked = [
        m for m in moments(name, players, games=1, share=0.3) if len(m.view.prompt.choices) > 1
    ]
    others = 0
    for moment in asked[:3]:
        easy = Asked(policy_for(name, Level.EASY))
        policy = hard(name).facing(dict.fromkeys(range(players), easy))  # type: ignore[arg-type]
        choice = policy.choose(moment.view, random.Random(2), moment.history)
        assert choice in moment.view.prompt.choices
        assert moment.seat not in easy.seats, "the searching seat plays as its own rollout"
        others += sum(easy.seats.values())
    assert others, "the simulations asked the EASY seats"
    remembering = policy_for("complots", Level.NORMAL)
    assert remembering.remembers
    assert not hard("complots").facing({1: remembering, 0: hard("complots")}).seated
