"""Computer players: the policy protocol and its levels.

A policy sees exactly what a person in that seat sees: the game's
``view(state, seat)``, whose ``prompt`` lists the seat's legal choices, and
optionally the seat's visible history (the events that seat was shown, in
order: ``Event.visible_to(seat)``). It never receives the state, so it cannot
use a hidden card. Policies are stateless (what they remember is in the view
and the history, both rebuilt from the stored game), which is what lets a
computer seat survive a restart with nothing stored.

Each game's policies live in ``games/<game>/ai.py``, which exposes
``POLICIES: dict[Level, Policy]`` for EASY and NORMAL; HARD is the generic search
of ``games/search.py`` with the game's sampler (``games/<game>/sampler.py``), built
in the game's package. The game's registration (``games.registry``) carries them,
and ``policy_for`` finds them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Generic, TypeVar

from games.base import Choice, Event, Prompt, Seat, View

ViewT = TypeVar("ViewT", bound=View)
ChoiceT = TypeVar("ChoiceT", bound=Choice)


class Level(StrEnum):
    """How well a computer plays. ``RANDOM`` is the baseline for tests and benches."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    """Searches: plays on sampled hidden cards with the engine (games/search.py)."""


QUICK_LEVELS: tuple[Level, ...] = (Level.RANDOM, Level.EASY, Level.NORMAL)
"""The levels that decide at once from rules of thumb; HARD searches for up to its
time budget per decision (too slow for tests that play many games)."""


class NotAsked(Exception):
    """The view has no prompt: its seat is not being asked anything."""


class IllegalDecision(Exception):
    """A policy returned a choice its prompt does not offer (a policy bug)."""


class Policy(ABC, Generic[ViewT, ChoiceT]):
    """Chooses one of the viewer's legal choices from its view alone."""

    level: Level
    remembers: bool = False
    """Whether it reads the seat's visible history: the bot then loads it from the
    stored events for each of its decisions (the others are spared that read)."""

    def choose(self, view: ViewT, rng: random.Random, history: Sequence[Event] = ()) -> ChoiceT:
        """One of the view's legal choices. ``history``: the events the viewer was
        shown so far, in order (empty: the policy decides from the view alone)."""
        prompt: Prompt[ChoiceT] | None = view.prompt
        if prompt is None:
            raise NotAsked
        if len(prompt.choices) == 1:
            return prompt.choices[0]
        choice = self.recall(view, prompt, rng, history)
        if choice not in prompt.choices:
            raise IllegalDecision(f"{type(self).__name__} chose {choice!r}")
        return choice

    def recall(
        self, view: ViewT, prompt: Prompt[ChoiceT], rng: random.Random, history: Sequence[Event]
    ) -> ChoiceT:
        """``decide`` with the viewer's history; policies that use it override this."""
        return self.decide(view, prompt, rng)

    @abstractmethod
    def decide(self, view: ViewT, prompt: Prompt[ChoiceT], rng: random.Random) -> ChoiceT:
        """One of ``prompt.choices`` (there are at least two)."""


class RandomPolicy(Policy[Any, Any]):
    """Uniformly random legal choices: the yardstick the other levels must beat."""

    level = Level.RANDOM

    def decide(self, view: Any, prompt: Prompt[Any], rng: random.Random) -> Any:
        return rng.choice(prompt.choices)


RANDOM = RandomPolicy()


def visible_history(events: Sequence[Event], seat: Seat) -> list[Event]:
    """The events ``seat`` was shown, in order: what its policy may remember."""
    return [event for event in events if event.visible_to(seat)]


def decision_rng(seed: int, step: int, seat: Seat) -> random.Random:
    """The randomness of one decision: reproducible from the table, its step and seat."""
    return random.Random(f"{seed}:{step}:{seat}")
