"""The Bloody Inn: greedy innkeepers bribe, kill and bury their guests (1-4 players)."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import POLICIES
from .cards import ActionKind, Card, GuestType
from .engine import GAME, BloodyInn
from .models import BloodyInnOptions, BloodyInnState, BloodyInnView, Cancel, Length
from .sampler import SAMPLER

HARD = SearchPolicy(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.EASY],
    settings=SearchSettings(horizon=60),
    guide=POLICIES[Level.NORMAL],
    undoing=(Cancel,),
)
"""Searches over sampled hidden cards from NORMAL's choice, playing on with EASY
(games.search)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD})
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "ActionKind",
    "BloodyInn",
    "BloodyInnOptions",
    "BloodyInnState",
    "BloodyInnView",
    "Card",
    "GuestType",
    "Length",
]
