"""Conspiracy (Abyss Universe): recruit Lords, pair keys for Locations, build a chamber."""

from .cards import Colour, LocationId
from .engine import GAME, Conspiracy
from .models import ConspiracyOptions, ConspiracyState, ConspiracyView

__all__ = [
    "GAME",
    "Colour",
    "Conspiracy",
    "ConspiracyOptions",
    "ConspiracyState",
    "ConspiracyView",
    "LocationId",
]
