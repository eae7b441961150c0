"""The conformance suite's machinery: each game's hooks, the random-game driver and
the generic checks of the engine protocol (games/base.py).

A random game is driven by ``random.Random(seed)`` alone: the checks draw from a
second generator, so a game's path does not depend on which checks ran, and a
failure names the game, the player count and the seed that replay it:
``random_game(hooks_of(name), players, seed)``.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

import pytest
from hypothesis import Phase, settings
from pydantic import BaseModel

from games.ai import QUICK_LEVELS, Level, decision_rng
from games.base import (
    Choice,
    Event,
    GameIsOver,
    GameState,
    IllegalChoice,
    Model,
    NotAllowed,
    NotPrompted,
    Prompt,
    Result,
    Seat,
    View,
    copy_state,
)
from games.entry import AnyGame, GameEntry
from games.registry import GAMES
from tests.games.playouts import play_out

SCALE = float(os.environ.get("CONFORMANCE_SCALE", "1"))
"""Scales the soak runs (``CONFORMANCE_SCALE=10`` for a long local soak)."""
BASE_SEED = int(os.environ.get("CONFORMANCE_SEED", "0"))
"""Shifts the seeds of the quick runs (another value explores other games)."""
SOAK = settings(max_examples=4, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
"""The soak runs draw their seeds with hypothesis (each of the 4 examples plays a quarter
of the run): derandomized in CI (reproducible), new games on every local run after
the first example, a failing seed replayed first the next time. No shrinking: a
smaller seed is not a simpler game."""
MAX_STEPS = 10_000
"""No game may take more steps (random play, timeouts and removals included)."""
TIMEOUT_RATE = 0.04
FORFEIT_RATE = 0.003
REQUIRED = ("random_options", "scramble_unknown", "check_rules")

Options = Model
Scramble = Callable[[Any, Seat | None, random.Random], Any]
CheckRules = Callable[[Any, Any, list[Event]], None]
CheckView = Callable[[Any, Seat | None, Any], None]
RandomChoice = Callable[[Prompt[Any], random.Random], Choice]


def uniform_choice(prompt: Prompt[Any], rng: random.Random) -> Choice:
    choice: Choice = rng.choice(prompt.choices)
    return choice


def no_view_check(state: Any, viewer: Seat | None, view: Any) -> None:
    """The default ``check_view``: the suite's own view checks only."""


@dataclass(frozen=True)
class Hooks:
    """One registered game with what its ``tests/games/<name>/conformance.py`` knows."""

    entry: GameEntry
    random_options: Callable[[int, random.Random], Options]
    scramble_unknown: Scramble
    check_rules: CheckRules
    check_view: CheckView = no_view_check
    random_choice: RandomChoice = uniform_choice

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def game(self) -> AnyGame:
        return self.entry.game


@cache
def hooks_of(name: str) -> Hooks:
    """The game's hooks; a clear failure when its conformance module is missing."""
    package = f"tests.games.{name}"
    module_name = f"{package}.conformance"
    wanted = f"tests/games/{name}/conformance.py defining {', '.join(REQUIRED)}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name not in (module_name, package):
            raise
        pytest.fail(f"the registered game {name!r} has no {wanted}", pytrace=False)
    missing = [hook for hook in REQUIRED if not callable(getattr(module, hook, None))]
    if missing:
        pytest.fail(f"{module_name} lacks {', '.join(missing)}: it needs {wanted}", pytrace=False)
    return Hooks(
        entry=GAMES.entry(name),
        random_options=module.random_options,
        scramble_unknown=module.scramble_unknown,
        check_rules=module.check_rules,
        check_view=getattr(module, "check_view", no_view_check),
        random_choice=getattr(module, "random_choice", uniform_choice),
    )


def every_player_count() -> list[Any]:
    """``(name, players)`` for every registered game and every table size it allows."""
    return [
        pytest.param(name, players, id=f"{name}-{players}")
        for name, game in GAMES.items()
        for players in game.player_counts()
    ]


def every_game() -> list[Any]:
    return [pytest.param(name, id=name) for name in GAMES]


