"""Complots (the Coup family), with the Ambassador or the Inquisitor."""

from games.entry import GameEntry

from .ai import POLICIES
from .cards import ActionKind, Character, Variant
from .engine import GAME, Complots
from .models import ComplotsOptions, ComplotsState, ComplotsView
from .stats import bluff_stats

ENTRY = GameEntry(GAME, POLICIES, stats=bluff_stats)
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
