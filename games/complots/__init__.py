"""Complots (the Coup family), with the Ambassador or the Inquisitor."""

from games.ai import Level
from games.entry import GameEntry
from games.search import SearchPolicy, SearchSettings

from .ai import POLICIES
from .cards import ActionKind, Character, Variant
from .engine import GAME, Complots
from .models import ComplotsOptions, ComplotsState, ComplotsView
from .sampler import SAMPLER
from .stats import bluff_stats

HARD = SearchPolicy(
    GAME,
    SAMPLER,
    rollout=POLICIES[Level.NORMAL],
    # The headroom: without it a decision's last simulation ran past the budget in
    # about half the decisions (200 games at 2 players, 0.2 s: p99 202 ms, max 204).
    settings=SearchSettings(horizon=24, guide_remembers=True, headroom=0.05),
    guide=POLICIES[Level.NORMAL],
)
"""Searches over sampled hidden cards from NORMAL's choice (made with the seat's
history), playing on with NORMAL (games.search)."""

ENTRY = GameEntry(GAME, {**POLICIES, Level.HARD: HARD}, stats=bluff_stats)
"""This game's registration (games.registry)."""

__all__ = [
    "ENTRY",
    "GAME",
    "ActionKind",
    "Character",
    "Complots",
    "ComplotsOptions",
    "ComplotsState",
    "ComplotsView",
    "Variant",
]