@contextmanager
def context(what: str) -> Iterator[None]:
    """Adds what was being played (game, players, seed, step) to a failure."""
    try:
        yield
    except BaseException as error:
        error.add_note(what)
        raise


def dump(state: GameState) -> dict[str, Any]:
    return state.model_dump()


# --- the generic checks ------------------------------------------------------------------


def check_state(game: AnyGame, state: GameState) -> None:
    """What every state promises: prompts, ``awaiting`` and ``result`` agree."""
    assert isinstance(state, game.state_model)
    prompts = game.prompts(state)
    awaiting = game.awaiting(state)
    result = game.result(state)
    assert [p.player for p in prompts] == awaiting, "awaiting is the prompted seats"
    assert awaiting == sorted(set(awaiting)), "awaiting lists seats once, in seat order"
    assert all(0 <= seat < state.seats for seat in awaiting)
    assert (prompts == []) == (result is not None), "prompts are empty iff the game is over"
    assert len({p.window for p in prompts}) <= 1, "all open prompts share one window"
    for prompt in prompts:
        assert prompt.choices, "a prompt offers at least one choice"
        assert len(set(prompt.choices)) == len(prompt.choices), "each choice is offered once"
        assert prompt.default in prompt.choices, "the timeout default is a legal choice"
        assert all(isinstance(c, game.choice_types) for c in prompt.choices)
        assert game.prompt_for(state, prompt.player) == prompt
    for seat in range(state.seats):
        if seat not in awaiting:
            assert game.prompt_for(state, seat) is None
    if result is not None:
        check_result(state, result)
    check_copy(game, state, prompts)


def check_copy(game: AnyGame, state: GameState, prompts: list[Prompt[Any]]) -> None:
    """``copy_state`` (what ``apply`` changes) is an equal state sharing nothing
    mutable with the original, and asks the same: the prompts memoised on a state
    are the ones built anew for its copy (the memo is not copied)."""
    twin = copy_state(state)
    assert twin == state and twin.model_dump() == state.model_dump()
    _check_unshared(state, twin, "state")
    assert game.prompts(twin) == prompts, "the memoised prompts are not the state's"


def _check_unshared(one: object, other: object, path: str) -> None:
    if isinstance(one, list | dict | set) or (
        isinstance(one, BaseModel) and not type(one).model_config.get("frozen")
    ):
        assert one is not other, f"{path} is shared by a state and its copy"
    if isinstance(one, list) and isinstance(other, list):
        for index, (mine, theirs) in enumerate(zip(one, other, strict=True)):
            _check_unshared(mine, theirs, f"{path}[{index}]")
    elif isinstance(one, dict) and isinstance(other, dict):
        for key, mine in one.items():
            _check_unshared(mine, other[key], f"{path}[{key!r}]")
    elif isinstance(one, BaseModel) and isinstance(other, BaseModel):
        for name, mine in vars(one).items():
            _check_unshared(mine, vars(other)[name], f"{path}.{name}")


def check_result(state: GameState, result: Result) -> None:
    assert all(0 <= seat < state.seats for seat in result.winners), "winners are seats"
    assert len(set(result.winners)) == len(result.winners), "each winner once"
    if result.scores is not None:
        assert len(result.scores) == state.seats, "one score per seat"


def check_events(game: AnyGame, state: GameState, events: Sequence[Event]) -> None:
    """Events are typed, address real seats and round-trip through ``parse_event``."""
    for event in events:
        assert isinstance(event, Event)
        if event.audience is not None:
            assert event.audience, "a private event has someone to tell"
            assert all(0 <= seat < state.seats for seat in event.audience)
        assert game.parse_event(event.model_dump_json()) == event


def check_setup(hooks: Hooks, players: int, options: Options, seed: int) -> GameState:
    """A new game: valid, at step 0, asking someone; set up again, the same."""
    game = hooks.game
    state: GameState = game.setup(players, options, seed)
    assert state.seats == players and state.step == 0
    assert game.result(state) is None and game.awaiting(state)
    check_state(game, state)
    hooks.check_rules(state, None, [])
    assert type(state).model_validate_json(state.model_dump_json()) == state
    assert game.setup(players, options, seed) == state, "setup is deterministic"
    return state


