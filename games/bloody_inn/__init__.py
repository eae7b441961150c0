"""The Bloody Inn: greedy innkeepers bribe, kill and bury their guests (1-4 players)."""

from games.entry import GameEntry

from .ai import POLICIES
from .cards import ActionKind, Card, GuestType
from .engine import GAME, BloodyInn
from .models import BloodyInnOptions, BloodyInnState, BloodyInnView, Length

ENTRY = GameEntry(GAME, POLICIES)
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
