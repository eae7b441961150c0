"""Conspiracy (Abyss Universe): recruit Lords, pair keys for Locations, build a chamber."""

from games.entry import GameEntry

from .ai import POLICIES
from .cards import Colour, LocationId
from .engine import GAME, Conspiracy
from .models import ConspiracyOptions, ConspiracyState, ConspiracyView

ENTRY = GameEntry(GAME, POLICIES)
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
