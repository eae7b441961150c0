"""Conspiracy (Abyss Universe): recruit Lords, pair keys for Locations, build a chamber."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import POLICIES
from .cards import Colour, LocationId
from .engine import GAME, Conspiracy
from .models import ConspiracyOptions, ConspiracyState, ConspiracyView
from .sampler import SAMPLER

HARD = SearchPolicy(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.EASY],
    settings=SearchSettings(horizon=30),
    guide=POLICIES[Level.NORMAL],
)
"""Searches over sampled hidden cards from NORMAL's choice, playing on with EASY
(games.search)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "Colour",
    "Conspiracy",
    "ConspiracyOptions",
    "ConspiracyState",
    "ConspiracyView",
    "LocationId",
]
