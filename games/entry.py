"""What registers a game: its rules engine and its computer players.

Each game package exports ``ENTRY = GameEntry(GAME, POLICIES)``;
``games.registry`` lists the entries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.ai import RANDOM, Level, Policy
from games.base import Game

AnyGame = Game[Any, Any, Any, Any]


@dataclass(frozen=True)
class GameEntry:
    """One game: its engine and its computer players (one policy per level above
    ``Level.RANDOM``, which every game shares)."""

    game: AnyGame
    policies: Mapping[Level, Policy[Any, Any]]

    def __post_init__(self) -> None:
        missing = {level for level in Level if level is not Level.RANDOM} - set(self.policies)
        if missing:
            raise ValueError(f"{self.game.name} has no policy for {sorted(missing)}")

    @property
    def name(self) -> str:
        return self.game.name

    def policy(self, level: Level) -> Policy[Any, Any]:
        return RANDOM if level is Level.RANDOM else self.policies[level]