def check_views(hooks: Hooks, state: GameState, rng: random.Random) -> tuple[int, int]:
    """The spectator's and one seat's view: the viewer's prompt, the game's own checks,
    and the leak check: the view of a copy where everything the viewer cannot know
    is scrambled is the same view. Returns (scrambles, scrambles that changed the state)."""
    game = hooks.game
    changed = 0
    viewers: list[Seat | None] = [None, rng.randrange(state.seats)]
    for viewer in viewers:
        view = game.view(state, viewer)
        assert isinstance(view, View) and view.viewer == viewer
        expected = None if viewer is None else game.prompt_for(state, viewer)
        assert view.prompt == expected, f"the view of {viewer} shows its own prompt only"
        hooks.check_view(state, viewer, view)
        if rng.random() < 0.05:
            # views may be built without validation (speed): they must still be valid
            assert type(view).model_validate_json(view.model_dump_json()) == view
        twin = hooks.scramble_unknown(state, viewer, rng)
        changed += twin != state
        assert game.view(twin, viewer) == view, (
            f"the view of {'the spectator' if viewer is None else f'seat {viewer}'}"
            " depends on something it cannot know"
        )
    return len(viewers), changed


def check_refusals(
    game: AnyGame, state: GameState, pool: Sequence[Choice], rng: random.Random
) -> None:
    """Illegal input is refused with its typed error and changes nothing: a seat not
    prompted, a choice not offered, a removal of a seat that does not exist."""
    before = dump(state)
    prompts = game.prompts(state)
    awaiting = game.awaiting(state)
    idle = [seat for seat in range(state.seats) if seat not in awaiting]
    if idle:
        with pytest.raises(NotPrompted):
            game.apply(state, rng.choice(idle), rng.choice(prompts).default)
    prompt = rng.choice(prompts)
    offered = set(prompt.choices)
    foreign = [choice for choice in rng.sample(pool, min(len(pool), 20)) if choice not in offered]
    if foreign:
        with pytest.raises(NotAllowed):
            game.apply(state, prompt.player, foreign[0])
    for seat in (-1, state.seats):
        with pytest.raises(NotPrompted):
            game.forfeit(state, seat)
    assert dump(state) == before, "a refused input changed the state"


def check_removed_once(game: AnyGame, state: GameState, seat: Seat) -> None:
    """A seat just removed cannot be removed again (no second line, no new window)."""
    if game.result(state) is not None:
        return
    before = dump(state)
    with pytest.raises(NotPrompted):
        game.forfeit(state, seat)
    assert dump(state) == before, "a refused removal changed the state"


def check_over(game: AnyGame, state: GameState, pool: Sequence[Choice]) -> None:
    """After the end: every choice and removal is refused with GameIsOver, a timeout
    does nothing, and nothing changes."""
    before = dump(state)
    for seat in range(state.seats):
        with pytest.raises(GameIsOver):
            game.apply(state, seat, pool[seat % len(pool)])
        with pytest.raises(GameIsOver):
            game.forfeit(state, seat)
    after, events = game.timeout(state)
    assert after == state and events == []
    assert dump(state) == before, "a refused input changed the state"


# --- random games --------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One entry of a table's action log, as the bot stores it."""

    kind: Literal["choice", "timeout", "forfeit"]
    seat: Seat = 0
    choice: bytes = b""


@dataclass
class Checks:
    """What a random game checks (shares of steps for the costlier checks)."""

    views: float = 1.0
    """Leak check of the spectator's and one seat's view."""
    untouched: float = 1.0
    """The state given to apply / timeout / forfeit is compared before and after."""
    refusals: float = 0.1
    """Illegal input is tried (and must be refused, changing nothing)."""
    replay: bool = True
    """At the end, the action log replays to the identical state."""


