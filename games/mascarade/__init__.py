"""Mascarade (2013 edition): 2 to 13 players, swapped masks and bluffed powers."""

from .cards import Character
from .engine import GAME, Mascarade
from .models import MascaradeOptions, MascaradeState, MascaradeView

__all__ = [
    "GAME",
    "Character",
    "Mascarade",
    "MascaradeOptions",
    "MascaradeState",
    "MascaradeView",
]
