"""Mascarade (2013 edition): 2 to 13 players, swapped masks and bluffed powers."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import POLICIES
from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeOptions, MascaradeState, MascaradeView
from .sampler import SAMPLER

HARD = SearchPolicy(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.NORMAL],
    settings=SearchSettings(horizon=40),
    guide=POLICIES[Level.NORMAL],
)
"""Searches over sampled hidden cards from NORMAL's choice, playing on with NORMAL
(games.search)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "Character",
    "Mascarade",
    "MascaradeOptions",
    "MascaradeState",
    "MascaradeView",
]