@dataclass
class RandomGame:
    """One finished random game and what was checked on the way."""

    seed: int
    options: Options
    start: GameState
    final: GameState
    events: list[Event] = field(default_factory=list)
    log: list[Action] = field(default_factory=list)
    scrambles: int = 0
    scrambles_changed: int = 0


def random_game(
    hooks: Hooks,
    players: int,
    seed: int,
    *,
    options: Options | None = None,
    start: GameState | None = None,
    checks: Checks | None = None,
    timeout_rate: float = TIMEOUT_RATE,
    forfeit_rate: float = FORFEIT_RATE,
) -> RandomGame:
    """Plays a random game to its end, checking everything after every step.

    Each step is a timeout (at ``timeout_rate``), a removal of a random seat (at
    ``forfeit_rate``; a seat already out may be refused with a typed error), else a
    random prompted seat's random legal choice. ``start`` replaces the setup (a
    doctored state; ``options`` must then be its options)."""
    game = hooks.game
    checks = checks or Checks()
    rng = random.Random(seed)
    probe = random.Random(seed ^ 0xC0FFEE)
    if options is None:
        options = hooks.random_options(players, rng)
    what = f"{hooks.name}, {players} players, seed {seed}, options {options!r}"
    with context(what):
        doctored = start is not None
        if start is None:
            start = check_setup(hooks, players, options, seed)
        else:
            check_state(game, start)
            hooks.check_rules(start, None, [])
        record = RandomGame(seed, options, start, start)
        state = start
        pool = dict.fromkeys(c for p in game.prompts(state) for c in p.choices)
        for _ in range(MAX_STEPS):
            if game.result(state) is not None:
                break
            with context(f"at step {state.step}"):
                state = _random_step(
                    hooks, state, record, pool, rng, probe, checks, timeout_rate, forfeit_rate
                )
        else:
            raise AssertionError(f"no end after {MAX_STEPS} steps")
        record.final = state
        check_over(game, state, list(pool))
        if checks.replay:
            check_replay(hooks, record, players, doctored)
    return record


def _random_step(
    hooks: Hooks,
    state: GameState,
    record: RandomGame,
    pool: dict[Choice, None],
    rng: random.Random,
    probe: random.Random,
    checks: Checks,
    timeout_rate: float,
    forfeit_rate: float,
) -> GameState:
    """One random step from ``state`` with every check; the new state."""
    game = hooks.game
    prompts = game.prompts(state)
    if probe.random() < checks.refusals:
        pool.update(dict.fromkeys(c for p in prompts for c in p.choices))
        check_refusals(game, state, list(pool), probe)
    if probe.random() < checks.views:
        scrambles, changed = check_views(hooks, state, probe)
        record.scrambles += scrambles
        record.scrambles_changed += changed
    before = dump(state) if probe.random() < checks.untouched else None
    roll = rng.random()
    if roll < timeout_rate:
        action = Action("timeout")
        new, events = game.timeout(state)
        assert state.step < new.step <= state.step + len(prompts), "one step per default"
    elif roll < timeout_rate + forfeit_rate:
        action = Action("forfeit", rng.randrange(state.seats))
        try:
            new, events = game.forfeit(state, action.seat)
        except IllegalChoice as refused:
            assert isinstance(refused, NotPrompted), f"removal refused with {refused!r}"
            assert before is None or dump(state) == before, "a refused removal changed the state"
            return state
        assert new.step == state.step + 1
        check_removed_once(game, new, action.seat)
    else:
        prompt = rng.choice(prompts)
        choice = hooks.random_choice(prompt, rng)
        assert choice in prompt.choices
        pool[choice] = None
        action = Action("choice", prompt.player, game.choice_adapter.dump_json(choice))
        assert game.parse_choice(action.choice) == choice, "the logged choice parses back"
        new, events = game.apply(state, prompt.player, choice)
        assert new.step == state.step + 1, "apply counts one step"
    assert before is None or dump(state) == before, f"{action.kind} modified its input state"
    assert new.seats == state.seats
    check_state(game, new)
    check_events(game, new, events)
    hooks.check_rules(new, state, events)
    record.events.extend(events)
    record.log.append(action)
    after: GameState = new
    return after


