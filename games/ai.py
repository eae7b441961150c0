"""Computer players: the policy protocol, its levels, and an all-computer runner.

A policy sees exactly what a person in that seat sees: the game's
``view(state, seat)``, whose ``prompt`` lists the seat's legal choices. It
never receives the state, so it cannot use a hidden card. Policies are
stateless (everything they remember is in the view), which is what lets a
computer seat survive a restart with nothing stored.

Each game's policies live in ``games/<game>/ai.py``, which exposes
``POLICIES: dict[Level, Policy]`` for the levels above ``RANDOM``; the game's
registration (``games.registry``) carries them, and ``policy_for`` finds them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from games.base import Choice, Game, GameState, Prompt, Result, Seat, View

ViewT = TypeVar("ViewT", bound=View)
ChoiceT = TypeVar("ChoiceT", bound=Choice)


class Level(StrEnum):
    """How well a computer plays. ``RANDOM`` is the baseline for tests and benches."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"


class NotAsked(Exception):
    """The view has no prompt: its seat is not being asked anything."""


class IllegalDecision(Exception):
    """A policy returned a choice its prompt does not offer (a policy bug)."""


class Policy(ABC, Generic[ViewT, ChoiceT]):
    """Chooses one of the viewer's legal choices from its view alone."""

    level: Level

    def choose(self, view: ViewT, rng: random.Random) -> ChoiceT:
        prompt: Prompt[ChoiceT] | None = view.prompt
        if prompt is None:
            raise NotAsked
        if len(prompt.choices) == 1:
            return prompt.choices[0]
        choice = self.decide(view, prompt, rng)
        if choice not in prompt.choices:
            raise IllegalDecision(f"{type(self).__name__} chose {choice!r}")
        return choice

    @abstractmethod
    def decide(self, view: ViewT, prompt: Prompt[ChoiceT], rng: random.Random) -> ChoiceT:
        """One of ``prompt.choices`` (there are at least two)."""


class RandomPolicy(Policy[Any, Any]):
    """Uniformly random legal choices: the yardstick the other levels must beat."""

    level = Level.RANDOM

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return rng.choice(prompt.choices)


RANDOM = RandomPolicy()


def decision_rng(seed: int, step: int, seat: Seat) -> random.Random:
    """The randomness of one decision: reproducible from the table, its step and seat."""
    return random.Random(f"{seed}:{step}:{seat}")


@dataclass
class Playout:
    """One finished all-computer game."""

    result: Result
    state: GameState
    decisions: int
    per_seat_decisions: list[int] = field(default_factory=list)


class TooLong(Exception):
    """A playout exceeded its step budget (an engine or policy loop)."""


def play_out(
    game: Game[Any, Any, Any, Any],
    policies: Sequence[Policy[Any, Any]],
    seed: int,
    options: Any = None,
    max_steps: int = 20_000,
) -> Playout:
    """Plays a whole game where seat ``i`` is ``policies[i]``.

    When several seats are asked at once (a reaction window), a seeded random
    one of them answers first, as people would in no fixed order.
    """
    order = random.Random(seed ^ 0x5EED)
    state = game.setup(len(policies), options or game.options_model(), seed)
    decisions = 0
    per_seat = [0] * len(policies)
    while (result := game.result(state)) is None:
        if decisions >= max_steps:
            raise TooLong(f"{game.name} seed {seed}: no end after {max_steps} decisions")
        seat = order.choice(game.awaiting(state))
        view = game.view(state, seat)
        rng = decision_rng(seed, state.step, seat)
        choice = policies[seat].choose(view, rng)
        state, _ = game.apply(state, seat, choice)
        decisions += 1
        per_seat[seat] += 1
    return Playout(result, state, decisions, per_seat)


def hero_share(
    game: Game[Any, Any, Any, Any],
    hero: Policy[Any, Any],
    others: Policy[Any, Any],
    players: int,
    games: int,
    seed: int,
    options: Callable[[int], Any] | None = None,
) -> float:
    """The hero's share of wins against ``others`` in every other seat: game ``i``
    (seed ``seed + i``, options ``options(i)``) seats the hero at ``i mod players``;
    a shared win counts its part."""
    won = 0.0
    for index in range(games):
        seat = index % players
        seats = [others] * players
        seats[seat] = hero
        table_options = options(index) if options is not None else None
        winners = play_out(game, seats, seed + index, table_options).result.winners
        if seat in winners:
            won += 1 / len(winners)
    return won / games
