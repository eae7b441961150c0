"""HARD computer players: information-set search over what the seat cannot see.

A HARD policy decides like NORMAL from the seat's view and visible history only,
but thinks ahead with the rules engine itself (determinized Monte Carlo, "PIMC"):

1. The game's ``Sampler`` builds a whole state consistent with everything the
   seat saw (its view and its history), the unknown cards dealt at random among
   the places they may be, weighted by what the others' claims suggest. It reads
   the view and the history only, never the real state (tests/games/ai_imports.py
   checks its imports as it checks a policy's).
2. Every legal choice is applied to that sampled state (a round), the seat's
   own following decisions of that turn are taken by the guide (the game's
   NORMAL), and the game is played on from there by a fast policy in every seat
   (the game's NORMAL, on the sampled state's views; a seat known to be a
   computer that decides from its view alone, such as EASY, as itself:
   ``facing``), with the same random numbers for every choice: choices are
   compared on the same cards and the same luck. A playout stops after
   ``horizon`` choices: a finished game scores its result for the seat (a win
   shared by ``k`` counts ``1/k``), an unfinished one the sampler's
   ``estimate``. After ``narrow_after`` rounds only the ``widest`` most
   promising choices go on.
3. The guide's choice (the game's NORMAL) is kept unless another beats it
   clearly: on the same sampled states, its average gain exceeds ``caution``
   standard errors (a few noisy playouts must not override a sound rule of
   thumb). Among the choices that do, the largest gain wins.

The search steps only states it built itself, so it uses ``apply_in_place``
(no copy per step). Its budget is ``simulations`` per decision with a wall-clock
cap ``budget_seconds``: below the cap the decision depends on the seed alone.
The guide's choice is tried first, so a decision cut short by the clock still
falls back on a sound choice. Where a game asks for it (``stops_at_deadline``), a
simulation still running at the decision's planned end stops there.

This is PIMC (perfect-information Monte Carlo): within one playout the sampled
cards decide, which overrates choices that would need to know them. The rollout
policies decide from their views, not from the sampled cards, which limits that.
"""

from __future__ import annotations

import copy
import gc
import math
import random
import statistics
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.ai import Level, Policy
from games.base import (
    Choice,
    Event,
    Game,
    GameState,
    Prompt,
    Result,
    Seat,
    View,
    copy_state,
)

StateT = TypeVar("StateT", bound=GameState)
ViewT = TypeVar("ViewT", bound=View)

Draw = Callable[[random.Random], StateT]
"""Deals one full state consistent with a view (and its history)."""


class Sampler(ABC, Generic[ViewT, StateT]):
    """A game's knowledge for search: states that agree with what a seat saw, and a
    guess of the outcome of an unfinished one."""

    @abstractmethod
    def prepare(self, view: ViewT, history: Sequence[Event]) -> Draw[StateT]:
        """Read the view and the history once; the result deals states on demand.
        Every dealt state's ``view(state, viewer)`` equals ``view``."""

    def sample(self, view: ViewT, history: Sequence[Event], rng: random.Random) -> StateT:
        """One state consistent with ``view`` and ``history``."""
        return self.prepare(view, history)(rng)

    @abstractmethod
    def estimate(self, state: StateT, seat: Seat) -> float:
        """The seat's expected share of the win (0-1) in an unfinished game."""


@dataclass(frozen=True)
class SearchSettings:
    budget_seconds: float = 1.0
    """Wall-clock cap of one decision, below the bot's COMPUTER_DELAY (1.5 s): no
    simulation starts that would, at the average length so far, end past it."""
    simulations: int = 4000
    """Simulations per decision, when the clock allows them."""
    horizon: int = 60
    """Choices played in a simulation before the sampler estimates the outcome."""
    narrow_after: int = 2
    """Rounds (one sampled state, every choice played on it) before only the most
    promising choices go on."""
    widest: int = 8
    """How many choices go on after ``narrow_after`` rounds."""
    caution: float = 2.0
    """How many standard errors another choice's average gain over the guide's
    choice must exceed to replace it (paired on the same sampled states)."""
    headroom: float = 0.0
    """Share of the budget kept free, for a last simulation longer than the average
    (0: a simulation starts whenever one of the average length would end in time)."""
    guide_remembers: bool = False
    """Whether the guide's choice is made with the seat's visible history (for a
    guide that reads it; the simulations' policies decide from views alone)."""


MIN_PAIRS = 3
"""Simulations a choice needs (each paired with the guide's) before it may win."""