def check_replay(hooks: Hooks, record: RandomGame, players: int, doctored: bool) -> None:
    """The same seed, options and action log (choices through their JSON) give the
    identical state and the same events, as when the bot replays a table."""
    game = hooks.game
    state = record.start if doctored else game.setup(players, record.options, record.seed)
    events: list[Event] = []
    for action in record.log:
        if action.kind == "timeout":
            state, new_events = game.timeout(state)
        elif action.kind == "forfeit":
            state, new_events = game.forfeit(state, action.seat)
        else:
            state, new_events = game.apply(state, action.seat, game.parse_choice(action.choice))
        events.extend(new_events)
    assert state == record.final, "the replay reached another state"
    assert state.model_dump_json() == record.final.model_dump_json()
    assert events == record.events, "the replay told other events"


# --- computer players --------------------------------------------------------------------


@dataclass
class ComputerGame:
    result: Result
    decisions: int
    views_checked: int


def computer_game(
    hooks: Hooks,
    levels: Sequence[Level],
    seed: int,
    options: Options,
    view_checks: float,
) -> ComputerGame:
    """An all-computer game, step by step exactly as ``games.ai.play_out`` plays it,
    with the game's rules checked after every decision; at a share ``view_checks``
    of the decisions, every level's choice is asked again from the view of a state
    whose unknowns are scrambled, and must be the same (a policy decides from its
    view alone)."""
    game = hooks.game
    entry = hooks.entry
    policies = [entry.policy(level) for level in levels]
    order = random.Random(seed ^ 0x5EED)
    probe = random.Random(seed ^ 0xC0FFEE)
    state: GameState = game.setup(len(levels), options, seed)
    hooks.check_rules(state, None, [])
    decisions = checked = 0
    histories: list[list[Event]] = [[] for _ in levels]
    with context(f"{hooks.name}, levels {[str(v) for v in levels]}, seed {seed}, {options!r}"):
        while (result := game.result(state)) is None:
            assert decisions < MAX_STEPS, f"no end after {MAX_STEPS} decisions"
            seat = order.choice(game.awaiting(state))
            view = game.view(state, seat)
            seen = histories[seat]
            choice = policies[seat].choose(view, decision_rng(seed, state.step, seat), seen)
            if probe.random() < view_checks:
                check_decides_from_view(hooks, state, seat, view, seed, probe, seen)
                checked += 1
            new, events = game.apply(state, seat, choice)
            for event in events:
                for each in range(len(levels)):
                    if event.visible_to(each):
                        histories[each].append(event)
            hooks.check_rules(new, state, events)
            state = new
            decisions += 1
        check_result(state, result)
    return ComputerGame(result, decisions, checked)


def check_decides_from_view(
    hooks: Hooks,
    state: GameState,
    seat: Seat,
    view: Any,
    seed: int,
    rng: random.Random,
    history: Sequence[Event] = (),
) -> None:
    """Every level chooses the same from the view of a state whose unknowns are
    scrambled (and the seat's visible history). Each choice follows the view of its
    own state, as in a game: a policy that peeked at the state behind its view would
    choose differently."""
    game = hooks.game
    scrambled = hooks.scramble_unknown(state, seat, rng)
    for level in QUICK_LEVELS:
        policy = hooks.entry.policy(level)
        twin = game.view(scrambled, seat)
        assert twin == view, f"seat {seat}'s view depends on something it cannot know"
        again = policy.choose(twin, decision_rng(seed, state.step, seat), history)
        mine = policy.choose(game.view(state, seat), decision_rng(seed, state.step, seat), history)
        assert mine == again, f"{level} chose differently from the same view"


def check_matches_play_out(
    hooks: Hooks, levels: Sequence[Level], seed: int, options: Options, played: ComputerGame
) -> None:
    """``games.ai.play_out`` plays the same game as ``computer_game``."""
    policies = [hooks.entry.policy(level) for level in levels]
    playout = play_out(hooks.game, policies, seed, options, max_steps=MAX_STEPS)
    assert (playout.result, playout.decisions) == (played.result, played.decisions)
