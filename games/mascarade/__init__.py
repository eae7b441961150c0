"""Mascarade (2013 edition): 2 to 13 players, swapped masks and bluffed powers."""

from games.entry import GameEntry

from .ai import POLICIES
from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeOptions, MascaradeState, MascaradeView

ENTRY = GameEntry(GAME, POLICIES)
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
