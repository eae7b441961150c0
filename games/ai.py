"""Computer players: the policy protocol and its levels.

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
from enum import StrEnum
from typing import Any, Generic, TypeVar

from games.base import Choice, Prompt, Seat, View

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