def share_of(result: Result, seat: Seat) -> float:
    """The seat's part of a finished game's win: 1/k of a win shared by k."""
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def spread(values: Sequence[float], mean: float) -> float:
    """The population standard deviation of ``values`` about their ``mean``, in
    floats: ``statistics.pstdev`` computes in exact fractions, some 150 µs for 60
    values, and ``best`` took up to 6 ms of a 0.2 s decision at 4 players, after its
    last simulation."""
    return math.sqrt(statistics.fmean([(value - mean) ** 2 for value in values]))


def softmax(values: Sequence[float]) -> list[float]:
    """Chances in proportion to each value's exponential (the fitted logits' and the
    learned values' scores turned into every seat's chance to win)."""
    top = max(values)
    weights = [math.exp(value - top) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def softmax_share(values: Sequence[float], seat: Seat, scale: float) -> float:
    """The seat's share when each seat's chance grows as exp(value / scale)."""
    top = max(values)
    # The top taken off before the scale, as this always computed it: the cells of
    # the ledger were measured with these very bits.
    return softmax([(value - top) / scale for value in values])[seat]


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic garbage collection inside, and what lives at the end is frozen
    (``gc.freeze``) for the collections that follow: for a search whose decisions
    make garbage fast (Conspiracy's, Mascarade's).

    A simulation's states outlive many young collections, so full ones came often,
    and each traverses the long-lived heap: in Conspiracy (the engine's cached
    chamber views, NORMAL's memos) they took about half the simulations of a 0.2 s
    decision, and one, landing in a decision or when the collector resumed, took up
    to 0.27 s of CPU (the decisions over twice the budget); in Mascarade at 6 players,
    with the others' remembered deals, 25-45 ms each, some one every three
    decisions. The engines and the policies make no reference cycles (a collection
    after a game of HARD decisions finds none to free), so nothing is left for the
    collector to reclaim: objects still go away by their reference counts, frozen or
    not."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


class SearchPolicy(Policy[Any, Any], Generic[ViewT, StateT]):
    """Determinized Monte Carlo over the seat's legal choices (see the module)."""

    level = Level.HARD
    remembers = True
    clock: Callable[[], float] = staticmethod(time.perf_counter)
    """The clock of the budget (tests set a fake one)."""

    def __init__(
        self,
        game: Game[StateT, Any, Any, ViewT],
        sampler: Sampler[ViewT, StateT],
        rollout: Policy[Any, Any],
        settings: SearchSettings | None = None,
        guide: Policy[Any, Any] | None = None,
        undoing: tuple[type[Choice], ...] = (),
    ) -> None:
        self.game = game
        self.sampler = sampler
        self.rollout = rollout
        """Plays every seat in the simulations (fast)."""
        self.guide = guide or rollout
        """Proposes the choice the search keeps unless another is clearly better."""
        self.settings = settings or SearchSettings()
        self.undoing = undoing
        """Choices that take a decision back (a cancel): tried only when the guide
        makes them, else the search could take back the guide's choice forever."""
        self.seated: Mapping[Seat, Policy[Any, Any]] = {}
        """Seats whose known player the simulations play instead of ``rollout``
        (``facing``)."""

    def with_settings(self, settings: SearchSettings) -> SearchPolicy[ViewT, StateT]:
        """The same player with another budget (benches, tests, a table's setting)."""
        player = copy.copy(self)
        player.settings = settings
        return player

    def facing(self, players: Mapping[Seat, Policy[Any, Any]]) -> SearchPolicy[ViewT, StateT]:
        """The same player at a table whose other seats are known to be these
        computer players (a computer's level is public at the table). The
        simulations play each such seat as that very player when it decides from
        its view alone (the simulations have no history to give it); every other
        seat (people, players that remember) stays ``rollout``. Not the viewer's
        own seat: its later decisions in a simulation are ``rollout``'s too."""
        player = copy.copy(self)
        # A search remembers too (it reads the history): it stays ``rollout``.
        player.seated = {seat: policy for seat, policy in players.items() if not policy.remembers}
        return player

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return self.recall(view, prompt, rng, ())

    def recall(
        self, view: Any, prompt: Prompt[Any], rng: random.Random, history: Sequence[Event]
    ) -> Any:
        clock = self.clock
        deadline = clock() + self.settings.budget_seconds * (1 - self.settings.headroom)
        stop_at = deadline if self.stops_at_deadline(view) else None
        seat = view.viewer
        assert seat is not None
        draw = self.sampler.prepare(view, history)
        remembered = history if self.settings.guide_remembers else ()
        choices = self.candidates(view, prompt, rng, remembered)
        if len(choices) == 1:
            return choices[0]
        results: list[list[float]] = [[] for _ in choices]
        active = list(range(len(choices)))
        done = rounds = 0
        started = clock()

        def no_time_for_another() -> bool:
            """Whether one more simulation of the average length would overrun."""
            now = clock()
            return done > 0 and now + (now - started) / done > deadline

        # A round's first check comes before its draw: a state drawn only to stop
        # would be time spent for nothing, past the planned end.
        while done < self.settings.simulations and not no_time_for_another():
            sampled = draw(rng)
            seed = rng.getrandbits(64)
            for position, index in enumerate(active):
                if position and no_time_for_another():
                    return choices[self.best(results, active)]
                state = copy_state(sampled)
                value = self.simulate(state, seat, choices[index], random.Random(seed), stop_at)
                results[index].append(value)
                done += 1
            rounds += 1
            if rounds == self.settings.narrow_after:
                active = self.narrowed(results)
        return choices[self.best(results, active)]

    def candidates(
        self,
        view: Any,
        prompt: Prompt[Any],
        rng: random.Random,
        history: Sequence[Event] = (),
    ) -> list[Any]:
        """The legal choices, the guide's own first (the one kept unless another is
        clearly better)."""
        usual = self.guide.choose(view, random.Random(rng.random()), history)
        others = (c for c in prompt.choices if c != usual and not isinstance(c, self.undoing))
        return [usual, *others]

    def narrowed(self, results: list[list[float]]) -> list[int]:
        """The most promising choices (and the guide's), to share the rest of the
        budget when there are many."""
        ranked = sorted(range(len(results)), key=lambda i: -statistics.fmean(results[i]))
        return sorted({0, *ranked[: self.settings.widest]})

    def best(self, results: list[list[float]], active: list[int]) -> int:
        """The guide's choice (index 0) unless another still in the running beats it
        clearly: compared on the same sampled states and luck (paired), its average
        gain must exceed ``caution`` standard errors. Among those, the largest gain."""
        usual = results[0]
        best, best_gain = 0, 0.0
        for index in (i for i in active if i):
            gains = [mine - theirs for mine, theirs in zip(results[index], usual, strict=False)]
            if len(gains) < MIN_PAIRS:
                continue
            gain = statistics.fmean(gains)
            error = spread(gains, gain) / math.sqrt(len(gains))
            if gain > self.settings.caution * error + 1e-9 and gain > best_gain:
                best, best_gain = index, gain
        return best

    def stops_at_deadline(self, view: Any) -> bool:
        """Whether a simulation still running at the decision's planned end (the
        budget less its ``headroom``) stops there, scored as one cut at its horizon.

        The loop starts one more simulation while one of the average length fits,
        so a last simulation much longer than the average ends past the budget. A
        game whose simulations vary that much at some table sizes turns this on
        there (a larger ``headroom`` alone costs simulations in every decision).
        Off by default: each cell of the ledger was measured with the stop where it
        is."""
        return False

    def out_of_time(self, stop_at: float | None) -> bool:
        """Whether a simulation must stop now (``stops_at_deadline``)."""
        return stop_at is not None and self.clock() > stop_at

    def horizon(self, state: StateT) -> int:
        """Choices a simulation plays before the estimate (a game may scale it)."""
        return self.settings.horizon

    def simulated(self, actor: Seat, seat: Seat) -> Policy[Any, Any]:
        """Who plays ``actor`` in ``seat``'s simulations (past the guide's part): its
        known player (``facing``), else ``rollout``."""
        return self.rollout if actor == seat else self.seated.get(actor, self.rollout)

    def simulate(
        self,
        state: StateT,
        seat: Seat,
        choice: Any,
        rng: random.Random,
        stop_at: float | None = None,
    ) -> float:
        """Play ``choice`` on a sampled state, the seat's next decisions of the same
        moment (the rest of its turn: targets, payment) by the guide, then the rollout
        policy in every seat, until ``horizon`` choices or the clock's ``stop_at``."""
        game = self.game
        game.apply_in_place(state, seat, choice)
        finishing = True
        for _ in range(self.horizon(state)):
            result = game.result(state)
            if result is not None:
                return share_of(result, seat)
            if self.out_of_time(stop_at):
                break
            awaiting = game.awaiting(state)
            actor = awaiting[0] if len(awaiting) == 1 else rng.choice(awaiting)
            finishing = finishing and actor == seat
            policy = self.guide if finishing else self.simulated(actor, seat)
            move = policy.choose(game.view(state, actor), rng)
            game.apply_in_place(state, actor, move)
        result = game.result(state)
        if result is not None:
            return share_of(result, seat)
        return self.sampler.estimate(state, seat)
