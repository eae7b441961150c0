"""What registers a game: its rules engine and its computer players.

Each game package exports ``ENTRY = GameEntry(GAME, POLICIES)``;
``games.registry`` lists the entries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.ai import RANDOM, Level, Policy
from games.base import Event, Game, GameState

AnyGame = Game[Any, Any, Any, Any]

Step = tuple[GameState, Sequence[Event]]
"""One step of a game: the state before it, and the events it made."""
SeatStats = dict[str, int]
"""One seat's counters of a game (their names are the game's own)."""
StatsOf = Callable[[Sequence[Step], int], list[SeatStats]]
"""A game's statistics of a game that is over: each seat's counters, from the
game's steps and its number of seats."""


@dataclass(frozen=True)
class GameEntry:
    """One game: its engine and its computer players (one policy per level above
    ``Level.RANDOM``, which every game shares)."""

    game: AnyGame
    policies: Mapping[Level, Policy[Any, Any]]
    stats: StatsOf | None = None
    """The game's own statistics of a finished game (None: it keeps none)."""

    def __post_init__(self) -> None:
        missing = {level for level in Level if level is not Level.RANDOM} - set(self.policies)
        if missing:
            raise ValueError(f"{self.game.name} has no policy for {sorted(missing)}")

    @property
    def name(self) -> str:
        return self.game.name

    def policy(self, level: Level) -> Policy[Any, Any]:
        return RANDOM if level is Level.RANDOM else self.policies[level]
